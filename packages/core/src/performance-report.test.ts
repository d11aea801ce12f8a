import { describe, expect, it } from 'vitest';
import {
  PERFORMANCE_ERRORS,
  PERFORMANCE_METRICS,
  PERFORMANCE_SORTS,
  emptySums,
  fractionToDecimal,
  fractionToPercent,
  isFutureMonth,
  metricChange,
  metricValue,
  monthWindows,
  parseReportMonth,
  parseSort,
  performanceExportQuerySchema,
  performanceQuerySchema,
  performanceValues,
  shiftMonth,
  windowLabel,
  type PerformanceSums,
} from './performance-report.ts';

const sums = (patch: Partial<PerformanceSums>): PerformanceSums => ({ ...emptySums(), ...patch });
const iso = (ms: number) => new Date(ms).toISOString();
const windowsIso = (w: ReturnType<typeof monthWindows>) => ({
  mode: w.mode,
  current: [iso(w.current.startMs), iso(w.current.endMs)],
  previous: [iso(w.previous.startMs), iso(w.previous.endMs)],
});

describe('performance report: exact figures', () => {
  it('writes fractions with 6 decimals, half away from zero, never "-0"', () => {
    expect(fractionToDecimal({ num: 1n, den: 3n })).toBe('0.333333');
    expect(fractionToDecimal({ num: 2n, den: 3n })).toBe('0.666667');
    expect(fractionToDecimal({ num: 1n, den: 2_000_000n })).toBe('0.000001');
    expect(fractionToDecimal({ num: -1n, den: 2_000_000n })).toBe('-0.000001');
    expect(fractionToDecimal({ num: -1n, den: 3_000_000n })).toBe('0.000000');
    expect(fractionToDecimal({ num: 5n, den: 0n })).toBeNull();
    // Beyond 2^53: still exact.
    expect(fractionToDecimal({ num: 123_456_789_012_345_678_901n, den: 1_000_000n })).toBe(
      '123456789012345.678901',
    );
  });

  it('reads each metric as a ratio of sums', () => {
    const s = sums({
      revenue_micros: 2_500_000n,
      cost_micros: 1_000_000n,
      impressions: 1000n,
      bid_requests: 400n,
      bids: 100n,
      wins: 25n,
      timeouts: 8n,
    });
    expect(metricValue('revenue', s)).toBe('2.500000');
    expect(metricValue('cost', s)).toBe('1.000000');
    expect(metricValue('margin', s)).toBe('1.500000');
    expect(metricValue('margin_pct', s)).toBe('0.600000');
    expect(metricValue('impressions', s)).toBe(1000);
    // $2.50 for 1,000 impressions: eCPM $2.50.
    expect(metricValue('ecpm', s)).toBe('2.500000');
    expect(metricValue('bid_rate', s)).toBe('0.250000');
    expect(metricValue('win_rate', s)).toBe('0.250000');
    expect(metricValue('timeout_rate', s)).toBe('0.020000');
    // No denominator: no value (not 0).
    expect(metricValue('ecpm', emptySums())).toBeNull();
    expect(metricValue('margin_pct', emptySums())).toBeNull();
    expect(metricValue('revenue', emptySums())).toBe('0.000000');
  });

  it('changes: relative for money and counts, points for rates, null with nothing to compare with', () => {
    const now = sums({
      revenue_micros: 110_000_000n,
      cost_micros: 60_000_000n,
      impressions: 50_000n,
      bid_requests: 1000n,
      bids: 300n,
      wins: 30n,
    });
    const last = sums({
      revenue_micros: 100_000_000n,
      cost_micros: 200_000_000n,
      impressions: 40_000n,
      bid_requests: 1000n,
      bids: 250n,
      wins: 50n,
    });
    expect(metricChange('revenue', now, last)).toBe('0.100000');
    expect(metricChange('cost', now, last)).toBe('-0.700000');
    // Margin from -100 to +50: up by 150 % of |-100|.
    expect(metricChange('margin', now, last)).toBe('1.500000');
    expect(metricChange('impressions', now, last)).toBe('0.250000');
    // eCPM 2.20 against 2.50: -12 %.
    expect(metricChange('ecpm', now, last)).toBe('-0.120000');
    // Bid rate 30 % against 25 %: +5 points; win rate 10 % against 20 %: -10 points.
    expect(metricChange('bid_rate', now, last)).toBe('0.050000');
    expect(metricChange('win_rate', now, last)).toBe('-0.100000');
    // Margin % 45.4545… % against -100 %: +145.4545 points.
    expect(metricChange('margin_pct', now, last)).toBe('1.454545');
    const nothing = emptySums();
    expect(metricChange('revenue', now, nothing)).toBeNull();
    expect(metricChange('bid_rate', now, nothing)).toBeNull();
    expect(metricChange('ecpm', nothing, last)).toBeNull();
    // Down to nothing from something: -100 %.
    expect(metricChange('revenue', nothing, last)).toBe('-1.000000');
  });

  it('gives a row every metric, last month and the change', () => {
    const v = performanceValues(
      sums({ revenue_micros: 3_000_000n, impressions: 10n }),
      sums({ revenue_micros: 2_000_000n, impressions: 10n }),
    );
    expect(Object.keys(v)).toHaveLength(PERFORMANCE_METRICS.length * 3);
    expect(v).toMatchObject({
      revenue: '3.000000',
      revenue_prev: '2.000000',
      revenue_change: '0.500000',
      impressions_change: '0.000000',
    });
  });

  it('turns a fraction into a percentage exactly', () => {
    expect(fractionToPercent('0.123456')).toBe('12.3456');
    expect(fractionToPercent('-1.500000')).toBe('-150.0000');
    expect(fractionToPercent('0.000001')).toBe('0.0001');
    expect(fractionToPercent('2')).toBe('200');
  });
});

describe('performance report: months and windows', () => {
  it('reads YYYY-MM only, from 2000 on', () => {
    expect(parseReportMonth('2026-11')).toEqual({ year: 2026, month: 11 });
    for (const bad of ['2026-13', '2026-1', '26-11', '2026-11-01', '1999-12', '', null])
      expect(parseReportMonth(bad), String(bad)).toBeNull();
    expect(shiftMonth({ year: 2026, month: 1 }, -1)).toEqual({ year: 2025, month: 12 });
    expect(shiftMonth({ year: 2026, month: 12 }, 1)).toEqual({ year: 2027, month: 1 });
  });

  it('a past month: whole month against the whole previous month', () => {
    const w = monthWindows({ year: 2025, month: 3 }, 'UTC', Date.UTC(2025, 5, 1));
    expect(windowsIso(w)).toEqual({
      mode: 'whole_month',
      current: ['2025-03-01T00:00:00.000Z', '2025-04-01T00:00:00.000Z'],
      previous: ['2025-02-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z'],
    });
    // The data ending exactly at the month's end still makes it whole.
    expect(monthWindows({ year: 2025, month: 3 }, 'UTC', Date.UTC(2025, 3, 1)).mode).toBe('whole_month');
  });

  it('the current month: month to date against the same days and hour of last month', () => {
    const w = monthWindows({ year: 2026, month: 11 }, 'UTC', Date.UTC(2026, 10, 25, 14, 40));
    expect(windowsIso(w)).toEqual({
      mode: 'month_to_date',
      current: ['2026-11-01T00:00:00.000Z', '2026-11-25T14:00:00.000Z'],
      previous: ['2026-10-01T00:00:00.000Z', '2026-10-25T14:00:00.000Z'],
    });
  });

  it('a day last month does not have: the whole of last month', () => {
    // 31 March 10:00 against February (28 days): all of February.
    const w = monthWindows({ year: 2025, month: 3 }, 'UTC', Date.UTC(2025, 2, 31, 10));
    expect(windowsIso(w).previous).toEqual(['2025-02-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z']);
    // 28 February 10:00 against January: the 1st to the 28th at 10:00.
    const feb = monthWindows({ year: 2025, month: 2 }, 'UTC', Date.UTC(2025, 1, 28, 10));
    expect(windowsIso(feb).previous).toEqual(['2025-01-01T00:00:00.000Z', '2025-01-28T10:00:00.000Z']);
  });

  it('local months in the zone, the same wall time across a DST change', () => {
    // 10 April 2025 14:00 in Madrid (CEST, UTC+2) against 10 March 14:00 (CET, UTC+1).
    const w = monthWindows({ year: 2025, month: 4 }, 'Europe/Madrid', Date.parse('2025-04-10T12:00:00Z'));
    expect(windowsIso(w)).toEqual({
      mode: 'month_to_date',
      current: ['2025-03-31T22:00:00.000Z', '2025-04-10T12:00:00.000Z'],
      previous: ['2025-02-28T23:00:00.000Z', '2025-03-10T13:00:00.000Z'],
    });
    // A half-hour zone: bounds are the UTC hours that start them.
    const k = monthWindows({ year: 2025, month: 3 }, 'Asia/Kolkata', Date.UTC(2025, 5, 1));
    expect(windowsIso(k).current).toEqual(['2025-02-28T18:00:00.000Z', '2025-03-31T18:00:00.000Z']);
  });

  it('data that stops before the month: empty windows', () => {
    const w = monthWindows({ year: 2026, month: 11 }, 'UTC', Date.UTC(2026, 9, 20));
    expect(w.current.endMs).toBe(w.current.startMs);
    expect(w.previous.endMs).toBe(w.previous.startMs);
  });

  it('labels windows as local wall times', () => {
    const w = monthWindows({ year: 2026, month: 11 }, 'Europe/Madrid', Date.parse('2026-11-25T13:00:00Z'));
    expect(windowLabel(w.current, 'Europe/Madrid', false)).toBe('2026-11-01 00:00 – 2026-11-25 14:00');
    expect(windowLabel(w.previous, 'Europe/Madrid', false)).toBe('2026-10-01 00:00 – 2026-10-25 14:00');
    expect(windowLabel(w.current, 'Europe/Madrid', true)).toBe('2026-11');
  });

  it('a future month is the next one in the zone, not in UTC', () => {
    const now = Date.parse('2025-03-31T23:30:00Z');
    expect(isFutureMonth({ year: 2025, month: 4 }, 'UTC', now)).toBe(true);
    expect(isFutureMonth({ year: 2025, month: 4 }, 'Europe/Madrid', now)).toBe(false);
    expect(isFutureMonth({ year: 2025, month: 3 }, 'UTC', now)).toBe(false);
  });
});

describe('performance report: query', () => {
  const now = () => Date.parse('2026-11-25T12:00:00Z');
  const schema = performanceQuerySchema(now);
  const errorsOf = (input: unknown) => {
    const r = schema.safeParse(input);
    return r.success
      ? null
      : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.') || '_', i.message]));
  };

  it('defaults the rest of the query', () => {
    expect(schema.parse({ month: '2026-11' })).toEqual({
      month: '2026-11',
      side: 'all',
      search: '',
      sort: '-revenue',
      timezone: 'UTC',
      page: 1,
      page_size: 50,
    });
    expect(
      schema.parse({
        month: '2026-10',
        side: 'ssp',
        sort: 'margin_pct_change',
        page: '3',
        page_size: '20',
        search: '  nimbus ',
        timezone: 'Europe/Madrid',
      }),
    ).toMatchObject({
      page: 3,
      page_size: 20,
      search: 'nimbus',
    });
  });

  it('refuses a missing, malformed or future month with its own message', () => {
    expect(errorsOf({})).toMatchObject({ month: PERFORMANCE_ERRORS.monthRequired });
    expect(errorsOf({ month: '' })).toMatchObject({ month: PERFORMANCE_ERRORS.monthRequired });
    expect(errorsOf({ month: '2026-13' })).toMatchObject({ month: PERFORMANCE_ERRORS.monthInvalid });
    expect(errorsOf({ month: '11/2026' })).toMatchObject({ month: PERFORMANCE_ERRORS.monthInvalid });
    expect(errorsOf({ month: '2026-12' })).toMatchObject({ month: PERFORMANCE_ERRORS.monthFuture });
    expect(errorsOf({ month: '2026-11' })).toBeNull();
  });

  it('refuses bad sides, sorts, pages and zones', () => {
    expect(errorsOf({ month: '2026-11', side: 'supply' })).toMatchObject({
      side: PERFORMANCE_ERRORS.sideInvalid,
    });
    expect(errorsOf({ month: '2026-11', sort: '-nope' })).toMatchObject({
      sort: PERFORMANCE_ERRORS.sortInvalid,
    });
    expect(errorsOf({ month: '2026-11', page: '0' })).toMatchObject({ page: PERFORMANCE_ERRORS.pageInvalid });
    expect(errorsOf({ month: '2026-11', page_size: '500' })).toMatchObject({
      page_size: PERFORMANCE_ERRORS.pageInvalid,
    });
    expect(errorsOf({ month: '2026-11', timezone: 'Mars/Base' })).toMatchObject({
      timezone: PERFORMANCE_ERRORS.timezoneInvalid,
    });
    expect(errorsOf({ month: '2026-11', extra: '1' })).not.toBeNull();
    expect(performanceExportQuerySchema(now).safeParse({ month: '2026-11', format: 'pdf' }).success).toBe(
      false,
    );
    expect(performanceExportQuerySchema(now).parse({ month: '2026-11' }).format).toBe('csv');
  });

  it('sorts by name, any metric, last month or the change', () => {
    expect(PERFORMANCE_SORTS).toContain('timeout_rate_change');
    expect(parseSort('-ecpm_prev')).toEqual({ field: 'ecpm_prev', dir: 'desc' });
    expect(parseSort('name')).toEqual({ field: 'name', dir: 'asc' });
    expect(parseSort('id')).toBeNull();
  });
});
