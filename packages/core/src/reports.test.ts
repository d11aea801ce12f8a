import { describe, expect, it } from 'vitest';
import { en, es } from './i18n/catalogues.ts';
import {
  DIMENSIONS,
  METRICS,
  QPS_ERRORS,
  REPORT_ERRORS,
  filterValueId,
  qpsEndAllowed,
  qpsQuerySchema,
  reportQuerySchema,
  resolveReportRange,
  UTC_ZONES,
  wallTimeOf,
  zonedTimeToEpoch,
  zoneOffsetMinutes,
} from './reports.ts';

describe('reports catalogue', () => {
  it('has en and es labels for every dimension, metric and error key', () => {
    const keys = [
      ...DIMENSIONS.map((d) => `report.dimension.${d}`),
      ...METRICS.map((m) => `report.metric.${m}`),
      ...Object.values(REPORT_ERRORS),
      ...Object.values(QPS_ERRORS),
    ];
    for (const k of keys) {
      expect(en, k).toHaveProperty(k);
      expect(es, k).toHaveProperty(k);
    }
    expect(en['report.dates_mandatory']).toBe('Dates are mandatory');
    expect(en['report.dimension_or_metric_required']).toBe('At least one dimension or Metric is required');
    expect(en['report.export_empty']).toBe('Export empty');
  });
});

describe('time zones', () => {
  it('converts local wall times, across DST changes', () => {
    expect(zonedTimeToEpoch({ year: 2025, month: 3, day: 30, hour: 0, minute: 0, second: 0 }, 'Europe/Madrid')).toBe(Date.UTC(2025, 2, 29, 23));
    expect(zonedTimeToEpoch({ year: 2025, month: 3, day: 31, hour: 0, minute: 0, second: 0 }, 'Europe/Madrid')).toBe(Date.UTC(2025, 2, 30, 22));
    // 02:30 does not exist on the change night: moved forward by the jump.
    expect(zonedTimeToEpoch({ year: 2025, month: 3, day: 30, hour: 2, minute: 30, second: 0 }, 'Europe/Madrid')).toBe(Date.UTC(2025, 2, 30, 1, 30));
    // 02:30 happens twice in October: the first one.
    expect(zonedTimeToEpoch({ year: 2025, month: 10, day: 26, hour: 2, minute: 30, second: 0 }, 'Europe/Madrid')).toBe(Date.UTC(2025, 9, 26, 0, 30));
    expect(zoneOffsetMinutes(Date.UTC(2025, 5, 1), 'Asia/Kolkata')).toBe(330);
  });

  it('gives the same wall times and instants in UTC without zone data as through Intl', () => {
    const intl = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    for (const ms of [0, Date.UTC(2024, 1, 29, 23, 59, 59), Date.UTC(2025, 11, 31, 0, 0, 1), Date.UTC(2026, 5, 15, 12, 30, 45, 999)]) {
      const parts = Object.fromEntries(intl.formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]));
      const expected = { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
      for (const zone of UTC_ZONES) {
        expect(wallTimeOf(ms, zone)).toEqual(expected);
        expect(zonedTimeToEpoch(wallTimeOf(ms, zone), zone)).toBe(Math.floor(ms / 1000) * 1000);
      }
    }
    // A wall time that does not exist in the calendar rolls over as Date.UTC does, as before.
    expect(zonedTimeToEpoch({ year: 2025, month: 2, day: 30, hour: 0, minute: 0, second: 0 }, 'UTC')).toBe(Date.UTC(2025, 2, 2));
  });

  it('reads a date-only end as inclusive and a date-time end as exclusive', () => {
    expect(resolveReportRange({ start: '2025-03-01', end: '2025-03-01' }, 'UTC')).toEqual({ startMs: Date.UTC(2025, 2, 1), endMs: Date.UTC(2025, 2, 2) });
    expect(resolveReportRange({ start: '2025-03-01 10:00', end: '2025-03-01T12:00:00' }, 'America/New_York')).toEqual({
      startMs: Date.UTC(2025, 2, 1, 15),
      endMs: Date.UTC(2025, 2, 1, 17),
    });
  });
});

describe('request schemas', () => {
  const base = { range: { start: '2025-03-01', end: '2025-03-02' }, metrics: ['revenue'] };
  const keys = (r: ReturnType<typeof reportQuerySchema.safeParse>) => (r.success ? [] : r.error.issues.map((i) => i.message));

  it('applies the spec rules and the allow-lists', () => {
    expect(reportQuerySchema.safeParse(base).success).toBe(true);
    expect(keys(reportQuerySchema.safeParse({ metrics: ['revenue'] }))).toContain('report.dates_mandatory');
    expect(keys(reportQuerySchema.safeParse({ ...base, metrics: [] }))).toContain('report.dimension_or_metric_required');
    expect(keys(reportQuerySchema.safeParse({ ...base, dimensions: ['nope'] }))).toContain('report.dimension_unknown');
    expect(keys(reportQuerySchema.safeParse({ ...base, filters: [{ dimension: 'country', op: 'include', values: ['ZZ'] }] }))).toContain('report.filter_value_invalid');
    expect(filterValueId('country', 'ES')).toBe(5);
    expect(filterValueId('deal', 0)).toBe(0);
    expect(filterValueId('publisher', 0)).toBeNull();
    expect(filterValueId('publisher', '12')).toBe(12);
    expect(filterValueId('publisher', '1; drop')).toBeNull();
  });

  it('applies the graph rules', () => {
    const ok = { start: '2025-03-01', end: '2025-03-02', metrics: 'qps', ids: '1' };
    expect(qpsQuerySchema.safeParse(ok).success).toBe(true);
    const msg = (v: object) => {
      const r = qpsQuerySchema.safeParse(v);
      return r.success ? [] : r.error.issues.map((i) => i.message);
    };
    expect(msg({ ...ok, metrics: '' })).toContain('qps.metric_required');
    expect(msg({ ...ok, ids: '' })).toContain('qps.filter_required');
    expect(msg({ ...ok, interval: '5' })).toContain('qps.interval_too_short');
    expect(msg({ ...ok, interval: '105' })).toContain('qps.interval_invalid');
    expect(qpsEndAllowed(Date.UTC(2025, 0, 1, 12, 10), Date.UTC(2025, 0, 1, 12))).toBe(true);
    expect(qpsEndAllowed(Date.UTC(2025, 0, 1, 13), Date.UTC(2025, 0, 1, 12))).toBe(false);
  });
});
