/**
 * The QPS graph's ECharts option, built from the API's answer (GET /v1/graphs/qps/:graph):
 * one line per partner/endpoint and metric, the cap as a dashed step line per partner that steps
 * at the exact time of a cap change (the audit annotations), the configuration changes as
 * vertical mark lines, a second y axis (ms) for latency next to per-second metrics, zoom (inside
 * + slider) and a brush to pick a range.
 *
 * Time zone: ECharts formats time axes in the browser's zone or UTC only, so instants are shifted
 * by the chosen zone's offset and drawn with `useUTC`: the axis then reads the zone's wall clock.
 * `unshiftFromZone` maps a brushed position back to an instant.
 */
import { formatNumber } from '@backoffice/core/format';
import { zoneOffsetMinutes, type QpsGraph, type QpsMetric, type QpsPoint } from '@backoffice/core/reports';

export type { QpsPoint };

export interface QpsSeries {
  id: number;
  name: string;
  current_cap: number;
  points: QpsPoint[];
}

export interface QpsAnnotation {
  t: string;
  entity_id: number;
  entity_name: string;
  action: string;
  message: string;
  params: Record<string, number | string>;
  actor: { id: number; name: string } | null;
}

export interface QpsGraphAnswer {
  graph: QpsGraph;
  interval: number;
  timezone: string;
  start: string;
  end: string;
  metrics: QpsMetric[];
  series: QpsSeries[];
  annotations: QpsAnnotation[];
}

export type Translate = (key: string, params?: Record<string, string | number>) => string;

export interface ChartContext {
  t: Translate;
  locale: 'en' | 'es';
}

/** The instant drawn so that UTC reads the zone's wall clock. */
export function shiftToZone(epochMs: number, timezone: string): number {
  return epochMs + zoneOffsetMinutes(epochMs, timezone) * 60_000;
}

/** The inverse of shiftToZone (for positions picked on the chart). */
export function unshiftFromZone(shiftedMs: number, timezone: string): number {
  const guess = shiftedMs - zoneOffsetMinutes(shiftedMs, timezone) * 60_000;
  return shiftedMs - zoneOffsetMinutes(guess, timezone) * 60_000;
}

const positive = (n: number | null | undefined): number | null =>
  typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : null;

/**
 * The cap of one partner as step data `[instant, cap]` (draw with `step: 'end'`: a value holds
 * until the next point). A point's cap is the one in force at its bucket's end; a cap change
 * inside a bucket (from the audit log) makes the step at the change's time instead: the bucket
 * starts at the old cap and the new one begins at the change. A cap of 0 or none is a gap.
 */
export function capSteps(
  series: QpsSeries,
  annotations: readonly QpsAnnotation[],
  intervalMinutes: number,
): [number, number | null][] {
  const changes = annotations
    .filter((a) => a.entity_id === series.id && a.message === 'qps.annotation.cap_change')
    .map((a) => ({
      at: Date.parse(a.t),
      from: positive(Number(a.params.from)),
      to: positive(Number(a.params.to)),
    }))
    .sort((a, b) => a.at - b.at);
  const step = intervalMinutes * 60_000;
  const out: [number, number | null][] = [];
  let prevT: number | null = null;
  for (const p of series.points) {
    const t = Date.parse(p.t);
    if (prevT !== null && t - prevT > step) out.push([prevT + step, null]);
    const inside = changes.filter((c) => c.at > t && c.at < t + step);
    if (inside.length > 0) {
      out.push([t, inside[0]!.from]);
      for (const c of inside) out.push([c.at, c.to]);
    } else {
      out.push([t, positive(p.cap)]);
    }
    prevT = t;
  }
  return out;
}

/** A metric's points as `[instant, value]`, with a gap (null) where buckets are missing. */
export function metricData(
  series: QpsSeries,
  metric: QpsMetric,
  intervalMinutes: number,
): [number, number | null][] {
  const step = intervalMinutes * 60_000;
  const out: [number, number | null][] = [];
  let prevT: number | null = null;
  for (const p of series.points) {
    const t = Date.parse(p.t);
    if (prevT !== null && t - prevT > step) out.push([prevT + step, null]);
    const v = p[metric];
    out.push([t, typeof v === 'number' && Number.isFinite(v) ? v : null]);
    prevT = t;
  }
  return out;
}

/** Decimals shown for a metric (QPS as whole numbers, rare events with 2). */
export function metricDecimals(metric: QpsMetric | 'cap'): number {
  return metric === 'timeouts_ps' || metric === 'errors_ps' ? 2 : 0;
}

export function formatMetric(metric: QpsMetric | 'cap', value: number, locale: string): string {
  const text = formatNumber(value, locale, metricDecimals(metric));
  return metric === 'latency_p95' ? `${text} ms` : text;
}

/** "QPS cap 21,000 → 3,600" or "Configuration changed". */
export function annotationChange(a: QpsAnnotation, { t, locale }: ChartContext): string {
  if (a.message === 'qps.annotation.cap_change') {
    return t('qps.annotation.cap_change', {
      from: formatNumber(Number(a.params.from), locale, 0),
      to: formatNumber(Number(a.params.to), locale, 0),
    });
  }
  return t(a.message);
}

/** "QPS cap 21,000 → 3,600 by Priya Natarajan" (who, when known). */
export function annotationText(a: QpsAnnotation, ctx: ChartContext): string {
  const change = annotationChange(a, ctx);
  return a.actor ? ctx.t('qpsui.annotation.by', { change, actor: a.actor.name }) : change;
}

/** Wall-clock text of a shifted instant: `2025-04-01 13:58`. */
export function shiftedText(shiftedMs: number): string {
  return new Date(shiftedMs).toISOString().slice(0, 16).replace('T', ' ');
}

/** One colour per metric when one partner is drawn; one per partner (and a line style per metric) otherwise. */
const METRIC_COLORS: Record<QpsMetric | 'cap', string> = {
  qps: '#5470c6',
  bid_qps: '#3ba272',
  timeouts_ps: '#fc8452',
  errors_ps: '#9a60b4',
  latency_p95: '#2f9fc4',
  cap: '#e8484c',
};
const ENTITY_COLORS = [
  '#5470c6',
  '#3ba272',
  '#fc8452',
  '#9a60b4',
  '#e8484c',
  '#2f9fc4',
  '#d4a017',
  '#ea7ccc',
  '#6e7074',
  '#8b5a2b',
];
const METRIC_LINE: Record<
  QpsMetric,
  { width: number; type: 'solid' | 'dotted' | number[]; opacity: number }
> = {
  qps: { width: 2, type: 'solid', opacity: 1 },
  bid_qps: { width: 1.5, type: 'solid', opacity: 0.6 },
  timeouts_ps: { width: 1.5, type: [8, 3, 2, 3], opacity: 0.9 },
  errors_ps: { width: 1.5, type: 'dotted', opacity: 0.9 },
  latency_p95: { width: 1.5, type: [2, 2], opacity: 0.8 },
};
export const ANNOTATION_COLOR = '#d48806';

export interface SeriesMeta {
  entityId: number;
  metric: QpsMetric | 'cap';
}

/** Series ids carry what they draw: `e<entity>:<metric>`; the changes series is `annotations`. */
export const seriesId = (entityId: number, metric: QpsMetric | 'cap') => `e${entityId}:${metric}`;
export function parseSeriesId(id: string): SeriesMeta | null {
  const m = /^e(\d+):(\w+)$/.exec(id);
  return m ? { entityId: Number(m[1]), metric: m[2] as QpsMetric | 'cap' } : null;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Is the cap drawn? With outgoing QPS (the metric the cap limits). */
export const drawsCap = (metrics: readonly QpsMetric[]) => metrics.includes('qps');

interface TooltipParam {
  seriesId?: string;
  seriesName?: string;
  marker?: string;
  value?: unknown;
  axisValue?: number;
}

/** The ECharts option of an answer. */
export function buildQpsOption(answer: QpsGraphAnswer, ctx: ChartContext): Record<string, unknown> {
  const { t, locale } = ctx;
  const tz = answer.timezone;
  const shift = (ms: number) => shiftToZone(ms, tz);
  const rateMetrics = answer.metrics.filter((m) => m !== 'latency_p95');
  const hasLatency = answer.metrics.includes('latency_p95');
  const latencyAxis = rateMetrics.length > 0 ? 1 : 0;
  const single = answer.series.length === 1;
  const colorOf = (index: number, metric: QpsMetric | 'cap') =>
    single ? METRIC_COLORS[metric] : ENTITY_COLORS[index % ENTITY_COLORS.length]!;
  const points = answer.series.reduce((n, s) => n + s.points.length, 0);
  const lineSeries: Record<string, unknown>[] = [];

  answer.series.forEach((s, index) => {
    for (const metric of answer.metrics) {
      const style = METRIC_LINE[metric];
      lineSeries.push({
        id: seriesId(s.id, metric),
        name: `${s.name} · ${t(`qps.metric.${metric}`)}`,
        type: 'line',
        yAxisIndex: metric === 'latency_p95' ? latencyAxis : 0,
        showSymbol: false,
        connectNulls: false,
        sampling: points > 4000 ? 'lttb' : undefined,
        color: colorOf(index, metric),
        lineStyle: { width: style.width, type: style.type, opacity: style.opacity },
        emphasis: { focus: 'series' },
        data: metricData(s, metric, answer.interval).map(([x, y]) => [shift(x), y]),
      });
    }
    if (drawsCap(answer.metrics)) {
      lineSeries.push({
        id: seriesId(s.id, 'cap'),
        name: `${s.name} · ${t('qps.metric.cap')}`,
        type: 'line',
        yAxisIndex: 0,
        step: 'end',
        showSymbol: false,
        connectNulls: false,
        color: colorOf(index, 'cap'),
        lineStyle: { width: 1.5, type: [6, 4] },
        emphasis: { focus: 'series' },
        data: capSteps(s, answer.annotations, answer.interval).map(([x, y]) => [shift(x), y]),
      });
    }
  });

  const changesName = t('qpsui.changes');
  const annotationMarks = answer.annotations.map((a) => ({
    xAxis: shift(Date.parse(a.t)),
    name: `${a.entity_name}: ${annotationText(a, ctx)}`,
    label: {
      formatter:
        a.message === 'qps.annotation.cap_change' ? annotationChange(a, ctx).replace(/^[^0-9]*/, '') : '✎',
    },
  }));
  if (annotationMarks.length > 0) {
    lineSeries.push({
      id: 'annotations',
      name: changesName,
      type: 'line',
      color: ANNOTATION_COLOR,
      data: [],
      markLine: {
        silent: false,
        symbol: ['none', 'circle'],
        symbolSize: 6,
        animation: false,
        lineStyle: { color: ANNOTATION_COLOR, type: 'solid', width: 1.5 },
        label: { position: 'end', fontSize: 11, color: ANNOTATION_COLOR },
        tooltip: {
          formatter: (p: { name?: string; value?: number }) =>
            `${escapeHtml(p.name ?? '')}<br/>${shiftedText(Number(p.value))} (${escapeHtml(tz)})`,
        },
        data: annotationMarks,
      },
    });
  }

  const compact = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
  const yAxis: Record<string, unknown>[] = [];
  if (rateMetrics.length > 0) {
    yAxis.push({
      type: 'value',
      name: t('qpsui.axis.per_second'),
      min: 0,
      axisLabel: { formatter: (v: number) => compact.format(v) },
    });
  }
  if (hasLatency) {
    yAxis.push({
      type: 'value',
      name: t('qpsui.axis.ms'),
      min: 0,
      position: latencyAxis === 1 ? 'right' : 'left',
      splitLine: { show: latencyAxis === 0 },
      axisLabel: { formatter: (v: number) => compact.format(v) },
    });
  }

  const dayLabel = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const intervalMs = answer.interval * 60_000;
  const marksIn = (x: number) => annotationMarks.filter((m) => m.xAxis >= x && m.xAxis < x + intervalMs);

  return {
    useUTC: true,
    animation: points < 3000,
    legend: { type: 'scroll', top: 0, left: 0, right: 0, textStyle: { fontSize: 12 } },
    grid: { left: 8, right: hasLatency && latencyAxis === 1 ? 8 : 16, top: 84, bottom: 56 },
    // Under the legend, above the axis names (the legend takes the whole first line).
    toolbox: {
      right: 4,
      top: 28,
      itemSize: 16,
      feature: {
        brush: {
          type: ['lineX', 'clear'],
          title: { lineX: t('qpsui.brush'), clear: t('qpsui.brush_clear') },
        },
        restore: { title: t('qpsui.zoom_reset') },
      },
    },
    brush: {
      xAxisIndex: 0,
      brushLink: 'all',
      throttleType: 'debounce',
      throttleDelay: 300,
      brushStyle: { color: 'rgba(84,112,198,0.15)' },
    },
    tooltip: {
      trigger: 'axis',
      confine: true,
      axisPointer: { type: 'line' },
      formatter: (raw: TooltipParam | TooltipParam[]) => {
        const params = (Array.isArray(raw) ? raw : [raw]).filter((p) => p.seriesId !== 'annotations');
        const x = Number(
          params[0]?.axisValue ??
            (Array.isArray(params[0]?.value) ? (params[0]!.value as unknown[])[0] : NaN),
        );
        const rows = params.flatMap((p) => {
          const meta = parseSeriesId(p.seriesId ?? '');
          const v = Array.isArray(p.value) ? (p.value as unknown[])[1] : null;
          if (!meta || typeof v !== 'number') return [];
          return [
            `${p.marker ?? ''}${escapeHtml(p.seriesName ?? '')}: <b>${formatMetric(meta.metric, v, locale)}</b>`,
          ];
        });
        const notes = Number.isFinite(x)
          ? marksIn(x).map(
              (m) =>
                `<span style="color:${ANNOTATION_COLOR}">✎ ${shiftedText(m.xAxis).slice(11)} ${escapeHtml(m.name)}</span>`,
            )
          : [];
        const head = Number.isFinite(x)
          ? `<b>${shiftedText(x)}</b> <span style="opacity:.7">${escapeHtml(tz)}</span>`
          : '';
        return [head, ...rows, ...notes].join('<br/>');
      },
    },
    xAxis: {
      type: 'time',
      min: shift(Date.parse(answer.start)),
      max: shift(Date.parse(answer.end)),
      axisLabel: {
        hideOverlap: true,
        formatter: (v: number) => {
          const d = new Date(v);
          return d.getUTCHours() === 0 && d.getUTCMinutes() === 0
            ? dayLabel.format(d)
            : shiftedText(v).slice(11);
        },
      },
    },
    yAxis,
    dataZoom: [
      { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
      {
        type: 'slider',
        xAxisIndex: 0,
        filterMode: 'none',
        height: 22,
        bottom: 8,
        labelFormatter: (v: number) => shiftedText(v),
      },
    ],
    series: lineSeries,
  };
}

/** What a person reads under the chart for each partner: latest and peak per metric, cap, time at the cap. */
export interface SeriesSummary {
  id: number;
  name: string;
  currentCap: number | null;
  metrics: { metric: QpsMetric; latest: number | null; peak: number | null }[];
  /** Share of buckets (0–1) whose outgoing QPS was within 1 % of the cap; null without qps or cap. */
  atCapShare: number | null;
  changes: number;
}

export function summarise(answer: QpsGraphAnswer): SeriesSummary[] {
  return answer.series.map((s) => {
    const metrics = answer.metrics.map((metric) => {
      const values = s.points.map((p) => p[metric]).filter((v): v is number => typeof v === 'number');
      return {
        metric,
        latest: values.length > 0 ? values[values.length - 1]! : null,
        peak: values.length > 0 ? Math.max(...values) : null,
      };
    });
    let atCapShare: number | null = null;
    if (answer.metrics.includes('qps')) {
      const capped = s.points.filter((p) => typeof p.qps === 'number' && positive(p.cap) !== null);
      // Above the cap only when the cap changed inside the bucket (the cap is the one at its end): not "at" it.
      if (capped.length > 0)
        atCapShare = capped.filter((p) => Math.abs(p.qps! - p.cap!) <= 0.01 * p.cap!).length / capped.length;
    }
    return {
      id: s.id,
      name: s.name,
      currentCap: positive(s.current_cap),
      metrics,
      atCapShare,
      changes: answer.annotations.filter((a) => a.entity_id === s.id).length,
    };
  });
}
