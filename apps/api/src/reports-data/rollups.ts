/**
 * The rollups of the hourly fact, their time levels, and their (re)building. Every rollup table
 * has the columns (lvl, ts, <its dimension columns>, <the ten metric sums>). Levels:
 *   0 = UTC hour, 1 = UTC day, 2 = 7-day block, 3 = 28-day block (blocks aligned on Monday
 *   1970-01-05 00:00 UTC). A level-n row sums the level-(n-1) rows of its block.
 */
import type { FilterDimension } from '@backoffice/core/reports';
import type { Database } from '../db/client.ts';
import { exec, query, transaction } from './sql.ts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const LEVEL_ORIGIN_MS = Date.UTC(1970, 0, 5);
export const LEVEL_ORIGIN_SQL = "'1970-01-05 00:00:00+00'";

export interface Level {
  lvl: number;
  ms: number;
  /** SQL interval for date_bin */
  interval: string;
}
export const LEVELS: readonly Level[] = [
  { lvl: 0, ms: HOUR_MS, interval: '1 hour' },
  { lvl: 1, ms: DAY_MS, interval: '1 day' },
  { lvl: 2, ms: 7 * DAY_MS, interval: '7 days' },
  { lvl: 3, ms: 28 * DAY_MS, interval: '28 days' },
];

/** Fact column of each filterable dimension (the allow-list SQL identifiers come from). */
export const DIM_COLUMNS: Readonly<Record<FilterDimension, string>> = {
  publisher: 'publisher_id',
  site: 'site_id',
  ad_unit: 'ad_unit_id',
  supply_endpoint: 'supply_endpoint_id',
  demand_partner: 'demand_partner_id',
  deal: 'deal_id',
  country: 'country_id',
  device: 'device_id',
  os: 'os_id',
  format: 'format_id',
  size: 'size_id',
  environment: 'environment_id',
};

/** Metric sums every source (fact and rollups) has. */
export const SUM_COLUMNS = [
  'ad_requests',
  'bid_requests',
  'bids',
  'wins',
  'impressions',
  'clicks',
  'timeouts',
  'errors',
  'revenue_micros',
  'cost_micros',
] as const;

export interface RollupDef {
  table: string;
  dims: readonly FilterDimension[];
}

/** From the narrowest to the widest; the planner picks the smallest that covers a report. */
export const ROLLUPS: readonly RollupDef[] = [
  { table: 'stats_r_partner', dims: ['demand_partner'] },
  { table: 'stats_r_partner_supply', dims: ['demand_partner', 'supply_endpoint', 'deal'] },
  { table: 'stats_r_partner_publisher', dims: ['demand_partner', 'publisher', 'country'] },
  { table: 'stats_r_partner_geo', dims: ['demand_partner', 'country', 'device', 'environment', 'format'] },
  { table: 'stats_r_publisher', dims: ['publisher', 'site', 'environment', 'format', 'device'] },
];

export const FACT_TABLE = 'stats_hourly';

function alignDown(ms: number, block: number): number {
  return LEVEL_ORIGIN_MS + Math.floor((ms - LEVEL_ORIGIN_MS) / block) * block;
}
function alignUp(ms: number, block: number): number {
  return LEVEL_ORIGIN_MS + Math.ceil((ms - LEVEL_ORIGIN_MS) / block) * block;
}

export interface RebuildProgress {
  (step: string, done: number, total: number): void;
}

/**
 * Rebuilds every rollup for the fact hours in [fromMs, toMs) (whole blocks of each level are
 * recomputed), or entirely when no range is given. Returns the row count per table and level.
 */
export async function rebuildRollups(
  database: Database,
  range: { fromMs: number; toMs: number } | null = null,
  progress?: RebuildProgress,
  /** Only these tables (default: every rollup). */
  tables?: readonly string[],
): Promise<Record<string, number[]>> {
  const counts: Record<string, number[]> = {};
  const rollups = tables ? ROLLUPS.filter((r) => tables.includes(r.table)) : ROLLUPS;
  const steps = rollups.length * LEVELS.length;
  let step = 0;
  for (const r of rollups) {
    const dimCols = r.dims.map((d) => DIM_COLUMNS[d]);
    const cols = dimCols.join(', ');
    const sums = SUM_COLUMNS.map((c) => `sum(${c})`).join(', ');
    const metricCols = SUM_COLUMNS.join(', ');
    // One transaction per table: several times faster than one commit per statement (PGlite above
    // all), and readers see the old rollup until the new one is complete.
    await transaction(database, async (q) => {
      let indexDefs: { indexname: string; indexdef: string }[] = [];
      for (const level of LEVELS) {
        const from = range ? alignDown(range.fromMs, level.ms) : null;
        const to = range ? alignUp(range.toMs, level.ms) : null;
        const params = range ? [new Date(from!).toISOString(), new Date(to!).toISOString()] : [];
        const where = range ? 'WHERE ts >= $1 AND ts < $2' : '';
        if (range)
          await q(`DELETE FROM ${r.table} WHERE lvl = ${level.lvl} AND ts >= $1 AND ts < $2`, params);
        else if (level.lvl === 0) {
          // A full rebuild: indexes are dropped and built again at the end (faster than
          // maintaining them row by row).
          indexDefs = await q<{ indexname: string; indexdef: string }>(
            `SELECT c.relname AS indexname, pg_get_indexdef(i.indexrelid) AS indexdef FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = $1::regclass`,
            [r.table],
          );
          await q(`TRUNCATE ${r.table}`);
          for (const ix of indexDefs) await q(`DROP INDEX IF EXISTS "${ix.indexname.replace(/"/g, '')}"`);
        }
        // Rows are written clustered by the rollup's dimensions (partner first) within each block
        // of the next coarser level: a filtered report (one partner, one country over a week)
        // then reads a few pages per block instead of one page per row, while a report over
        // whole blocks reads the same pages as before.
        const next = LEVELS[level.lvl + 1];
        const cluster = (t: string) =>
          `ORDER BY ${next ? `date_bin('${next.interval}', ${t}, ${LEVEL_ORIGIN_SQL}), ` : ''}${cols}, 2`;
        if (level.lvl === 0) {
          await q(
            `INSERT INTO ${r.table} (lvl, ts, ${cols}, ${metricCols})
             SELECT 0, ts, ${cols}, ${sums} FROM ${FACT_TABLE} ${where} GROUP BY ts, ${cols} ${cluster('ts')}`,
            params,
          );
        } else {
          const bucket = `date_bin('${level.interval}', ts, ${LEVEL_ORIGIN_SQL})`;
          await q(
            `INSERT INTO ${r.table} (lvl, ts, ${cols}, ${metricCols})
             SELECT ${level.lvl}, ${bucket} AS b, ${cols}, ${sums} FROM ${r.table}
             WHERE lvl = ${level.lvl - 1} ${range ? 'AND ts >= $1 AND ts < $2' : ''}
             GROUP BY b, ${cols} ${cluster(bucket)}`,
            params,
          );
        }
        progress?.(`${r.table} level ${level.lvl}`, ++step, steps);
      }
      for (const ix of indexDefs) await q(ix.indexdef);
    });
    const rows = await query<{ lvl: number; n: number }>(
      database,
      `SELECT lvl, count(*)::int AS n FROM ${r.table} GROUP BY lvl ORDER BY lvl`,
    );
    counts[r.table] = LEVELS.map((l) => rows.find((x) => Number(x.lvl) === l.lvl)?.n ?? 0);
  }
  if (rollups.length > 0) await exec(database, `ANALYZE ${rollups.map((r) => r.table).join(', ')}`);
  return counts;
}

/** Rebuilds the 15-minute QPS rollup for [fromMs, toMs) or entirely. */
export async function rebuildQpsRollup(
  database: Database,
  range: { fromMs: number; toMs: number } | null = null,
): Promise<void> {
  const params = range
    ? [
        new Date(alignDown(range.fromMs, 15 * 60_000)).toISOString(),
        new Date(alignUp(range.toMs, 15 * 60_000)).toISOString(),
      ]
    : [];
  await transaction(database, async (q) => {
    if (range) await q('DELETE FROM qps_15m WHERE ts >= $1 AND ts < $2', params);
    else await q('TRUNCATE qps_15m');
    await q(
      `INSERT INTO qps_15m (ts, kind, entity_id, minutes, requests, bids, timeouts, errors, cap_last, cap_max, latency_p95_ms)
     SELECT date_bin('15 minutes', ts, ${LEVEL_ORIGIN_SQL}) AS b, kind, entity_id, count(*), sum(requests), sum(bids),
            sum(timeouts), sum(errors), (array_agg(cap_qps ORDER BY ts DESC))[1], max(cap_qps), max(latency_p95_ms)
     FROM qps_minute ${range ? 'WHERE ts >= $1 AND ts < $2' : ''}
     GROUP BY b, kind, entity_id`,
      params,
    );
  });
  await exec(database, 'ANALYZE qps_15m');
}
