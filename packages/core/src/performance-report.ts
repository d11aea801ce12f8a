/**
 * The Performance report (`/partners/performance_report`, API `GET /v1/reports/performance`):
 * per demand partner, a month's revenue, cost, margin, margin %, impressions, eCPM, bid rate,
 * win rate and timeout % against last month, with the change of each. Shared by the API (query
 * schema, the exact figures, the comparison windows) and the web app (the same rules and labels).
 *
 * Comparison windows (docs/decisions/016-performance-report.md):
 * - a past month: the whole month against the whole previous month (local months in the
 *   report's time zone);
 * - the current month (or a month the loaded data stops inside): month to date against the same
 *   part of last month, from its first day to the same day and wall time ("1–25 Nov until 14:00"
 *   against "1–25 Oct until 14:00"); when last month is shorter than that day, the whole of it.
 * Bounds are whole UTC hours (the warehouse's grain), like the dashboard's.
 *
 * Figures are exact: sums of integer micro-units and counts as BigInt, every value a ratio of
 * sums (never an average of ratios) written with 6 decimals, half away from zero. The change is
 * relative ((this - last) / |last|) for money and counts, and a difference in points for rates;
 * null when there is nothing to compare with (last month 0, or a rate without a denominator).
 */
import { z } from 'zod';
import { compareMonth, daysInMonth, type MonthValue } from './dates.ts';
import { isValidTimeZone, wallTimeOf, zonedTimeToEpoch } from './time-zones.ts';

/** The ACL resource of the screen and its API (read). */
export const PERFORMANCE_REPORT_RESOURCE = '/v1/reports/performance';
/** Base name of the export files (`performance_report_YYYY-MM-DD_HHmmss.csv`). */
export const PERFORMANCE_EXPORT_NAME = 'performance_report';
export const PERFORMANCE_CURRENCY = 'USD';
export const PERFORMANCE_PAGE_SIZE = 50;
export const PERFORMANCE_MAX_PAGE_SIZE = 200;
/** The export holds the whole filtered result, up to this many partners. */
export const PERFORMANCE_EXPORT_MAX_ROWS = 100_000;
/** The first month the report accepts (older dates are typos). */
export const PERFORMANCE_MIN_YEAR = 2000;

/** demand_partners.side, or both. */
export const PERFORMANCE_SIDES = ['all', 'ssp', 'performance'] as const;
export type PerformanceSide = (typeof PERFORMANCE_SIDES)[number];

// ---------------------------------------------------------------------------------------------
// Metrics as fractions of the warehouse's sums

/** The sums each window reads (stats_r_partner columns). */
export const PERFORMANCE_SUMS = [
  'revenue_micros',
  'cost_micros',
  'impressions',
  'bid_requests',
  'bids',
  'wins',
  'timeouts',
] as const;
export type PerformanceSum = (typeof PERFORMANCE_SUMS)[number];
export type PerformanceSums = Record<PerformanceSum, bigint>;

export const PERFORMANCE_METRICS = [
  'revenue',
  'cost',
  'margin',
  'margin_pct',
  'impressions',
  'ecpm',
  'bid_rate',
  'win_rate',
  'timeout_rate',
] as const;
export type PerformanceMetric = (typeof PERFORMANCE_METRICS)[number];

/** A signed sum of warehouse sums, e.g. revenue - cost. */
export type PerformanceTerms = readonly (readonly [PerformanceSum, 1 | -1])[];

export interface PerformanceMetricDef {
  key: PerformanceMetric;
  /** count: an integer; money: a decimal in the currency; ratio: a fraction (0.25 = 25 %). */
  kind: 'count' | 'money' | 'ratio';
  /** The value is num / (den * factor); den absent = 1. A zero denominator makes it null. */
  num: PerformanceTerms;
  den: PerformanceTerms | null;
  factor: bigint;
  /** relative: (this - last) / |last|; points: this - last (rates). */
  change: 'relative' | 'points';
  /** Which way is good news (the screen's colours): cost is neither. */
  better: 'up' | 'down' | 'none';
}

const REV = [['revenue_micros', 1]] as const;
const MARGIN = [
  ['revenue_micros', 1],
  ['cost_micros', -1],
] as const;
const def = (
  key: PerformanceMetric,
  kind: PerformanceMetricDef['kind'],
  num: PerformanceTerms,
  den: PerformanceTerms | null,
  factor: bigint,
  better: PerformanceMetricDef['better'] = 'up',
): PerformanceMetricDef => ({
  key,
  kind,
  num,
  den,
  factor,
  change: kind === 'ratio' ? 'points' : 'relative',
  better,
});

export const PERFORMANCE_METRIC_DEFS: Readonly<Record<PerformanceMetric, PerformanceMetricDef>> = {
  revenue: def('revenue', 'money', REV, null, 1_000_000n),
  cost: def('cost', 'money', [['cost_micros', 1]], null, 1_000_000n, 'none'),
  margin: def('margin', 'money', MARGIN, null, 1_000_000n),
  margin_pct: def('margin_pct', 'ratio', MARGIN, REV, 1n),
  impressions: def('impressions', 'count', [['impressions', 1]], null, 1n),
  // revenue micros / (impressions x 1000) = revenue / impressions x 1000 in the currency.
  ecpm: def('ecpm', 'money', REV, [['impressions', 1]], 1000n),
  bid_rate: def('bid_rate', 'ratio', [['bids', 1]], [['bid_requests', 1]], 1n),
  win_rate: def('win_rate', 'ratio', [['wins', 1]], [['bids', 1]], 1n),
  timeout_rate: def('timeout_rate', 'ratio', [['timeouts', 1]], [['bid_requests', 1]], 1n, 'down'),
};

/** Row fields of a metric: this window's value, last month's, and the change. */
export const prevKey = (m: PerformanceMetric) => `${m}_prev` as const;
export const changeKey = (m: PerformanceMetric) => `${m}_change` as const;

export type PerformanceValueKey =
  PerformanceMetric | `${PerformanceMetric}_prev` | `${PerformanceMetric}_change`;
/** count: number; money and ratio: decimal string with 6 places; change: a fraction (relative) or a difference of fractions (points). */
export type PerformanceValues = Record<PerformanceValueKey, string | number | null>;

export interface Fraction {
  num: bigint;
  den: bigint;
}

const termsOf = (terms: PerformanceTerms, sums: PerformanceSums): bigint =>
  terms.reduce((acc, [k, sign]) => acc + (sign === 1 ? sums[k] : -sums[k]), 0n);

/** A metric of one window as a fraction (den 0: no value). */
export function metricFraction(metric: PerformanceMetric, sums: PerformanceSums): Fraction {
  const d = PERFORMANCE_METRIC_DEFS[metric];
  return { num: termsOf(d.num, sums), den: (d.den ? termsOf(d.den, sums) : 1n) * d.factor };
}

/** num / den as a decimal with `decimals` places, half away from zero; null when den is 0. */
export function fractionToDecimal(f: Fraction, decimals = 6): string | null {
  if (f.den === 0n) return null;
  const negative = f.num < 0n !== f.den < 0n && f.num !== 0n;
  const n = f.num < 0n ? -f.num : f.num;
  const d = f.den < 0n ? -f.den : f.den;
  const scale = 10n ** BigInt(decimals);
  const q = (n * scale * 2n + d) / (2n * d);
  const int = q / scale;
  const frac = decimals > 0 ? `.${String(q % scale).padStart(decimals, '0')}` : '';
  return `${negative && q !== 0n ? '-' : ''}${int}${frac}`;
}

/** A metric's value in one window: a number for counts, else a 6-decimal string; null without a denominator. */
export function metricValue(metric: PerformanceMetric, sums: PerformanceSums): string | number | null {
  const f = metricFraction(metric, sums);
  if (PERFORMANCE_METRIC_DEFS[metric].kind === 'count') return Number(f.num);
  return fractionToDecimal(f);
}

/**
 * The change of a metric from last month's window to this one, exact (a 6-decimal string):
 * relative (a fraction of last month's value, 0.125 = +12.5 %) or in points for rates (a
 * difference of fractions, 0.02 = +2 points). Null when either value is missing, and for a
 * relative change when last month's value is 0.
 */
export function metricChange(
  metric: PerformanceMetric,
  current: PerformanceSums,
  previous: PerformanceSums,
): string | null {
  const d = PERFORMANCE_METRIC_DEFS[metric];
  const a = metricFraction(metric, current);
  const b = metricFraction(metric, previous);
  if (a.den === 0n || b.den === 0n) return null;
  if (d.change === 'points')
    return fractionToDecimal({ num: a.num * b.den - b.num * a.den, den: a.den * b.den });
  if (b.num === 0n) return null;
  // (a/A) / (b/B) - 1 over |b/B|: (a·B - A·b) / (A·|b|); denominators are positive.
  return fractionToDecimal({
    num: a.num * b.den - a.den * b.num,
    den: a.den * (b.num < 0n ? -b.num : b.num),
  });
}

/** Every value of a row (or of the totals) from its two windows' sums. */
export function performanceValues(current: PerformanceSums, previous: PerformanceSums): PerformanceValues {
  const out = {} as PerformanceValues;
  for (const m of PERFORMANCE_METRICS) {
    out[m] = metricValue(m, current);
    out[prevKey(m)] = metricValue(m, previous);
    out[changeKey(m)] = metricChange(m, current, previous);
  }
  return out;
}

export const emptySums = (): PerformanceSums =>
  Object.fromEntries(PERFORMANCE_SUMS.map((k) => [k, 0n])) as PerformanceSums;

/** A fraction written as a decimal ('0.123456') as a percentage ('12.3456'), exactly. */
export function fractionToPercent(value: string): string {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(value);
  if (!m) throw new RangeError(`Not a decimal string: ${value}`);
  const frac = (m[3] ?? '').padEnd(2, '0');
  const int = `${m[2]}${frac.slice(0, 2)}`.replace(/^0+(?=\d)/, '');
  const rest = frac.slice(2);
  return `${m[1]}${int}${rest ? `.${rest}` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Months and comparison windows

const HOUR_MS = 3_600_000;
const pad2 = (n: number) => String(n).padStart(2, '0');

export function formatMonth(m: MonthValue): string {
  return `${String(m.year).padStart(4, '0')}-${pad2(m.month)}`;
}

/** `YYYY-MM` only (a month from PERFORMANCE_MIN_YEAR on); null otherwise. */
export function parseReportMonth(text: unknown): MonthValue | null {
  if (typeof text !== 'string') return null;
  const m = /^(\d{4})-(\d{2})$/.exec(text);
  if (!m) return null;
  const value = { year: Number(m[1]), month: Number(m[2]) };
  if (value.month < 1 || value.month > 12 || value.year < PERFORMANCE_MIN_YEAR) return null;
  return value;
}

export function shiftMonth(m: MonthValue, n: number): MonthValue {
  const index = m.year * 12 + (m.month - 1) + n;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** The month of an instant in a zone. */
export function monthAt(epochMs: number, tz: string): MonthValue {
  const w = wallTimeOf(epochMs, tz);
  return { year: w.year, month: w.month };
}

/** Local midnight of the month's first day. */
export function monthStartMs(m: MonthValue, tz: string): number {
  return zonedTimeToEpoch({ year: m.year, month: m.month, day: 1, hour: 0, minute: 0, second: 0 }, tz);
}

export type PerformanceMode = 'whole_month' | 'month_to_date';

export interface TimeWindow {
  startMs: number;
  /** Exclusive. */
  endMs: number;
}

export interface PerformanceWindows {
  mode: PerformanceMode;
  current: TimeWindow;
  previous: TimeWindow;
}

const hourDown = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

/**
 * The windows compared for `month` in `tz` when the figures go up to `asOfMs` (the end of the
 * last whole hour with data; the API clamps now to the end of the loaded data): the whole month
 * against the whole previous month once the month is over, else month to date against the same
 * part of last month (see the file's comment). Bounds are whole UTC hours.
 */
export function monthWindows(month: MonthValue, tz: string, asOfMs: number): PerformanceWindows {
  const prev = shiftMonth(month, -1);
  const start = monthStartMs(month, tz);
  const end = monthStartMs(shiftMonth(month, 1), tz);
  const prevStart = monthStartMs(prev, tz);
  if (asOfMs >= end) {
    return {
      mode: 'whole_month',
      current: { startMs: hourDown(start), endMs: hourDown(end) },
      previous: { startMs: hourDown(prevStart), endMs: hourDown(start) },
    };
  }
  const currentEnd = Math.max(hourDown(start), hourDown(asOfMs));
  let prevEnd: number;
  if (currentEnd <= start) prevEnd = prevStart;
  else {
    const w = wallTimeOf(currentEnd, tz);
    prevEnd =
      w.day > daysInMonth(prev.year, prev.month)
        ? start
        : Math.min(
            start,
            zonedTimeToEpoch(
              { year: prev.year, month: prev.month, day: w.day, hour: w.hour, minute: w.minute, second: 0 },
              tz,
            ),
          );
  }
  return {
    mode: 'month_to_date',
    current: { startMs: hourDown(start), endMs: currentEnd },
    previous: { startMs: hourDown(prevStart), endMs: Math.max(hourDown(prevStart), hourDown(prevEnd)) },
  };
}

/**
 * A window as local wall times, `YYYY-MM-DD HH:mm` – `YYYY-MM-DD HH:mm` (the end exclusive), or
 * `YYYY-MM` for a whole month: column titles of the export and the screen's legend.
 */
export function windowLabel(w: TimeWindow, tz: string, wholeMonth: boolean): string {
  const s = wallTimeOf(w.startMs, tz);
  if (wholeMonth) return `${s.year}-${pad2(s.month)}`;
  const e = wallTimeOf(w.endMs, tz);
  const fmt = (x: typeof s) => `${x.year}-${pad2(x.month)}-${pad2(x.day)} ${pad2(x.hour)}:${pad2(x.minute)}`;
  return `${fmt(s)} – ${fmt(e)}`;
}

// ---------------------------------------------------------------------------------------------
// Request

export const PERFORMANCE_ERRORS = {
  monthRequired: 'perf_report.month_required',
  monthInvalid: 'perf_report.month_invalid',
  monthFuture: 'perf_report.month_future',
  sideInvalid: 'perf_report.side_invalid',
  sortInvalid: 'perf_report.sort_invalid',
  searchTooLong: 'perf_report.search_too_long',
  pageInvalid: 'perf_report.page_invalid',
  formatInvalid: 'report.export_format_invalid',
  timezoneInvalid: 'report.timezone_invalid',
} as const;

/** Sort fields: the partner's name, each metric, last month's value and the change. */
export const PERFORMANCE_SORTS = [
  'name',
  ...PERFORMANCE_METRICS.flatMap((m) => [m, prevKey(m), changeKey(m)]),
] as readonly string[];
export const PERFORMANCE_DEFAULT_SORT = '-revenue';

export function parseSort(text: string): { field: string; dir: 'asc' | 'desc' } | null {
  const desc = text.startsWith('-');
  const field = desc ? text.slice(1) : text;
  return PERFORMANCE_SORTS.includes(field) ? { field, dir: desc ? 'desc' : 'asc' } : null;
}

const pageNumber = (max: number) =>
  z
    .union([z.string(), z.number()], { error: PERFORMANCE_ERRORS.pageInvalid })
    .transform((v) => String(v))
    .refine((v) => /^[1-9]\d{0,6}$/.test(v) && Number(v) <= max, PERFORMANCE_ERRORS.pageInvalid)
    .transform(Number);

const baseShape = {
  month: z
    .string({ error: PERFORMANCE_ERRORS.monthRequired })
    .min(1, PERFORMANCE_ERRORS.monthRequired)
    .refine((v) => v === '' || parseReportMonth(v) !== null, PERFORMANCE_ERRORS.monthInvalid),
  side: z.enum(PERFORMANCE_SIDES, { error: PERFORMANCE_ERRORS.sideInvalid }).default('all'),
  search: z.string().trim().max(200, PERFORMANCE_ERRORS.searchTooLong).default(''),
  /** A field of PERFORMANCE_SORTS, `-field` for descending. */
  sort: z
    .string()
    .refine((v) => parseSort(v) !== null, PERFORMANCE_ERRORS.sortInvalid)
    .default(PERFORMANCE_DEFAULT_SORT),
  timezone: z.string().refine(isValidTimeZone, PERFORMANCE_ERRORS.timezoneInvalid).default('UTC'),
  page: pageNumber(1_000_000).default(1),
  page_size: pageNumber(PERFORMANCE_MAX_PAGE_SIZE).default(PERFORMANCE_PAGE_SIZE),
};

/** A month after the current one (in the report's zone, by the clock `nowMs`) is refused. */
export function isFutureMonth(month: MonthValue, tz: string, nowMs: number): boolean {
  return compareMonth(month, monthAt(nowMs, isValidTimeZone(tz) ? tz : 'UTC')) > 0;
}

const notFuture =
  (now: () => number) =>
  (v: { month: string; timezone: string }, ctx: z.RefinementCtx): void => {
    const month = parseReportMonth(v.month);
    if (month && isFutureMonth(month, v.timezone, now()))
      ctx.addIssue({ code: 'custom', path: ['month'], message: PERFORMANCE_ERRORS.monthFuture });
  };

/** GET /v1/reports/performance (the clock is a parameter for tests). */
export function performanceQuerySchema(now: () => number = Date.now) {
  return z.object(baseShape).strict().superRefine(notFuture(now));
}
/** GET /v1/reports/performance/export: the same query and the format (paging is ignored). */
export function performanceExportQuerySchema(now: () => number = Date.now) {
  return z
    .object({
      ...baseShape,
      format: z.enum(['csv', 'xlsx'], { error: PERFORMANCE_ERRORS.formatInvalid }).default('csv'),
    })
    .strict()
    .superRefine(notFuture(now));
}
export type PerformanceQuery = z.output<ReturnType<typeof performanceQuerySchema>>;

// ---------------------------------------------------------------------------------------------
// Answer

export interface PerformanceRow extends PerformanceValues {
  id: number;
  name: string;
  side: string;
  type: string;
  status: string;
}

export interface PerformanceAnswer {
  month: string;
  previous_month: string;
  timezone: string;
  currency: string;
  mode: PerformanceMode;
  /** The compared windows: ISO instants, the end exclusive. */
  windows: { current: { start: string; end: string }; previous: { start: string; end: string } };
  /** The loaded warehouse range (null: nothing loaded). */
  data: { start: string; end: string } | null;
  /** A window begins before the loaded data: its figures are incomplete. */
  partial_data: boolean;
  rows: PerformanceRow[];
  totals: PerformanceValues;
  total_rows: number;
  page: number;
  page_size: number;
}
