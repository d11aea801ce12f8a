/**
 * The totals of what a preview tab filters, per currency, as the API adds them up (never added
 * here): documents, revenue and net revenue of the drafts, total and outstanding of the invoices;
 * and on the Invoices tab how many are in each state (a click filters by it).
 * Drawn by components/currency-totals.tsx.
 */
import type { InvoiceList, InvoiceState } from '@backoffice/core/invoices';
import { useTranslation } from 'react-i18next';
import { CurrencyTotals, type TotalsFigure } from '../../components/currency-totals.tsx';
import { DOCUMENT_STATES, type PreviewTab } from './invoices-api.ts';

export interface InvoiceTotalsProps {
  tab: PreviewTab;
  list: Pick<InvoiceList, 'totals' | 'states'>;
  activeStates: readonly InvoiceState[];
  onState: (state: InvoiceState) => void;
}

export function InvoiceTotals({ tab, list, activeStates, onState }: InvoiceTotalsProps) {
  const { t } = useTranslation();
  return (
    <CurrencyTotals<InvoiceState>
      label={t('invoice.ui.totals')}
      cards={list.totals.map((c) => {
        const figure = (column: string, amount: string, id: string): TotalsFigure => ({
          label: t(`invoice.col.${column}`),
          amount,
          currency: c.currency,
          testId: `invoice-total-${id}-${c.currency}`,
        });
        const total = figure('total', c.total, 'total');
        return {
          key: c.currency,
          title: c.currency,
          aside: t('invoice.ui.documents', { count: c.count }),
          figures:
            tab === 'drafts'
              ? [
                  figure('revenue', c.revenue, 'revenue'),
                  figure('new_revenue_net', c.new_revenue_net, 'net'),
                  total,
                ]
              : tab === 'invoices'
                ? [total, figure('outstanding', c.outstanding, 'outstanding')]
                : [total],
        };
      })}
      states={
        tab === 'invoices'
          ? {
              label: t('invoice.ui.per_state'),
              states: DOCUMENT_STATES,
              count: (s) => list.states[s] ?? 0,
              text: (s) => t(`invoice.state.${s}`),
              active: activeStates,
              onToggle: onState,
            }
          : undefined
      }
      testId="invoice"
    />
  );
}
