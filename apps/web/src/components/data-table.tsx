/**
 * A list whose rows the API filters, sorts and pages (billing rows, invoices, payouts): from
 * 768 px a table with optional checkboxes, inside a focusable region that scrolls it sideways by
 * CSS (not antd's `scroll`, whose hidden measuring row would repeat the "select all" checkbox out
 * of reach of assistive technology); on a phone a card per row, a sort menu and simple paging.
 * Sort, page and page size live in the caller's view (the URL) and change through `onView`.
 *
 * Also here: the empty state and the error line of such a list, and the hook that keeps a
 * selection up to date with a fresh page of rows.
 */
import { Alert, Button, Card, Checkbox, Empty, Pagination, Select, Table, Typography } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import { useEffect, type HTMLAttributes, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/api.ts';
import { useViewport } from '../lib/use-viewport.ts';
import { ScrollRegion } from './scroll-region.tsx';
import './data-views.css';

/** What a list shows: the API's sort (`field` or `-field`), page and page size. */
export interface TableView {
  sort: string;
  page: number;
  pageSize: number;
}

export interface DataColumn<T> {
  /** Unique among the columns. */
  key: string;
  /** The header (translated). */
  title: ReactNode;
  align?: 'left' | 'right' | 'center';
  /** The API's sort field of this column; without it the column does not sort. */
  sort?: string;
  render: (row: T) => ReactNode;
}

export interface CardField {
  /** Defaults to the label. */
  key?: string;
  label: string;
  value: ReactNode;
}

/** A row as a card on a phone: a heading line (checkbox, title, tag), a note, then label/value pairs. */
export interface DataCardSpec<T> {
  /** The card's title, usually the button that opens the row; give it `className`. */
  title: (row: T, className: string) => ReactNode;
  /** At the end of the heading line (a state tag). */
  tag?: (row: T) => ReactNode;
  /** Between the heading and the fields (a warning tag). */
  note?: (row: T) => ReactNode;
  fields: (row: T) => CardField[];
}

export interface DataSelection<T, K extends Key> {
  selected: ReadonlyMap<K, T>;
  onChange: (next: Map<K, T>) => void;
  /** A row's checkbox's accessible name. */
  label: (row: T) => string;
}

export interface DataTableProps<T, K extends Key> {
  rows: T[];
  /** Rows over all pages. */
  total: number;
  loading: boolean;
  rowKey: (row: T) => K;
  /** The visible columns, in order. */
  columns: readonly DataColumn<T>[];
  view: TableView;
  onView: (patch: Partial<TableView>) => void;
  /** The sort when a column's sort is switched off. */
  defaultSort: string;
  pageSizes: readonly number[];
  /** The phone's sort menu (see `sortChoices`) and its label. */
  sortOptions: { value: string; label: string }[];
  sortLabel: string;
  /** The accessible name of the table's scroll region. */
  regionLabel: string;
  card: DataCardSpec<T>;
  /** Checkboxes on the rows; none without. */
  selection?: DataSelection<T, K>;
  empty: ReactNode;
  /** How many rows there are, e.g. "25 advertisers"; "25 rows" without. */
  countText?: (count: number) => string;
  /**
   * Prefix of the test ids: `<testId>-table`, `<testId>-cards`, `<testId>-sort` (also the sort
   * menu's id) and `<testId>-row-<key>` on each row and card.
   */
  testId: string;
}

/**
 * A table's change as the URL parameters `sort`, `page` and `page_size`, for the lists whose URL
 * uses those names; a default (and page 1) removes its parameter.
 */
export function tableParams(
  patch: Partial<TableView>,
  defaults: Pick<TableView, 'sort' | 'pageSize'>,
): Record<string, string | null> {
  const params: Record<string, string | null> = {
    page: patch.page && patch.page > 1 ? String(patch.page) : null,
  };
  if (patch.sort !== undefined) params.sort = patch.sort === defaults.sort ? null : patch.sort;
  if (patch.pageSize !== undefined)
    params.page_size = patch.pageSize === defaults.pageSize ? null : String(patch.pageSize);
  return params;
}

/** The phone's sort menu: each field descending, then ascending. */
export function sortChoices<F extends string>(
  fields: readonly F[],
  label: (field: F) => string,
): { value: string; label: string }[] {
  return fields.flatMap((f) => [
    { value: `-${f}`, label: `${label(f)} ↓` },
    { value: f, label: `${label(f)} ↑` },
  ]);
}

function DataCard<T>({
  row,
  spec,
  testId,
  check,
}: {
  row: T;
  spec: DataCardSpec<T>;
  testId: string;
  check: ReactNode;
}) {
  return (
    <Card size="small" className="bo-data-card" data-testid={testId}>
      <div className="bo-data-card__head">
        {check}
        {spec.title(row, 'bo-data-card__title')}
        {spec.tag?.(row)}
      </div>
      {spec.note?.(row)}
      <dl className={spec.note ? 'bo-data-card__grid bo-data-card__grid--spaced' : 'bo-data-card__grid'}>
        {spec.fields(row).map((f) => (
          <div key={f.key ?? f.label}>
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

export function DataTable<T extends object, K extends Key>(props: DataTableProps<T, K>) {
  const { rows, total, loading, rowKey, columns, view, onView, selection, empty, testId } = props;
  const { t } = useTranslation();
  const { isMobile } = useViewport();
  const count = props.countText ?? ((n: number) => t('resource.rows', { count: n }));
  const selected = selection?.selected;
  /** The rows of `keys`, from this page or the earlier selection. */
  const pick = (keys: readonly Key[]) => {
    if (!selection || !selected) return;
    const earlier = new Map([...selected].map(([k, r]) => [String(k), r]));
    const next = new Map<K, T>();
    for (const k of keys) {
      const row = rows.find((r) => String(rowKey(r)) === String(k)) ?? earlier.get(String(k));
      if (row) next.set(rowKey(row), row);
    }
    selection.onChange(next);
  };

  if (isMobile) {
    return (
      <div className="bo-data-cards" data-testid={`${testId}-cards`} aria-busy={loading}>
        <div className="bo-data-field">
          <label htmlFor={`${testId}-sort`} className="bo-data-field__label">
            {props.sortLabel}
          </label>
          <Select
            id={`${testId}-sort`}
            value={view.sort}
            onChange={(sort: string) => onView({ sort, page: 1 })}
            options={props.sortOptions}
            className="bo-data-sort"
            data-testid={`${testId}-sort`}
          />
        </div>
        {rows.length === 0 && !loading ? empty : null}
        {rows.map((r) => {
          const key = rowKey(r);
          return (
            <DataCard
              key={key}
              row={r}
              spec={props.card}
              testId={`${testId}-row-${key}`}
              check={
                selection && selected ? (
                  <Checkbox
                    checked={selected.has(key)}
                    onChange={(e) =>
                      pick(
                        e.target.checked
                          ? [...selected.keys(), key]
                          : [...selected.keys()].filter((k) => k !== key),
                      )
                    }
                    aria-label={selection.label(r)}
                  />
                ) : null
              }
            />
          );
        })}
        {total > view.pageSize ? (
          <Pagination
            simple
            current={view.page}
            pageSize={view.pageSize}
            total={total}
            onChange={(page) => onView({ page })}
          />
        ) : null}
        <Typography.Text type="secondary">{count(total)}</Typography.Text>
      </div>
    );
  }

  const field = view.sort.replace(/^-/, '');
  const order = (sort: string): SortOrder =>
    field === sort ? (view.sort.startsWith('-') ? 'descend' : 'ascend') : null;
  return (
    <ScrollRegion label={props.regionLabel}>
      <Table<T>
        rowKey={(r) => rowKey(r)}
        size="small"
        className="bo-data-table"
        data-testid={`${testId}-table`}
        columns={columns.map((c) => ({
          key: c.key,
          title: c.title,
          align: c.align,
          sorter: c.sort ? true : undefined,
          sortOrder: c.sort ? order(c.sort) : undefined,
          showSorterTooltip: false,
          render: (_: unknown, r: T) => c.render(r),
        }))}
        dataSource={rows}
        loading={loading}
        onRow={(r) => ({ 'data-testid': `${testId}-row-${rowKey(r)}` }) as HTMLAttributes<HTMLElement>}
        rowSelection={
          selection && selected
            ? {
                selectedRowKeys: [...selected.keys()],
                preserveSelectedRowKeys: true,
                onChange: (keys) => pick(keys),
                getCheckboxProps: (r) => ({ 'aria-label': selection.label(r) }) as never,
              }
            : undefined
        }
        locale={{ emptyText: loading ? <span /> : empty }}
        pagination={{
          current: view.page,
          pageSize: view.pageSize,
          total,
          showSizeChanger: true,
          pageSizeOptions: [...props.pageSizes],
          showTotal: (n) => <Typography.Text type="secondary">{count(n)}</Typography.Text>,
        }}
        onChange={(pagination, _filters, sorter, extra) => {
          if (extra.action === 'paginate') {
            const size = pagination.pageSize ?? view.pageSize;
            onView(size !== view.pageSize ? { page: 1, pageSize: size } : { page: pagination.current ?? 1 });
          }
          if (extra.action === 'sort') {
            const s = Array.isArray(sorter) ? sorter[0] : sorter;
            const sort = columns.find((c) => c.key === String(s?.columnKey))?.sort;
            onView({
              sort: s?.order && sort ? `${s.order === 'descend' ? '-' : ''}${sort}` : props.defaultSort,
              page: 1,
            });
          }
        }}
      />
    </ScrollRegion>
  );
}

/**
 * A list without rows: when filters are on, `description` and a button that clears them
 * (`onClear`); otherwise `description` and `children` (what to do first, e.g. compute or create).
 */
export function EmptyList({
  description,
  testId,
  onClear,
  children,
}: {
  description: ReactNode;
  testId: string;
  /** Given when the list is filtered. */
  onClear?: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={description} data-testid={testId}>
      {onClear ? <Button onClick={onClear}>{t('resource.filters.clear')}</Button> : children}
    </Empty>
  );
}

/** A list that could not be read: the API's message and a retry button. */
export function ListError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      className="bo-data-error"
      title={errorText(error)}
      action={
        <Button size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}

/**
 * Keeps a selection up to date: when a fresh page of rows arrives, each selected row listed there
 * with another `version` replaces its old copy (its figures and actions). Off while `enabled` is
 * false.
 */
export function useFreshSelection<T extends { version: number }, K extends Key>(
  rows: readonly T[] | undefined,
  selected: ReadonlyMap<K, T>,
  setSelected: (next: Map<K, T>) => void,
  rowKey: (row: T) => K,
  enabled = true,
): void {
  useEffect(() => {
    if (!rows || selected.size === 0 || !enabled) return;
    const fresh = new Map(selected);
    let changed = false;
    for (const r of rows) {
      const k = rowKey(r);
      if (fresh.has(k) && fresh.get(k)!.version !== r.version) {
        fresh.set(k, r);
        changed = true;
      }
    }
    if (changed) setSelected(fresh);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new answer refreshes
  }, [rows]);
}
