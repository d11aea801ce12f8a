/**
 * Finance reports (issue 23, docs/decisions/030-finance-reports.md): month x network, publisher or
 * product tables of revenue, cost, margin, margin %, discrepancy-adjusted revenue, invoiced and
 * collected, with month-over-month deltas, over a range of months. Shared by the API (query
 * schema, product lines, the exact figures) and the five screens under `/finance_reports`.
 *
 * Product lines are filters on the warehouse's dimensions (ids are positions + 1 in core's
 * FORMATS and ENVIRONMENTS lists, as in the warehouse):
 *   all:    every row;
 *   ac:     "Apps & Connected TV", the in-app and CTV inventory (environment app or ctv);
 *   playon: the outstream video player, video played inside web pages (format video, environment web).
 *
 * Money is exact: integer micro-units (USD, the warehouse's and SSP billing's currency) summed as
 * BigInt or numeric, written as decimal strings with 6 places.
 */
import { z } from 'zod';
import { compareMonth, type MonthValue } from './dates.ts';
import { fractionToDecimal, formatMonth, parseReportMonth, shiftMonth } from './performance-report.ts';
import { ENVIRONMENTS, FORMATS } from './reports.ts';

/** The ACL resource of the five screens and their API (read). */
export const FINANCE_REPORTS_RESOURCE = '/v1/finance-reports';
export const FINANCE_REPORTS_CURRENCY = 'USD';
export const FINANCE_PAGE_SIZE = 50;
export const FINANCE_MAX_PAGE_SIZE = 500;
/** A range covers at most this many months (three years). */
export const FINANCE_MAX_MONTHS = 36;
/** The default range: the last twelve months, the current one included. */
export const FINANCE_DEFAULT_MONTHS = 12;
export const FINANCE_EXPORT_MAX_ROWS = 200_000;
export const FINANCE_EXPORT_NAME = 'finance_report';

// ---------------------------------------------------------------------------------------------
// Product lines and groupings

export const PRODUCT_LINES = ['all', 'ac', 'playon'] as const;
export type ProductLine = (typeof PRODUCT_LINES)[number];

/** A product line as filters on warehouse dimensions (ids); an empty object is every row. */
export interface ProductLineFilter {
  format?: readonly number[];
  environment?: readonly number[];
}
const formatId = (f: (typeof FORMATS)[number]) => FORMATS.indexOf(f) + 1;
const environmentId = (e: (typeof ENVIRONMENTS)[number]) => ENVIRONMENTS.indexOf(e) + 1;

export const PRODUCT_LINE_FILTERS: Readonly<Record<ProductLine, ProductLineFilter>> = {
  all: {},
  ac: { environment: [environmentId('app'), environmentId('ctv')] },
  playon: { format: [formatId('video')], environment: [environmentId('web')] },
};

/** Rows per month and demand partner, per month and publisher, or per month and product (ad format). */
export const FINANCE_GROUPS = ['network', 'publisher', 'product'] as const;
export type FinanceGroup = (typeof FINANCE_GROUPS)[number];

/** The five screens: their product line and the groupings they offer (the first is the default). */
export const FINANCE_SCREENS = {
  report_networks: { product: 'all', groups: ['network'] },
  report_ac_monetization: { product: 'ac', groups: ['network', 'publisher'] },
  revenue_margin_report: { product: 'all', groups: ['publisher', 'product'] },
  playon_acm: { product: 'playon', groups: ['publisher', 'network'] },
  playon_networks: { product: 'playon', groups: ['network'] },
} as const satisfies Record<string, { product: ProductLine; groups: readonly FinanceGroup[] }>;
export type FinanceScreen = keyof typeof FINANCE_SCREENS;

// ---------------------------------------------------------------------------------------------
// Figures

/** The sums of a row, in micro-units (money) or units (impressions). */
export const FINANCE_SUMS = [
  'revenue',
  'cost',
  'adjusted_revenue',
  'invoiced',
  'collected',
  'impressions',
] as const;
export type FinanceSum = (typeof FINANCE_SUMS)[number];
export type FinanceSums = Record<FinanceSum, bigint>;

export const FINANCE_METRICS = [
  'revenue',
  'cost',
  'margin',
  'margin_pct',
  'adjusted_revenue',
  'invoiced',
  'collected',
  'impressions',
] as const;
export type FinanceMetric = (typeof FINANCE_METRICS)[number];
/** Metrics with a month-over-month delta (absolute and %; margin % in points). */
export const FINANCE_DELTA_METRICS = ['revenue', 'cost', 'margin', 'margin_pct', 'adjusted_revenue'] as const;
export type FinanceDeltaMetric = (typeof FINANCE_DELTA_METRICS)[number];

export type FinanceValues = {
  [K in FinanceMetric]: K extends 'impressions' ? number : string | null;
} & {
  [K in FinanceDeltaMetric as `${K}_delta`]: string | null;
} & {
  [K in Exclude<FinanceDeltaMetric, 'margin_pct'> as `${K}_delta_pct`]: string | null;
};

export const emptyFinanceSums = (): FinanceSums =>
  Object.fromEntries(FINANCE_SUMS.map((k) => [k, 0n])) as FinanceSums;

export function addFinanceSums(a: FinanceSums, b: FinanceSums): FinanceSums {
  const out = emptyFinanceSums();
  for (const k of FINANCE_SUMS) out[k] = a[k] + b[k];
  return out;
}

/** Micro-units as a decimal string with 6 places. */
export const microsToDecimal = (v: bigint): string => fractionToDecimal({ num: v, den: 1_000_000n })!;

function moneyOf(metric: Exclude<FinanceMetric, 'margin_pct' | 'impressions'>, s: FinanceSums): bigint {
  return metric === 'margin' ? s.revenue - s.cost : s[metric];
}

/** margin / revenue as a fraction (6 places), null without revenue. */
export function marginPct(s: FinanceSums): string | null {
  return fractionToDecimal({ num: s.revenue - s.cost, den: s.revenue });
}

/**
 * Every value of a row from its month's sums and the previous month's (null: no previous month in
 * the data): absolute deltas in the currency (points for margin %, as a fraction), relative deltas
 * as fractions of last month's absolute value (null when last month is 0).
 */
export function financeValues(s: FinanceSums, prev: FinanceSums | null): FinanceValues {
  const out: Record<string, string | number | null> = {};
  for (const m of FINANCE_METRICS) {
    if (m === 'impressions') out[m] = Number(s.impressions);
    else if (m === 'margin_pct') out[m] = marginPct(s);
    else out[m] = microsToDecimal(moneyOf(m, s));
  }
  for (const m of FINANCE_DELTA_METRICS) {
    if (m === 'margin_pct') {
      const a = { num: s.revenue - s.cost, den: s.revenue };
      const b = prev ? { num: prev.revenue - prev.cost, den: prev.revenue } : null;
      out.margin_pct_delta =
        b && a.den !== 0n && b.den !== 0n
          ? fractionToDecimal({ num: a.num * b.den - b.num * a.den, den: a.den * b.den })
          : null;
      continue;
    }
    const cur = moneyOf(m, s);
    const before = prev ? moneyOf(m, prev) : null;
    out[`${m}_delta`] = before === null ? null : microsToDecimal(cur - before);
    out[`${m}_delta_pct`] =
      before === null || before === 0n
        ? null
        : fractionToDecimal({ num: cur - before, den: before < 0n ? -before : before });
  }
  return out as FinanceValues;
}

/** Months from `from` to `to`, both included, ascending (YYYY-MM). */
export function monthsBetween(from: string, to: string): string[] {
  const a = parseReportMonth(from);
  const b = parseReportMonth(to);
  if (!a || !b || compareMonth(a, b) > 0) return [];
  const out: string[] = [];
  for (let m: MonthValue = a; compareMonth(m, b) <= 0; m = shiftMonth(m, 1)) out.push(formatMonth(m));
  return out;
}

export const previousMonth = (month: string): string => formatMonth(shiftMonth(parseReportMonth(month)!, -1));

/** The default range ending at the month of `now` (UTC): the last FINANCE_DEFAULT_MONTHS months. */
export function defaultFinanceRange(now: Date = new Date()): { from: string; to: string } {
  const to = { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 };
  return { from: formatMonth(shiftMonth(to, -(FINANCE_DEFAULT_MONTHS - 1))), to: formatMonth(to) };
}

// ---------------------------------------------------------------------------------------------
// Request

export const FINANCE_ERRORS = {
  fromRequired: 'finance_reports.from_required',
  toRequired: 'finance_reports.to_required',
  monthInvalid: 'finance_reports.month_invalid',
  rangeInverted: 'finance_reports.range_inverted',
  rangeTooLong: 'finance_reports.range_too_long',
  monthFuture: 'finance_reports.month_future',
  productInvalid: 'finance_reports.product_invalid',
  groupInvalid: 'finance_reports.group_invalid',
  idsInvalid: 'finance_reports.ids_invalid',
  idsNotForProduct: 'finance_reports.ids_not_for_product',
  sortInvalid: 'finance_reports.sort_invalid',
  pageInvalid: 'finance_reports.page_invalid',
  formatInvalid: 'report.export_format_invalid',
} as const;

/** Sort fields: the month, the name, each metric and each delta. */
export const FINANCE_SORTS: readonly string[] = [
  'month',
  'name',
  ...FINANCE_METRICS,
  ...FINANCE_DELTA_METRICS.map((m) => `${m}_delta`),
  ...FINANCE_DELTA_METRICS.filter((m) => m !== 'margin_pct').map((m) => `${m}_delta_pct`),
];
/** Newest month first; inside a month, the highest revenue first (the API's tie-break). */
export const FINANCE_DEFAULT_SORT = '-month';

export function parseFinanceSort(text: string): { field: string; dir: 'asc' | 'desc' } | null {
  const desc = text.startsWith('-');
  const field = desc ? text.slice(1) : text;
  return FINANCE_SORTS.includes(field) ? { field, dir: desc ? 'desc' : 'asc' } : null;
}

const pageNumber = (max: number) =>
  z
    .union([z.string(), z.number()], { error: FINANCE_ERRORS.pageInvalid })
    .transform((v) => String(v))
    .refine((v) => /^[1-9]\d{0,6}$/.test(v) && Number(v) <= max, FINANCE_ERRORS.pageInvalid)
    .transform(Number);

const month = (required: string) =>
  z
    .string({ error: required })
    .min(1, required)
    .refine((v) => parseReportMonth(v) !== null, FINANCE_ERRORS.monthInvalid);

/** Comma-separated positive ids (at most 100), the grouped entities to keep. */
const idsText = z
  .string()
  .trim()
  .refine((v) => v === '' || /^[1-9]\d{0,8}(,[1-9]\d{0,8}){0,99}$/.test(v), FINANCE_ERRORS.idsInvalid)
  .transform((v) => (v === '' ? [] : [...new Set(v.split(',').map(Number))]))
  .default([]);

const baseShape = {
  from: month(FINANCE_ERRORS.fromRequired),
  to: month(FINANCE_ERRORS.toRequired),
  product: z.enum(PRODUCT_LINES, { error: FINANCE_ERRORS.productInvalid }).default('all'),
  group: z.enum(FINANCE_GROUPS, { error: FINANCE_ERRORS.groupInvalid }).default('network'),
  /** Keep only these networks (group network) or publishers (group publisher). */
  ids: idsText,
  sort: z
    .string()
    .refine((v) => parseFinanceSort(v) !== null, FINANCE_ERRORS.sortInvalid)
    .default(FINANCE_DEFAULT_SORT),
  page: pageNumber(1_000_000).default(1),
  page_size: pageNumber(FINANCE_MAX_PAGE_SIZE).default(FINANCE_PAGE_SIZE),
};

const rangeRules =
  (now: () => number) =>
  (v: { from: string; to: string; group: FinanceGroup; ids: number[] }, ctx: z.RefinementCtx): void => {
    const a = parseReportMonth(v.from);
    const b = parseReportMonth(v.to);
    if (v.group === 'product' && v.ids.length > 0)
      ctx.addIssue({ code: 'custom', path: ['ids'], message: FINANCE_ERRORS.idsNotForProduct });
    if (!a || !b) return;
    if (compareMonth(a, b) > 0) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: FINANCE_ERRORS.rangeInverted });
      return;
    }
    if (monthsBetween(v.from, v.to).length > FINANCE_MAX_MONTHS)
      ctx.addIssue({ code: 'custom', path: ['from'], message: FINANCE_ERRORS.rangeTooLong });
    const d = new Date(now());
    if (compareMonth(b, { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1 }) > 0)
      ctx.addIssue({ code: 'custom', path: ['to'], message: FINANCE_ERRORS.monthFuture });
  };

/** GET /v1/finance-reports (the clock is a parameter for tests). */
export function financeQuerySchema(now: () => number = Date.now) {
  return z.object(baseShape).strict().superRefine(rangeRules(now));
}
/** GET /v1/finance-reports/export: the same query and the format (paging is ignored). */
export function financeExportQuerySchema(now: () => number = Date.now) {
  return z
    .object({
      ...baseShape,
      format: z.enum(['csv', 'xlsx'], { error: FINANCE_ERRORS.formatInvalid }).default('csv'),
    })
    .strict()
    .superRefine(rangeRules(now));
}
export type FinanceQuery = z.output<ReturnType<typeof financeQuerySchema>>;

/** GET /v1/finance-reports/entities?group=network|publisher: the filter's choices. */
export const financeEntitiesQuerySchema = z
  .object({
    group: z.enum(['network', 'publisher'], { error: FINANCE_ERRORS.groupInvalid }).default('network'),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// Answer

export type FinanceRow = FinanceValues & {
  month: string;
  /** The network's or publisher's id; null for a product row. */
  id: number | null;
  /** The network's or publisher's name, or the product (ad format). */
  name: string;
  /** The month's billing rows exist for this row's figures (else adjusted = our revenue). */
  billed: boolean;
};

export type FinanceMonthTotals = FinanceValues & { month: string; billed: boolean };

export interface FinanceAnswer {
  from: string;
  to: string;
  product: ProductLine;
  group: FinanceGroup;
  currency: string;
  rows: FinanceRow[];
  /** Sums over every filtered row of the range (no deltas). */
  totals: FinanceValues;
  /** Each month's totals with its delta from the month before (the chart and the month cards). */
  months: FinanceMonthTotals[];
  total_rows: number;
  page: number;
  page_size: number;
}

export interface FinanceEntity {
  id: number;
  name: string;
}
