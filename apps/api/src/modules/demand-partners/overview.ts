/**
 * The demand partners' overview: GET /v1/partners/demand/overview?timezone=&search=&sort=&warning=&page=&page_size=
 * (screen `/partners/demand-partners/ssp/overview`; definitions in packages/core/src/partner-overview.ts).
 *
 * Two statements, whatever the number of partners:
 * 1. the page: every live SSP-side partner with its current QPS (the last whole minutes of the
 *    1-minute series, one index range per partner through a LATERAL join on the series' primary
 *    key), today's sums from the hourly partner rollup (one range of it, grouped), the ratios, the
 *    summary over all of them (window aggregates), sorted and cut to the page in SQL;
 * 2. the sparklines of that page's partners only, from the 15-minute QPS rollup.
 * "Now" is the end of the loaded data when that is earlier (a stale demo), as on the dashboard.
 * Money (revenue today, margin %) needs a money permission (the dashboard's rule); without it the
 * figures come back null and sorting by them is refused.
 */
import { hasMoneyArea } from '@backoffice/core/dashboard';
import {
  OVERVIEW_CURRENT_MINUTES,
  OVERVIEW_MONEY_SORTS,
  OVERVIEW_SPARK_HOURS,
  OVERVIEW_SPARK_STEP_MINUTES,
  OVERVIEW_WARNING_RATIO,
  type OverviewAnswer,
  type OverviewQuery,
  type OverviewRow,
  type OverviewSort,
} from '@backoffice/core/partner-overview';
import { wallTimeOf, zonedTimeToEpoch } from '@backoffice/core/reports';
import { translate, type Locale } from '@backoffice/core/i18n/catalogues';
import type { AppContext } from '../../context.ts';
import type { TableCell } from '../../lib/table-file.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../plugins/auth.ts';
import { HOUR_MS } from '../../reports-data/rollups.ts';
import { queryPrepared } from '../../reports-data/prepared.ts';
import { query } from '../../reports-data/sql.ts';
import { datasetRange, microsToDecimal } from '../reports/service.ts';

const MINUTE_MS = 60_000;
const STEP_MS = OVERVIEW_SPARK_STEP_MINUTES * MINUTE_MS;

/** Sort expressions, on the CTE's columns (the output's `revenue` is text). */
const SORT_SQL: Record<OverviewSort, string> = {
  name: 'lower(g.name)',
  qps_cap: 'g.qps_cap',
  current_qps: 'g.current_qps',
  cap_usage: 'g.cap_usage',
  revenue_today: 'g.revenue',
  bid_rate: 'g.bid_rate',
  win_rate: 'g.win_rate',
  timeout_pct: 'g.timeout_pct',
  margin_pct: 'g.margin_pct',
};

/** The instants an overview is computed for. */
export function overviewWindows(nowMs: number, endMs: number | null, tz: string) {
  const asOf = Math.floor(Math.min(nowMs, endMs ?? nowMs) / MINUTE_MS) * MINUTE_MS;
  const midnightOf = (ms: number) => {
    const w = wallTimeOf(ms, tz);
    return zonedTimeToEpoch({ year: w.year, month: w.month, day: w.day, hour: 0, minute: 0, second: 0 }, tz);
  };
  const midnight = midnightOf(asOf);
  // In the first hour of a day "today" holds no whole hour yet: the day before is shown instead
  // (as the dashboard does), and the answer says which day it is.
  const wholeDay = asOf - midnight < HOUR_MS;
  const hour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
  const sparkEnd = Math.floor(asOf / STEP_MS) * STEP_MS;
  return {
    asOf,
    current: { from: asOf - OVERVIEW_CURRENT_MINUTES * MINUTE_MS, to: asOf },
    // Facts are per UTC hour: the whole hours from the one that holds local midnight.
    today: wholeDay ? { from: hour(midnightOf(midnight - HOUR_MS)), to: hour(midnight) } : { from: hour(midnight), to: hour(asOf) },
    spark: { from: sparkEnd - OVERVIEW_SPARK_HOURS * HOUR_MS, to: sparkEnd },
  };
}

/** The page statement (its text depends on the sort only). Exported for the bench's raw SQL. */
export function overviewSql(sort: OverviewSort, desc: boolean): string {
  const dir = desc ? 'DESC' : 'ASC';
  return `WITH p AS (
  SELECT id, name, type, qps_cap FROM demand_partners
  WHERE side = 'ssp' AND status = 'live' AND ($1::text IS NULL OR lower(name) LIKE $1::text)
), s AS (
  SELECT demand_partner_id, sum(revenue_micros) AS revenue, sum(cost_micros) AS cost,
         sum(bid_requests)::float8 AS bid_requests, sum(bids)::float8 AS bids, sum(wins)::float8 AS wins,
         sum(timeouts)::float8 AS timeouts
  FROM stats_r_partner WHERE lvl = 0 AND ts >= $4::timestamptz AND ts < $5::timestamptz
  GROUP BY demand_partner_id
), f AS (
  SELECT p.id, p.name, p.type, p.qps_cap, q.qps AS current_qps,
         CASE WHEN p.qps_cap > 0 THEN q.qps / p.qps_cap END AS cap_usage,
         COALESCE(s.revenue, 0) AS revenue, s.bids / NULLIF(s.bid_requests, 0) AS bid_rate, s.wins / NULLIF(s.bids, 0) AS win_rate,
         s.timeouts / NULLIF(s.bid_requests, 0) AS timeout_pct,
         ((s.revenue - s.cost)::numeric / NULLIF(s.revenue, 0))::float8 AS margin_pct
  FROM p
  LEFT JOIN s ON s.demand_partner_id = p.id
  LEFT JOIN LATERAL (
    SELECT sum(m.requests)::float8 / (60 * count(*)) AS qps FROM qps_minute m
    WHERE m.kind = 1 AND m.entity_id = p.id AND m.ts >= $2::timestamptz AND m.ts < $3::timestamptz
  ) q ON true
), g AS (
  SELECT f.*, (p_cap_warn) AS warning,
         count(*) OVER () AS all_partners,
         count(*) FILTER (WHERE p_cap_warn) OVER () AS all_warnings,
         COALESCE(sum(current_qps) OVER (), 0) AS all_qps,
         sum(qps_cap) OVER () AS all_cap,
         COALESCE(sum(revenue) OVER (), 0)::text AS all_revenue
  FROM (SELECT f.*, COALESCE(f.cap_usage > $6::float8, false) AS p_cap_warn FROM f) f
)
SELECT id, name, type, qps_cap, current_qps, cap_usage, warning, revenue::text AS revenue, bid_rate, win_rate,
       timeout_pct, margin_pct, all_partners, all_warnings, all_qps, all_cap, all_revenue, count(*) OVER () AS total
FROM g WHERE ($7::boolean IS NULL OR warning = $7::boolean)
ORDER BY ${SORT_SQL[sort]} ${dir} NULLS LAST, g.id ${dir}
LIMIT $8 OFFSET $9`;
}

export const SPARK_SQL = `SELECT entity_id, ts, requests::float8 / NULLIF(minutes * 60, 0) AS qps FROM qps_15m
WHERE kind = 1 AND entity_id = ANY($1::int4[]) AND ts >= $2::timestamptz AND ts < $3::timestamptz ORDER BY entity_id, ts`;

/** The parameters of the page statement. */
export function overviewParams(q: OverviewQuery, win: ReturnType<typeof overviewWindows>): unknown[] {
  const iso = (ms: number) => new Date(ms).toISOString();
  const search = q.search ? `%${q.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const warning = q.warning === undefined ? null : q.warning === 'true';
  return [
    search,
    iso(win.current.from),
    iso(win.current.to),
    iso(win.today.from),
    iso(win.today.to),
    OVERVIEW_WARNING_RATIO,
    warning,
    q.page_size,
    (q.page - 1) * q.page_size,
  ];
}

/** A row of the page statement: the answer's row before rounding, with the summary's window sums. */
interface PageRow extends Omit<OverviewRow, 'revenue_today' | 'spark'> {
  revenue: string | null;
  all_partners: string | number;
  all_warnings: string | number;
  all_qps: number;
  all_cap: string | number | null;
  all_revenue: string;
  total: string | number;
}

const round = (v: number | null, places: number) => (v === null || v === undefined ? null : Math.round(Number(v) * 10 ** places) / 10 ** places);

export async function demandPartnerOverview(ctx: AppContext, caller: Caller, q: OverviewQuery, nowMs = Date.now(), withSparks = true): Promise<OverviewAnswer> {
  const money = hasMoneyArea(caller);
  const desc = q.sort.startsWith('-');
  const sort = q.sort.replace(/^-/, '') as OverviewSort;
  if (!money && OVERVIEW_MONEY_SORTS.includes(sort)) throw new AppError(400, 'resource.sort_unknown', { errors: { sort: 'resource.sort_unknown' } });
  const range = await datasetRange(ctx.database);
  const win = overviewWindows(nowMs, range?.endMs ?? null, q.timezone);
  const rows = await queryPrepared<PageRow>(ctx.database, overviewSql(sort, desc), overviewParams(q, win));

  const ids = rows.map((r) => Number(r.id));
  const sparkRows =
    ids.length === 0 || !withSparks
      ? []
      : await query<{ entity_id: number; ts: string | Date; qps: number | null }>(ctx.database, SPARK_SQL, [
          ids,
          new Date(win.spark.from).toISOString(),
          new Date(win.spark.to).toISOString(),
        ]);
  const buckets = (OVERVIEW_SPARK_HOURS * HOUR_MS) / STEP_MS;
  const sparks = new Map<number, (number | null)[]>(ids.map((id) => [id, new Array<number | null>(buckets).fill(null)]));
  for (const s of sparkRows) {
    const i = Math.floor((new Date(s.ts).getTime() - win.spark.from) / STEP_MS);
    const line = sparks.get(Number(s.entity_id));
    if (line && i >= 0 && i < buckets) line[i] = round(s.qps === null ? null : Number(s.qps), 1);
  }

  const first = rows[0];
  const out: OverviewRow[] = rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    type: r.type,
    qps_cap: Number(r.qps_cap),
    current_qps: round(r.current_qps, 1),
    cap_usage: round(r.cap_usage, 4),
    warning: r.warning,
    revenue_today: money ? microsToDecimal(r.revenue ?? '0') : null,
    bid_rate: round(r.bid_rate, 4),
    win_rate: round(r.win_rate, 4),
    timeout_pct: round(r.timeout_pct, 4),
    margin_pct: money ? round(r.margin_pct, 4) : null,
    spark: sparks.get(Number(r.id)) ?? [],
  }));
  // An empty page (past the end, or the warning filter left nothing) still gets the summary.
  const summary = first
    ? {
        partners: Number(first.all_partners),
        warnings: Number(first.all_warnings),
        current_qps: round(Number(first.all_qps), 1) ?? 0,
        qps_cap: Number(first.all_cap ?? 0),
        revenue_today: money ? microsToDecimal(first.all_revenue) : null,
      }
    : await emptyPageSummary(ctx, q, win, money);
  return {
    as_of: new Date(win.asOf).toISOString(),
    today_start: new Date(win.today.from).toISOString(),
    today_end: new Date(win.today.to).toISOString(),
    currency: 'USD',
    money_visible: money,
    warning_ratio: OVERVIEW_WARNING_RATIO,
    total: first ? Number(first.total) : 0,
    page: q.page,
    page_size: q.page_size,
    summary,
    rows: out,
  };
}

/** The summary when the page has no rows: the first row of the same statement without the warning filter. */
async function emptyPageSummary(ctx: AppContext, q: OverviewQuery, win: ReturnType<typeof overviewWindows>, money: boolean) {
  const [r] = await queryPrepared<PageRow>(ctx.database, overviewSql('name', false), overviewParams({ ...q, warning: undefined, page: 1, page_size: 1 }, win));
  return {
    partners: r ? Number(r.all_partners) : 0,
    warnings: r ? Number(r.all_warnings) : 0,
    current_qps: r ? (round(Number(r.all_qps), 1) ?? 0) : 0,
    qps_cap: r ? Number(r.all_cap ?? 0) : 0,
    revenue_today: money ? microsToDecimal(r?.all_revenue ?? '0') : null,
  };
}

/** Rows per statement while exporting (the page statement, page after page). */
const EXPORT_BATCH = 200;

/**
 * The overview as a file: every partner the query filters (all pages), in its sort, without the
 * sparklines; money columns only for a person who may see them. Column titles in `locale`.
 */
export function overviewExport(ctx: AppContext, caller: Caller, q: OverviewQuery, locale: Locale, nowMs = Date.now()) {
  const money = hasMoneyArea(caller);
  const t = (key: string) => translate(locale, key);
  const columns: { title: string; value: (r: OverviewRow) => TableCell }[] = [
    { title: t('dp_overview.col.partner'), value: (r) => r.name },
    { title: 'ID', value: (r) => r.id },
    { title: t('demand_partner.type'), value: (r) => r.type },
    { title: t('dp_overview.col.current_qps'), value: (r) => r.current_qps },
    { title: t('dp_overview.col.qps_cap'), value: (r) => r.qps_cap },
    { title: t('dp_overview.col.cap_usage'), value: (r) => r.cap_usage },
    { title: t('dp_overview.export.warning'), value: (r) => (r.warning ? t('common.yes') : t('common.no')) },
    ...(money ? [{ title: `${t('dp_overview.col.revenue_today')} (USD)`, value: (r: OverviewRow) => r.revenue_today }] : []),
    { title: t('dp_overview.col.bid_rate'), value: (r) => r.bid_rate },
    { title: t('dp_overview.col.win_rate'), value: (r) => r.win_rate },
    { title: t('dp_overview.col.timeout_pct'), value: (r) => r.timeout_pct },
    ...(money ? [{ title: t('dp_overview.col.margin_pct'), value: (r: OverviewRow) => r.margin_pct }] : []),
  ];
  async function* batches(): AsyncGenerator<TableCell[][]> {
    for (let page = 1; ; page++) {
      const answer = await demandPartnerOverview(ctx, caller, { ...q, page, page_size: EXPORT_BATCH }, nowMs, false);
      yield answer.rows.map((r) => columns.map((c) => c.value(r)));
      if (answer.rows.length < EXPORT_BATCH) return;
    }
  }
  const text = new Set([0, 2, 6]);
  return { titles: columns.map((c) => c.title), numeric: columns.map((_, i) => !text.has(i)), batches: batches() };
}
