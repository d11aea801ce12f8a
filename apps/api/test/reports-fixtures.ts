/**
 * Reports test fixtures: a small deterministic data set loaded into the test's own fresh database,
 * and an independent reference implementation of reports computed in JS from the raw fact rows
 * with exact integer arithmetic (BigInt micro-units), to compare with the API.
 */
import { COUNTRIES, DIMENSION_DEFS, METRIC_DEFS, isEntityDimension, isEnumDimension, wallTimeOf, type Dimension, type Metric } from '@backoffice/core/reports';
import type { Database } from '../src/db/client.ts';
import { loadTestDataset } from '../src/reports-data/index.ts';
import { query } from '../src/reports-data/sql.ts';

/** The test data: 36 days ending 2025-04-02 00:00 UTC (Madrid's DST change on 2025-03-30 inside). */
export const TEST_DATA = { endMs: Date.UTC(2025, 3, 2), days: 36, scale: 0.4, qpsDays: 2, seed: 11 } as const;

export async function loadReportsFixture(database: Database) {
  return loadTestDataset(database, TEST_DATA);
}

export interface RawFact {
  ts: number;
  ids: Record<string, number>;
  m: Record<string, bigint>;
}

const DIM_COL: Record<string, string> = {
  publisher: 'publisher_id', site: 'site_id', ad_unit: 'ad_unit_id', supply_endpoint: 'supply_endpoint_id',
  demand_partner: 'demand_partner_id', deal: 'deal_id', country: 'country_id', device: 'device_id', os: 'os_id',
  format: 'format_id', size: 'size_id', environment: 'environment_id',
};
const SUMS = ['ad_requests', 'bid_requests', 'bids', 'wins', 'impressions', 'clicks', 'timeouts', 'errors', 'revenue_micros', 'cost_micros'];

/** Every raw fact row (read straight from stats_hourly: no rollup, no planner). */
export async function rawFacts(database: Database): Promise<RawFact[]> {
  const rows = await query<Record<string, unknown>>(
    database,
    `SELECT extract(epoch FROM ts)::float8 * 1000 AS ts_ms, ${Object.values(DIM_COL).join(', ')}, ${SUMS.map((c) => `${c}::text AS ${c}`).join(', ')} FROM stats_hourly`,
  );
  return rows.map((r) => ({
    ts: Number(r.ts_ms),
    ids: Object.fromEntries(Object.entries(DIM_COL).map(([d, c]) => [d, Number(r[c])])),
    m: Object.fromEntries(SUMS.map((c) => [c, BigInt(String(r[c]))])),
  }));
}

export async function entityNames(database: Database): Promise<Record<string, Map<number, string>>> {
  const out: Record<string, Map<number, string>> = {};
  const tables: Record<string, string> = { publisher: 'publishers', site: 'sites', ad_unit: 'ad_units', supply_endpoint: 'supply_endpoints', demand_partner: 'demand_partners', deal: 'deals' };
  for (const [d, t] of Object.entries(tables)) {
    const rows = await query<{ id: number; name: string }>(database, `SELECT id, name FROM ${t}`);
    out[d] = new Map(rows.map((r) => [Number(r.id), r.name]));
  }
  out.deal!.set(0, 'Open auction');
  return out;
}

const p2 = (n: number) => String(n).padStart(2, '0');

function timeLabel(dim: string, ts: number, tz: string): string {
  const w = wallTimeOf(ts, tz);
  if (dim === 'hour') return `${w.year}-${p2(w.month)}-${p2(w.day)} ${p2(w.hour)}:00`;
  if (dim === 'day') return `${w.year}-${p2(w.month)}-${p2(w.day)}`;
  if (dim === 'month') return `${w.year}-${p2(w.month)}`;
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day));
  const back = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - back);
  return d.toISOString().slice(0, 10);
}

/** x / y rounded half away from zero to 6 decimals, as a decimal string (null when y = 0). */
export function ratio6(x: bigint, y: bigint): string | null {
  if (y === 0n) return null;
  const neg = x < 0n !== y < 0n;
  const ax = x < 0n ? -x : x;
  const ay = y < 0n ? -y : y;
  const q = (ax * 2_000_000n + ay) / (2n * ay);
  return `${neg && q !== 0n ? '-' : ''}${q / 1_000_000n}.${String(q % 1_000_000n).padStart(6, '0')}`;
}

export function micros6(v: bigint): string {
  const neg = v < 0n;
  const a = neg ? -v : v;
  return `${neg ? '-' : ''}${a / 1_000_000n}.${String(a % 1_000_000n).padStart(6, '0')}`;
}

export function metricValue(metric: Metric, s: Record<string, bigint>): string | number | null {
  const def = METRIC_DEFS[metric];
  const col = (m: string) => s[m === 'revenue' ? 'revenue_micros' : m === 'cost' ? 'cost_micros' : m]!;
  if (def.kind === 'count') return Number(col(metric));
  if (metric === 'revenue' || metric === 'cost') return micros6(col(metric));
  if (metric === 'margin') return micros6(col('revenue') - col('cost'));
  const r = def.ratio!;
  const num = r.numerator === 'margin' ? col('revenue') - col('cost') : col(r.numerator);
  const den = col(r.denominator);
  if (metric === 'ecpm') return ratio6(num, den * 1000n);
  return ratio6(num, den);
}

export interface RefSpec {
  startMs: number;
  endMs: number;
  timezone: string;
  dimensions: Dimension[];
  metrics: Metric[];
  filters: { dimension: string; op: 'include' | 'exclude'; values: (string | number)[] }[];
}

/** The report computed from raw facts: rows keyed by their dimension values, and totals. */
export function referenceReport(facts: RawFact[], names: Record<string, Map<number, string>>, spec: RefSpec) {
  const filterIds = spec.filters.map((f) => ({
    dim: f.dimension,
    op: f.op,
    ids: new Set(f.values.map((v) => (isEnumDimension(f.dimension) ? DIMENSION_DEFS[f.dimension].values!.indexOf(String(v) as never) + 1 : Number(v)))),
  }));
  const groups = new Map<string, { row: Record<string, string | number | null>; sums: Record<string, bigint> }>();
  const totals: Record<string, bigint> = Object.fromEntries(SUMS.map((c) => [c, 0n]));
  let any = false;
  for (const f of facts) {
    if (f.ts < spec.startMs || f.ts >= spec.endMs) continue;
    if (!filterIds.every((fl) => (fl.op === 'include' ? fl.ids.has(f.ids[fl.dim]!) : !fl.ids.has(f.ids[fl.dim]!)))) continue;
    any = true;
    const row: Record<string, string | number | null> = {};
    for (const d of spec.dimensions) {
      if (d === 'hour' || d === 'day' || d === 'week' || d === 'month') row[d] = timeLabel(d, f.ts, spec.timezone);
      else if (isEntityDimension(d)) {
        row[d] = names[d]!.get(f.ids[d]!) ?? `#${f.ids[d]}`;
        row[`${d}_id`] = f.ids[d]!;
      } else row[d] = (DIMENSION_DEFS[d].values ?? COUNTRIES)[f.ids[d]! - 1]!;
    }
    const key = JSON.stringify(row);
    let g = groups.get(key);
    if (!g) {
      g = { row, sums: Object.fromEntries(SUMS.map((c) => [c, 0n])) };
      groups.set(key, g);
    }
    for (const c of SUMS) {
      g.sums[c]! += f.m[c]!;
      totals[c]! += f.m[c]!;
    }
  }
  const rows = [...groups.values()].map((g) => {
    const out = { ...g.row };
    for (const m of spec.metrics) out[m] = metricValue(m, g.sums);
    return { row: out, sums: g.sums };
  });
  const totalRow: Record<string, string | number | null> = {};
  for (const m of spec.metrics) totalRow[m] = metricValue(m, totals);
  return { rows, totals: totalRow, any };
}

/** Key of a row by its dimension values (to compare unordered results). */
export function rowKey(row: Record<string, unknown>, dims: string[]): string {
  return dims.map((d) => String(row[`${d}_id`] ?? row[d])).join('|');
}
