/**
 * Performance report (screen `/partners/performance_report`, docs/decisions/016):
 *   GET /v1/reports/performance?month=YYYY-MM&side=all|ssp|performance&search=&sort=-revenue&timezone=&page=&page_size=
 *   GET /v1/reports/performance/export?…the same query…&format=csv|xlsx
 * One row per demand partner with traffic in either window: this month's revenue, cost, margin,
 * margin %, impressions, eCPM, bid rate, win rate and timeout %, last month's, and the change of
 * each; totals over every filtered row; sorted and paged by the database.
 *
 * The windows (core's monthWindows): a month that is over against the whole previous month; the
 * current month (or one the loaded data stops inside) month to date against the same part of last
 * month. "Now" is the end of the loaded data when that is earlier (a stale demo), as on the
 * dashboard. One statement reads the partner rollup: whole UTC days from level 1 and the hours at
 * a window's edges (local midnights, the month-to-date end) from level 0. Money stays in integer
 * micro-units until core's BigInt arithmetic writes the exact decimals.
 */
import { ok } from '@backoffice/core/envelope';
import { localeFromAcceptLanguage, translate, type Locale } from '@backoffice/core/i18n/catalogues';
import {
  PERFORMANCE_CURRENCY,
  PERFORMANCE_EXPORT_MAX_ROWS,
  PERFORMANCE_EXPORT_NAME,
  PERFORMANCE_METRIC_DEFS,
  PERFORMANCE_METRICS,
  PERFORMANCE_REPORT_RESOURCE,
  PERFORMANCE_SUMS,
  changeKey,
  emptySums,
  formatMonth,
  fractionToPercent,
  monthWindows,
  parseReportMonth,
  parseSort,
  performanceExportQuerySchema,
  performanceQuerySchema,
  performanceValues,
  prevKey,
  shiftMonth,
  windowLabel,
  type PerformanceAnswer,
  type PerformanceMetric,
  type PerformanceQuery,
  type PerformanceRow,
  type PerformanceSums,
  type PerformanceTerms,
  type PerformanceWindows,
  type TimeWindow,
} from '@backoffice/core/performance-report';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { sendTableFile } from '../../lib/table-file.ts';
import { domainValidator, type ZodTypeProvider } from '../../plugins/validation.ts';
import { DAY_MS, HOUR_MS } from '../../reports-data/rollups.ts';
import { queryPrepared } from '../../reports-data/prepared.ts';
import { datasetRange } from '../reports/service.ts';

const PERMISSION = { resource: PERFORMANCE_REPORT_RESOURCE, action: 'read' } as const;

// ---------------------------------------------------------------------------------------------
// Validation: the envelope leads with the first of this report's keys (perf_report.month_future…)

const OWN_PREFIXES = ['perf_report.', 'report.'];

const performanceValidator = domainValidator(OWN_PREFIXES);

// ---------------------------------------------------------------------------------------------
// SQL

/** A window cut into whole UTC days (rollup level 1) and the hours at its edges (level 0). */
export function windowPieces(w: TimeWindow): { lvl: 0 | 1; startMs: number; endMs: number }[] {
  if (w.endMs <= w.startMs) return [];
  const dayUp = Math.ceil(w.startMs / DAY_MS) * DAY_MS;
  const dayDown = Math.floor(w.endMs / DAY_MS) * DAY_MS;
  if (dayUp >= dayDown) return [{ lvl: 0, startMs: w.startMs, endMs: w.endMs }];
  return [
    ...(w.startMs < dayUp ? [{ lvl: 0 as const, startMs: w.startMs, endMs: dayUp }] : []),
    { lvl: 1 as const, startMs: dayUp, endMs: dayDown },
    ...(dayDown < w.endMs ? [{ lvl: 0 as const, startMs: dayDown, endMs: w.endMs }] : []),
  ];
}

class Params {
  readonly values: unknown[] = [];
  add(v: unknown, type: string): string {
    this.values.push(v);
    return `$${this.values.length}::${type}`;
  }
}

function windowCondition(w: TimeWindow, params: Params): string {
  const pieces = windowPieces(w);
  if (pieces.length === 0) return 'false';
  return `(${pieces
    .map(
      (p) =>
        `(lvl = ${p.lvl} AND ts >= ${params.add(new Date(p.startMs).toISOString(), 'timestamptz')} AND ts < ${params.add(new Date(p.endMs).toISOString(), 'timestamptz')})`,
    )
    .join(' OR ')})`;
}

/** A signed sum of one window's sums (c_ this window, p_ last month's), as numeric. */
function termsSql(terms: PerformanceTerms | null, prefix: 'c' | 'p'): string {
  if (!terms) return '1::numeric';
  return `(${terms.map(([k, sign], i) => `${i === 0 ? (sign === 1 ? '' : '-') : sign === 1 ? ' + ' : ' - '}${prefix}_${k}::numeric`).join('')})`;
}

/**
 * The sort key of a field, computed as core computes the value (metricValue, metricChange) so the
 * order is the order of the figures shown: a value is num / (den x factor); a relative change
 * (a·B - A·b) / (A·|b|); a change in points (a·B - b·A) / (A·B·factor).
 */
function sortSql(field: string): string {
  if (field === 'name') return 'lower(name)';
  const metric = field.replace(/_(prev|change)$/, '') as PerformanceMetric;
  const d = PERFORMANCE_METRIC_DEFS[metric];
  const factor = `${d.factor}::numeric`;
  if (field.endsWith('_change')) {
    const [a, A, b, B] = [
      termsSql(d.num, 'c'),
      termsSql(d.den, 'c'),
      termsSql(d.num, 'p'),
      termsSql(d.den, 'p'),
    ];
    if (d.change === 'points')
      return `CASE WHEN ${A} = 0 OR ${B} = 0 THEN NULL ELSE (${a} * ${B} - ${b} * ${A}) / (${A} * ${B} * ${factor}) END`;
    return `CASE WHEN ${A} = 0 OR ${B} = 0 OR ${b} = 0 THEN NULL ELSE (${a} * ${B} - ${A} * ${b}) / (${A} * abs(${b})) END`;
  }
  const prefix = field.endsWith('_prev') ? 'p' : 'c';
  return `${termsSql(d.num, prefix)} / NULLIF(${termsSql(d.den, prefix)} * ${factor}, 0)`;
}

interface SumsRow {
  part: number;
  id: number | null;
  name: string | null;
  side: string | null;
  type: string | null;
  status: string | null;
  n: number;
  [sum: string]: unknown;
}

/**
 * One statement: the partners' sums in both windows (the totals row first, part 0, over every
 * filtered partner), then the page (part 1) in the sort's order with its position.
 */
async function readPartners(
  database: Database,
  windows: PerformanceWindows,
  q: Pick<PerformanceQuery, 'side' | 'search' | 'sort'>,
  page: { limit: number; offset: number },
): Promise<{ totals: SumsRow | undefined; rows: SumsRow[] }> {
  const params = new Params();
  const cur = windowCondition(windows.current, params);
  const prev = windowCondition(windows.previous, params);
  const sums = PERFORMANCE_SUMS.flatMap((s) => [
    `COALESCE(sum(${s}) FILTER (WHERE ${cur}), 0) AS c_${s}`,
    `COALESCE(sum(${s}) FILTER (WHERE ${prev}), 0) AS p_${s}`,
  ]);
  const cols = PERFORMANCE_SUMS.flatMap((s) => [`c_${s}`, `p_${s}`]);
  const side = params.add(q.side, 'text');
  const search = params.add(
    q.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`),
    'text',
  );
  const sort = parseSort(q.sort)!;
  const order = `${sortSql(sort.field)} ${sort.dir === 'desc' ? 'DESC' : 'ASC'} NULLS LAST, lower(name), id`;
  const limit = params.add(page.limit, 'int8');
  const offset = params.add(page.offset, 'int8');
  const text = `
    WITH s AS (
      SELECT demand_partner_id AS id, ${sums.join(', ')}
      FROM stats_r_partner
      WHERE lvl IN (0, 1) AND (${cur} OR ${prev})
      GROUP BY demand_partner_id
    ), r AS (
      SELECT p.id, p.name, p.side, p.type, p.status, ${cols.map((c) => `s.${c}`).join(', ')}
      FROM s JOIN demand_partners p ON p.id = s.id
      WHERE (${side} = 'all' OR p.side = ${side})
        AND (${search} = '' OR lower(p.name) LIKE '%' || ${search} || '%')
    )
    SELECT 0 AS part, NULL::int4 AS id, NULL::text AS name, NULL::text AS side, NULL::text AS type, NULL::text AS status,
      count(*)::int4 AS n, 0::int8 AS pos, ${cols.map((c) => `COALESCE(sum(${c}), 0)::text AS ${c}`).join(', ')}
    FROM r
    UNION ALL
    SELECT 1, id, name, side, type, status, 0, pos, ${cols.map((c) => `${c}::text`).join(', ')}
    FROM (SELECT r.*, row_number() OVER (ORDER BY ${order}) AS pos FROM r) x
    WHERE pos > ${offset} AND pos <= ${offset} + ${limit}`;
  const out = await queryPrepared<SumsRow>(database, text, params.values);
  const totals = out.find((r) => Number(r.part) === 0);
  const rows = out.filter((r) => Number(r.part) === 1).sort((a, b) => Number(a.pos) - Number(b.pos));
  return { totals, rows };
}

function sumsOf(row: SumsRow | undefined, prefix: 'c' | 'p'): PerformanceSums {
  const out = emptySums();
  if (!row) return out;
  for (const s of PERFORMANCE_SUMS) out[s] = BigInt(String(row[`${prefix}_${s}`] ?? '0'));
  return out;
}

// ---------------------------------------------------------------------------------------------
// The report

const iso = (ms: number) => new Date(ms).toISOString();

/** The report for a query: a page (or every row, for the export), totals and the windows compared. */
export async function performanceReport(
  database: Database,
  q: PerformanceQuery,
  page: { limit: number; offset: number },
  nowMs = Date.now(),
): Promise<PerformanceAnswer> {
  const month = parseReportMonth(q.month)!;
  const range = await datasetRange(database);
  const nowHour = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  const asOf = range ? Math.min(nowHour, range.endMs) : nowHour;
  const windows = monthWindows(month, q.timezone, asOf);
  const { totals, rows } = await readPartners(database, windows, q, page);
  const starts = [windows.current, windows.previous].filter((w) => w.endMs > w.startMs).map((w) => w.startMs);
  return {
    month: q.month,
    previous_month: formatMonth(shiftMonth(month, -1)),
    timezone: q.timezone,
    currency: PERFORMANCE_CURRENCY,
    mode: windows.mode,
    windows: {
      current: { start: iso(windows.current.startMs), end: iso(windows.current.endMs) },
      previous: { start: iso(windows.previous.startMs), end: iso(windows.previous.endMs) },
    },
    data: range ? { start: iso(range.startMs), end: iso(range.endMs) } : null,
    partial_data: range !== null && starts.some((s) => s < range.startMs),
    rows: rows.map((r): PerformanceRow => ({
      id: Number(r.id),
      name: String(r.name),
      side: String(r.side),
      type: String(r.type),
      status: String(r.status),
      ...performanceValues(sumsOf(r, 'c'), sumsOf(r, 'p')),
    })),
    totals: performanceValues(sumsOf(totals, 'c'), sumsOf(totals, 'p')),
    total_rows: Number(totals?.n ?? 0),
    page: q.page,
    page_size: q.page_size,
  };
}

// ---------------------------------------------------------------------------------------------
// Export

interface ExportColumn {
  title: string;
  kind: 'text' | 'number';
  value: (r: PerformanceRow) => string | number | null;
}

/**
 * The export's columns: the partner, then per metric this window's value, last month's and the
 * change; titles name the windows (a file read away from the screen still says what it compares).
 * Rates and changes are percentages (points for rates), money exact decimals.
 */
export function exportColumns(answer: PerformanceAnswer, locale: Locale): ExportColumn[] {
  const t = (key: string, params?: Record<string, string>) => translate(locale, key, params);
  const whole = answer.mode === 'whole_month';
  const w = (x: { start: string; end: string }) =>
    windowLabel({ startMs: Date.parse(x.start), endMs: Date.parse(x.end) }, answer.timezone, whole);
  const current = w(answer.windows.current);
  const previous = w(answer.windows.previous);
  const percent = (v: string | number | null) => (v === null ? null : fractionToPercent(String(v)));
  const cols: ExportColumn[] = [
    { title: t('perf_report.column.partner'), kind: 'text', value: (r) => r.name },
    { title: t('perf_report.column.partner_id'), kind: 'number', value: (r) => r.id },
    { title: t('perf_report.column.side'), kind: 'text', value: (r) => t(`perf_report.side.${r.side}`) },
  ];
  for (const m of PERFORMANCE_METRICS) {
    const d = PERFORMANCE_METRIC_DEFS[m];
    const label = t(`perf_report.metric.${m}`);
    const show = d.kind === 'ratio' ? percent : (v: string | number | null) => v;
    cols.push(
      { title: `${label} (${current})`, kind: 'number', value: (r) => show(r[m]) },
      { title: `${label} (${previous})`, kind: 'number', value: (r) => show(r[prevKey(m)]) },
      {
        title: t(
          d.change === 'points' ? 'perf_report.export.change_points' : 'perf_report.export.change_percent',
          { metric: label },
        ),
        kind: 'number',
        value: (r) => percent(r[changeKey(m)]),
      },
    );
  }
  return cols;
}

async function sendExport(
  request: FastifyRequest,
  reply: FastifyReply,
  database: Database,
  q: PerformanceQuery,
  format: 'csv' | 'xlsx',
) {
  const locale = localeFromAcceptLanguage(request.headers['accept-language']);
  const answer = await performanceReport(database, q, { limit: PERFORMANCE_EXPORT_MAX_ROWS, offset: 0 });
  if (answer.rows.length === 0) throw new AppError(422, 'report.export_empty');
  const cols = exportColumns(answer, locale);
  async function* batches() {
    for (let i = 0; i < answer.rows.length; i += 1000) yield answer.rows.slice(i, i + 1000).map((r) => cols.map((c) => c.value(r)));
  }
  reply.header('cache-control', 'no-store');
  return sendTableFile(request, reply, {
    name: PERFORMANCE_EXPORT_NAME,
    format,
    timezone: q.timezone,
    titles: cols.map((c) => c.title),
    numeric: cols.map((c) => c.kind !== 'text'),
    batches: batches(),
  });
}

// ---------------------------------------------------------------------------------------------
// Routes

export async function performanceReportRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;

  app.get(
    '/v1/reports/performance',
    {
      config: { auth: { permission: PERMISSION } },
      schema: {
        tags: ['reports'],
        summary:
          'Performance report: per demand partner, a month against last month (a page, totals and the windows compared)',
        description:
          'month=YYYY-MM (not after the current month in `timezone`), side=all|ssp|performance, search (partner name), sort (a metric, metric_prev or metric_change; -field descending), page, page_size. ' +
          'A past month is compared whole with the whole previous month; the current month month-to-date with the same days and hour of last month (docs/decisions/016).',
        querystring: performanceQuerySchema(),
      },
      validatorCompiler: performanceValidator,
    },
    async (request) => {
      const q = request.query;
      return ok(
        await performanceReport(database, q, { limit: q.page_size, offset: (q.page - 1) * q.page_size }),
      );
    },
  );

  app.get(
    '/v1/reports/performance/export',
    {
      config: { auth: { permission: PERMISSION } },
      schema: {
        tags: ['reports'],
        summary:
          'Performance report as CSV or XLSX: every filtered partner (performance_report_YYYY-MM-DD_HHmmss.ext)',
        description:
          "The report's query (page and page_size are ignored) and format=csv|xlsx. Column titles in the request's language, naming the windows compared; rates and changes as percentages.",
        querystring: performanceExportQuerySchema(),
      },
      validatorCompiler: performanceValidator,
    },
    async (request, reply) => {
      const { format, ...q } = request.query;
      return sendExport(request, reply, database, q, format);
    },
  );
}
