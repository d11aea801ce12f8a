/**
 * A list's totals: per currency (rows, gross, paid, pending) for what is filtered, the same in
 * EUR with the month's exchange rates, or a warning naming the currencies without a rate and a way
 * to set them; and how many of the month's rows are in each state (a click filters by it).
 */
import { BILLING_STATES, type BillingState } from '@backoffice/core/billing';
import type { BillingTotals } from '@backoffice/core/billing-api';
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { CurrencyTotals, type TotalsCard } from '../../components/currency-totals.tsx';

export interface TotalsBarProps {
  totals: BillingTotals;
  activeStates: readonly BillingState[];
  onState: (state: BillingState) => void;
  onRates: () => void;
  canSetRates: boolean;
}

export function TotalsBar({ totals, activeStates, onState, onRates, canSetRates }: TotalsBarProps) {
  const { t } = useTranslation();
  const figures = (f: { revenue_gross: string; paid_revenue: string; pending: string }, currency: string) => [
    { label: t('billing.col.revenue_gross'), amount: f.revenue_gross, currency },
    { label: t('billing.col.paid_revenue'), amount: f.paid_revenue, currency },
    { label: t('billing.col.pending'), amount: f.pending, currency },
  ];
  const cards: TotalsCard[] = totals.by_currency.map((c) => ({
    key: c.currency,
    title: c.currency,
    aside: t('resource.rows', { count: c.rows }),
    figures: figures(c, c.currency),
  }));
  if (totals.eur && totals.by_currency.some((c) => c.currency !== 'EUR'))
    cards.push({
      key: 'eur',
      title: t('billing.ui.in_eur'),
      aside: canSetRates ? (
        <Button
          type="link"
          size="small"
          onClick={onRates}
          className="bo-bill-linkish"
          data-testid="billing-rates-open"
        >
          {t('billing.ui.rates')}
        </Button>
      ) : null,
      figures: figures(totals.eur, 'EUR'),
    });
  return (
    <CurrencyTotals<BillingState>
      label={t('billing.ui.totals')}
      cards={cards}
      states={{
        label: t('billing.ui.rows_per_state'),
        states: BILLING_STATES,
        count: (s) => totals.states[s],
        text: (s) => t(`billing.state.${s}`),
        active: activeStates,
        onToggle: onState,
      }}
      testId="billing"
    >
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
    </CurrencyTotals>
  );
}
