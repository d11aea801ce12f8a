/**
 * The result table: virtual rows (usable at 100,000 rows), pages of 500 fetched as it scrolls,
 * sorted on the server (a header click re-queries), a fixed totals row, money as exact decimal
 * strings, ratios as percentages, counts grouped, enum codes translated.
 */
import { formatMoney } from '@backoffice/core/format';
import type { ReportColumn, ReportedFigures, ReportResult, ReportRow } from '@backoffice/core/reports';
import { Empty, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { useMemo, type ReactNode, type UIEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { dimensionText, formatCount, formatRatio } from './dataviewer-format.ts';
import type { SortState } from './dataviewer-model.ts';

type Row = ReportRow & { __key: number };

export interface ResultTableProps {
  pages: readonly ReportResult[];
  sort: SortState[];
  onSort: (sort: SortState[]) => void;
  loading: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  height: number;
}

function columnWidth(c: ReportColumn): number {
  if (c.kind === 'metric') return c.type === 'money' ? 150 : 130;
  if (c.type === 'time') return c.key === 'hour' ? 150 : 120;
  if (c.type === 'entity') return 220;
  return c.key === 'country' ? 180 : 140;
}

// Keyed copies of a page's rows, made once per page (a 100,000-row result is 200 pages).
const keyedCache = new WeakMap<ReportResult, { start: number; rows: Row[] }>();
function keyedRows(page: ReportResult, start: number): Row[] {
  const cached = keyedCache.get(page);
  if (cached && cached.start === start) return cached.rows;
  const rows = page.rows.map((r, i) => ({ ...r, __key: start + i }));
  keyedCache.set(page, { start, rows });
  return rows;
}

export function MetricValue({ column, value, currency }: { column: ReportColumn; value: ReportRow[string]; currency: string }) {
  const locale = useLocale();
  if (column.type === 'money') return <MoneyCell amount={value ?? null} currency={currency} />;
  const text = column.type === 'ratio' ? formatRatio(value ?? null, locale) : formatCount(value ?? null, locale);
  return <span className="dv-num">{text === '' ? '—' : text}</span>;
}

/**
 * A demand partner whose own report covers days of the range (manual stats, Amazon imports):
 * its name with a "Manual" tag; the tag's tooltip says for how many days and what was reported.
 */
function ManualPartner({ name, figures, currency }: { name: ReactNode; figures: ReportedFigures; currency: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const hint = t('report.manual_hint', { count: figures.days, revenue: formatMoney(figures.revenue, currency, locale) });
  return (
    <span className="dv-manual">
      {name}{' '}
      <Tooltip title={hint}>
        <Tag color="gold" tabIndex={0} aria-label={`${t('report.manual')}: ${hint}`} data-testid="report-manual">
          {t('report.manual')}
        </Tag>
      </Tooltip>
    </span>
  );
}

export function ResultTable({ pages, sort, onSort, loading, hasMore, loadingMore, onLoadMore, height }: ResultTableProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const first = pages[0];
  const columns = useMemo(() => first?.columns ?? [], [first]);
  const currency = first?.currency ?? 'USD';
  const rows = useMemo<Row[]>(() => {
    const out: Row[] = [];
    for (const p of pages) out.push(...keyedRows(p, out.length));
    return out;
  }, [pages]);
  const hasDimensions = columns.some((c) => c.kind === 'dimension');
  const manual = useMemo(() => Object.assign({}, ...pages.map((p) => p.manual ?? {})) as Record<string, ReportedFigures>, [pages]);
  const active = sort[0];

  const tableColumns: ColumnsType<Row> = columns.map((c) => ({
    key: c.key,
    dataIndex: c.key,
    title: t(c.label),
    width: columnWidth(c),
    align: c.kind === 'metric' ? 'right' : 'left',
    ellipsis: c.kind === 'dimension',
    sorter: hasDimensions,
    sortOrder: active?.field === c.key ? (active.dir === 'asc' ? 'ascend' : 'descend') : null,
    sortDirections: c.kind === 'metric' ? ['descend', 'ascend', 'descend'] : ['ascend', 'descend', 'ascend'],
    showSorterTooltip: false,
    render: (value: ReportRow[string], row: Row): ReactNode => {
      if (c.kind === 'metric') return <MetricValue column={c} value={value} currency={currency} />;
      const text = dimensionText(c.key, c.type, value, locale, t);
      const reported = c.key === 'demand_partner' ? manual[String(row.demand_partner_id)] : undefined;
      return reported ? <ManualPartner name={text} figures={reported} currency={currency} /> : text;
    },
  }));
  const scrollX = columns.reduce((n, c) => n + columnWidth(c), 0);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const el = event.currentTarget;
    if (!el || !hasMore || loadingMore) return;
    if (el.scrollTop + el.clientHeight >= el.scrollHeight - 400) onLoadMore();
  };

  const totals = first?.totals ?? {};
  const summary =
    hasDimensions && rows.length > 0
      ? () => (
          <Table.Summary fixed>
            <Table.Summary.Row className="dv-totals" data-testid="dv-totals">
              {columns.map((c, i) => (
                <Table.Summary.Cell key={c.key} index={i} align={c.kind === 'metric' ? 'right' : 'left'}>
                  {i === 0 ? <strong>{t('report.totals')}</strong> : c.kind === 'metric' ? <strong><MetricValue column={c} value={totals[c.key] ?? null} currency={currency} /></strong> : null}
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          </Table.Summary>
        )
      : undefined;

  return (
    <Table<Row>
      className="dv-table"
      data-testid="dv-table"
      size="small"
      bordered
      virtual
      rowKey="__key"
      columns={tableColumns}
      dataSource={rows}
      loading={loading}
      pagination={false}
      scroll={{ x: scrollX, y: height }}
      onScroll={onScroll}
      summary={summary}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('report.no_data')} /> }}
      onChange={(_p, _f, sorter, extra) => {
        if (extra.action !== 'sort') return;
        const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<Row> | undefined;
        const field = s?.columnKey ?? s?.field;
        if (!s?.order || field === undefined) onSort([]);
        else onSort([{ field: String(field), dir: s.order === 'ascend' ? 'asc' : 'desc' }]);
      }}
    />
  );
}
