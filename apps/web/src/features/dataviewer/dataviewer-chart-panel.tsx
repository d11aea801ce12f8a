/**
 * The result chart with its metric picker: a line over a time dimension, bars otherwise, one
 * series per value of a second dimension (top 10 and the rest). It runs its own query with the
 * chart's dimensions (at most two) and metric, so rates are exact ratios of sums.
 */
import { currencySymbol, formatMoney, formatNumber } from '@backoffice/core/format';
import { isTimeDimension, METRIC_DEFS, type Metric, type MetricKind } from '@backoffice/core/reports';
import { Alert, Empty, Select, Spin, Typography, theme as antdTheme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart, type EChartOption } from '../../components/echart.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { errorText } from '../../lib/api.ts';
import { useChartRows } from './dataviewer-api.ts';
import { buildChartData } from './dataviewer-chart.ts';
import { dimensionText, formatRatio } from './dataviewer-format.ts';
import { CHART_MAX_ROWS, chartDimensions, type ReportDefinitionBody } from './dataviewer-model.ts';

export interface ChartPanelProps {
  def: ReportDefinitionBody;
  metric: Metric | undefined;
  onMetric: (metric: Metric) => void;
  currency: string;
  height: number;
  /** A narrow screen: fewer bars. */
  narrow?: boolean;
}

function valueFormatter(kind: MetricKind, locale: string, currency: string, compact: boolean) {
  const short = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
  return (v: unknown): string => {
    if (v === null || v === undefined || v === '') return '—';
    const n = Number(v);
    if (!Number.isFinite(n)) return '—';
    if (kind === 'ratio') return formatRatio(String(n), locale, compact ? 0 : 2);
    if (compact) {
      if (kind !== 'money') return short.format(n);
      const symbol = currencySymbol(currency);
      return locale.startsWith('es') ? `${short.format(n)}\u00a0${symbol}` : `${symbol}${short.format(n)}`;
    }
    return kind === 'money' ? formatMoney(String(n), currency, locale) : formatNumber(n, locale, 0);
  };
}

export function ChartPanel({ def, metric, onMetric, currency, height, narrow = false }: ChartPanelProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { token } = antdTheme.useToken();
  const dims = useMemo(() => chartDimensions(def.dimensions), [def.dimensions]);
  const chosen = metric && def.metrics.includes(metric) ? metric : def.metrics[0];
  const kind: MetricKind = chosen ? METRIC_DEFS[chosen].kind : 'count';
  const x = dims[0];
  const chartDef = useMemo<ReportDefinitionBody | null>(() => {
    if (!x || !chosen) return null;
    return {
      ...def,
      dimensions: dims,
      metrics: [chosen],
      sort: [isTimeDimension(x) ? { field: x, dir: 'asc' } : { field: chosen, dir: 'desc' }],
    };
  }, [def, chosen, x, dims]);
  const full = useChartRows(chartDef);
  // Too many rows to draw one series per value of the second dimension: draw the total instead.
  const tooMany = !!full.data && full.data.total_rows > CHART_MAX_ROWS && dims.length > 1;
  const totalDef = useMemo<ReportDefinitionBody | null>(() => (tooMany && chartDef ? { ...chartDef, dimensions: dims.slice(0, 1) } : null), [tooMany, chartDef, dims]);
  const total = useChartRows(totalDef);
  const query = tooMany ? total : full;
  const seriesDim = tooMany ? undefined : dims[1];

  const option = useMemo<EChartOption | null>(() => {
    if (!query.data || !x || !chosen) return null;
    const data = buildChartData({
      rows: query.data.rows,
      x,
      xIsTime: isTimeDimension(x),
      series: seriesDim,
      metric: chosen,
      metricKind: kind,
      label: (dimension, value) => {
        const column = query.data!.columns.find((c) => c.key === dimension);
        return dimensionText(dimension, column?.type ?? 'entity', value, locale, t);
      },
      metricName: t(`report.metric.${chosen}`),
      restName: t('dv.chart.rest'),
      maxCategories: narrow ? 10 : undefined,
    });
    const full = valueFormatter(kind, locale, currency, false);
    const compact = valueFormatter(kind, locale, currency, true);
    const stacked = data.kind === 'bar' && data.series.length > 1 && kind !== 'ratio';
    return {
      animation: false,
      tooltip: { trigger: 'axis', valueFormatter: full, confine: true },
      legend: data.series.length > 1 ? { type: 'scroll', top: 0, textStyle: { color: token.colorText } } : undefined,
      // Axis labels stay inside the box (the first and last dates, rotated names).
      grid: { left: 8, right: 40, top: data.series.length > 1 ? 40 : 16, bottom: 8, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' },
      xAxis: {
        type: 'category',
        data: data.categories,
        boundaryGap: data.kind === 'bar',
        axisLabel: { hideOverlap: true, color: token.colorTextSecondary, ...(data.kind === 'bar' ? { rotate: data.categories.length > 6 ? 30 : 0, width: 110, overflow: 'truncate' } : {}) },
      },
      yAxis: { type: 'value', axisLabel: { formatter: compact, color: token.colorTextSecondary }, splitLine: { lineStyle: { color: token.colorSplit } } },
      series: data.series.map((s) => ({
        type: data.kind,
        name: s.name,
        data: s.data,
        showSymbol: data.categories.length <= 40,
        connectNulls: false,
        ...(stacked ? { stack: 'total' } : {}),
        ...(data.kind === 'line' && data.series.length === 1 ? { areaStyle: { opacity: 0.08 } } : {}),
        emphasis: { focus: 'series' },
      })),
    };
  }, [query.data, x, seriesDim, chosen, kind, locale, currency, t, token, narrow]);

  const picker = (
    <div className="dv-chart__head">
      <label className="dv-chart__label" htmlFor="dv-chart-metric">
        {t('dv.chart.metric')}
      </label>
      <Select<Metric>
        id="dv-chart-metric"
        data-testid="dv-chart-metric"
        className="dv-chart__metric"
        value={chosen}
        disabled={def.metrics.length === 0}
        options={def.metrics.map((m) => ({ value: m, label: t(`report.metric.${m}`) }))}
        onChange={onMetric}
        popupMatchSelectWidth={false}
      />
    </div>
  );

  let body;
  if (!x) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dv.chart.need_dimension')} />;
  else if (!chosen) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dv.chart.need_metric')} />;
  else if (query.isError) body = <Alert type="error" showIcon title={errorText(query.error)} />;
  else if (query.isPending) body = <div className="dv-chart__loading" style={{ height }}><Spin /></div>;
  else if (query.data.rows.length === 0) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('report.no_data')} />;
  else
    body = (
      <>
        <EChart
          option={option ?? {}}
          height={height}
          testId="dv-chart"
          ariaLabel={t('dv.chart.label', { metric: t(`report.metric.${chosen}`), dimension: t(`report.dimension.${x}`) })}
        />
        {tooMany && dims[1] ? (
          <Typography.Text type="secondary" className="dv-chart__note">
            {t('dv.chart.no_series', { dimension: t(`report.dimension.${dims[1]}`) })}
          </Typography.Text>
        ) : null}
        {query.data.total_rows > CHART_MAX_ROWS && isTimeDimension(x) ? (
          <Typography.Text type="secondary" className="dv-chart__note">
            {t('dv.chart.truncated', { count: formatNumber(CHART_MAX_ROWS, locale, 0) })}
          </Typography.Text>
        ) : null}
      </>
    );

  return (
    <section className="dv-chart" aria-label={t('report.chart')}>
      {picker}
      {body}
    </section>
  );
}
