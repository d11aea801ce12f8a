/**
 * The documents of a preview tab, sorted and paged by the API: drafts with the spec's preview
 * columns (spec 3 "Invoice preview columns") and the tax base, VAT and total; invoices and credit
 * notes with their number, dates, figures, state and the invoice a credit note corrects. A table
 * with checkboxes (drafts) from 768 px inside a focusable scroll region, a card per document on a
 * phone.
 */
import { INVOICE_SORTS, type InvoiceListItem } from '@backoffice/core/invoices';
import { Card, Checkbox, Pagination, Select, Table, Typography, type TableColumnsType } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import type { HTMLAttributes, Key, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';
import { ScrollRegion } from '../../components/scroll-region.tsx';
import { useViewport } from '../../lib/use-viewport.ts';
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
  sort: string,
  t: Translate,
  open: (r: InvoiceListItem) => void,
  openRef: (id: number) => void,
): TableColumnsType<InvoiceListItem> {
  const field = sort.replace(/^-/, '');
  const order = (s: string | undefined): SortOrder =>
    s && field === s ? (sort.startsWith('-') ? 'descend' : 'ascend') : null;
  return visible.map((c) => ({
    key: SORT_OF[c] ?? c,
    title: columnTitle(c, t),
    align: RIGHT.has(c) ? ('right' as const) : undefined,
    sorter: SORT_OF[c] ? true : undefined,
    sortOrder: SORT_OF[c] ? order(SORT_OF[c]) : undefined,
    showSorterTooltip: false,
    render: (_: unknown, r: InvoiceListItem) => cellOf(c, r, t, open, openRef),
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

function DocumentCard({
  row,
  tab,
  checked,
  selectable,
  onCheck,
  onOpen,
}: {
  row: InvoiceListItem;
  tab: PreviewTab;
  checked: boolean;
  selectable: boolean;
  onCheck: (c: boolean) => void;
  onOpen: (id: number) => void;
}) {
  const { t } = useTranslation();
  const figures: [string, ReactNode][] =
    tab === 'drafts'
      ? [
          [t('invoice.col.revenue'), <MoneyCell amount={row.revenue} currency={row.currency} />],
          [t('invoice.col.revenue_fraud'), <MoneyCell amount={row.revenue_fraud} currency={row.currency} />],
          [
            t('invoice.col.new_revenue_net'),
            <MoneyCell amount={row.new_revenue_net} currency={row.currency} />,
          ],
          [t('invoice.col.total'), <MoneyCell amount={row.total} currency={row.currency} />],
          [t('invoice.col.date_start'), `${row.date_start} – ${row.date_end}`],
          [t('invoice.col.blocked'), <BlockedTag blocked={row.blocked} reason={row.blocked_reason} />],
        ]
      : [
          [t('invoice.col.issue_date'), row.issue_date ?? '—'],
          [t('invoice.col.due_date'), <DueCell item={row} />],
          [t('invoice.col.total'), <MoneyCell amount={row.total} currency={row.currency} />],
          tab === 'invoices'
            ? [t('invoice.col.outstanding'), <MoneyCell amount={row.outstanding} currency={row.currency} />]
            : [t('invoice.col.corrects'), row.corrects?.number ?? '—'],
        ];
  return (
    <Card size="small" className="bo-inv-card" data-testid={`invoice-row-${row.id}`}>
      <div className="bo-inv-card__head">
        {selectable ? (
          <Checkbox
            checked={checked}
            onChange={(e) => onCheck(e.target.checked)}
            aria-label={t('invoice.ui.select_row', { name: row.name })}
          />
        ) : null}
        <OpenButton id={row.id} onOpen={() => onOpen(row.id)} className="bo-inv-card__title">
          {row.number ? <span className="bo-inv-num">{row.number} · </span> : null}
          <PartyCell name={row.name} company={row.company_name} />
        </OpenButton>
        <InvoiceStateTag state={row.state} testId={`invoice-state-${row.id}`} />
      </div>
      <MissingTag missing={row.missing} />
      <dl className="bo-inv-card__grid">
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

const SORT_CHOICES = INVOICE_SORTS;

export function InvoicesTable(props: InvoicesTableProps) {
  const { tab, rows, total, loading, view, visible, selectable, selected, onSelect, onOpen, onView, empty } =
    props;
  const { t } = useTranslation();
  const { isMobile } = useViewport();
  const pick = (keys: readonly Key[]) => {
    const next = new Map<number, InvoiceListItem>();
    for (const k of keys) {
      const id = Number(k);
      const row = rows.find((r) => r.id === id) ?? selected.get(id);
      if (row) next.set(id, row);
    }
    onSelect(next);
  };

  if (isMobile) {
    const sorts = SORT_CHOICES.filter((s) =>
      tab === 'drafts' ? !['number', 'issue_date', 'due_date', 'state'].includes(s) : true,
    );
    return (
      <div className="bo-inv-cards" data-testid="invoice-cards" aria-busy={loading}>
        <div className="bo-inv-field">
          <label htmlFor="invoice-sort" className="bo-inv-field__label">
            {t('invoice.ui.sort_by')}
          </label>
          <Select
            id="invoice-sort"
            value={view.sort}
            onChange={(sort: string) => onView({ sort, page: 1 })}
            options={[
              { value: '-id', label: t('invoice.ui.sort_newest') },
              ...sorts.flatMap((f) => [
                { value: `-${f}`, label: `${t(`invoice.col.${f}`)} ↓` },
                { value: f, label: `${t(`invoice.col.${f}`)} ↑` },
              ]),
            ]}
            className="bo-inv-sort"
            data-testid="invoice-sort"
          />
        </div>
        {rows.length === 0 && !loading ? empty : null}
        {rows.map((r) => (
          <DocumentCard
            key={r.id}
            row={r}
            tab={tab}
            selectable={selectable}
            checked={selected.has(r.id)}
            onCheck={(c) =>
              pick(c ? [...selected.keys(), r.id] : [...selected.keys()].filter((k) => k !== r.id))
            }
            onOpen={onOpen}
          />
        ))}
        {total > view.pageSize ? (
          <Pagination
            simple
            current={view.page}
            pageSize={view.pageSize}
            total={total}
            onChange={(page) => onView({ page })}
          />
        ) : null}
        <Typography.Text type="secondary">{t('resource.rows', { count: total })}</Typography.Text>
      </div>
    );
  }

  return (
    <ScrollRegion label={t('invoice.ui.rows_region')}>
      <Table<InvoiceListItem>
        rowKey="id"
        size="small"
        className="bo-inv-table"
        data-testid="invoice-table"
        columns={buildColumns(visible, view.sort, t, (r) => onOpen(r.id), onOpen)}
        dataSource={rows}
        loading={loading}
        onRow={(r) => ({ 'data-testid': `invoice-row-${r.id}` }) as HTMLAttributes<HTMLElement>}
        rowSelection={
          selectable
            ? {
                selectedRowKeys: [...selected.keys()],
                preserveSelectedRowKeys: true,
                onChange: (keys) => pick(keys),
                getCheckboxProps: (r) =>
                  ({ 'aria-label': t('invoice.ui.select_row', { name: r.name }) }) as never,
              }
            : undefined
        }
        locale={{ emptyText: loading ? <span /> : empty }}
        pagination={{
          current: view.page,
          pageSize: view.pageSize,
          total,
          showSizeChanger: true,
          pageSizeOptions: [...PAGE_SIZES],
          showTotal: (n) => (
            <Typography.Text type="secondary">{t('resource.rows', { count: n })}</Typography.Text>
          ),
        }}
        onChange={(pagination, _filters, sorter, extra) => {
          if (extra.action === 'paginate') {
            const size = pagination.pageSize ?? view.pageSize;
            onView(size !== view.pageSize ? { page: 1, pageSize: size } : { page: pagination.current ?? 1 });
          }
          if (extra.action === 'sort') {
            const s = Array.isArray(sorter) ? sorter[0] : sorter;
            const key = s?.columnKey === undefined ? null : String(s.columnKey);
            onView({ sort: s?.order && key ? `${s.order === 'descend' ? '-' : ''}${key}` : '-id', page: 1 });
          }
        }}
      />
    </ScrollRegion>
  );
}
