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
  type ReportFilter,
  type ReportResult,
  type ReportRow,
} from '@backoffice/core/reports';
import type { Database } from '../../db/client.ts';
import { HOUR_MS } from '../../reports-data/rollups.ts';
import { query, withCursor, type SqlRow } from '../../reports-data/sql.ts';
import { buildReportSql, ENTITY_TABLES, planReport, type ReportSpec, type SourceStats } from './engine.ts';

// ---------------------------------------------------------------------------------------------
// Planner statistics (row counts per rollup level), cached briefly per database.

const statsCache = new WeakMap<Database, { at: number; stats: SourceStats | null }>();
const STATS_TTL_MS = 30_000;

export async function sourceStats(database: Database): Promise<SourceStats | null> {
  const cached = statsCache.get(database);
  if (cached && Date.now() - cached.at < STATS_TTL_MS) return cached.stats;
  const rows = await query<{ value: unknown }>(database, `SELECT value FROM stats_state WHERE key = 'dataset'`);
  let stats: SourceStats | null = null;
  const raw = rows[0]?.value;
  if (raw) {
    const v = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { factRows: number; startMs: number; endMs: number; rollups: Record<string, number[]> };
    stats = { factRows: v.factRows, hours: Math.max(1, (v.endMs - v.startMs) / HOUR_MS), rollups: v.rollups };
  }
  statsCache.set(database, { at: Date.now(), stats });
  return stats;
}

export function forgetSourceStats(database: Database): void {
  statsCache.delete(database);
}

/** The data set's loaded range, if any. */
export async function datasetRange(database: Database): Promise<{ startMs: number; endMs: number } | null> {
  const rows = await query<{ value: unknown }>(database, `SELECT value FROM stats_state WHERE key = 'dataset'`);
  const raw = rows[0]?.value;
  if (!raw) return null;
  const v = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { startMs: number; endMs: number };
  return { startMs: v.startMs, endMs: v.endMs };
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

function pickRow(row: SqlRow, keys: string[]): ReportRow {
  const out: ReportRow = {};
  for (const k of keys) {
    const v = row[k];
    out[k] = v === undefined || v === null ? null : typeof v === 'number' || typeof v === 'string' ? v : String(v);
  }
  return out;
}

export async function runReport(
  database: Database,
  spec: ReportSpec,
  page: { limit: number; offset: number },
  locale: Locale,
): Promise<ReportResult> {
  const plan = planReport(spec, await sourceStats(database));
  const built = buildReportSql(spec, plan, { openAuctionLabel: translate(locale, 'report.deal.open_auction'), page });
  const rows = await query(database, built.text, built.params);
  const metricKeys = spec.metrics as string[];
  const columns = reportColumns(spec);
  if (spec.dimensions.length === 0) {
    const only = rows[0] ?? {};
    const hasData = Number(only.total_rows ?? 0) > 0;
    const totals = pickRow(only, metricKeys);
    return { columns, rows: hasData && page.offset === 0 ? [totals] : [], totals, total_rows: hasData ? 1 : 0, source: plan.table, currency: REPORT_CURRENCY };
  }
  const keys = [...built.dimKeys, ...metricKeys];
  const pageRows = rows.filter((r) => Number(r.part) === 0).sort((a, b) => Number(a.rn) - Number(b.rn));
  const totalRow = rows.find((r) => Number(r.part) === 1) ?? {};
  return {
    columns,
    rows: pageRows.map((r) => pickRow(r, keys)),
    totals: pickRow(totalRow, metricKeys),
    total_rows: Number(totalRow.total_rows ?? 0),
    source: plan.table,
    currency: REPORT_CURRENCY,
  };
}

/**
 * Streams every row of a report (no paging) in batches through a server-side cursor.
 * Resolves to the number of rows; `onBatch` returning false stops.
 */
export async function streamReport(
  database: Database,
  spec: ReportSpec,
  locale: Locale,
  onBatch: (rows: ReportRow[], keys: string[]) => Promise<boolean | void>,
  batchSize = 5000,
): Promise<number> {
  const plan = planReport(spec, await sourceStats(database));
  const built = buildReportSql(spec, plan, { openAuctionLabel: translate(locale, 'report.deal.open_auction'), rowsOnly: true });
  const keys = [...built.dimKeys, ...(spec.metrics as string[])];
  if (spec.dimensions.length === 0) {
    const rows = await query(database, built.text, built.params);
    const only = rows[0];
    if (!only || Number(only.total_rows ?? 0) === 0) return 0;
    await onBatch([pickRow(only, keys)], keys);
    return 1;
  }
  return withCursor(database, built.text, built.params, batchSize, (rows) => onBatch(rows.map((r) => pickRow(r, keys)), keys));
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
