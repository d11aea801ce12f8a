/**
 * The rows of a billing list, sorted and paged by the API (components/data-table.tsx): a table
 * with checkboxes from 768 px, a card per row on a phone.
 */
import type { BillingRowDto } from '@backoffice/core/billing-api';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, sortChoices } from '../../components/data-table.tsx';
import { MoneyCell } from '../../components/money-cell.tsx';
import { PAGE_SIZES, type BillingView } from './billing-api.ts';
import { BadgeTag, DueCell, MarginCell, OpenRowButton, StateTag } from './row-cells.tsx';
import { buildColumns, type ColumnKey } from './rows-columns.tsx';

export interface RowsTableProps {
  rows: BillingRowDto[];
  total: number;
  loading: boolean;
  view: BillingView;
  visible: ColumnKey[];
  selectable: boolean;
  selected: ReadonlyMap<number, BillingRowDto>;
  onSelect: (next: Map<number, BillingRowDto>) => void;
  onOpen: (row: BillingRowDto) => void;
  onView: (patch: Partial<BillingView>) => void;
  empty: ReactNode;
}

const SORT_FIELDS = [
  'revenue_gross',
  'pending',
  'paid_revenue',
  'revenue_ours',
  'margin_pct',
  'counterparty',
  'state',
  'product',
  'min_amount',
] as const;

export function RowsTable(props: RowsTableProps) {
  const { rows, total, loading, view, visible, selectable, selected, onSelect, onOpen, onView, empty } =
    props;
  const { t } = useTranslation();
  return (
    <DataTable<BillingRowDto, number>
      rows={rows}
      total={total}
      loading={loading}
      rowKey={(r) => r.id}
      columns={buildColumns(visible, t, onOpen)}
      defaultSort="-revenue_gross"
      pageSizes={PAGE_SIZES}
      sortOptions={sortChoices(SORT_FIELDS, (f) => t(`billing.col.${f}`))}
      sortLabel={t('billing.ui.sort_by')}
      regionLabel={t('billing.ui.rows_region')}
      view={view}
      onView={onView}
      selection={
        selectable
          ? {
              selected,
              onChange: onSelect,
              label: (r) => t('billing.ui.select_row', { name: `${r.counterparty.name} ${r.product}` }),
            }
          : undefined
      }
      card={{
        title: (r, className) => <OpenRowButton row={r} onOpen={() => onOpen(r)} className={className} />,
        tag: (r) => <StateTag state={r.state} testId={`billing-state-${r.id}`} />,
        fields: (r) => [
          { label: t('billing.col.product'), value: r.product },
          {
            label: t('billing.col.revenue_gross'),
            value: <MoneyCell amount={r.revenue_gross} currency={r.currency} />,
          },
          { label: t('billing.col.pending'), value: <MoneyCell amount={r.pending} currency={r.currency} /> },
          {
            label: t('billing.col.badge'),
            value: <BadgeTag badge={r.badge} overdue={r.overdue} testId={`billing-badge-${r.id}`} />,
          },
          { label: t('billing.col.margin_pct'), value: <MarginCell pct={r.margin_pct} low={r.low_margin} /> },
          { label: t('billing.col.due_date'), value: <DueCell row={r} /> },
        ],
      }}
      empty={empty}
      testId="billing"
    />
  );
}
