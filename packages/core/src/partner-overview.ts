/**
 * The demand partners' overview (`/partners/demand-partners/ssp/overview`): every live SSP-side
 * partner with its QPS cap against the QPS it receives now, today's revenue, bid rate, win rate,
 * timeout % and margin %, a sparkline of the last 24 hours, and a warning over 90% of the cap.
 * The query the API takes (`GET /v1/partners/demand/overview`) and the answer's shape live here,
 * shared by the API and the web app.
 *
 * Definitions (docs/decisions/014):
 * - current QPS: requests of the last OVERVIEW_CURRENT_MINUTES whole minutes of the QPS series / 60,
 *   averaged (one minute is too jumpy to act on, five show a trend without hiding a spike);
 * - cap usage: current QPS / cap (null for a partner without a cap);
 * - today: from local midnight in the caller's time zone to the end of the last whole hour (in the
 *   first hour of a day, which holds no whole hour yet, the whole day before);
 * - bid rate: bids / bid requests; win rate: wins / bids; timeout %: timeouts / bid requests;
 *   margin %: (revenue - cost) / revenue. Null when the denominator is 0.
 */
import { z } from 'zod';
import { isValidTimeZone } from './time-zones.ts';

/** The warning threshold: current QPS above 90% of the cap. */
export const OVERVIEW_WARNING_RATIO = 0.9;
/** How many whole minutes "current" QPS averages. */
export const OVERVIEW_CURRENT_MINUTES = 5;
/** The sparkline's span and step. */
export const OVERVIEW_SPARK_HOURS = 24;
export const OVERVIEW_SPARK_STEP_MINUTES = 15;
export const OVERVIEW_PAGE_SIZE = 50;
export const OVERVIEW_MAX_PAGE_SIZE = 200;

export const OVERVIEW_SORTS = [
  'name',
  'qps_cap',
  'current_qps',
  'cap_usage',
  'revenue_today',
  'bid_rate',
  'win_rate',
  'timeout_pct',
  'margin_pct',
] as const;
export type OverviewSort = (typeof OVERVIEW_SORTS)[number];
/** The money columns: hidden (null) for a person without a money permission. */
export const OVERVIEW_MONEY_SORTS: readonly OverviewSort[] = ['revenue_today', 'margin_pct'];

const pageNumber = (max: number) =>
  z
    .union([z.string(), z.number()])
    .transform((v) => String(v))
    .refine((v) => /^[1-9]\d{0,5}$/.test(v) && Number(v) <= max, 'error.invalid_value')
    .transform(Number);

export const overviewQuerySchema = z
  .object({
    timezone: z.string().refine(isValidTimeZone, 'report.timezone_invalid').default('UTC'),
    search: z.string().trim().max(200, 'error.too_long').optional(),
    /** A sort field, `-field` for descending. */
    sort: z
      .string()
      .refine((v) => (OVERVIEW_SORTS as readonly string[]).includes(v.replace(/^-/, '')), 'resource.sort_unknown')
      .default('-cap_usage'),
    /** Only the partners over the warning threshold. */
    warning: z.enum(['true', 'false']).optional(),
    page: pageNumber(100_000).default(1),
    page_size: pageNumber(OVERVIEW_MAX_PAGE_SIZE).default(OVERVIEW_PAGE_SIZE),
  })
  .strict();
export type OverviewQuery = z.infer<typeof overviewQuerySchema>;

/** The export's query: the overview's, with the file format. */
export const overviewExportQuerySchema = overviewQuerySchema.extend({
  format: z.enum(['csv', 'xlsx'], { error: 'error.invalid_value' }).default('csv'),
});

export interface OverviewRow {
  id: number;
  name: string;
  type: string;
  qps_cap: number;
  current_qps: number | null;
  /** current / cap, 0..n (1 = at the cap). */
  cap_usage: number | null;
  warning: boolean;
  /** Exact decimal text in the warehouse currency; null when hidden. */
  revenue_today: string | null;
  bid_rate: number | null;
  win_rate: number | null;
  timeout_pct: number | null;
  margin_pct: number | null;
  /** QPS per OVERVIEW_SPARK_STEP_MINUTES over the last OVERVIEW_SPARK_HOURS, oldest first (null: no traffic data). */
  spark: (number | null)[];
}

export interface OverviewAnswer {
  as_of: string;
  /** The day the "today" figures cover: [today_start, today_end), whole hours. */
  today_start: string;
  today_end: string;
  currency: string;
  money_visible: boolean;
  warning_ratio: number;
  total: number;
  page: number;
  page_size: number;
  summary: {
    partners: number;
    warnings: number;
    current_qps: number;
    qps_cap: number;
    revenue_today: string | null;
  };
  rows: OverviewRow[];
}

/** Whether a partner's current QPS is over the warning threshold of its cap. */
export function isOverCapWarning(currentQps: number | null, cap: number): boolean {
  return currentQps !== null && cap > 0 && currentQps > cap * OVERVIEW_WARNING_RATIO;
}
