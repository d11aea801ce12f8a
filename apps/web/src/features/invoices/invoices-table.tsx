/**
 * The documents of a preview tab, sorted and paged by the API: drafts with the spec's preview
 * columns (spec 3 "Invoice preview columns") and the tax base, VAT and total; invoices and credit
 * notes with their number, dates, figures, state and the invoice a credit note corrects. A table
 * with checkboxes (drafts) from 768 px, a card per document on a phone (components/data-table.tsx).
 */
import { INVOICE_SORTS, type InvoiceListItem } from '@backoffice/core/invoices';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, sortChoices, type CardField, type DataColumn } from '../../components/data-table.tsx';
import { MoneyCell } from '../../components/money-cell.tsx';
import {
  BlockedTag,
  DueCell,
  IntegerCell,
  InvoiceStateTag,
  MissingTag,
  OpenButton,
  PartyCell,
  PercentCell,
  termsText,
} from './invoice-cells.tsx';
import { PAGE_SIZES, type PreviewTab, type PreviewView } from './invoices-api.ts';

export const DRAFT_COLUMNS = [
  'name',
  'id_user',
  'account_type',
  'payment_terms',
  'blocked',
  'date_start',
  'date_end',
  'impressions',
  'revenue',
  'fraud_percentage',
  'fraud_revenue',
  'spoofing_percentage',
  'spoofing_revenue',
  'revenue_fraud',
  'new_revenue_net',
  'comments',
  'apply_deductions',
  'base',
  'vat_amount',
  'total',
] as const;
export const DOCUMENT_COLUMNS = [
  'number',
  'name',
  'company',
  'issue_date',
  'due_date',
  'currency',
  'base',
  'vat_amount',
  'total',
  'paid',
  'outstanding',
  'state',
  'corrects',
] as const;
export type InvoiceColumn = (typeof DRAFT_COLUMNS)[number] | (typeof DOCUMENT_COLUMNS)[number];

export const columnsOf = (tab: PreviewTab): readonly InvoiceColumn[] =>
  tab === 'drafts'
    ? DRAFT_COLUMNS
    : tab === 'invoices'
      ? DOCUMENT_COLUMNS.filter((c) => c !== 'corrects')
      : DOCUMENT_COLUMNS.filter((c) => c !== 'paid' && c !== 'outstanding');
/** The column that opens a document: never hidden. */
export const requiredOf = (tab: PreviewTab): InvoiceColumn => (tab === 'drafts' ? 'name' : 'number');

const MONEY = new Set<InvoiceColumn>([
  'revenue',
  'fraud_revenue',
  'spoofing_revenue',
  'revenue_fraud',
  'new_revenue_net',
  'base',
  'vat_amount',
  'total',
  'paid',
  'outstanding',
]);
const RIGHT = new Set<InvoiceColumn>([...MONEY, 'impressions', 'fraud_percentage', 'spoofing_percentage']);
/** The column a sort field belongs to (the API sorts by INVOICE_SORTS). */
const SORT_OF: Partial<Record<InvoiceColumn, string>> = {
  number: 'number',
  name: 'name',
  issue_date: 'issue_date',
  due_date: 'due_date',
  revenue: 'revenue',
  total: 'total',
  state: 'state',
  date_start: 'date_start',
};

type Translate = (key: string, params?: Record<string, string | number>) => string;

export const columnTitle = (c: InvoiceColumn, t: Translate) =>
  t(c === 'company' ? 'invoice.col.company' : `invoice.col.${c}`);

function cellOf(
  c: InvoiceColumn,
  r: InvoiceListItem,
  t: Translate,
  open: (r: InvoiceListItem) => void,
  openRef: (id: number) => void,
): ReactNode {
  if (MONEY.has(c)) {
    const v = r[c as 'revenue'] as string | null;
    return v === null ? (
      <span className="bo-inv-muted">—</span>
    ) : (
      <MoneyCell amount={v} currency={r.currency} />
    );
  }
  switch (c) {
    case 'name':
      return (
        <span className="bo-inv-inline">
          {r.kind === 'invoice' && r.state === 'draft' ? (
            <OpenButton id={r.id} onOpen={() => open(r)}>
              <PartyCell name={r.name} company={r.company_name} />
            </OpenButton>
          ) : (
            <PartyCell name={r.name} company={r.company_name} />
          )}
          <MissingTag missing={r.missing} />
        </span>
      );
    case 'number':
      return (
        <OpenButton id={r.id} onOpen={() => open(r)}>
          <span className="bo-inv-num">{r.number ?? '—'}</span>
        </OpenButton>
      );
    case 'company':
      return r.company_name || '—';
    case 'id_user':
      return <span className="bo-inv-num">{r.id_user}</span>;
    case 'account_type':
      return r.account_type;
    case 'payment_terms':
      return termsText(r.payment_terms, t);
    case 'blocked':
      return <BlockedTag blocked={r.blocked} reason={r.blocked_reason} testId={`invoice-blocked-${r.id}`} />;
    case 'date_start':
      return <span className="bo-inv-num">{r.date_start}</span>;
    case 'date_end':
      return <span className="bo-inv-num">{r.date_end}</span>;
    case 'impressions':
      return <IntegerCell value={r.impressions} />;
    case 'fraud_percentage':
      return <PercentCell value={r.fraud_percentage} />;
    case 'spoofing_percentage':
      return <PercentCell value={r.spoofing_percentage} />;
    case 'comments':
      return r.comments ? (
        <span className="bo-inv-comment">{r.comments}</span>
      ) : (
        <span className="bo-inv-muted">—</span>
      );
    case 'apply_deductions':
      return r.apply_deductions ? t('common.yes') : t('common.no');
    case 'issue_date':
      return <span className="bo-inv-num">{r.issue_date ?? '—'}</span>;
    case 'due_date':
      return <DueCell item={r} />;
    case 'currency':
      return r.currency;
    case 'state':
      return <InvoiceStateTag state={r.state} testId={`invoice-state-${r.id}`} />;
    case 'corrects':
      return r.corrects ? (
        <OpenButton
          id={r.corrects.id}
          onOpen={() => openRef(r.corrects!.id)}
          label={t('invoice.ui.open_document', { number: r.corrects.number })}
        >
          <span className="bo-inv-num">{r.corrects.number}</span>
        </OpenButton>
      ) : (
        <span className="bo-inv-muted">—</span>
      );
    default:
      return null;
  }
}

export function buildColumns(
  visible: readonly InvoiceColumn[],
  t: Translate,
  open: (r: InvoiceListItem) => void,
  openRef: (id: number) => void,
): DataColumn<InvoiceListItem>[] {
  return visible.map((c) => ({
    key: SORT_OF[c] ?? c,
    title: columnTitle(c, t),
    align: RIGHT.has(c) ? ('right' as const) : undefined,
    sort: SORT_OF[c],
    render: (r: InvoiceListItem) => cellOf(c, r, t, open, openRef),
  }));
}

export interface InvoicesTableProps {
  tab: PreviewTab;
  rows: InvoiceListItem[];
  total: number;
  loading: boolean;
  view: PreviewView;
  visible: readonly InvoiceColumn[];
  /** Drafts can be selected (to issue). */
  selectable: boolean;
  selected: ReadonlyMap<number, InvoiceListItem>;
  onSelect: (next: Map<number, InvoiceListItem>) => void;
  onOpen: (id: number) => void;
  onView: (patch: Partial<PreviewView>) => void;
  empty: ReactNode;
}

/** A document's figures on its card (a phone). */
function cardFields(row: InvoiceListItem, tab: PreviewTab, t: Translate): CardField[] {
  const money = (amount: string) => <MoneyCell amount={amount} currency={row.currency} />;
  if (tab === 'drafts')
    return [
      { label: t('invoice.col.revenue'), value: money(row.revenue) },
      { label: t('invoice.col.revenue_fraud'), value: money(row.revenue_fraud) },
      { label: t('invoice.col.new_revenue_net'), value: money(row.new_revenue_net) },
      { label: t('invoice.col.total'), value: money(row.total) },
      { label: t('invoice.col.date_start'), value: `${row.date_start} – ${row.date_end}` },
      {
        label: t('invoice.col.blocked'),
        value: <BlockedTag blocked={row.blocked} reason={row.blocked_reason} />,
      },
    ];
  return [
    { label: t('invoice.col.issue_date'), value: row.issue_date ?? '—' },
    { label: t('invoice.col.due_date'), value: <DueCell item={row} /> },
    { label: t('invoice.col.total'), value: money(row.total) },
    tab === 'invoices'
      ? { label: t('invoice.col.outstanding'), value: money(row.outstanding) }
      : { label: t('invoice.col.corrects'), value: row.corrects?.number ?? '—' },
  ];
}

/** The phone's sorts of a tab (drafts have no number, dates or state). */
const sortsOf = (tab: PreviewTab) =>
  INVOICE_SORTS.filter((s) =>
    tab === 'drafts' ? !['number', 'issue_date', 'due_date', 'state'].includes(s) : true,
  );

export function InvoicesTable(props: InvoicesTableProps) {
  const { tab, rows, total, loading, view, visible, selectable, selected, onSelect, onOpen, onView, empty } =
    props;
  const { t } = useTranslation();
  return (
    <DataTable<InvoiceListItem, number>
      rows={rows}
      total={total}
      loading={loading}
      rowKey={(r) => r.id}
      columns={buildColumns(visible, t, (r) => onOpen(r.id), onOpen)}
      view={view}
      onView={onView}
      defaultSort="-id"
      pageSizes={PAGE_SIZES}
      sortOptions={[
        { value: '-id', label: t('invoice.ui.sort_newest') },
        ...sortChoices(sortsOf(tab), (f) => t(`invoice.col.${f}`)),
      ]}
      sortLabel={t('invoice.ui.sort_by')}
      regionLabel={t('invoice.ui.rows_region')}
      selection={
        selectable
          ? { selected, onChange: onSelect, label: (r) => t('invoice.ui.select_row', { name: r.name }) }
          : undefined
      }
      card={{
        title: (row, className) => (
          <OpenButton id={row.id} onOpen={() => onOpen(row.id)} className={className}>
            {row.number ? <span className="bo-inv-num">{row.number} · </span> : null}
            <PartyCell name={row.name} company={row.company_name} />
          </OpenButton>
        ),
        tag: (row) => <InvoiceStateTag state={row.state} testId={`invoice-state-${row.id}`} />,
        note: (row) => <MissingTag missing={row.missing} />,
        fields: (row) => cardFields(row, tab, t),
      }}
      empty={empty}
      testId="invoice"
    />
  );
}
