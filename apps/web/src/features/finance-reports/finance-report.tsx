/**
 * The finance reports (screens.md "Reports and graphs", docs/decisions/030): one screen component
 * for the five routes under `/finance_reports`, each with its product line and groupings (core's
 * FINANCE_SCREENS). Month x network (publisher, product) rows of revenue, cost, margin, margin %,
 * adjusted revenue, invoiced and collected with month-over-month deltas, a totals row, the
 * months' chart and the latest month's figures on top. Months, grouping, filter, sort, page and
 * page size live in the URL; sorting and paging are the server's; the export is the server's file
 * of every filtered row. On a phone the table scrolls sideways with the name column fixed.
 */
import { DownloadOutlined, FileExcelOutlined } from '@ant-design/icons';
import {
  FINANCE_DEFAULT_SORT,
  FINANCE_DELTA_METRICS,
  FINANCE_METRICS,
  FINANCE_PAGE_SIZE,
  FINANCE_SCREENS,
  defaultFinanceRange,
  financeQuerySchema,
  parseFinanceSort,
  type FinanceAnswer,
  type FinanceEntity,
  type FinanceGroup,
  type FinanceMetric,
  type FinanceRow,
  type FinanceScreen,
  type FinanceValues,
} from '@backoffice/core/finance-reports';
import { formatMoney, formatNumber } from '@backoffice/core/format';
import { fractionToPercent, parseReportMonth } from '@backoffice/core/performance-report';
import { keepPreviousData } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Empty,
  Segmented,
  Select,
  Table,
  Tag,
  Tooltip,
  Typography,
  theme as antdTheme,
  type TableColumnsType,
} from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ColumnChooser, useStoredColumns } from '../../components/column-chooser.tsx';
import { MonthInput } from '../../components/month-input.tsx';
import { ScrollRegion } from '../../components/scroll-region.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { downloadApiFile } from '../../lib/api-file.ts';
import { errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { useApiQuery } from '../../lib/query.ts';
import { useSession } from '../../lib/session-store.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { Page } from '../../shell/page.tsx';
import { FinanceChart } from './finance-chart.tsx';
import './finance-reports.css';

const PAGE_SIZES = [20, 50, 100, 200] as const;
const NBSP = '\u00a0';
const MINUS = '\u2212';

// ------------------------------------------------------------------------------------ URL state

interface ViewState {
  from: string;
  to: string;
  group: FinanceGroup;
  ids: number[];
  sort: string;
  page: number;
  pageSize: number;
}

function readState(search: URLSearchParams, screen: FinanceScreen): ViewState {
  const groups = FINANCE_SCREENS[screen].groups as readonly FinanceGroup[];
  const range = defaultFinanceRange();
  const group = search.get('group') ?? '';
  const sort = search.get('sort') ?? '';
  const page = Number(search.get('page'));
  const size = Number(search.get('size'));
  const ids = (search.get('ids') ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0)
    .slice(0, 100);
  return {
    from: search.get('from') ?? range.from,
    to: search.get('to') ?? range.to,
    group: groups.includes(group as FinanceGroup) ? (group as FinanceGroup) : groups[0]!,
    ids,
    sort: parseFinanceSort(sort) ? sort : FINANCE_DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? size : FINANCE_PAGE_SIZE,
  };
}

function writeState(s: ViewState, screen: FinanceScreen): URLSearchParams {
  const out = new URLSearchParams({ from: s.from, to: s.to });
  if (FINANCE_SCREENS[screen].groups.length > 1) out.set('group', s.group);
  if (s.ids.length > 0) out.set('ids', s.ids.join(','));
  if (s.sort !== FINANCE_DEFAULT_SORT) out.set('sort', s.sort);
  if (s.page > 1) out.set('page', String(s.page));
  if (s.pageSize !== FINANCE_PAGE_SIZE) out.set('size', String(s.pageSize));
  return out;
}

function apiQuery(s: ViewState, screen: FinanceScreen): Record<string, string | number> {
  return {
    from: s.from,
    to: s.to,
    product: FINANCE_SCREENS[screen].product,
    group: s.group,
    ids: s.group === 'product' ? '' : s.ids.join(','),
    sort: s.sort,
    page: s.page,
    page_size: s.pageSize,
  };
}

// ------------------------------------------------------------------------------------ values

const percentSuffix = (locale: string) => (locale === 'es' ? `${NBSP}%` : '%');

export function formatFigure(
  metric: FinanceMetric,
  value: string | number | null | undefined,
  currency: string,
  locale: string,
): string {
  if (value === null || value === undefined) return '';
  if (metric === 'impressions') return formatNumber(value, locale, 0);
  if (metric === 'margin_pct')
    return `${formatNumber(fractionToPercent(String(value)), locale, 2)}${percentSuffix(locale)}`;
  return formatMoney(value, currency, locale);
}

/** A delta as the chip shows it: "+12.5%" of last month (money), "+2.1 pp" (margin %). */
function deltaText(
  metric: FinanceMetric,
  values: FinanceValues,
  locale: string,
): { text: string; direction: 'up' | 'down' | 'flat' } | null {
  const raw =
    metric === 'margin_pct'
      ? values.margin_pct_delta
      : (values as Record<string, string | number | null>)[`${metric}_delta_pct`];
  if (raw === null || raw === undefined) return null;
  const number = formatNumber(fractionToPercent(String(raw)), locale, 1);
  const unsigned = number.replace(/^-/, '');
  const direction = /^[0.,]+$/.test(unsigned) ? 'flat' : number.startsWith('-') ? 'down' : 'up';
  const sign = direction === 'up' ? '+' : direction === 'down' ? MINUS : '';
  const unit = metric === 'margin_pct' ? `${NBSP}${locale === 'es' ? 'p.p.' : 'pp'}` : percentSuffix(locale);
  return { text: `${sign}${unsigned}${unit}`, direction };
}

function Delta({ metric, values }: { metric: FinanceMetric; values: FinanceValues }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { token } = antdTheme.useToken();
  const dark = useSession((s) => s.theme) === 'dark';
  if (!(FINANCE_DELTA_METRICS as readonly string[]).includes(metric)) return null;
  const d = deltaText(metric, values, locale);
  if (!d) return null;
  const good = metric === 'cost' || d.direction === 'flat' ? null : d.direction === 'up';
  // antd's success and error text colours are below 4.5:1 at 12 px on white (the performance report's choice).
  const color =
    good === null
      ? token.colorTextSecondary
      : good
        ? dark
          ? '#95de64'
          : '#2b6a12'
        : dark
          ? '#ff7875'
          : '#a8071a';
  return (
    <span className="bo-fin-delta" style={{ color }} data-direction={d.direction}>
      <span aria-hidden="true">{d.direction === 'up' ? '▲' : d.direction === 'down' ? '▼' : '•'}</span>{' '}
      {d.text}
      <span className="bo-visually-hidden"> {t('finance_reports.delta.vs_previous')}</span>
    </span>
  );
}

function Figure({
  metric,
  values,
  currency,
}: {
  metric: FinanceMetric;
  values: FinanceValues;
  currency: string;
}) {
  const locale = useLocale();
  const text = formatFigure(
    metric,
    (values as Record<string, string | number | null>)[metric],
    currency,
    locale,
  );
  return (
    <div className="bo-fin-figure">
      <span className="bo-fin-num">{text === '' ? '—' : text}</span>
      <Delta metric={metric} values={values} />
    </div>
  );
}

// ------------------------------------------------------------------------------------ export

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
      const name = await downloadApiFile(
        '/v1/finance-reports/export',
        { ...query, format },
        `finance_report.${format}`,
      );
      void notice.success(t('finance_reports.export.done', { name }));
    } catch (error) {
      const key = error instanceof FetchError ? error.key : null;
      if (key === 'report.export_empty') void notice.warning(t('report.export_empty'));
      else if (!isSessionError(error)) void notice.error(errorText(error));
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <Button
        icon={<DownloadOutlined />}
        loading={busy === 'csv'}
        disabled={disabled || busy === 'xlsx'}
        onClick={() => void run('csv')}
        data-testid="fin-export-csv"
      >
        {t('report.export_csv')}
      </Button>
      <Button
        icon={<FileExcelOutlined />}
        loading={busy === 'xlsx'}
        disabled={disabled || busy === 'csv'}
        onClick={() => void run('xlsx')}
        data-testid="fin-export-xlsx"
      >
        {t('report.export_xlsx')}
      </Button>
    </>
  );
}

// ------------------------------------------------------------------------------------ page

const HELP: Partial<Record<FinanceMetric, string>> = {
  adjusted_revenue: 'finance_reports.help.adjusted_revenue',
  invoiced: 'finance_reports.help.invoiced',
  collected: 'finance_reports.help.collected',
};
const SUMMARY_METRICS = ['revenue', 'margin', 'adjusted_revenue', 'collected'] as const;

export function FinanceReport({ screen }: { screen: FinanceScreen }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { token } = antdTheme.useToken();
  const { isMobile } = useViewport();
  const config = FINANCE_SCREENS[screen];
  const groups = config.groups as readonly FinanceGroup[];
  const [searchParams, setSearchParams] = useSearchParams();
  const view = useMemo(() => readState(searchParams, screen), [searchParams, screen]);
  const [visible, setVisible] = useStoredColumns<FinanceMetric>(
    `finance_report.${screen}`,
    FINANCE_METRICS,
    FINANCE_METRICS,
  );

  useEffect(() => {
    if (!searchParams.has('from') || !searchParams.has('to'))
      setSearchParams(writeState(view, screen), { replace: true });
  }, [searchParams, setSearchParams, view, screen]);

  const apply = (patch: Partial<ViewState>) => {
    const next = { ...view, ...patch };
    if (!('page' in patch)) next.page = 1;
    setSearchParams(writeState(next, screen));
  };

  const check = useMemo(() => financeQuerySchema().safeParse(apiQuery(view, screen)), [view, screen]);
  const rangeError = check.success ? null : (check.error.issues[0]?.message ?? null);
  const query = check.success ? apiQuery(view, screen) : null;
  const report = useApiQuery<FinanceAnswer>(
    query ? 'finance-reports' : null,
    { query: query ?? {} },
    { placeholderData: keepPreviousData },
  );
  const answer = query ? report.data : undefined;
  const entityGroup = view.group === 'product' ? null : view.group;
  const entities = useApiQuery<FinanceEntity[]>(
    entityGroup ? 'finance-reports/entities' : null,
    { query: { group: entityGroup ?? 'network' } },
    { staleTime: 300_000 },
  );

  const currency = answer?.currency ?? 'USD';
  const sort = parseFinanceSort(view.sort)!;
  const sortOrder = (field: string): 'ascend' | 'descend' | null =>
    sort.field === field ? (sort.dir === 'asc' ? 'ascend' : 'descend') : null;
  const latest = answer?.months.at(-1);

  const columns: TableColumnsType<FinanceRow> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t(`finance_reports.group.${view.group}`),
      fixed: 'start',
      width: isMobile ? 130 : 220,
      sorter: true,
      sortOrder: sortOrder('name'),
      render: (_: unknown, row) => (
        <div className="bo-fin-name">
          <span className="bo-fin-name__text">{row.name}</span>
          {isMobile ? (
            <span className="bo-fin-name__month" style={{ color: token.colorTextSecondary }}>
              {row.month}
            </span>
          ) : null}
        </div>
      ),
    },
    ...(isMobile
      ? []
      : [
          {
            key: 'month',
            dataIndex: 'month',
            title: t('finance_reports.column.month'),
            width: 100,
            sorter: true,
            sortOrder: sortOrder('month'),
            render: (month: string, row: FinanceRow) => (
              <span className="bo-fin-month">
                {month}
                {row.billed ? null : (
                  <Tooltip title={t('finance_reports.not_billed_help')}>
                    <Tag bordered={false} className="bo-fin-unbilled">
                      {t('finance_reports.not_billed')}
                    </Tag>
                  </Tooltip>
                )}
              </span>
            ),
          },
        ]),
    ...FINANCE_METRICS.filter((m) => visible.includes(m)).map((m) => ({
      key: m,
      title: HELP[m] ? (
        <Tooltip title={t(HELP[m])}>
          <span className="bo-fin-help">{t(`finance_reports.metric.${m}`)}</span>
        </Tooltip>
      ) : (
        t(`finance_reports.metric.${m}`)
      ),
      align: 'right' as const,
      width: m === 'impressions' || m === 'margin_pct' ? 120 : 150,
      sorter: true,
      sortOrder: sortOrder(m),
      render: (_: unknown, row: FinanceRow) => <Figure metric={m} values={row} currency={currency} />,
    })),
  ];

  const onTableChange = (
    _p: unknown,
    _f: unknown,
    sorter: SorterResult<FinanceRow> | SorterResult<FinanceRow>[],
  ) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = s?.order ? String(s.columnKey) : null;
    apply({ sort: field ? `${s!.order === 'descend' ? '-' : ''}${field}` : FINANCE_DEFAULT_SORT });
  };

  const filtered = view.ids.length > 0;
  const state = report.isError ? 'error' : answer ? 'ready' : 'loading';
  return (
    <Page title={t(`menu.${screen}`)} testId={`finance-report-${screen}`}>
      <div className="bo-fin" data-state={state}>
        <p className="bo-fin__subtitle" style={{ color: token.colorTextSecondary }}>
          {t(`finance_reports.subtitle.${screen}`)}{' '}
          {config.product !== 'all' ? (
            <Tag color="blue">{t(`finance_reports.product.${config.product}`)}</Tag>
          ) : null}
          <span>{t('finance_reports.currency_note', { currency })}</span>
        </p>

        <div className="bo-fin-toolbar">
          <div className="bo-fin-filters">
            <div className="bo-fin-field">
              <span className="bo-fin-field__label" id={`fin-months-${screen}`}>
                {t('finance_reports.filter.months')}
              </span>
              <div className="bo-fin-months" role="group" aria-labelledby={`fin-months-${screen}`}>
                <MonthInput
                  className="bo-fin-month"
                  value={parseReportMonth(view.from)}
                  onChange={(v) => v && apply({ from: `${v.year}-${String(v.month).padStart(2, '0')}` })}
                  allowClear={false}
                  aria-label={t('finance_reports.filter.from')}
                  id={`fin-from-${screen}`}
                />
                <span aria-hidden="true">–</span>
                <MonthInput
                  className="bo-fin-month"
                  value={parseReportMonth(view.to)}
                  onChange={(v) => v && apply({ to: `${v.year}-${String(v.month).padStart(2, '0')}` })}
                  allowClear={false}
                  aria-label={t('finance_reports.filter.to')}
                  id={`fin-to-${screen}`}
                />
              </div>
              {rangeError ? (
                <Typography.Text type="danger" className="bo-fin-field__error" role="alert">
                  {t(rangeError)}
                </Typography.Text>
              ) : null}
            </div>
            {groups.length > 1 ? (
              <div className="bo-fin-field">
                <span className="bo-fin-field__label" id={`fin-group-${screen}`}>
                  {t('finance_reports.filter.group')}
                </span>
                <Segmented
                  aria-labelledby={`fin-group-${screen}`}
                  value={view.group}
                  options={groups.map((g) => ({ value: g, label: t(`finance_reports.group.${g}`) }))}
                  onChange={(g) => apply({ group: g as FinanceGroup, ids: [] })}
                  data-testid="fin-group"
                />
              </div>
            ) : null}
            {entityGroup ? (
              <div className="bo-fin-field bo-fin-field--grow">
                <label className="bo-fin-field__label" htmlFor={`fin-ids-${screen}`}>
                  {t(`finance_reports.filter.${entityGroup}`)}
                </label>
                <Select
                  id={`fin-ids-${screen}`}
                  mode="multiple"
                  allowClear
                  showSearch={{ optionFilterProp: 'label' }}
                  maxTagCount="responsive"
                  maxCount={100}
                  placeholder={t('finance_reports.filter.all')}
                  value={view.ids}
                  loading={entities.isLoading}
                  options={(entities.data ?? []).map((e) => ({ value: e.id, label: e.name }))}
                  onChange={(ids: number[]) => apply({ ids })}
                  data-testid="fin-ids"
                />
              </div>
            ) : null}
          </div>
          <div className="bo-fin-actions">
            <Button onClick={() => apply({ ...defaultFinanceRange(), ids: [] })}>
              {t('finance_reports.filter.reset')}
            </Button>
            <ColumnChooser
              all={FINANCE_METRICS}
              visible={visible}
              onChange={setVisible}
              label={(m) => t(`finance_reports.metric.${m}`)}
              testId="fin-columns"
            />
            <ExportActions query={query} disabled={!answer || answer.total_rows === 0} />
          </div>
        </div>

        {report.isError ? (
          <Alert
            type="error"
            showIcon
            message={t('finance_reports.load_failed')}
            description={errorText(report.error)}
          />
        ) : null}

        {latest ? (
          <section className="bo-fin-cards" aria-label={t('finance_reports.latest_month')}>
            {SUMMARY_METRICS.map((m) => (
              <div
                key={m}
                className="bo-fin-card"
                style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary }}
                data-testid={`fin-card-${m}`}
              >
                <div className="bo-fin-card__label" style={{ color: token.colorTextSecondary }}>
                  {t(`finance_reports.metric.${m}`)} · {latest.month}
                </div>
                <div className="bo-fin-card__value">
                  {formatFigure(m, latest[m], currency, locale) || '—'}
                </div>
                <Delta metric={m} values={latest} />
              </div>
            ))}
          </section>
        ) : null}

        {answer && answer.months.length > 0 ? (
          <section
            className="bo-fin-chart"
            style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary }}
          >
            <h2 className="bo-fin-chart__title">{t('finance_reports.chart.title')}</h2>
            <FinanceChart months={answer.months} currency={currency} />
          </section>
        ) : null}

        <ScrollRegion label={t(`menu.${screen}`)}>
          <div data-testid="fin-table">
            <Table<FinanceRow>
              className="bo-fin-table"
              rowClassName="bo-fin-row"
              size="small"
              rowKey={(r) => `${r.month}|${r.id ?? r.name}`}
              columns={columns}
              dataSource={answer?.rows ?? []}
              loading={report.isFetching}
              scroll={{ x: 'max-content' }}
              sortDirections={['descend', 'ascend']}
              onChange={onTableChange}
              locale={{
                emptyText: (
                  <Empty
                    description={filtered ? t('finance_reports.empty_filtered') : t('finance_reports.empty')}
                    image={Empty.PRESENTED_IMAGE_SIMPLE}
                  >
                    {filtered ? (
                      <Button onClick={() => apply({ ids: [] })}>{t('finance_reports.clear_filters')}</Button>
                    ) : null}
                  </Empty>
                ),
              }}
              pagination={{
                current: view.page,
                pageSize: view.pageSize,
                total: answer?.total_rows ?? 0,
                showSizeChanger: true,
                pageSizeOptions: PAGE_SIZES.map(String),
                size: isMobile ? 'small' : undefined,
                showTotal: (n) => t('finance_reports.rows', { count: formatNumber(n, locale, 0) }),
                onChange: (page, pageSize) => apply(pageSize !== view.pageSize ? { pageSize } : { page }),
              }}
              summary={() =>
                answer && answer.rows.length > 0 ? (
                  <Table.Summary fixed>
                    <Table.Summary.Row className="bo-fin-totals" data-testid="fin-totals">
                      <Table.Summary.Cell index={0} colSpan={isMobile ? 1 : 2}>
                        <strong>{t('finance_reports.totals')}</strong>
                      </Table.Summary.Cell>
                      {FINANCE_METRICS.filter((m) => visible.includes(m)).map((m, i) => (
                        <Table.Summary.Cell key={m} index={i + (isMobile ? 1 : 2)} align="right">
                          <strong className="bo-fin-num" data-testid={`fin-total-${m}`}>
                            {formatFigure(m, answer.totals[m], currency, locale) || '—'}
                          </strong>
                        </Table.Summary.Cell>
                      ))}
                    </Table.Summary.Row>
                  </Table.Summary>
                ) : null
              }
            />
          </div>
        </ScrollRegion>
      </div>
    </Page>
  );
}
