/**
 * Dashboard (screens: Home): GET /v1/dashboard?timezone=Europe/Madrid&sections=tiles,series,top,waiting
 *
 * - tiles: revenue, cost, margin, margin %, impressions, eCPM for today so far vs yesterday and the
 *   same weekday last week up to the same time of day (fair comparisons of partial days);
 * - series: revenue, margin and impressions per local day for the last 30 days;
 * - top: top 5 demand partners and publishers of the last 7 days;
 * - waiting: work waiting for the caller (firewall entries expiring within the hour; payouts,
 *   discrepancies and scheduler failures are listed with count 0 until those areas exist).
 * Any signed-in person may call it. Reports figures need '/v1/reports' or '/v1/graphs' (or a money
 * permission); money figures (revenue, cost, margin, margin %, eCPM) need '/v1/reports' or a finance
 * or billing permission (DASHBOARD_MONEY_RESOURCES). Hidden parts come back as null.
 * Reads the rollups only; "now" is the end of the loaded data when that is earlier (a stale demo).
 */
import { hasMoneyArea, hasReportArea } from '@backoffice/core/dashboard';
import { ok } from '@backoffice/core/envelope';
import { localeFromAcceptLanguage } from '@backoffice/core/i18n/catalogues';
import {
  DASHBOARD_FIREWALL_EXPIRY_MINUTES,
  DASHBOARD_SECTIONS,
  DASHBOARD_SERIES_DAYS,
  DASHBOARD_TOP_DAYS,
  DASHBOARD_TOP_N,
  dashboardQuerySchema,
  localDateOf,
  reportRows,
  wallTimeOf,
  zonedTimeToEpoch,
  type DashboardSection,
  type Metric,
} from '@backoffice/core/reports';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Caller } from '../../plugins/auth.ts';
import { callerOf } from '../../plugins/auth.ts';
import { HOUR_MS } from '../../reports-data/rollups.ts';
import { queryPrepared } from '../../reports-data/prepared.ts';
import { query } from '../../reports-data/sql.ts';
import { domainValidator } from '../reports/validation.ts';
import { datasetRange, runReport } from '../reports/service.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { discrepancyWaiting } from '../discrepancy/service.ts';
import { canUseScheduler, recentFailures } from '../scheduler/service.ts';

/** Local midnight of the day `offsetDays` away from the local day of `ms`. */
function localMidnight(ms: number, tz: string, offsetDays = 0): number {
  const w = wallTimeOf(ms, tz);
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + offsetDays));
  return zonedTimeToEpoch({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: 0, minute: 0, second: 0 }, tz);
}

interface Window {
  from: number;
  to: number;
}

/**
 * Today so far against the same part of yesterday and of the same weekday last week: from local
 * midnight to the same wall time (not the same number of hours: a day with a DST change has 23
 * or 25). Just after midnight, whole days are compared instead of empty mornings. Facts are per
 * UTC hour, so in zones with half-hour offsets the bounds are the UTC hours that start them.
 */
function tileWindows(asOf: number, tz: string): Record<'today' | 'yesterday' | 'last_week', Window> {
  const wholeDays = asOf - localMidnight(asOf, tz) < HOUR_MS;
  const todayStart = localMidnight(wholeDays ? asOf - HOUR_MS : asOf, tz);
  const end = wallTimeOf(asOf, tz);
  const hourAlign = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
  const window = (daysBack: number): Window => {
    const from = localMidnight(todayStart, tz, -daysBack);
    const day = wallTimeOf(from, tz);
    const to = wholeDays
      ? localMidnight(todayStart, tz, 1 - daysBack)
      : daysBack === 0
        ? asOf
        : zonedTimeToEpoch({ ...day, hour: end.hour, minute: end.minute, second: 0 }, tz);
    return { from: hourAlign(from), to: hourAlign(to) };
  };
  return { today: window(0), yesterday: window(1), last_week: window(7) };
}

async function tiles(ctx: AppContext, asOf: number, tz: string, money: boolean) {
  const windows = tileWindows(asOf, tz);
  const params: string[] = [];
  const p = (ms: number) => {
    params.push(new Date(ms).toISOString());
    return `$${params.length}::timestamptz`;
  };
  const cols: string[] = [];
  const conds: string[] = [];
  for (const [name, w] of Object.entries(windows)) {
    const cond = `ts >= ${p(w.from)} AND ts < ${p(w.to)}`;
    conds.push(`(${cond})`);
    cols.push(
      `COALESCE(sum(revenue_micros) FILTER (WHERE ${cond}), 0)::text AS ${name}_revenue`,
      `COALESCE(sum(cost_micros) FILTER (WHERE ${cond}), 0)::text AS ${name}_cost`,
      `COALESCE(sum(impressions) FILTER (WHERE ${cond}), 0)::float8 AS ${name}_impressions`,
    );
  }
  const [row] = await queryPrepared<Record<string, string | number>>(
    ctx.database,
    `SELECT ${cols.join(', ')} FROM stats_r_partner WHERE lvl = 0 AND (${conds.join(' OR ')})`,
    params,
  );
  const periods = Object.keys(windows) as (keyof typeof windows)[];
  const values = Object.fromEntries(
    periods.map((k) => {
      const revenue = BigInt(String(row?.[`${k}_revenue`] ?? '0'));
      const cost = BigInt(String(row?.[`${k}_cost`] ?? '0'));
      const impressions = Number(row?.[`${k}_impressions`] ?? 0);
      return [k, { revenue, cost, impressions }];
    }),
  ) as Record<keyof typeof windows, { revenue: bigint; cost: bigint; impressions: number }>;

  const micros = (v: bigint) => {
    const neg = v < 0n;
    const a = neg ? -v : v;
    return `${neg ? '-' : ''}${a / 1_000_000n}.${String(a % 1_000_000n).padStart(6, '0')}`;
  };
  const ratio = (num: bigint, den: bigint, scale = 1n) => {
    if (den === 0n) return null;
    // Half away from zero at 6 decimals, exact.
    const n = num * scale * 1_000_000n * 2n;
    const d = den * 2n;
    const q = (n >= 0n ? n + den : n - den) / d;
    const neg = q < 0n;
    const a = neg ? -q : q;
    return `${neg ? '-' : ''}${a / 1_000_000n}.${String(a % 1_000_000n).padStart(6, '0')}`;
  };
  const tile = (key: Metric, f: (v: (typeof values)['today']) => string | number | null) => {
    const today = f(values.today);
    const yesterday = f(values.yesterday);
    const lastWeek = f(values.last_week);
    const change = (a: string | number | null, b: string | number | null) =>
      a === null || b === null || Number(b) === 0 ? null : Math.round(((Number(a) - Number(b)) / Math.abs(Number(b))) * 10000) / 10000;
    return { key, label: `dashboard.tile.${key}`, today, yesterday, last_week: lastWeek, vs_yesterday: change(today, yesterday), vs_last_week: change(today, lastWeek) };
  };
  const list = [
    ...(money
      ? [
          tile('revenue', (v) => micros(v.revenue)),
          tile('cost', (v) => micros(v.cost)),
          tile('margin', (v) => micros(v.revenue - v.cost)),
          tile('margin_pct', (v) => ratio(v.revenue - v.cost, v.revenue)),
        ]
      : []),
    tile('impressions', (v) => v.impressions),
    ...(money ? [tile('ecpm', (v) => ratio(v.revenue, BigInt(v.impressions) * 1000n, 1n))] : []),
  ];
  return {
    windows: Object.fromEntries(Object.entries(windows).map(([k, w]) => [k, { start: new Date(w.from).toISOString(), end: new Date(w.to).toISOString() }])),
    tiles: list,
  };
}

export async function dashboard(ctx: AppContext, caller: Caller, tz: string, sections: readonly DashboardSection[], locale: 'en' | 'es', nowMs = Date.now()) {
  const range = await datasetRange(ctx.database);
  const nowHour = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  const asOf = range ? Math.min(nowHour, range.endMs) : nowHour;
  const reports = hasReportArea(caller);
  const money = hasMoneyArea(caller);
  const want = new Set(sections);
  const out: Record<string, unknown> = {
    timezone: tz,
    as_of: new Date(asOf).toISOString(),
    data: range ? { start: new Date(range.startMs).toISOString(), end: new Date(range.endMs).toISOString() } : null,
    money_visible: money,
    reports_visible: reports,
    currency: 'USD',
  };
  if (want.has('tiles')) out.tiles = reports ? await tiles(ctx, asOf, tz, money) : null;
  if (want.has('series')) {
    out.series = reports
      ? reportRows(
          await runReport(
            ctx.database,
            {
              startMs: localMidnight(asOf - 1, tz, -(DASHBOARD_SERIES_DAYS - 1)),
              endMs: asOf,
              timezone: tz,
              dimensions: ['day'],
              metrics: money ? ['revenue', 'margin', 'impressions'] : ['impressions'],
              filters: [],
              sort: [{ field: 'day', dir: 'asc' }],
            },
            { limit: DASHBOARD_SERIES_DAYS + 2, offset: 0 },
            locale,
          ),
        )
      : null;
  }
  if (want.has('top')) {
    if (!reports) out.top = null;
    else {
      // The Home screen's top lists show revenue, impressions and eCPM (impressions only without money).
      const metrics: Metric[] = money ? ['revenue', 'impressions', 'ecpm'] : ['impressions'];
      const spec = (dim: 'demand_partner' | 'publisher') => ({
        startMs: localMidnight(asOf - 1, tz, -(DASHBOARD_TOP_DAYS - 1)),
        endMs: asOf,
        timezone: tz,
        dimensions: [dim] as ['demand_partner' | 'publisher'],
        metrics,
        filters: [],
        sort: [{ field: metrics[0]!, dir: 'desc' as const }],
      });
      const partners = await runReport(ctx.database, spec('demand_partner'), { limit: DASHBOARD_TOP_N, offset: 0 }, locale);
      const pubs = await runReport(ctx.database, spec('publisher'), { limit: DASHBOARD_TOP_N, offset: 0 }, locale);
      out.top = {
        from: localDateOf(localMidnight(asOf - 1, tz, -(DASHBOARD_TOP_DAYS - 1)), tz),
        partners: reportRows(partners),
        publishers: reportRows(pubs),
      };
    }
  }
  if (want.has('waiting')) {
    const expiring = await query<{ id: number; ip: string; expires_at: string | Date }>(
      ctx.database,
      `SELECT id, host(ip) AS ip, expires_at FROM firewall_entries
       WHERE owner_id = $1 AND status = 'ACTIVE' AND expires_at IS NOT NULL
         AND expires_at > now() AND expires_at <= now() + make_interval(mins => $2::int)
       ORDER BY expires_at`,
      [caller.id, DASHBOARD_FIREWALL_EXPIRY_MINUTES],
    );
    out.waiting = [
      {
        kind: 'firewall_expiring',
        label: 'dashboard.waiting.firewall_expiring',
        link: '/utils/ip',
        count: expiring.length,
        items: expiring.map((e) => ({ id: Number(e.id), ip: e.ip, expires_at: new Date(e.expires_at).toISOString() })),
      },
      { kind: 'payouts', label: 'dashboard.waiting.payouts', link: '/billing_performance/publishers_reports', count: 0, items: [] },
      { kind: 'discrepancies', label: 'dashboard.waiting.discrepancies', link: '/process/discrepancy', ...(await discrepancyWaiting(ctx.database, caller)) },
      // Failed runs of the last 7 days whose job has not succeeded since (scheduler readers only).
      { kind: 'scheduler_failures', label: 'dashboard.waiting.scheduler_failures', link: '/utils/scheduler', ...(canUseScheduler(caller, 'read') ? await recentFailures(ctx.database) : { count: 0, items: [] }) },
    ];
  }
  return out;
}

export async function dashboardRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get('/v1/dashboard', {
    config: { auth: { authenticated: true } },
    schema: { tags: ['dashboard'], summary: "The signed-in person's dashboard", querystring: dashboardQuerySchema },
    validatorCompiler: domainValidator,
  }, async (request) => {
    const q = request.query;
    const sections = q.sections && q.sections.length > 0 ? q.sections : DASHBOARD_SECTIONS;
    return ok(await dashboard(ctx, callerOf(request), q.timezone, sections, localeFromAcceptLanguage(request.headers['accept-language'])));
  });
}
