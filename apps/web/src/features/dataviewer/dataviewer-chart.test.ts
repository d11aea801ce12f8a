import type { ReportRow } from '@backoffice/core/reports';
import { describe, expect, it } from 'vitest';
import { buildChartData, REST_KEY, TOP_SERIES } from './dataviewer-chart.ts';

const base = { label: (_d: string, v: string) => `L:${v}`, metricName: 'Revenue', restName: 'Rest' };

describe('buildChartData', () => {
  it('draws a line over a time dimension, in time order', () => {
    const rows: ReportRow[] = [
      { day: '2025-03-02', revenue: '2.500000' },
      { day: '2025-03-01', revenue: '1.250000' },
    ];
    const data = buildChartData({ ...base, rows, x: 'day', xIsTime: true, metric: 'revenue', metricKind: 'money' });
    expect(data).toEqual({ kind: 'line', categories: ['2025-03-01', '2025-03-02'], series: [{ key: 'revenue', name: 'Revenue', data: [1.25, 2.5] }] });
  });

  it('draws bars without a time dimension, biggest first, labelled', () => {
    const rows: ReportRow[] = [
      { country: 'FR', impressions: 10 },
      { country: 'ES', impressions: 30 },
    ];
    const data = buildChartData({ ...base, rows, x: 'country', xIsTime: false, metric: 'impressions', metricKind: 'count' });
    expect(data.kind).toBe('bar');
    expect(data.categories).toEqual(['L:ES', 'L:FR']);
    expect(data.series[0]!.data).toEqual([30, 10]);
  });

  it('makes a series per value of the second dimension: the top 10 and the rest, summed exactly', () => {
    const rows: ReportRow[] = [];
    for (let p = 1; p <= 12; p += 1) {
      rows.push({ day: '2025-03-01', partner: `P${p}`, revenue: `${p}.100000` });
      rows.push({ day: '2025-03-02', partner: `P${p}`, revenue: `${p}.200000` });
    }
    const data = buildChartData({ ...base, rows, x: 'day', xIsTime: true, series: 'partner', metric: 'revenue', metricKind: 'money' });
    expect(data.series).toHaveLength(TOP_SERIES + 1);
    expect(data.series[0]!.name).toBe('L:P12');
    const rest = data.series.at(-1)!;
    expect(rest.key).toBe(REST_KEY);
    // P1 and P2: 1.1 + 2.1 and 1.2 + 2.2
    expect(rest.data).toEqual([3.2, 3.4]);
  });

  it('gives ratios no rest series (ratios do not add up) and gaps where a value has no row', () => {
    const rows: ReportRow[] = [];
    for (let p = 1; p <= 11; p += 1) rows.push({ day: '2025-03-01', partner: `P${p}`, win_rate: `0.${p.toString().padStart(2, '0')}` });
    rows.push({ day: '2025-03-02', partner: 'P11', win_rate: '0.5' });
    const data = buildChartData({ ...base, rows, x: 'day', xIsTime: true, series: 'partner', metric: 'win_rate', metricKind: 'ratio' });
    expect(data.series).toHaveLength(TOP_SERIES);
    expect(data.series.some((s) => s.key === REST_KEY)).toBe(false);
    expect(data.series.find((s) => s.key === 'P10')!.data).toEqual([0.1, null]);
  });
});
