/**
 * Demand partners overview (`/partners/demand-partners/ssp/overview`): every live SSP-side partner
 * with its QPS now against its cap (a bar that turns to a warning over 90%), a 24-hour sparkline
 * with the cap as a dashed line, today's revenue, bid rate, win rate, timeout % and margin %.
 * Sorting, paging, the search and the "only over 90%" switch run on the server and live in the
 * URL, so a link reproduces the view. The figures refresh every minute while the page is open.
 * Money columns are left out for a person without a money permission (the API sends null).
 */
import { DownOutlined, DownloadOutlined, ReloadOutlined, WarningFilled } from '@ant-design/icons';
import { formatNumber } from '@backoffice/core/format';
import { OVERVIEW_PAGE_SIZE, OVERVIEW_SORTS, type OverviewAnswer, type OverviewRow, type OverviewSort } from '@backoffice/core/partner-overview';
import { Alert, Button, Dropdown, Empty, Input, Progress, Space, Statistic, Switch, Table, Tooltip, Typography, theme, type TableColumnsType } from 'antd';
import { keepPreviousData } from '@tanstack/react-query';
import { useEffect, useState, type HTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SortOrder } from 'antd/es/table/interface';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText, isSessionError } from '../../lib/api.ts';
import { downloadApiFile } from '../../lib/api-file.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useApiQuery } from '../../lib/query.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { chosenTimeZone } from '../../lib/time-zone-choice.ts';
import { formatDay, formatTime } from '../../lib/date-format.ts';
import '../../resources/resources.css';
import './overview.css';

export const OVERVIEW_REFRESH_MS = 60_000;
const DETAIL_PATH = '/partners/demandpartners_ssp';

function Sparkline({ points, cap, warning, label }: { points: (number | null)[]; cap: number; warning: boolean; label: string }) {
  const { token } = theme.useToken();
  const width = 120;
  const height = 28;
  const values = points.filter((v): v is number => v !== null);
  if (values.length === 0) return <span className="bo-ov-spark bo-ov-spark--empty" role="img" aria-label={label} />;
  const top = Math.max(cap, ...values) || 1;
  const x = (i: number) => (i / Math.max(points.length - 1, 1)) * width;
  const y = (v: number) => height - 2 - (v / top) * (height - 4);
  // A gap in the series breaks the line.
  const segments: string[] = [];
  let current = '';
  points.forEach((v, i) => {
    if (v === null) {
      if (current) segments.push(current);
      current = '';
    } else current += `${current ? ' L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
  });
  if (current) segments.push(current);
  return (
    <svg className="bo-ov-spark" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
      {cap > 0 ? <line x1={0} x2={width} y1={y(cap)} y2={y(cap)} stroke={token.colorTextQuaternary} strokeDasharray="3 3" strokeWidth={1} /> : null}
      {segments.map((d, i) => (
        <path key={i} d={d} fill="none" stroke={warning ? token.colorWarning : token.colorPrimary} strokeWidth={1.5} strokeLinejoin="round" />
      ))}
    </svg>
  );
}

function CapUsage({ row, pct }: { row: OverviewRow; pct: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { token } = theme.useToken();
  if (row.qps_cap <= 0) return <Typography.Text type="secondary">{t('dp_overview.no_cap')}</Typography.Text>;
  if (row.current_qps === null) return <Typography.Text type="secondary">{t('dp_overview.no_traffic')}</Typography.Text>;
  const usage = row.cap_usage ?? 0;
  const current = formatNumber(row.current_qps, locale, 0);
  const cap = formatNumber(row.qps_cap, locale, 0);
  const bar = (
    <div className="bo-ov-usage" data-warning={row.warning}>
      <Progress
        percent={Math.min(usage * 100, 100)}
        showInfo={false}
        size="small"
        strokeColor={row.warning ? token.colorWarning : token.colorPrimary}
        aria-label={t('dp_overview.col.cap_usage')}
      />
      <span className="bo-ov-usage__text">
        {row.warning ? <WarningFilled style={{ color: token.colorWarning }} aria-hidden /> : null}
        {formatNumber(usage * 100, locale, 0)}%
      </span>
    </div>
  );
  return row.warning ? (
    <Tooltip title={t('dp_overview.warning', { pct, current, cap })}>
      <span data-testid={`overview-warning-${row.id}`} aria-label={t('dp_overview.warning', { pct, current, cap })}>
        {bar}
      </span>
    </Tooltip>
  ) : (
    bar
  );
}

function parseSort(text: string | null): { field: OverviewSort; desc: boolean } {
  const field = (text ?? '').replace(/^-/, '');
  if ((OVERVIEW_SORTS as readonly string[]).includes(field)) return { field: field as OverviewSort, desc: (text ?? '').startsWith('-') };
  return { field: 'cap_usage', desc: true };
}

export default function DemandPartnersOverviewPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { token } = theme.useToken();
  const [params, update] = useUrlState();
  const canGraph = usePermission('/v1/graphs', 'read');
  const timezone = chosenTimeZone();
  const sort = parseSort(params.get('sort'));
  const page = Math.max(1, Number(params.get('page')) || 1);
  const pageSize = Math.min(200, Math.max(10, Number(params.get('page_size')) || OVERVIEW_PAGE_SIZE));
  const onlyWarnings = params.get('warning') === 'true';
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [exporting, setExporting] = useState(false);
  const notice = useNotice();
  const debounced = useDebouncedValue(search.trim(), 300);


  useEffect(() => {
    if (debounced !== (params.get('search') ?? '')) update({ search: debounced || null, page: null });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the typed text settles
  }, [debounced]);

  const query = {
    timezone,
    sort: `${sort.desc ? '-' : ''}${sort.field}`,
    page: String(page),
    page_size: String(pageSize),
    ...(onlyWarnings ? { warning: 'true' } : {}),
    ...(params.get('search') ? { search: params.get('search')! } : {}),
  };
  const overview = useApiQuery<OverviewAnswer>('/v1/partners/demand/overview', { query }, {
    refetchInterval: OVERVIEW_REFRESH_MS,
    refetchIntervalInBackground: false,
    placeholderData: keepPreviousData,
  });
  const data = overview.data;
  const exportAs = async (format: 'csv' | 'xlsx') => {
    setExporting(true);
    try {
      await downloadApiFile('/v1/partners/demand/overview/export', { ...query, format }, `demand_partners_overview.${format}`);
    } catch (error) {
      if (!isSessionError(error)) void notice.error(errorText(error));
    } finally {
      setExporting(false);
    }
  };
  const money = data?.money_visible ?? true;
  const currency = data?.currency ?? 'USD';
  const pct = `${Math.round((data?.warning_ratio ?? 0.9) * 100)}%`;
  const ratio = (v: number | null) => (v === null ? <Typography.Text type="secondary">–</Typography.Text> : `${formatNumber(v * 100, locale, 1)}%`);
  const order = (field: OverviewSort): SortOrder => (sort.field === field ? (sort.desc ? 'descend' : 'ascend') : null);
  const numeric = (field: OverviewSort, render: (r: OverviewRow) => ReactNode, width?: number) => ({
    key: field,
    title: t(`dp_overview.col.${field}`),
    sorter: true,
    sortOrder: order(field),
    align: 'right' as const,
    width,
    render: (_: unknown, r: OverviewRow) => render(r),
  });

  const columns: TableColumnsType<OverviewRow> = [
    {
      key: 'name',
      title: t('dp_overview.col.partner'),
      sorter: true,
      sortOrder: order('name'),
      fixed: 'left',
      render: (_: unknown, r) => (
        <Link to={`/${locale}${DETAIL_PATH}/${r.id}`} aria-label={t('dp_overview.open', { name: r.name })} className="bo-ov-name">
          {r.name}
        </Link>
      ),
    },
    { key: 'cap_usage', title: t('dp_overview.col.cap_usage'), sorter: true, sortOrder: order('cap_usage'), width: 170, render: (_: unknown, r) => <CapUsage row={r} pct={pct} /> },
    numeric('current_qps', (r) => (r.current_qps === null ? <Typography.Text type="secondary">–</Typography.Text> : formatNumber(r.current_qps, locale, 0))),
    numeric('qps_cap', (r) => (r.qps_cap > 0 ? formatNumber(r.qps_cap, locale, 0) : <Typography.Text type="secondary">{t('dp_overview.no_cap')}</Typography.Text>)),
    {
      key: 'spark',
      title: t('dp_overview.col.spark'),
      render: (_: unknown, r) => {
        const values = r.spark.filter((v): v is number => v !== null);
        const label =
          values.length === 0
            ? t('dp_overview.spark_empty')
            : t('dp_overview.spark_label', { from: formatNumber(values[0], locale, 0), to: formatNumber(values[values.length - 1], locale, 0), cap: formatNumber(r.qps_cap, locale, 0) });
        const spark = <Sparkline points={r.spark} cap={r.qps_cap} warning={r.warning} label={label} />;
        if (!canGraph || !data) return spark;
        // The partner's QPS graph over the same 24 hours (UTC wall times, as the graph's URL takes them).
        const wall = (ms: number) => new Date(ms).toISOString().slice(0, 16);
        const end = Date.parse(data.as_of);
        const graph = `/${locale}/graphs/qps/demand?ids=${r.id}&metrics=qps&start=${wall(end - 86_400_000)}&end=${wall(end)}&tz=UTC&interval=15`;
        return (
          <Link to={graph} title={t('dp_overview.open_graph')} aria-label={`${t('dp_overview.open_graph')}: ${r.name}`}>
            {spark}
          </Link>
        );
      },
    },
    ...(money ? [numeric('revenue_today', (r) => <MoneyCell amount={r.revenue_today} currency={currency} />)] : []),
    numeric('bid_rate', (r) => ratio(r.bid_rate)),
    numeric('win_rate', (r) => ratio(r.win_rate)),
    numeric('timeout_pct', (r) => ratio(r.timeout_pct)),
    ...(money ? [numeric('margin_pct', (r) => ratio(r.margin_pct))] : []),
  ];

  const dayNote = data
    ? Date.parse(data.today_end) < Date.parse(data.as_of) - 3_600_000
      ? t('dp_overview.day_whole', { date: formatDay(data.today_start, timezone, locale) })
      : t('dp_overview.today_since', { time: formatTime(data.today_start, timezone, locale) })
    : null;
  const filtered = onlyWarnings || Boolean(params.get('search'));

  return (
    <div className="bo-page bo-ov" data-testid="partners-overview" data-state={data ? 'ready' : overview.isError ? 'error' : 'loading'}>
      <div className="bo-res-head">
        <div>
          <h1 className="bo-page__title">{t('dp_overview.title')}</h1>
          <Typography.Text type="secondary">{t('dp_overview.intro')}</Typography.Text>
        </div>
        <Space wrap>
          {data ? (
            <Typography.Text type="secondary" data-testid="overview-as-of">
              {t('dp_overview.as_of', { time: `${formatDay(data.as_of, timezone, locale)} ${formatTime(data.as_of, timezone, locale)}` })}
              {dayNote ? ` · ${dayNote}` : ''}
            </Typography.Text>
          ) : null}
          <Button icon={<ReloadOutlined />} onClick={() => void overview.refetch()} loading={overview.isFetching} aria-label={t('dp_overview.refresh')}>
            {t('dp_overview.refresh')}
          </Button>
          <Dropdown
            trigger={['click']}
            disabled={!data || data.total === 0}
            menu={{
              items: [
                { key: 'csv', label: 'CSV', onClick: () => void exportAs('csv') },
                { key: 'xlsx', label: 'XLSX', onClick: () => void exportAs('xlsx') },
              ],
            }}
          >
            <Button icon={<DownloadOutlined />} loading={exporting} data-testid="overview-export">
              {t('resource.export')} <DownOutlined />
            </Button>
          </Dropdown>
        </Space>
      </div>

      <div className="bo-ov-summary" data-testid="overview-summary">
        <Statistic title={t('dp_overview.summary.partners')} value={data ? formatNumber(data.summary.partners, locale, 0) : '–'} />
        <button
          type="button"
          className="bo-ov-summary__warn"
          onClick={() => update({ warning: onlyWarnings ? null : 'true', page: null })}
          aria-pressed={onlyWarnings}
          style={{ borderColor: data && data.summary.warnings > 0 ? token.colorWarning : token.colorBorderSecondary }}
        >
          <Statistic
            title={t('dp_overview.summary.warnings', { pct })}
            value={data ? formatNumber(data.summary.warnings, locale, 0) : '–'}
            styles={{ content: { color: data && data.summary.warnings > 0 ? token.colorWarningText : undefined } }}
            prefix={data && data.summary.warnings > 0 ? <WarningFilled /> : null}
          />
        </button>
        <Statistic
          title={t('dp_overview.summary.qps')}
          value={data ? `${formatNumber(data.summary.current_qps, locale, 0)} / ${formatNumber(data.summary.qps_cap, locale, 0)}` : '–'}
        />
        {money ? (
          <Statistic
            title={t('dp_overview.summary.revenue')}
            value={data ? ' ' : '–'}
            formatter={() => (data?.summary.revenue_today ? <MoneyCell amount={data.summary.revenue_today} currency={currency} /> : '–')}
          />
        ) : null}
      </div>

      <div className="bo-res-filters">
        <Input.Search
          allowClear
          className="bo-res-filter"
          placeholder={t('dp_overview.search')}
          aria-label={t('dp_overview.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="overview-search"
        />
        <label className="bo-ov-switch">
          <Switch size="small" checked={onlyWarnings} onChange={(on) => update({ warning: on ? 'true' : null, page: null })} data-testid="overview-only-warnings" />
          <span>{t('dp_overview.only_warnings', { pct })}</span>
        </label>
      </div>

      {overview.isError ? (
        <Alert
          type="error"
          showIcon
          title={errorText(overview.error)}
          action={<Button size="small" onClick={() => void overview.refetch()}>{t('dp_overview.refresh')}</Button>}
          data-testid="overview-error"
        />
      ) : null}

      <Table<OverviewRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={data?.rows ?? []}
        loading={overview.isFetching && !data}
        scroll={{ x: 'max-content' }}
        rowClassName={(r) => (r.warning ? 'bo-ov-row--warning' : '')}
        onRow={(r) => ({ 'data-testid': `overview-row-${r.id}` }) as HTMLAttributes<HTMLElement>}
        locale={{ emptyText: <Empty description={filtered ? t('dp_overview.empty_filtered') : t('dp_overview.empty')} /> }}
        pagination={{
          current: page,
          pageSize,
          total: data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [25, 50, 100, 200],
          showTotal: (total) => <Typography.Text type="secondary">{t('dp_overview.rows', { count: total })}</Typography.Text>,
        }}
        onChange={(pagination, _filters, sorter, extra) => {
          if (extra.action === 'paginate') update({ page: String(pagination.current ?? 1), page_size: String(pagination.pageSize ?? pageSize) });
          if (extra.action === 'sort') {
            const s = Array.isArray(sorter) ? sorter[0] : sorter;
            update({ sort: s?.order && s.columnKey ? `${s.order === 'descend' ? '-' : ''}${String(s.columnKey)}` : null, page: null });
          }
        }}
      />
    </div>
  );
}
