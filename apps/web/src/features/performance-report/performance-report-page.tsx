/**
 * Performance report (screens.md "Partners": `/partners/performance_report`): per demand partner,
 * a month's revenue, cost, margin, margin %, impressions, eCPM, bid rate, win rate and timeout %
 * against last month, with the change of each (an arrow, a signed text and a colour: green is good
 * news, red bad; cost is neither). The windows compared are the API's (docs/decisions/016) and
 * are spelled out above the table. Month, side, search, sort, page, page size and time zone live
 * in the URL, so a link reproduces the view; sorting and paging are the server's; the export is
 * the server's file of every filtered partner. On a phone the rows become cards with a sort menu.
 */
import { downloadApiFile } from '../../lib/api-file.ts';
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DownloadOutlined,
  FileExcelOutlined,
  MinusOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { formatMoney, formatNumber } from '@backoffice/core/format';
import {
  PERFORMANCE_CURRENCY,
  PERFORMANCE_DEFAULT_SORT,
  PERFORMANCE_METRIC_DEFS,
  PERFORMANCE_METRICS,
  PERFORMANCE_PAGE_SIZE,
  PERFORMANCE_SIDES,
  changeKey,
  formatMonth,
  fractionToPercent,
  monthAt,
  parseReportMonth,
  parseSort,
  performanceQuerySchema,
  prevKey,
  type PerformanceAnswer,
  type PerformanceMetric,
  type PerformanceRow,
  type PerformanceSide,
  type PerformanceValues,
} from '@backoffice/core/performance-report';
import { isValidTimeZone } from '@backoffice/core/time-zones';
import { keepPreviousData } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Checkbox,
  Dropdown,
  Empty,
  Input,
  Pagination,
  Segmented,
  Select,
  Skeleton,
  Table,
  Tag,
  Typography,
  theme as antdTheme,
  type TableColumnsType,
} from 'antd';
import type { GlobalToken } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import {
  useEffect,
  useMemo,
  useState,
  type HTMLAttributes,
  type ReactNode,
  type ThHTMLAttributes,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { MoneyCell } from '../../components/money-cell.tsx';
import { MonthInput } from '../../components/month-input.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { useApiQuery } from '../../lib/query.ts';
import { useSession } from '../../lib/session-store.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { Page } from '../../shell/page.tsx';
import './performance-report.css';

/** The company's zone (the DataViewer's and the QPS graph's default too). */
const DEFAULT_TIMEZONE = 'Europe/Madrid';
const PAGE_SIZES = [20, 50, 100, 200] as const;
const NBSP = '\u00a0';
const MINUS = '\u2212';

// ------------------------------------------------------------------------------------ URL state

interface ViewState {
  month: string;
  side: PerformanceSide;
  search: string;
  sort: string;
  page: number;
  pageSize: number;
  timezone: string;
}

function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The view a URL asks for; what does not parse falls back to its default (the month is checked with the API's rules below). */
function readState(search: URLSearchParams): ViewState {
  const tz = search.get('tz') ?? '';
  const timezone = isValidTimeZone(tz) ? tz : DEFAULT_TIMEZONE;
  const side = search.get('side') ?? 'all';
  const sort = search.get('sort') ?? '';
  const page = Number(search.get('page'));
  const size = Number(search.get('size'));
  return {
    month: search.get('month') ?? formatMonth(monthAt(Date.now(), timezone)),
    side: (PERFORMANCE_SIDES as readonly string[]).includes(side) ? (side as PerformanceSide) : 'all',
    search: (search.get('q') ?? '').slice(0, 200),
    sort: parseSort(sort) ? sort : PERFORMANCE_DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? size : PERFORMANCE_PAGE_SIZE,
    timezone,
  };
}

function writeState(s: ViewState): URLSearchParams {
  const out = new URLSearchParams({ month: s.month });
  if (s.side !== 'all') out.set('side', s.side);
  if (s.search) out.set('q', s.search);
  out.set('sort', s.sort);
  if (s.page > 1) out.set('page', String(s.page));
  if (s.pageSize !== PERFORMANCE_PAGE_SIZE) out.set('size', String(s.pageSize));
  out.set('tz', s.timezone);
  return out;
}

/** The API's query of a view (page and size included; the export ignores them). */
function apiQuery(s: ViewState): Record<string, string | number> {
  return {
    month: s.month,
    side: s.side,
    search: s.search,
    sort: s.sort,
    timezone: s.timezone,
    page: s.page,
    page_size: s.pageSize,
  };
}

// ------------------------------------------------------------------------------------ values

function percentSuffix(locale: string): string {
  return locale === 'es' ? `${NBSP}%` : '%';
}

/** A metric's value as text: money with the currency, rates as percents, counts grouped; '' when missing. */
export function formatMetric(
  metric: PerformanceMetric,
  value: string | number | null | undefined,
  locale: string,
): string {
  if (value === null || value === undefined) return '';
  const kind = PERFORMANCE_METRIC_DEFS[metric].kind;
  if (kind === 'money') return formatMoney(value, PERFORMANCE_CURRENCY, locale);
  if (kind === 'ratio')
    return `${formatNumber(fractionToPercent(String(value)), locale, 2)}${percentSuffix(locale)}`;
  return formatNumber(value, locale, 0);
}

type Direction = 'up' | 'down' | 'flat';
interface Delta {
  text: string | null;
  direction: Direction;
  tone: 'good' | 'bad' | 'neutral';
  /** Words for screen readers ("up 12.5%"). */
  words: string;
}

/** The change of a metric as the chip shows it: +12.5% (relative) or +2.1 pp (rates), 1 decimal. */
export function deltaOf(
  metric: PerformanceMetric,
  change: string | number | null | undefined,
  locale: string,
  t: (k: string) => string,
): Delta {
  if (change === null || change === undefined)
    return { text: null, direction: 'flat', tone: 'neutral', words: t('perf_report.delta.none') };
  const def = PERFORMANCE_METRIC_DEFS[metric];
  const number = formatNumber(fractionToPercent(String(change)), locale, 1);
  const unsigned = number.replace(/^-/, '');
  const direction: Direction = /^[0.,]+$/.test(unsigned) ? 'flat' : number.startsWith('-') ? 'down' : 'up';
  const unit = def.change === 'points' ? `${NBSP}${locale === 'es' ? 'p.p.' : 'pp'}` : percentSuffix(locale);
  const sign = direction === 'up' ? '+' : direction === 'down' ? MINUS : '';
  const tone =
    direction === 'flat' || def.better === 'none'
      ? 'neutral'
      : (direction === 'up') === (def.better === 'up')
        ? 'good'
        : 'bad';
  const unitWords = def.change === 'points' ? ` ${t('perf_report.delta.points')}` : percentSuffix(locale);
  return {
    text: `${sign}${unsigned}${unit}`,
    direction,
    tone,
    words: `${t(`perf_report.delta.${direction}`)} ${unsigned}${unitWords}`,
  };
}

function deltaColours(
  tone: Delta['tone'],
  missing: boolean,
  token: GlobalToken,
  dark: boolean,
): { color: string; background: string } {
  if (missing || tone === 'neutral')
    return { color: token.colorTextSecondary, background: token.colorFillTertiary };
  // antd's success text green is below 4.5:1 on its success background (the dashboard's choice).
  if (tone === 'good') return { color: dark ? '#95de64' : '#2b6a12', background: token.colorSuccessBg };
  return { color: token.colorErrorText, background: token.colorErrorBg };
}

function ChangeChip({
  metric,
  value,
}: {
  metric: PerformanceMetric;
  value: string | number | null | undefined;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { token } = antdTheme.useToken();
  const dark = useSession((s) => s.theme) === 'dark';
  const delta = deltaOf(metric, value, locale, t);
  const { color, background } = deltaColours(delta.tone, delta.text === null, token, dark);
  const Icon =
    delta.direction === 'up'
      ? ArrowUpOutlined
      : delta.direction === 'down'
        ? ArrowDownOutlined
        : MinusOutlined;
  const label = `${t('perf_report.delta.against', { metric: t(`perf_report.metric.${metric}`) })}: ${delta.words}`;
  return (
    <span
      className="bo-perf-delta"
      style={{ color, background }}
      data-direction={delta.text === null ? 'none' : delta.direction}
      data-tone={delta.tone}
      title={label}
    >
      {delta.text === null ? null : <Icon aria-hidden />}
      <span aria-hidden>{delta.text ?? '—'}</span>
      <span className="bo-visually-hidden">{label}</span>
    </span>
  );
}

function MetricText({
  metric,
  value,
}: {
  metric: PerformanceMetric;
  value: string | number | null | undefined;
}) {
  const locale = useLocale();
  if (PERFORMANCE_METRIC_DEFS[metric].kind === 'money')
    return <MoneyCell amount={value ?? null} currency={PERFORMANCE_CURRENCY} highlightNegative />;
  const text = formatMetric(metric, value, locale);
  return <span className="bo-perf-num">{text === '' ? '—' : text}</span>;
}

/** Last month's value, in the secondary colour (named for screen readers). */
function PrevValue({ metric, values }: { metric: PerformanceMetric; values: PerformanceValues }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { token } = antdTheme.useToken();
  const prev = formatMetric(metric, values[prevKey(metric)], locale) || '—';
  return (
    <span
      className="bo-perf-value__prev"
      style={{ color: token.colorTextSecondary }}
      title={t('perf_report.last_month_value', { value: prev })}
    >
      <span className="bo-visually-hidden">{`${t('perf_report.last_month')}: `}</span>
      {prev}
    </span>
  );
}

/** A metric's cell: this period's value, and last month's underneath. */
function ValueCell({ metric, values }: { metric: PerformanceMetric; values: PerformanceValues }) {
  return (
    <div className="bo-perf-value">
      <MetricText metric={metric} value={values[metric]} />
      <PrevValue metric={metric} values={values} />
    </div>
  );
}

// ------------------------------------------------------------------------------------ windows

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(
  kind: 'month' | 'monthShort' | 'day' | 'dayTime',
  locale: string,
  timeZone: string,
): Intl.DateTimeFormat {
  const key = `${kind}|${locale}|${timeZone}`;
  let f = dateFormats.get(key);
  if (!f) {
    const options: Record<typeof kind, Intl.DateTimeFormatOptions> = {
      month: { month: 'long', year: 'numeric' },
      monthShort: { month: 'short', year: 'numeric' },
      day: { day: 'numeric', month: 'short' },
      dayTime: { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
    };
    f = new Intl.DateTimeFormat(locale === 'es' ? 'es-ES' : 'en-GB', { ...options[kind], timeZone });
    dateFormats.set(key, f);
  }
  return f;
}

/** A window's short name for the column headers: "Nov 2026", or "1–25 Nov" for part of a month. */
function shortWindow(
  w: { start: string; end: string },
  whole: boolean,
  timezone: string,
  locale: string,
): string {
  const start = Date.parse(w.start);
  const end = Date.parse(w.end);
  if (whole) return dateFormat('monthShort', locale, timezone).format(start);
  if (end <= start) return dateFormat('monthShort', locale, timezone).format(start);
  // The last day with data: the end is exclusive.
  return dateFormat('day', locale, timezone).formatRange(start, end - 1);
}

/** A window in full for the legend: "November 2026", or "1 Nov, 00:00 – 25 Nov, 14:00". */
function longWindow(
  w: { start: string; end: string },
  whole: boolean,
  timezone: string,
  locale: string,
  t: (k: string, o?: Record<string, string>) => string,
): string {
  const start = Date.parse(w.start);
  if (whole) return dateFormat('month', locale, timezone).format(start);
  const f = dateFormat('dayTime', locale, timezone);
  return t('perf_report.windows.until', { start: f.format(start), end: f.format(Date.parse(w.end)) });
}

// ------------------------------------------------------------------------------------ export

/** Downloads the server's file of every filtered partner; answers the file's name. */
function downloadExport(query: Record<string, string | number>, format: 'csv' | 'xlsx'): Promise<string> {
  return downloadApiFile('/v1/reports/performance/export', { ...query, format }, `performance_report.${format}`);
}

function ExportActions({
  query,
  disabled,
}: {
  query: Record<string, string | number> | null;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const notice = useNotice();
  const [busy, setBusy] = useState<'csv' | 'xlsx' | null>(null);
  const run = async (format: 'csv' | 'xlsx') => {
    if (!query) return;
    setBusy(format);
    try {
      const name = await downloadExport(query, format);
      void notice.success(t('perf_report.export.done', { name }));
    } catch (error) {
      const key = error instanceof FetchError ? error.key : null;
      if (key === 'report.export_empty') void notice.warning(t('report.export_empty'));
      else if (!isSessionError(error)) void notice.error(errorText(error));
    } finally {
      setBusy(null);
    }
  };
  const formats = [
    { format: 'csv', icon: <DownloadOutlined />, label: t('report.export_csv') },
    { format: 'xlsx', icon: <FileExcelOutlined />, label: t('report.export_xlsx') },
  ] as const;
  return (
    <>
      {formats.map((f) => (
        <Button
          key={f.format}
          icon={f.icon}
          loading={busy === f.format}
          disabled={disabled || (busy !== null && busy !== f.format)}
          onClick={() => void run(f.format)}
          data-testid={`perf-export-${f.format}`}
        >
          {f.label}
        </Button>
      ))}
    </>
  );
}

// ------------------------------------------------------------------------------------ columns chooser

const columnsKey = (userId: number | undefined) => `bo.columns.${userId ?? 0}.performance_report`;

/** The metrics shown, remembered per person in local storage. */
function useVisibleMetrics(): [PerformanceMetric[], (next: PerformanceMetric[]) => void] {
  const userId = useSession((s) => s.user?.id);
  const [visible, setVisible] = useState<PerformanceMetric[]>(() => {
    try {
      const saved = JSON.parse(localStorage.getItem(columnsKey(userId)) ?? 'null') as unknown;
      if (Array.isArray(saved)) {
        const kept = PERFORMANCE_METRICS.filter((m) => saved.includes(m));
        if (kept.length > 0) return kept;
      }
    } catch {
      // a broken value: every metric
    }
    return [...PERFORMANCE_METRICS];
  });
  const save = (next: PerformanceMetric[]) => {
    const ordered = PERFORMANCE_METRICS.filter((m) => next.includes(m));
    if (ordered.length === 0) return;
    setVisible(ordered);
    localStorage.setItem(columnsKey(userId), JSON.stringify(ordered));
  };
  return [visible, save];
}

// ------------------------------------------------------------------------------------ page

/**
 * antd writes a sortable header's title into its aria-label, as text ("[object Object]" for the
 * two-line title of a value column, a bare "Change" for every change column): the label a column
 * gives in `data-label` names its metric instead.
 */
function HeaderCell({
  'data-label': label,
  ...props
}: ThHTMLAttributes<HTMLTableCellElement> & { 'data-label'?: string }) {
  return <th {...props} aria-label={label ?? props['aria-label']} />;
}
const TABLE_COMPONENTS = { header: { cell: HeaderCell } };

export default function PerformanceReportPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { token } = antdTheme.useToken();
  const { isMobile } = useViewport();
  const [searchParams, setSearchParams] = useSearchParams();
  const view = useMemo(() => readState(searchParams), [searchParams]);
  const [visible, setVisible] = useVisibleMetrics();

  // A link without a month or zone gets them written in, so that it reproduces this view later.
  useEffect(() => {
    if (!searchParams.has('month') || !searchParams.has('tz') || !searchParams.has('sort'))
      setSearchParams(writeState(view), { replace: true });
  }, [searchParams, setSearchParams, view]);

  const apply = (patch: Partial<ViewState>) => {
    const next = { ...view, ...patch };
    // Anything but the page starts again from the first page.
    if (!('page' in patch)) next.page = 1;
    setSearchParams(writeState(next));
  };

  // The API's own rules, checked before asking (the same messages next to the month).
  const check = useMemo(() => performanceQuerySchema().safeParse(apiQuery(view)), [view]);
  const monthError = check.success
    ? null
    : (check.error.issues.find((i) => i.path[0] === 'month')?.message ?? null);
  const query = check.success ? apiQuery(view) : null;
  const report = useApiQuery<PerformanceAnswer>(
    query ? 'reports/performance' : null,
    { query: query ?? {} },
    { placeholderData: keepPreviousData },
  );
  const answer = query ? report.data : undefined;

  // The search box types freely; the URL (and the request) follow once typing stops.
  const [searchText, setSearchText] = useState(view.search);
  const debounced = useDebouncedValue(searchText, 400);
  useEffect(() => setSearchText(view.search), [view.search]);
  useEffect(() => {
    if (debounced.trim() !== view.search) apply({ search: debounced.trim() });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only typing applies the search
  }, [debounced]);

  const zones = useMemo(
    () => [...new Set(['UTC', DEFAULT_TIMEZONE, browserZone(), view.timezone])],
    [view.timezone],
  );
  const whole = answer?.mode === 'whole_month';
  const filtered = view.side !== 'all' || view.search !== '';
  const sort = parseSort(view.sort)!;

  const currentShort = answer ? shortWindow(answer.windows.current, whole, answer.timezone, locale) : '';
  const previousShort = answer ? shortWindow(answer.windows.previous, whole, answer.timezone, locale) : '';
  const emptyWindow = answer
    ? Date.parse(answer.windows.current.end) <= Date.parse(answer.windows.current.start)
    : false;

  const sortOrder = (field: string) =>
    sort.field === field ? (sort.dir === 'asc' ? 'ascend' : 'descend') : null;
  const columns: TableColumnsType<PerformanceRow> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('perf_report.column.partner'),
      fixed: 'start',
      width: 210,
      sorter: true,
      sortOrder: sortOrder('name'),
      sortDirections: ['ascend', 'descend', 'ascend'],
      showSorterTooltip: false,
      render: (name: string, row) => (
        <div className="bo-perf-partner">
          <span className="bo-perf-partner__name">{name}</span>
          <Tag className="bo-perf-partner__side" bordered={false}>
            {t(`perf_report.side.${row.side}`)}
          </Tag>
        </div>
      ),
    },
    ...visible.map((m) => ({
      key: `group-${m}`,
      title: t(`perf_report.metric.${m}`),
      align: 'center' as const,
      children: [
        {
          key: m,
          dataIndex: m,
          title: (
            <span className="bo-perf-head">
              <span>{currentShort}</span>
              <span className="bo-perf-head__vs" style={{ color: token.colorTextSecondary }}>
                {previousShort}
              </span>
            </span>
          ),
          align: 'right' as const,
          width: 138,
          sorter: true,
          sortOrder: sortOrder(m),
          sortDirections: ['descend', 'ascend', 'descend'] as ('descend' | 'ascend')[],
          showSorterTooltip: false,
          onHeaderCell: () =>
            ({
              'data-label': `${t(`perf_report.metric.${m}`)}, ${currentShort} (${t('perf_report.last_month')}: ${previousShort})`,
            }) as ThHTMLAttributes<HTMLElement>,
          render: (_: unknown, row: PerformanceRow) => <ValueCell metric={m} values={row} />,
        },
        {
          key: changeKey(m),
          dataIndex: changeKey(m),
          title: t('perf_report.column.change'),
          align: 'right' as const,
          width: 108,
          sorter: true,
          sortOrder: sortOrder(changeKey(m)),
          sortDirections: ['descend', 'ascend', 'descend'] as ('descend' | 'ascend')[],
          showSorterTooltip: false,
          onHeaderCell: () =>
            ({
              'data-label': `${t(`perf_report.metric.${m}`)}, ${t('perf_report.column.change')}`,
            }) as ThHTMLAttributes<HTMLElement>,
          render: (v: string | null) => <ChangeChip metric={m} value={v} />,
        },
      ],
    })),
  ];

  const totalsRow =
    answer && answer.rows.length > 0
      ? () => (
          <Table.Summary>
            <Table.Summary.Row className="bo-perf-totals" data-testid="perf-totals">
              <Table.Summary.Cell index={0}>
                <strong>{t('perf_report.totals')}</strong>
              </Table.Summary.Cell>
              {visible.flatMap((m, i) => [
                <Table.Summary.Cell key={m} index={1 + 2 * i} align="right">
                  <strong>
                    <ValueCell metric={m} values={answer.totals} />
                  </strong>
                </Table.Summary.Cell>,
                <Table.Summary.Cell key={changeKey(m)} index={2 + 2 * i} align="right">
                  <ChangeChip metric={m} value={answer.totals[changeKey(m)]} />
                </Table.Summary.Cell>,
              ])}
            </Table.Summary.Row>
          </Table.Summary>
        )
      : undefined;

  const empty = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        emptyWindow
          ? t('perf_report.windows.empty')
          : filtered
            ? t('perf_report.empty_filtered')
            : t('perf_report.empty')
      }
      data-testid="perf-empty"
    >
      {filtered ? (
        <Button onClick={() => apply({ side: 'all', search: '' })} data-testid="perf-clear-filters">
          {t('perf_report.clear_filters')}
        </Button>
      ) : null}
    </Empty>
  );

  const chooser = (
    <div
      className="bo-perf-chooser"
      role="group"
      aria-label={t('perf_report.columns')}
      style={{ background: token.colorBgElevated, boxShadow: token.boxShadowSecondary }}
    >
      {PERFORMANCE_METRICS.map((m) => (
        <Checkbox
          key={m}
          checked={visible.includes(m)}
          disabled={visible.length === 1 && visible.includes(m)}
          onChange={(e) => setVisible(e.target.checked ? [...visible, m] : visible.filter((x) => x !== m))}
        >
          {t(`perf_report.metric.${m}`)}
        </Checkbox>
      ))}
    </div>
  );

  const sortOptions = [
    { value: 'name', label: t('perf_report.sort.name') },
    ...PERFORMANCE_METRICS.flatMap((m) => {
      const metric = t(`perf_report.metric.${m}`);
      return [
        { value: m, label: t('perf_report.sort.value', { metric }) },
        { value: prevKey(m), label: t('perf_report.sort.prev', { metric }) },
        { value: changeKey(m), label: t('perf_report.sort.change', { metric }) },
      ];
    }),
  ];

  const state = !query ? 'invalid' : answer ? 'ready' : report.isError ? 'error' : 'loading';
  return (
    <Page title={t('menu.performance_report')} testId="performance-report">
      <div className="bo-perf" data-state={state}>
        <p className="bo-perf__subtitle" style={{ color: token.colorTextSecondary }}>
          {t('perf_report.subtitle')}
        </p>

        <div className="bo-perf-toolbar">
          <div className="bo-perf-filters">
            <div className="bo-perf-field">
              <label htmlFor="perf-month" className="bo-perf-field__label">
                {t('perf_report.filter.month')}
              </label>
              <MonthInput
                id="perf-month"
                value={parseReportMonth(view.month)}
                onChange={(m) => m && apply({ month: formatMonth(m) })}
                allowClear={false}
                timeZone={view.timezone}
                status={monthError ? 'error' : undefined}
                className="bo-perf-month"
              />
              {monthError ? (
                <div
                  className="bo-perf-field__error"
                  role="alert"
                  style={{ color: token.colorErrorText }}
                  data-testid="perf-month-error"
                >
                  {t(monthError)}
                </div>
              ) : null}
            </div>
            <div className="bo-perf-field">
              <label htmlFor="perf-tz" className="bo-perf-field__label">
                {t('perf_report.filter.timezone')}
              </label>
              <Select
                id="perf-tz"
                value={view.timezone}
                onChange={(tz: string) => apply({ timezone: tz })}
                popupMatchSelectWidth={false}
                className="bo-perf-tz"
                options={zones.map((z) => ({
                  value: z,
                  label:
                    z === browserZone() && z !== DEFAULT_TIMEZONE && z !== 'UTC'
                      ? t('perf_report.filter.timezone_browser', { zone: z })
                      : z,
                }))}
                data-testid="perf-timezone"
              />
            </div>
            <div className="bo-perf-field">
              <span className="bo-perf-field__label" id="perf-side-label">
                {t('perf_report.filter.side')}
              </span>
              <Segmented
                aria-labelledby="perf-side-label"
                value={view.side}
                onChange={(v) => apply({ side: v as PerformanceSide })}
                options={PERFORMANCE_SIDES.map((s) => ({ value: s, label: t(`perf_report.side.${s}`) }))}
                data-testid="perf-side"
              />
            </div>
            <div className="bo-perf-field bo-perf-field--grow">
              <label htmlFor="perf-search" className="bo-perf-field__label">
                {t('perf_report.filter.search')}
              </label>
              <Input.Search
                id="perf-search"
                allowClear
                value={searchText}
                onChange={(e) => setSearchText(e.target.value)}
                onSearch={(v) => apply({ search: v.trim() })}
                maxLength={200}
                data-testid="perf-search"
              />
            </div>
          </div>
          <div className="bo-perf-actions">
            {!isMobile ? (
              <Dropdown trigger={['click']} popupRender={() => chooser}>
                <Button icon={<SettingOutlined />} data-testid="perf-columns">
                  {t('perf_report.columns')}
                </Button>
              </Dropdown>
            ) : null}
            <ExportActions query={query} disabled={!answer || answer.total_rows === 0} />
          </div>
        </div>

        {answer ? (
          <div
            className="bo-perf-windows"
            data-testid="perf-windows"
            data-mode={answer.mode}
            style={{ background: token.colorFillQuaternary, borderColor: token.colorBorderSecondary }}
          >
            <Tag
              bordered={false}
              className="bo-perf-windows__mode"
              style={{ color: token.colorTextHeading, background: token.colorFillSecondary }}
            >
              {t(`perf_report.mode.${answer.mode}`)}
            </Tag>
            <span data-testid="perf-windows-text">
              {t(`perf_report.windows.${answer.mode}`, {
                current: longWindow(answer.windows.current, whole, answer.timezone, locale, t),
                previous: longWindow(answer.windows.previous, whole, answer.timezone, locale, t),
              })}
            </span>
          </div>
        ) : query && !report.isError ? (
          <Skeleton.Input active size="small" block className="bo-perf-windows__skeleton" />
        ) : null}

        {answer?.partial_data && answer.data ? (
          <Alert
            type="warning"
            showIcon
            className="bo-perf-alert"
            data-testid="perf-partial"
            title={t('perf_report.partial_data', {
              date: dateFormat('dayTime', locale, answer.timezone).format(Date.parse(answer.data.start)),
            })}
          />
        ) : null}

        {query && report.isError ? (
          <Alert
            type="error"
            showIcon
            className="bo-perf-alert"
            data-testid="perf-error"
            title={t('perf_report.load_failed')}
            description={errorText(report.error)}
            action={
              <Button size="small" onClick={() => void report.refetch()}>
                {t('common.retry')}
              </Button>
            }
          />
        ) : null}

        {!query ? null : isMobile ? (
          <MobileList
            answer={answer}
            loading={report.isFetching}
            visible={visible}
            sort={view.sort}
            sortOptions={sortOptions}
            onSort={(s) => apply({ sort: s })}
            empty={empty}
            page={view.page}
            pageSize={view.pageSize}
            onPage={(page, pageSize) => apply(pageSize !== view.pageSize ? { page: 1, pageSize } : { page })}
            currentShort={currentShort}
            previousShort={previousShort}
          />
        ) : (
          <Table<PerformanceRow>
            className="bo-perf-table"
            components={TABLE_COMPONENTS}
            data-testid="perf-table"
            rowKey="id"
            size="small"
            bordered
            columns={columns}
            dataSource={answer?.rows ?? []}
            loading={!!query && report.isFetching}
            scroll={{ x: 'max-content' }}
            summary={totalsRow}
            onRow={(row) => ({ 'data-testid': `perf-row-${row.id}` }) as HTMLAttributes<HTMLElement>}
            locale={{ emptyText: answer ? empty : <span /> }}
            pagination={{
              current: view.page,
              pageSize: view.pageSize,
              total: answer?.total_rows ?? 0,
              showSizeChanger: true,
              pageSizeOptions: [...PAGE_SIZES],
              hideOnSinglePage: false,
              showTotal: (total) => (
                <Typography.Text type="secondary">{t('perf_report.rows', { count: total })}</Typography.Text>
              ),
            }}
            onChange={(pagination, _filters, sorter, extra) => {
              if (extra.action === 'paginate') {
                const size = pagination.pageSize ?? view.pageSize;
                apply(
                  size !== view.pageSize ? { page: 1, pageSize: size } : { page: pagination.current ?? 1 },
                );
              }
              if (extra.action === 'sort') {
                const s = (Array.isArray(sorter) ? sorter[0] : sorter) as
                  SorterResult<PerformanceRow> | undefined;
                const field = s?.columnKey === undefined ? null : String(s.columnKey);
                apply({
                  sort:
                    !s?.order || !field
                      ? PERFORMANCE_DEFAULT_SORT
                      : `${s.order === 'descend' ? '-' : ''}${field}`,
                });
              }
            }}
          />
        )}
      </div>
    </Page>
  );
}

// ------------------------------------------------------------------------------------ phone

interface MobileListProps {
  answer: PerformanceAnswer | undefined;
  loading: boolean;
  visible: PerformanceMetric[];
  sort: string;
  sortOptions: { value: string; label: string }[];
  onSort: (sort: string) => void;
  empty: ReactNode;
  page: number;
  pageSize: number;
  onPage: (page: number, pageSize: number) => void;
  currentShort: string;
  previousShort: string;
}

/** A card per partner (and one for the totals first): every chosen metric with last month and the change. */
function MobileList({
  answer,
  loading,
  visible,
  sort,
  sortOptions,
  onSort,
  empty,
  page,
  pageSize,
  onPage,
  currentShort,
  previousShort,
}: MobileListProps) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const parsed = parseSort(sort)!;
  const card = (key: string, title: ReactNode, values: PerformanceValues, testId: string) => (
    <section
      key={key}
      className="bo-perf-card"
      data-testid={testId}
      style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary }}
    >
      <h2 className="bo-perf-card__title" style={{ color: token.colorTextHeading }}>
        {title}
      </h2>
      <dl className="bo-perf-card__grid">
        {visible.map((m) => (
          <div key={m} className="bo-perf-card__metric">
            <dt style={{ color: token.colorTextSecondary }}>{t(`perf_report.metric.${m}`)}</dt>
            <dd>
              <MetricText metric={m} value={values[m]} />
              <span className="bo-perf-card__sub">
                <PrevValue metric={m} values={values} />
                <ChangeChip metric={m} value={values[changeKey(m)]} />
              </span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
  return (
    <div className="bo-perf-mobile" data-testid="perf-cards" aria-busy={loading}>
      <div className="bo-perf-mobile__sort">
        <label htmlFor="perf-sort" className="bo-perf-field__label">
          {t('perf_report.sort_by')}
        </label>
        <div className="bo-perf-mobile__sort-row">
          <Select
            id="perf-sort"
            value={parsed.field}
            onChange={(f: string) => onSort(`${parsed.dir === 'desc' ? '-' : ''}${f}`)}
            options={sortOptions}
            className="bo-perf-mobile__sort-field"
            data-testid="perf-sort"
          />
          <Segmented
            value={parsed.dir}
            onChange={(d) => onSort(`${d === 'desc' ? '-' : ''}${parsed.field}`)}
            options={[
              {
                value: 'desc',
                label: <ArrowDownOutlined aria-label={t('perf_report.sort.desc')} />,
                title: t('perf_report.sort.desc'),
              },
              {
                value: 'asc',
                label: <ArrowUpOutlined aria-label={t('perf_report.sort.asc')} />,
                title: t('perf_report.sort.asc'),
              },
            ]}
          />
        </div>
      </div>
      {currentShort ? (
        <p className="bo-perf-mobile__legend" style={{ color: token.colorTextSecondary }}>
          {`${currentShort} · ${t('perf_report.last_month')}: ${previousShort}`}
        </p>
      ) : null}
      {!answer ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : answer.rows.length === 0 ? (
        empty
      ) : (
        <>
          {card('totals', t('perf_report.totals'), answer.totals, 'perf-totals')}
          {answer.rows.map((r) =>
            card(
              String(r.id),
              <>
                {r.name}{' '}
                <Tag bordered={false} className="bo-perf-partner__side">
                  {t(`perf_report.side.${r.side}`)}
                </Tag>
              </>,
              r,
              `perf-row-${r.id}`,
            ),
          )}
          <Pagination
            className="bo-perf-mobile__pages"
            simple
            current={page}
            pageSize={pageSize}
            total={answer.total_rows}
            onChange={onPage}
            showSizeChanger={false}
          />
          <Typography.Text type="secondary">
            {t('perf_report.rows', { count: answer.total_rows })}
          </Typography.Text>
        </>
      )}
    </div>
  );
}
