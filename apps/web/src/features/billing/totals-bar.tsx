/**
 * A list's totals: per currency (rows, gross, paid, pending) for what is filtered, the same in
 * EUR with the month's exchange rates, or a warning naming the currencies without a rate and a way
 * to set them; and how many of the month's rows are in each state (a click filters by it).
 */
import { BILLING_STATES, type BillingState } from '@backoffice/core/billing';
import type { BillingTotals } from '@backoffice/core/billing-api';
import { Alert, Button, theme as antdTheme } from 'antd';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';

export interface TotalsBarProps {
  totals: BillingTotals;
  activeStates: readonly BillingState[];
  onState: (state: BillingState) => void;
  onRates: () => void;
  canSetRates: boolean;
}

export function TotalsBar({ totals, activeStates, onState, onRates, canSetRates }: TotalsBarProps) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const figure = (label: string, amount: string, currency: string, testId?: string) => (
    <div className="bo-bill-total__figure">
      <span className="bo-bill-total__label" style={{ color: token.colorTextSecondary }}>
        {label}
      </span>
      <strong data-testid={testId}>
        <MoneyCell amount={amount} currency={currency} />
      </strong>
    </div>
  );
  return (
    <section className="bo-bill-totals" aria-label={t('billing.ui.totals')} data-testid="billing-totals">
      <div className="bo-bill-totals__row">
        {totals.by_currency.map((c) => (
          <div
            key={c.currency}
            className="bo-bill-total"
            style={{ borderColor: token.colorBorderSecondary, background: token.colorBgContainer }}
            data-testid={`billing-total-${c.currency}`}
          >
            <div className="bo-bill-total__head">
              <strong>{c.currency}</strong>
              <span style={{ color: token.colorTextSecondary }}>{t('resource.rows', { count: c.rows })}</span>
            </div>
            {figure(t('billing.col.revenue_gross'), c.revenue_gross, c.currency)}
            {figure(t('billing.col.paid_revenue'), c.paid_revenue, c.currency)}
            {figure(t('billing.col.pending'), c.pending, c.currency)}
          </div>
        ))}
        {totals.eur && totals.by_currency.some((c) => c.currency !== 'EUR') ? (
          <div
            className="bo-bill-total"
            style={{ borderColor: token.colorBorderSecondary, background: token.colorBgContainer }}
            data-testid="billing-total-eur"
          >
            <div className="bo-bill-total__head">
              <strong>{t('billing.ui.in_eur')}</strong>
              {canSetRates ? (
                <Button
                  type="link"
                  size="small"
                  onClick={onRates}
                  className="bo-bill-linkish"
                  data-testid="billing-rates-open"
                >
                  {t('billing.ui.rates')}
                </Button>
              ) : null}
            </div>
            {figure(t('billing.col.revenue_gross'), totals.eur.revenue_gross, 'EUR')}
            {figure(t('billing.col.paid_revenue'), totals.eur.paid_revenue, 'EUR')}
            {figure(t('billing.col.pending'), totals.eur.pending, 'EUR')}
          </div>
        ) : null}
      </div>
      {totals.missing_rates.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          className="bo-bill-gap"
          title={t('billing.ui.missing_rates', { currencies: totals.missing_rates.join(', ') })}
          action={
            canSetRates ? (
              <Button size="small" onClick={onRates} data-testid="billing-rates-missing">
                {t('billing.ui.set_rates')}
              </Button>
            ) : undefined
          }
          data-testid="billing-missing-rates"
        />
      ) : null}
      <div className="bo-bill-states" role="group" aria-label={t('billing.ui.rows_per_state')}>
        {BILLING_STATES.map((s) => (
          <Button
            key={s}
            size="small"
            type={activeStates.includes(s) ? 'primary' : 'default'}
            aria-pressed={activeStates.includes(s)}
            onClick={() => onState(s)}
            data-testid={`billing-state-count-${s}`}
          >
            {t(`billing.state.${s}`)}: {totals.states[s]}
          </Button>
        ))}
      </div>
    </section>
  );
}
