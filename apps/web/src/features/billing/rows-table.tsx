/**
 * The rows of a billing list, sorted and paged by the API: a table with checkboxes from 768 px
 * (scrolled sideways by CSS inside a focusable region, not antd's `scroll`, whose hidden
 * measuring row would repeat the "select all" checkbox out of reach of assistive technology),
 * a card per row on a phone.
 */
import type { BillingRowDto } from '@backoffice/core/billing-api';
import { Card, Checkbox, Pagination, Select, Table, Typography } from 'antd';
import type { HTMLAttributes, Key, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useViewport } from '../../lib/use-viewport.ts';
import { PAGE_SIZES, type BillingView } from './billing-api.ts';
import { BadgeTag, DueCell, MarginCell, OpenRowButton, StateTag } from './row-cells.tsx';
import { buildColumns, type ColumnKey } from './rows-columns.tsx';
import { ScrollRegion } from '../../components/scroll-region.tsx';

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

function RowCard({
  row,
  checked,
  selectable,
  onCheck,
  onOpen,
}: {
  row: BillingRowDto;
  checked: boolean;
  selectable: boolean;
  onCheck: (c: boolean) => void;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Card size="small" className="bo-bill-card" data-testid={`billing-row-${row.id}`}>
      <div className="bo-bill-card__head">
        {selectable ? (
          <Checkbox
            checked={checked}
            onChange={(e) => onCheck(e.target.checked)}
            aria-label={t('billing.ui.select_row', { name: `${row.counterparty.name} ${row.product}` })}
          />
        ) : null}
        <OpenRowButton row={row} onOpen={onOpen} className="bo-bill-card__title" />
        <StateTag state={row.state} testId={`billing-state-${row.id}`} />
      </div>
      <dl className="bo-bill-card__grid">
        <div>
          <dt>{t('billing.col.product')}</dt>
          <dd>{row.product}</dd>
        </div>
        <div>
          <dt>{t('billing.col.revenue_gross')}</dt>
          <dd>
            <MoneyCell amount={row.revenue_gross} currency={row.currency} />
          </dd>
        </div>
        <div>
          <dt>{t('billing.col.pending')}</dt>
          <dd>
            <MoneyCell amount={row.pending} currency={row.currency} />
          </dd>
        </div>
        <div>
          <dt>{t('billing.col.badge')}</dt>
          <dd>
            <BadgeTag badge={row.badge} overdue={row.overdue} testId={`billing-badge-${row.id}`} />
          </dd>
        </div>
        <div>
          <dt>{t('billing.col.margin_pct')}</dt>
          <dd>
            <MarginCell pct={row.margin_pct} low={row.low_margin} />
          </dd>
        </div>
        <div>
          <dt>{t('billing.col.due_date')}</dt>
          <dd>
            <DueCell row={row} />
          </dd>
        </div>
      </dl>
    </Card>
  );
}

export function RowsTable(props: RowsTableProps) {
  const { rows, total, loading, view, visible, selectable, selected, onSelect, onOpen, onView, empty } =
    props;
  const { t } = useTranslation();
  const { isMobile } = useViewport();
  const pick = (keys: readonly Key[]) => {
    const next = new Map<number, BillingRowDto>();
    for (const k of keys) {
      const id = Number(k);
      const row = rows.find((r) => r.id === id) ?? selected.get(id);
      if (row) next.set(id, row);
    }
    onSelect(next);
  };

  if (isMobile) {
    return (
      <div className="bo-bill-cards" data-testid="billing-cards" aria-busy={loading}>
        <div className="bo-bill-field">
          <label htmlFor="billing-sort" className="bo-bill-field__label">
            {t('billing.ui.sort_by')}
          </label>
          <Select
            id="billing-sort"
            value={view.sort}
            onChange={(sort: string) => onView({ sort, page: 1 })}
            options={SORT_FIELDS.flatMap((f) => [
              { value: `-${f}`, label: `${t(`billing.col.${f}`)} ↓` },
              { value: f, label: `${t(`billing.col.${f}`)} ↑` },
            ])}
            className="bo-bill-sort"
            data-testid="billing-sort"
          />
        </div>
        {rows.length === 0 && !loading ? empty : null}
        {rows.map((r) => (
          <RowCard
            key={r.id}
            row={r}
            selectable={selectable}
            checked={selected.has(r.id)}
            onCheck={(c) =>
              pick(c ? [...selected.keys(), r.id] : [...selected.keys()].filter((k) => k !== r.id))
            }
            onOpen={() => onOpen(r)}
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
    <ScrollRegion label={t('billing.ui.rows_region')}>
      <Table<BillingRowDto>
        rowKey="id"
        size="small"
        className="bo-bill-table"
        data-testid="billing-table"
        columns={buildColumns(visible, view.sort, t, onOpen)}
        dataSource={rows}
        loading={loading}
        onRow={(r) => ({ 'data-testid': `billing-row-${r.id}` }) as HTMLAttributes<HTMLElement>}
        rowSelection={
          selectable
            ? {
                selectedRowKeys: [...selected.keys()],
                preserveSelectedRowKeys: true,
                onChange: (keys) => pick(keys),
                getCheckboxProps: (r) =>
                  ({
                    'aria-label': t('billing.ui.select_row', { name: `${r.counterparty.name} ${r.product}` }),
                  }) as never,
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
            onView({
              sort: s?.order && key ? `${s.order === 'descend' ? '-' : ''}${key}` : '-revenue_gross',
              page: 1,
            });
          }
        }}
      />
    </ScrollRegion>
  );
}
