/**
 * The totals of what a preview tab filters, per currency, as the API adds them up (never added
 * here): documents, revenue and net revenue of the drafts, total and outstanding of the invoices;
 * and on the Invoices tab how many are in each state (a click filters by it).
 */
import type { InvoiceList, InvoiceState } from '@backoffice/core/invoices';
import { Button, theme as antdTheme } from 'antd';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';
import { DOCUMENT_STATES, type PreviewTab } from './invoices-api.ts';

export interface InvoiceTotalsProps {
  tab: PreviewTab;
  list: Pick<InvoiceList, 'totals' | 'states'>;
  activeStates: readonly InvoiceState[];
  onState: (state: InvoiceState) => void;
}

export function InvoiceTotals({ tab, list, activeStates, onState }: InvoiceTotalsProps) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const figure = (label: string, amount: string, currency: string, testId: string) => (
    <div className="bo-inv-total__figure">
      <span style={{ color: token.colorTextSecondary }}>{label}</span>
      <strong data-testid={testId}>
        <MoneyCell amount={amount} currency={currency} />
      </strong>
    </div>
  );
  return (
    <section className="bo-inv-totals" aria-label={t('invoice.ui.totals')} data-testid="invoice-totals">
      <div className="bo-inv-totals__row">
        {list.totals.map((c) => (
          <div
            key={c.currency}
            className="bo-inv-total"
            style={{ borderColor: token.colorBorderSecondary, background: token.colorBgContainer }}
            data-testid={`invoice-total-${c.currency}`}
          >
            <div className="bo-inv-total__head">
              <strong>{c.currency}</strong>
              <span style={{ color: token.colorTextSecondary }}>
                {t('invoice.ui.documents', { count: c.count })}
              </span>
            </div>
            {tab === 'drafts' ? (
              <>
                {figure(
                  t('invoice.col.revenue'),
                  c.revenue,
                  c.currency,
                  `invoice-total-revenue-${c.currency}`,
                )}
                {figure(
                  t('invoice.col.new_revenue_net'),
                  c.new_revenue_net,
                  c.currency,
                  `invoice-total-net-${c.currency}`,
                )}
                {figure(t('invoice.col.total'), c.total, c.currency, `invoice-total-total-${c.currency}`)}
              </>
            ) : (
              <>
                {figure(t('invoice.col.total'), c.total, c.currency, `invoice-total-total-${c.currency}`)}
                {tab === 'invoices'
                  ? figure(
                      t('invoice.col.outstanding'),
                      c.outstanding,
                      c.currency,
                      `invoice-total-outstanding-${c.currency}`,
                    )
                  : null}
              </>
            )}
          </div>
        ))}
      </div>
      {tab === 'invoices' ? (
        <div className="bo-inv-states" role="group" aria-label={t('invoice.ui.per_state')}>
          {DOCUMENT_STATES.map((s) => (
            <Button
              key={s}
              size="small"
              type={activeStates.includes(s) ? 'primary' : 'default'}
              aria-pressed={activeStates.includes(s)}
              onClick={() => onState(s)}
              data-testid={`invoice-state-count-${s}`}
            >
              {t(`invoice.state.${s}`)}: {list.states[s] ?? 0}
            </Button>
          ))}
        </div>
      ) : null}
    </section>
  );
}
