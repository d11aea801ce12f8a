import { translate } from '@backoffice/core/i18n/catalogues';
import { describe, expect, it } from 'vitest';
import {
  annotationText,
  buildQpsOption,
  capSteps,
  metricData,
  parseSeriesId,
  shiftToZone,
  summarise,
  unshiftFromZone,
  type ChartContext,
  type QpsAnnotation,
  type QpsGraphAnswer,
  type QpsSeries,
} from './qps-chart.ts';

const en: ChartContext = { t: (k, p) => translate('en', k, p), locale: 'en' };
const es: ChartContext = { t: (k, p) => translate('es', k, p), locale: 'es' };
const iso = (h: number, m = 0) => new Date(Date.UTC(2025, 3, 1, h, m)).toISOString();
const ms = (h: number, m = 0) => Date.UTC(2025, 3, 1, h, m);

// Nimbus: cap 21,000 until 11:58 UTC, then 3,600; outgoing QPS flat on the new cap after the cut.
const nimbus: QpsSeries = {
  id: 1,
  name: 'Nimbus Exchange',
  current_cap: 3600,
  points: [
    { t: iso(11, 30), cap: 21000, qps: 15000, bid_qps: 700, latency_p95: 80 },
    { t: iso(11, 45), cap: 3600, qps: 14000, bid_qps: 650, latency_p95: 85 },
    { t: iso(12, 0), cap: 3600, qps: 3600, bid_qps: 200, latency_p95: 60 },
    // 12:15 is missing (no data): a gap
    { t: iso(12, 30), cap: 3600, qps: 3599.5, bid_qps: 190, latency_p95: 62 },
  ],
};
const cut: QpsAnnotation = {
  t: iso(11, 58),
  entity_id: 1,
  entity_name: 'Nimbus Exchange',
  action: 'update',
  message: 'qps.annotation.cap_change',
  params: { from: 21000, to: 3600 },
  actor: { id: 5, name: 'Priya Natarajan' },
};
const answer: QpsGraphAnswer = {
  graph: 'demand',
  interval: 15,
  timezone: 'Europe/Madrid',
  start: iso(11, 30),
  end: iso(12, 45),
  metrics: ['qps', 'bid_qps'],
  series: [nimbus],
  annotations: [cut],
};

type Series = {
  id: string;
  name: string;
  step?: string;
  yAxisIndex?: number;
  lineStyle?: { type?: unknown };
  data: [number, number | null][];
  markLine?: { data: { xAxis: number; name: string; label: { formatter: string } }[] };
};

describe('time zone shift', () => {
  it('draws instants at the zone wall clock and maps picked positions back', () => {
    const t = ms(11, 58);
    expect(new Date(shiftToZone(t, 'Europe/Madrid')).toISOString()).toBe('2025-04-01T13:58:00.000Z');
    expect(unshiftFromZone(shiftToZone(t, 'Europe/Madrid'), 'Europe/Madrid')).toBe(t);
    expect(unshiftFromZone(shiftToZone(t, 'America/New_York'), 'America/New_York')).toBe(t);
  });
});

describe('cap step line', () => {
  it('steps at the exact time of the change inside its bucket, with gaps where buckets are missing', () => {
    expect(capSteps(nimbus, [cut], 15)).toEqual([
      [ms(11, 30), 21000],
      [ms(11, 45), 21000],
      [ms(11, 58), 3600],
      [ms(12, 0), 3600],
      [ms(12, 15), null],
      [ms(12, 30), 3600],
    ]);
  });

  it('ignores other partners’ changes and treats a cap of 0 as no cap', () => {
    const other = { ...cut, entity_id: 2 };
    const steps = capSteps({ ...nimbus, points: [{ t: iso(11, 45), cap: 0, qps: 1 }] }, [other], 15);
    expect(steps).toEqual([[ms(11, 45), null]]);
  });

  it('keeps every change of a bucket in order', () => {
    const up = { ...cut, t: iso(11, 50), params: { from: 20000, to: 21000 } };
    const steps = capSteps({ ...nimbus, points: [nimbus.points[1]!] }, [cut, up], 15);
    expect(steps).toEqual([
      [ms(11, 45), 20000],
      [ms(11, 50), 21000],
      [ms(11, 58), 3600],
    ]);
  });

  it('metric data breaks where buckets are missing', () => {
    expect(metricData(nimbus, 'qps', 15).map(([, v]) => v)).toEqual([15000, 14000, 3600, null, 3599.5]);
  });
});

describe('ECharts option', () => {
  it('draws one line per metric, the dashed cap step line and the change as a mark line, in Madrid time', () => {
    const option = buildQpsOption(answer, en) as {
      series: Series[];
      yAxis: unknown[];
      useUTC: boolean;
      dataZoom: { type: string }[];
      brush: unknown;
    };
    expect(option.useUTC).toBe(true);
    expect(option.series.map((s) => s.name)).toEqual([
      'Nimbus Exchange · Outgoing QPS',
      'Nimbus Exchange · Bid QPS',
      'Nimbus Exchange · QPS cap',
      'Configuration changes',
    ]);
    const cap = option.series[2]!;
    expect(cap.step).toBe('end');
    expect(cap.lineStyle?.type).toEqual([6, 4]);
    expect(cap.data[2]).toEqual([Date.UTC(2025, 3, 1, 13, 58), 3600]);
    const mark = option.series[3]!.markLine!.data[0]!;
    expect(mark.xAxis).toBe(Date.UTC(2025, 3, 1, 13, 58));
    expect(mark.name).toBe('Nimbus Exchange: QPS cap 21,000 → 3,600 by Priya Natarajan');
    expect(mark.label.formatter).toBe('21,000 → 3,600');
    expect(option.yAxis).toHaveLength(1);
    expect(option.dataZoom.map((d) => d.type)).toEqual(['inside', 'slider']);
    expect(option.brush).toBeTruthy();
  });

  it('puts latency on its own ms axis next to per-second metrics, and leaves the cap out without outgoing QPS', () => {
    const option = buildQpsOption({ ...answer, metrics: ['bid_qps', 'latency_p95'] }, es) as {
      series: Series[];
      yAxis: { name: string; position?: string }[];
    };
    expect(option.yAxis.map((a) => a.name)).toEqual(['por segundo', 'ms']);
    expect(option.yAxis[1]!.position).toBe('right');
    const latency = option.series.find((s) => parseSeriesId(s.id)?.metric === 'latency_p95')!;
    expect(latency.yAxisIndex).toBe(1);
    expect(latency.name).toBe('Nimbus Exchange · Latencia p95 (ms)');
    expect(option.series.some((s) => parseSeriesId(s.id)?.metric === 'cap')).toBe(false);
    const alone = buildQpsOption({ ...answer, metrics: ['latency_p95'] }, en) as {
      series: Series[];
      yAxis: { name: string }[];
    };
    expect(alone.yAxis.map((a) => a.name)).toEqual(['ms']);
    expect(alone.series[0]!.yAxisIndex).toBe(0);
  });

  it('tooltips show every value at the time, the zone and the change in that bucket', () => {
    const option = buildQpsOption(answer, en) as { tooltip: { formatter: (p: unknown) => string } };
    const x = Date.UTC(2025, 3, 1, 13, 45);
    const html = option.tooltip.formatter([
      {
        seriesId: 'e1:qps',
        seriesName: 'Nimbus Exchange · Outgoing QPS',
        marker: '',
        value: [x, 14000],
        axisValue: x,
      },
      {
        seriesId: 'e1:cap',
        seriesName: 'Nimbus Exchange · QPS cap',
        marker: '',
        value: [x, 21000],
        axisValue: x,
      },
    ]);
    expect(html).toContain('2025-04-01 13:45');
    expect(html).toContain('Europe/Madrid');
    expect(html).toContain('Outgoing QPS: <b>14,000</b>');
    expect(html).toContain('QPS cap: <b>21,000</b>');
    expect(html).toContain('13:58 Nimbus Exchange: QPS cap 21,000 → 3,600 by Priya Natarajan');
  });
});

describe('annotations and the summary', () => {
  it('says who changed what, in the language', () => {
    expect(annotationText(cut, en)).toBe('QPS cap 21,000 → 3,600 by Priya Natarajan');
    expect(annotationText(cut, es)).toBe('Límite de QPS 21.000 → 3.600 por Priya Natarajan');
    expect(
      annotationText({ ...cut, message: 'qps.annotation.config_change', params: {}, actor: null }, en),
    ).toBe('Configuration changed');
  });

  it('sums up last and peak values, the cap now and the time spent at the cap', () => {
    const [s] = summarise(answer);
    expect(s).toMatchObject({ id: 1, currentCap: 3600, changes: 1 });
    expect(s!.metrics).toEqual([
      { metric: 'qps', latest: 3599.5, peak: 15000 },
      { metric: 'bid_qps', latest: 190, peak: 700 },
    ]);
    // 2 of 4 buckets at (within 1 % of) the cap.
    expect(s!.atCapShare).toBe(0.5);
  });
});
