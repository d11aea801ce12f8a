/**
 * The columns of a billing list (spec 3's fields: revenue_gross, revenue per product with its
 * currency, paid_revenue, received_payment_date, document_id, min_amount, payment_terms,
 * demand_partners, description, and the state, payment badge, due date and margin), which ones
 * each person shows by default (the chooser and its memory: components/column-chooser.tsx).
 */
import { BILLING_SORTS, type BillingRowDto } from '@backoffice/core/billing-api';
import { StatusTag } from '../../resources/resource-cells.tsx';
import type { ReactNode } from 'react';
import type { DataColumn } from '../../components/data-table.tsx';
import { MoneyCell } from '../../components/money-cell.tsx';
import {
  BadgeTag,
  CarriedInCell,
  CounterpartyCell,
  DueCell,
  MarginCell,
  MinimumCell,
  OpenRowButton,
  StateTag,
} from './row-cells.tsx';

export const COLUMN_KEYS = [
  'counterparty',
  'product',
  'state',
  'currency',
  'revenue_ours',
  'revenue_network',
  'carried_in',
  'revenue_gross',
  'paid_revenue',
  'pending',
  'badge',
  'margin_pct',
  'due_date',
  'received_payment_date',
  'document_id',
  'min_amount',
  'payment_terms',
  'demand_partners',
  'description',
] as const;
export type ColumnKey = (typeof COLUMN_KEYS)[number];

export const DEFAULT_VISIBLE: readonly ColumnKey[] = [
  'counterparty',
  'product',
  'state',
  'revenue_ours',
  'revenue_network',
  'carried_in',
  'revenue_gross',
  'paid_revenue',
  'pending',
  'badge',
  'margin_pct',
  'due_date',
];
/** The column that opens a row: never hidden. */
export const REQUIRED: readonly ColumnKey[] = ['counterparty'];
/** Columns the API sorts by. */
const SORTABLE: ReadonlySet<string> = new Set(BILLING_SORTS);
const MONEY = new Set<ColumnKey>(['revenue_ours', 'revenue_gross', 'paid_revenue', 'pending']);

type Translate = (key: string, params?: Record<string, string | number>) => string;

/** "Net 30 days" for net30; other terms as they are written. */
export function termsText(terms: string, t: Translate): string {
  const days = /^net(\d+)$/.exec(terms)?.[1];
  return days ? t('billing.ui.terms_days', { days }) : terms;
}

/** A column's cell. */
export function cellOf(key: ColumnKey, r: BillingRowDto, t: Translate): ReactNode {
  if (MONEY.has(key)) return <MoneyCell amount={r[key as 'revenue_gross']} currency={r.currency} />;
  switch (key) {
    case 'counterparty':
      return <CounterpartyCell counterparty={r.counterparty} />;
    case 'product':
      return r.product;
    case 'currency':
      return r.currency;
    case 'revenue_network':
      return r.revenue_network === null ? (
        <span className="bo-bill-muted">{t('billing.ui.ours')}</span>
      ) : (
        <>
          <MoneyCell amount={r.revenue_network} currency={r.currency} />
          {r.revenue_source === 'manual' ? (
            <span title={t('billing.revenue_source.manual_help')} className="bo-bill-manual">
              <StatusTag tone="info" testId={`billing-manual-${r.id}`}>
                {t('billing.revenue_source.manual')}
              </StatusTag>
            </span>
          ) : null}
        </>
      );
    case 'carried_in':
      return <CarriedInCell row={r} />;
    case 'badge':
      return <BadgeTag badge={r.badge} overdue={r.overdue} testId={`billing-badge-${r.id}`} />;
    case 'received_payment_date':
      return r.received_payment_date ?? '—';
    case 'document_id':
      return r.document_id ?? '—';
    case 'min_amount':
      return <MinimumCell row={r} />;
    case 'payment_terms':
      return termsText(r.payment_terms, t);
    case 'due_date':
      return <DueCell row={r} />;
    case 'margin_pct':
      return <MarginCell pct={r.margin_pct} low={r.low_margin} />;
    case 'state':
      return <StateTag state={r.state} testId={`billing-state-${r.id}`} />;
    case 'demand_partners':
      return r.demand_partners || '—';
    case 'description':
      return r.description ? <span className="bo-bill-desc">{r.description}</span> : '—';
    default:
      return null;
  }
}

export function buildColumns(
  visible: readonly ColumnKey[],
  t: Translate,
  open: (row: BillingRowDto) => void,
): DataColumn<BillingRowDto>[] {
  return visible.map((key) => ({
    key,
    title: t(`billing.col.${key}`),
    align:
      MONEY.has(key) ||
      key === 'margin_pct' ||
      key === 'carried_in' ||
      key === 'revenue_network' ||
      key === 'min_amount'
        ? ('right' as const)
        : undefined,
    sort: SORTABLE.has(key) ? key : undefined,
    render: (r: BillingRowDto) =>
      key === 'counterparty' ? <OpenRowButton row={r} onOpen={() => open(r)} /> : cellOf(key, r, t),
  }));
}
