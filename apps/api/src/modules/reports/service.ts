/** Reports: run a DataViewer query, stream its whole result, look up dimension values. */
import { translate, type Locale } from '@backoffice/core/i18n/catalogues';
import {
  DIMENSION_DEFS,
  METRIC_DEFS,
  REPORT_CURRENCY,
  isEntityDimension,
  isEnumDimension,
  isTimeDimension,
  resolveReportRange,
  type Dimension,
  type FilterDimension,
  type ReportColumn,
  type ReportAnswer,
  type ReportCell,
  type ReportedFigures,
  type ReportFilter,
  type ReportRow,
  type TimeDimension,
} from '@backoffice/core/reports';
import { todayIn } from '@backoffice/core/dates';
import type { Database } from '../../db/client.ts';
import { datasetState, HOUR_MS } from '../../reports-data/rollups.ts';
import { queryPrepared } from '../../reports-data/prepared.ts';
import { query, queryArrays, withCursor, type SqlRow } from '../../reports-data/sql.ts';
import {
  buildReportSql,
  csvField,
  ENTITY_TABLES,
  planReport,
  timeUnit,
  type BuiltQuery,
  type CellCodec,
  type Plan,
  type ReportSpec,
  type SourceStats,
} from './engine.ts';
import { parseTextArray2D } from './pg-array.ts';

// ---------------------------------------------------------------------------------------------
// Planner statistics (row counts per rollup level), cached briefly per database.

const statsCache = new WeakMap<Database, { at: number; stats: SourceStats | null }>();
const STATS_TTL_MS = 30_000;

export async function sourceStats(database: Database): Promise<SourceStats | null> {
  const cached = statsCache.get(database);
  if (cached && Date.now() - cached.at < STATS_TTL_MS) return cached.stats;
  const v = (await datasetState(database)) as { factRows: number; startMs: number; endMs: number; rollups?: Record<string, number[]> } | null;
  const stats: SourceStats | null = v
    ? { factRows: v.factRows, hours: Math.max(1, (v.endMs - v.startMs) / HOUR_MS), rollups: v.rollups ?? {} }
    : null;
  statsCache.set(database, { at: Date.now(), stats });
  return stats;
}

export function forgetSourceStats(database: Database): void {
  statsCache.delete(database);
}

/** The data set's loaded range, if any. */
export async function datasetRange(database: Database): Promise<{ startMs: number; endMs: number } | null> {
  const v = (await datasetState(database)) as { startMs: number; endMs: number } | null;
  return v ? { startMs: v.startMs, endMs: v.endMs } : null;
}

// ---------------------------------------------------------------------------------------------

export interface ReportDefinition {
  range: { start: string; end: string };
  timezone: string;
  dimensions: Dimension[];
  metrics: ReportSpec['metrics'];
  filters: ReportFilter[];
  sort: ReportSpec['sort'];
}

export function toSpec(def: ReportDefinition): ReportSpec {
  const r = resolveReportRange(def.range, def.timezone)!;
  return { startMs: r.startMs, endMs: r.endMs, timezone: def.timezone, dimensions: def.dimensions, metrics: def.metrics, filters: def.filters, sort: def.sort };
}

export function reportColumns(spec: Pick<ReportSpec, 'dimensions' | 'metrics'>): ReportColumn[] {
  const cols: ReportColumn[] = [];
  for (const d of spec.dimensions) {
    const def = DIMENSION_DEFS[d];
    cols.push({ key: d, kind: 'dimension', type: def.kind, label: def.label, ...(isEntityDimension(d) ? { idKey: `${d}_id` } : {}) });
  }
  for (const m of spec.metrics) cols.push({ key: m, kind: 'metric', type: METRIC_DEFS[m].kind, label: METRIC_DEFS[m].label });
  return cols;
}

const cell = (v: unknown): ReportRow[string] =>
  v === undefined || v === null ? null : typeof v === 'number' || typeof v === 'string' ? v : String(v);

function pickRow(row: SqlRow, keys: string[]): ReportRow {
  const out: ReportRow = {};
  for (const k of keys) out[k] = cell(row[k]);
  return out;
}

/** An integer of micro-units (decimal text, any size) as a decimal with 6 places: "-1500000" → "-1.500000". */
export function microsToDecimal(micros: string): string {
  const neg = micros.startsWith('-');
  const digits = (neg ? micros.slice(1) : micros).padStart(7, '0');
  return `${neg ? '-' : ''}${digits.slice(0, -6)}.${digits.slice(-6)}`;
}

/** Labels already made, per time dimension (a page repeats a bucket once per row of it). */
const labelCache: Record<TimeDimension, Map<number, string>> = { hour: new Map(), day: new Map(), week: new Map(), month: new Map() };
const LABEL_CACHE_MAX = 20_000;

/** A time bucket's label from the epoch seconds of its local wall time (hour "YYYY-MM-DD HH:00", month "YYYY-MM", else "YYYY-MM-DD"). */
export function timeBucketLabel(dim: TimeDimension, wallSeconds: number): string {
  const cache = labelCache[dim];
  let label = cache.get(wallSeconds);
  if (label === undefined) {
    const iso = new Date(wallSeconds * 1000).toISOString();
    label = dim === 'hour' ? `${iso.slice(0, 10)} ${iso.slice(11, 13)}:00` : dim === 'month' ? iso.slice(0, 7) : iso.slice(0, 10);
    if (cache.size >= LABEL_CACHE_MAX) cache.clear();
    cache.set(wallSeconds, label);
  }
  return label;
}

/** A raw cell of the paged answer as the API's value (see CellCodec). */
function decodeCell(codec: CellCodec, v: unknown): ReportRow[string] {
  if (v === undefined || v === null) return null;
  switch (codec.kind) {
    case 'time':
      return timeBucketLabel(codec.dim, Number(v));
    case 'enum':
      return codec.values[Number(v) - 1] ?? null;
    case 'micros':
      return microsToDecimal(String(v));
    case 'number':
      return Number(v);
    default:
      return cell(v);
  }
}

/** A row of the paged answer: its raw values in the order of `keys`, decoded. */
function rowOf(keys: string[], codecs: CellCodec[], values: readonly unknown[] | null | undefined): ReportRow {
  const out: ReportRow = {};
  for (let i = 0; i < keys.length; i++) out[keys[i]!] = decodeCell(codecs[i]!, values?.[i]);
  return out;
}

/** A row of the paged answer as cells (see ReportAnswer): its raw values decoded, in order. */
function cellsOf(codecs: CellCodec[], values: readonly unknown[]): ReportCell[] {
  const out: ReportCell[] = new Array(codecs.length);
  for (let i = 0; i < codecs.length; i++) out[i] = decodeCell(codecs[i]!, values[i]);
  return out;
}

export async function runReport(
  database: Database,
  spec: ReportSpec,
  page: { limit: number; offset: number },
  locale: Locale,
): Promise<ReportAnswer> {
  const plan = planReport(spec, await sourceStats(database));
  const built = buildReportSql(spec, plan, { openAuctionLabel: translate(locale, 'report.deal.open_auction'), page });
  const rows = await queryPrepared(database, built.text, built.params);
  const metricKeys = spec.metrics as string[];
  const columns = reportColumns(spec);
  if (spec.dimensions.length === 0) {
    const only = rows[0] ?? {};
    const hasData = Number(only.total_rows ?? 0) > 0;
    const totals = pickRow(only, metricKeys);
    return {
      columns,
      fields: metricKeys,
      rows: hasData && page.offset === 0 ? [metricKeys.map((k) => totals[k] ?? null)] : [],
      totals,
      total_rows: hasData ? 1 : 0,
      source: plan.table,
      currency: REPORT_CURRENCY,
    };
  }
  const keys = [...built.dimKeys, ...metricKeys];
  const raw = rows[0]?.result;
  const answer = JSON.parse(typeof raw === 'string' ? raw : '{}') as { totals?: unknown[] | null; total_rows?: number };
  const pageText = rows[0]?.rows;
  const pageRows = parseTextArray2D(typeof pageText === 'string' ? pageText : null).map((r) => cellsOf(built.rowCodecs, r));
  const manual = await reportedFigures(database, spec, keys, pageRows);
  return {
    columns,
    fields: keys,
    rows: pageRows,
    totals: rowOf(metricKeys, built.totalCodecs, answer.totals),
    total_rows: Number(answer.total_rows ?? 0),
    source: plan.table,
    currency: REPORT_CURRENCY,
    ...(manual ? { manual } : {}),
  };
}

/**
 * The partners of a page that reported their own figures (partner_stats) for days of the range,
 * when the report groups by demand partner: one indexed read of at most a page's partners.
 */
async function reportedFigures(database: Database, spec: ReportSpec, keys: string[], pageRows: ReportCell[][]): Promise<Record<string, ReportedFigures> | undefined> {
  const at = keys.indexOf('demand_partner_id');
  if (at < 0 || pageRows.length === 0) return undefined;
  const ids = [...new Set(pageRows.map((r) => Number(r[at])).filter((id) => Number.isInteger(id) && id > 0))];
  if (ids.length === 0) return undefined;
  // The range's calendar days in the report's zone: the first day touched, up to the last one.
  const first = todayIn(new Date(spec.startMs), spec.timezone);
  const last = todayIn(new Date(Math.max(spec.startMs, spec.endMs - 1)), spec.timezone);
  const found = await query(
    database,
    `SELECT demand_partner_id AS id, count(*)::int4 AS days, sum(impressions)::text AS impressions, sum(revenue)::text AS revenue
       FROM partner_stats WHERE demand_partner_id = ANY($1::int4[]) AND day BETWEEN $2::date AND $3::date
      GROUP BY demand_partner_id`,
    [ids, first, last],
  );
  if (found.length === 0) return undefined;
  const out: Record<string, ReportedFigures> = {};
  for (const r of found) out[String(r.id)] = { days: Number(r.days), impressions: String(r.impressions), revenue: trimDecimal(String(r.revenue)) };
  return out;
}

/** numeric text without trailing fraction zeros ("12.500000" → "12.5", "3.000000" → "3"). */
function trimDecimal(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** Estimated source rows per export chunk (a chunk is one statement and one string in memory). */
export const EXPORT_CHUNK_ROWS = 20_000;
/** A time bucket estimated above this cannot be a chunk on its own: the export uses a cursor. */
const EXPORT_CHUNK_MAX_ROWS = 200_000;

/**
 * Splits an export into time chunks that give the same rows in the same order as the whole
 * statement, or null when the order does not start with the time dimension (or a single time
 * bucket is too big). A chunk boundary is an hour where the report's time bucket changes (local
 * to the report's zone, DST included, computed by the database with the report's own expression),
 * so that no bucket is split between two chunks; chunks come in the time sort's direction.
 */
export async function exportChunks(
  database: Database,
  spec: ReportSpec,
  estimatedRows: number,
  chunkRows = EXPORT_CHUNK_ROWS,
): Promise<{ startMs: number; endMs: number }[] | null> {
  const timeDim = spec.dimensions.find(isTimeDimension);
  if (!timeDim) return null;
  const first = spec.sort[0] ?? { field: timeDim, dir: 'asc' as const };
  if (first.field !== timeDim) return null;
  const fromMs = Math.floor(spec.startMs / HOUR_MS) * HOUR_MS;
  const toMs = Math.ceil(spec.endMs / HOUR_MS) * HOUR_MS;
  const hours = Math.max(1, (toMs - fromMs) / HOUR_MS);
  const perHour = estimatedRows / hours;
  let chunks: { startMs: number; endMs: number }[];
  if (estimatedRows <= chunkRows) chunks = [{ startMs: spec.startMs, endMs: spec.endMs }];
  else {
    const unit = timeUnit(timeDim);
    const starts = await query<{ ms: number }>(
      database,
      `SELECT (extract(epoch FROM h) * 1000)::float8 AS ms
       FROM generate_series($1::timestamptz + interval '1 hour', $2::timestamptz - interval '1 hour', interval '1 hour') h
       WHERE date_trunc('${unit}', h AT TIME ZONE $3::text) <> date_trunc('${unit}', (h - interval '1 hour') AT TIME ZONE $3::text)
       ORDER BY h`,
      [new Date(fromMs).toISOString(), new Date(toMs).toISOString(), spec.timezone],
    );
    const bounds = [...starts.map((r) => Number(r.ms)), toMs];
    chunks = [];
    let start = fromMs;
    let prev = fromMs;
    for (const b of bounds) {
      // Cut before this bucket when it would make the chunk too big.
      if (prev > start && (b - start) / HOUR_MS * perHour > chunkRows) {
        chunks.push({ startMs: start, endMs: prev });
        start = prev;
      }
      if (((b - prev) / HOUR_MS) * perHour > EXPORT_CHUNK_MAX_ROWS) return null;
      prev = b;
    }
    chunks.push({ startMs: start, endMs: toMs });
    // The first and last chunks keep the report's own (possibly not hour-aligned) ends.
    chunks[0]!.startMs = spec.startMs;
    chunks[chunks.length - 1]!.endMs = spec.endMs;
  }
  return first.dir === 'desc' ? chunks.reverse() : chunks;
}

export interface ExportOptions {
  /** Estimated source rows per time chunk; null: never chunk (one cursor). For tests and the bench. */
  chunkRows?: number | null;
  /** Rows per cursor fetch when the export does not go by time chunks. */
  batchSize?: number;
}

/**
 * Runs an export one time chunk at a time (one statement each, the next one asked for while the
 * current one is handed over, so the database works meanwhile), or through one cursor when the
 * report cannot be cut by time. Memory holds at most two chunks (or one cursor batch).
 */
async function runExport<R>(
  database: Database,
  spec: ReportSpec,
  stats: SourceStats | null,
  opts: ExportOptions,
  build: (part: ReportSpec, plan: Plan) => BuiltQuery,
  chunk: (built: BuiltQuery) => Promise<{ n: number; value: R }>,
  cursorRows: (built: BuiltQuery, onBatch: (rows: unknown[][]) => Promise<boolean | void>) => Promise<number>,
  onCursorBatch: (rows: unknown[][]) => Promise<boolean | void>,
  onChunk: (value: R, n: number) => Promise<boolean | void>,
): Promise<number> {
  const plan = planReport(spec, stats);
  const chunks = opts.chunkRows === null ? null : await exportChunks(database, spec, plan.estimatedRows, opts.chunkRows);
  if (!chunks) return cursorRows(build(spec, plan), onCursorBatch);
  const run = (c: { startMs: number; endMs: number }) => {
    const part = { ...spec, startMs: c.startMs, endMs: c.endMs };
    return chunk(build(part, planReport(part, stats)));
  };
  let total = 0;
  let next: Promise<{ n: number; value: R }> | null = run(chunks[0]!);
  for (let i = 0; i < chunks.length; i++) {
    const cur = await next!;
    next = i + 1 < chunks.length ? run(chunks[i + 1]!) : null;
    if (cur.n === 0) continue;
    total += cur.n;
    if ((await onChunk(cur.value, cur.n)) === false) {
      // Stopped (the client went away): let the statement already asked for end quietly.
      await next?.catch(() => undefined);
      break;
    }
  }
  return total;
}

/**
 * Streams every row of a report, each row as an array of its values in `keys` order (no object
 * per row): what the XLSX export writes. Time chunks or a cursor (see runExport).
 */
export async function streamReportValues(
  database: Database,
  spec: ReportSpec,
  locale: Locale,
  onBatch: (rows: unknown[][], keys: string[]) => Promise<boolean | void>,
  opts: ExportOptions = {},
): Promise<number> {
  const stats = await sourceStats(database);
  const openAuctionLabel = translate(locale, 'report.deal.open_auction');
  const build = (part: ReportSpec, plan: Plan) => buildReportSql(part, plan, { openAuctionLabel, rowsOnly: true });
  const keys = [...build(spec, planReport(spec, stats)).dimKeys, ...(spec.metrics as string[])];
  if (spec.dimensions.length === 0) {
    const built = build(spec, planReport(spec, stats));
    const rows = await query(database, built.text, built.params);
    const only = rows[0];
    if (!only || Number(only.total_rows ?? 0) === 0) return 0;
    await onBatch([keys.map((k) => only[k] ?? null)], keys);
    return 1;
  }
  return runExport<unknown[][]>(
    database,
    spec,
    stats,
    opts,
    build,
    async (built) => {
      const rows = await queryArrays(database, built.text, built.params);
      return { n: rows.length, value: rows };
    },
    (built, onRows) =>
      withCursor<unknown[]>(database, built.text, built.params, opts.batchSize ?? 5000, onRows, {
        rowMode: 'array',
      }),
    (rows) => onBatch(rows, keys),
    (rows) => onBatch(rows, keys),
  );
}

/**
 * Streams a report as CSV text (lines ending in CRLF, no header), written by the database: each
 * time chunk answers its lines as one string (the report's own sort feeding string_agg), else a
 * cursor of lines. `onChunk` gets non-empty text only; false stops. Resolves to the number of rows.
 */
export async function streamReportCsv(
  database: Database,
  spec: ReportSpec,
  locale: Locale,
  onChunk: (text: string, rows: number) => Promise<boolean | void>,
  opts: ExportOptions = {},
): Promise<number> {
  if (spec.dimensions.length === 0) {
    // Metrics only: at most one row.
    return streamReportValues(database, spec, locale, async (batch) => {
      const line = batch[0]!.map((v) => (v === null || v === undefined ? '' : csvField(String(v)))).join(',');
      return onChunk(`${line}\r\n`, 1);
    });
  }
  const stats = await sourceStats(database);
  const openAuctionLabel = translate(locale, 'report.deal.open_auction');
  return runExport<string>(
    database,
    spec,
    stats,
    opts,
    (part, plan) => buildReportSql(part, plan, { openAuctionLabel, rowsOnly: true, csvLine: true }),
    async (built) => {
      const rows = await query<{ n: number; text: string | null }>(
        database,
        `SELECT count(*)::int4 AS n, string_agg(x.line, E'\r\n') AS text FROM (${built.text}) x`,
        built.params,
      );
      const n = Number(rows[0]?.n ?? 0);
      return { n, value: n > 0 ? `${rows[0]!.text}\r\n` : '' };
    },
    (built, onRows) =>
      withCursor<unknown[]>(database, built.text, built.params, opts.batchSize ?? 10_000, onRows, {
        rowMode: 'array',
      }),
    async (rows) => {
      let text = '';
      for (const r of rows) text += `${r[0] as string}\r\n`;
      return onChunk(text, rows.length);
    },
    onChunk,
  );
}

// ---------------------------------------------------------------------------------------------
// Dimension values (filter autocomplete): [{id, value}] (spec section 3, multi-select option).

export interface DimensionValue {
  id: number | string;
  value: string;
}

function enumLabel(dimension: FilterDimension, code: string, locale: Locale): string {
  if (dimension === 'country') {
    try {
      const name = new Intl.DisplayNames([locale], { type: 'region' }).of(code);
      return name ? `${name} (${code})` : code;
    } catch {
      return code;
    }
  }
  if (dimension === 'size') return code;
  return translate(locale, `report.${dimension}.${code}`);
}

export async function lookupValues(
  database: Database,
  dimension: FilterDimension,
  opts: { search: string; limit: number; ids?: number[] },
  locale: Locale,
): Promise<DimensionValue[]> {
  const search = opts.search.trim().toLowerCase();
  if (isEnumDimension(dimension)) {
    const values = DIMENSION_DEFS[dimension].values!;
    return values
      .map((code) => ({ id: code, value: enumLabel(dimension, code, locale) }))
      .filter((v) => !search || v.value.toLowerCase().includes(search) || v.id.toLowerCase().includes(search))
      .slice(0, opts.limit);
  }
  if (isTimeDimension(dimension)) return [];
  const table = ENTITY_TABLES[dimension]!;
  const out: DimensionValue[] = [];
  const openAuction = translate(locale, 'report.deal.open_auction');
  if (opts.ids) {
    if (dimension === 'deal' && opts.ids.includes(0)) out.push({ id: 0, value: openAuction });
    const rows = await query<{ id: number; name: string }>(database, `SELECT id, name FROM ${table} WHERE id = ANY($1::int4[]) ORDER BY name, id`, [opts.ids]);
    return [...out, ...rows.map((r) => ({ id: Number(r.id), value: r.name }))];
  }
  if (dimension === 'deal' && (!search || openAuction.toLowerCase().includes(search))) out.push({ id: 0, value: openAuction });
  // Prefix matches first, then anywhere; LIKE wildcards in the search are taken literally.
  const escaped = search.replace(/[\\%_]/g, (c) => `\\${c}`);
  const extra = dimension === 'deal' ? ` OR lower(code) LIKE '%' || $1 || '%'` : '';
  const rows = await query<{ id: number; name: string }>(
    database,
    `SELECT id, name FROM ${table}
     WHERE lower(name) LIKE '%' || $1 || '%'${extra}
     ORDER BY (lower(name) LIKE $1 || '%') DESC, lower(name), id LIMIT $2`,
    [escaped, opts.limit],
  );
  return [...out, ...rows.map((r) => ({ id: Number(r.id), value: r.name }))].slice(0, opts.limit);
}
