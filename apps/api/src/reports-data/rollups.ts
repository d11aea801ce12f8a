/**
 * The rollups of the hourly fact, their time levels, and their (re)building. Every rollup table
 * has the columns (lvl, ts, <its dimension columns>, <the ten metric sums>). Levels (blocks aligned
 * on Monday 1970-01-05 00:00 UTC):
 *   0 = UTC hour, 1 = UTC day, 2 = 7-day block (an ISO week), 3 = 28-day block,
 *   4..9 = 4-, 8-, 16-, 32-, 64- and 128-day blocks.
 * A row of a level sums the rows of its block at the level it is built `from`. The weeks serve
 * weekly reports; the powers of two let a long range with no time dimension be covered by few
 * blocks whatever its edges (a 90-day range reads about a third fewer rows than with days, weeks
 * and 28-day blocks only; a 2-day level would save another 2 % for half as many rows again as the
 * 4-day one stores). Levels are numbered in the order they were added, so that a data set built
 * before a level existed stays readable (the planner uses the levels its statistics list).
 */
import type { FilterDimension } from '@backoffice/core/reports';
import type { Database } from '../db/client.ts';
import { exec, query, transaction, type QueryFn } from './sql.ts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const LEVEL_ORIGIN_MS = Date.UTC(1970, 0, 5);
export const LEVEL_ORIGIN_SQL = "'1970-01-05 00:00:00+00'";

export interface Level {
  lvl: number;
  ms: number;
  /** SQL interval for date_bin */
  interval: string;
  /** The level its rows are summed from (null: the hourly fact); always listed before it. */
  from: number | null;
  /**
   * Rows are written ordered by this block (an interval), then by the dimensions (partner first),
   * then by time: a report filtered on a partner then reads a few pages per block instead of one
   * page per row. Hours and days are clustered by day and by week (so that a range reads a run of
   * pages per day or week, not one per hour or day); coarser levels by their own block, so that a
   * report reading one block of a level does not read the pages of its other blocks (a 90-day
   * report of one partner read four times as many pages when the powers of two were ordered by
   * partner over the whole table).
   */
  cluster: string;
}
const days = (n: number, from: number, cluster = `${n} days`): Omit<Level, 'lvl'> => ({
  ms: n * DAY_MS,
  interval: `${n} days`,
  from,
  cluster,
});
export const LEVELS: readonly Level[] = [
  { ms: HOUR_MS, interval: '1 hour', from: null, cluster: '1 day' },
  { ...days(1, 0, '7 days'), interval: '1 day' },
  days(7, 1, '28 days'),
  days(28, 2),
  days(4, 1),
  days(8, 4),
  days(16, 5),
  days(32, 6),
  days(64, 7),
  days(128, 8),
].map((level, lvl) => ({ ...level, lvl }));

/**
 * The calendar-month level (UTC), kept apart from LEVELS: its blocks are not of one length, so the
 * reports planner never decomposes a range into them. Only rollups with `months` have it, summed
 * from their days (a UTC month is a whole number of level-1 days). Billing, payouts and the finance
 * reports ask for whole calendar months: one block each instead of five or six of LEVELS'.
 */
export const MONTH_LVL = 10;

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
  /**
   * A rollup listed before this one whose dimensions include this one's: its hours (level 0) are
   * summed into this one's, a fraction of the fact's rows. Absent: from the fact.
   */
  hoursFrom?: string;
  /** Also the calendar-month level (MONTH_LVL), for the month-by-month readers. */
  months?: boolean;
}

/** Built in this order; the planner picks the one that covers a report with the fewest rows. */
export const ROLLUPS: readonly RollupDef[] = [
  { table: 'stats_r_partner', dims: ['demand_partner'] },
  { table: 'stats_r_partner_supply', dims: ['demand_partner', 'supply_endpoint', 'deal'] },
  { table: 'stats_r_partner_publisher', dims: ['demand_partner', 'publisher', 'country'] },
  // The one above without the country: a partner's publishers (or a publisher's partners) over
  // a month read about a fifteenth of its rows.
  {
    table: 'stats_r_partner_pub',
    dims: ['demand_partner', 'publisher'],
    hoursFrom: 'stats_r_partner_publisher',
  },
  { table: 'stats_r_partner_geo', dims: ['demand_partner', 'country', 'device', 'environment', 'format'] },
  // A third fewer hours than the one above; a report by hour and device of one partner in one
  // country reads one row per group, already summed.
  {
    table: 'stats_r_partner_country_device',
    dims: ['demand_partner', 'country', 'device'],
    hoursFrom: 'stats_r_partner_geo',
  },
  { table: 'stats_r_publisher', dims: ['publisher', 'site', 'environment', 'format', 'device'] },
  // Per product line and month: billing's rows, the payouts and the finance reports (issue 23) read
  // one row per partner or publisher, environment and format a month (a few hundred to a few
  // thousand), not the country's, site's and device's combinations of five or six blocks.
  {
    table: 'stats_r_partner_format',
    dims: ['demand_partner', 'environment', 'format'],
    hoursFrom: 'stats_r_partner_geo',
    months: true,
  },
  {
    table: 'stats_r_publisher_format',
    dims: ['publisher', 'environment', 'format'],
    hoursFrom: 'stats_r_publisher',
    months: true,
  },
];

export const FACT_TABLE = 'stats_hourly';

function alignDown(ms: number, block: number): number {
  return LEVEL_ORIGIN_MS + Math.floor((ms - LEVEL_ORIGIN_MS) / block) * block;
}
function alignUp(ms: number, block: number): number {
  return LEVEL_ORIGIN_MS + Math.ceil((ms - LEVEL_ORIGIN_MS) / block) * block;
}
/** The start of the UTC calendar month of `ms`, and of the next one (`up`) unless `ms` starts one. */
function monthEdge(ms: number, up: boolean): number {
  const d = new Date(ms);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  return up && start !== ms ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) : start;
}

/** The calendar months of a rollup's days (over [$1, $2) when `ranged`: whole months). */
function monthInsertSql(r: RollupDef, ranged: boolean): string {
  const cols = r.dims.map((d) => DIM_COLUMNS[d]).join(', ');
  const sums = SUM_COLUMNS.map((c) => `sum(${c})`).join(', ');
  const bucket = `date_trunc('month', ts, 'UTC')`;
  return `INSERT INTO ${r.table} (lvl, ts, ${cols}, ${SUM_COLUMNS.join(', ')})
    SELECT ${MONTH_LVL}, ${bucket} AS b, ${cols}, ${sums} FROM ${r.table}
    WHERE lvl = 1 ${ranged ? 'AND ts >= $1 AND ts < $2' : ''}
    GROUP BY b, ${cols} ORDER BY b, ${cols}`;
}

/** The levels a rollup has: LEVELS' and, with `months`, the calendar month's. */
function levelsOf(r: RollupDef): number[] {
  return [...LEVELS.map((l) => l.lvl), ...(r.months ? [MONTH_LVL] : [])];
}

/**
 * The statement that writes a level's rows of a rollup from the level it is built from (or from
 * the fact), over the block range [$1, $2) when `ranged`, else over all the data.
 */
function levelInsertSql(r: RollupDef, level: Level, ranged: boolean): string {
  const cols = r.dims.map((d) => DIM_COLUMNS[d]).join(', ');
  const sums = SUM_COLUMNS.map((c) => `sum(${c})`).join(', ');
  const metricCols = SUM_COLUMNS.join(', ');
  const cluster = (t: string) =>
    `ORDER BY date_bin('${level.cluster}', ${t}, ${LEVEL_ORIGIN_SQL}), ${cols}, 2`;
  if (level.from === null) {
    const where = [...(r.hoursFrom ? ['lvl = 0'] : []), ...(ranged ? ['ts >= $1 AND ts < $2'] : [])];
    return `INSERT INTO ${r.table} (lvl, ts, ${cols}, ${metricCols})
      SELECT ${level.lvl}, ts, ${cols}, ${sums} FROM ${r.hoursFrom ?? FACT_TABLE}
      ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      GROUP BY ts, ${cols} ${cluster('ts')}`;
  }
  const bucket = `date_bin('${level.interval}', ts, ${LEVEL_ORIGIN_SQL})`;
  return `INSERT INTO ${r.table} (lvl, ts, ${cols}, ${metricCols})
    SELECT ${level.lvl}, ${bucket} AS b, ${cols}, ${sums} FROM ${r.table}
    WHERE lvl = ${level.from} ${ranged ? 'AND ts >= $1 AND ts < $2' : ''}
    GROUP BY b, ${cols} ${cluster(bucket)}`;
}

/** Rows per level, indexed by level (the month's at MONTH_LVL for a rollup with `months`). */
async function levelCounts(database: Database, r: RollupDef): Promise<number[]> {
  const rows = await query<{ lvl: number; n: number }>(
    database,
    `SELECT lvl, count(*)::int AS n FROM ${r.table} GROUP BY lvl ORDER BY lvl`,
  );
  const counts = LEVELS.map((l) => rows.find((x) => Number(x.lvl) === l.lvl)?.n ?? 0);
  if (r.months) {
    while (counts.length < MONTH_LVL) counts.push(0);
    counts[MONTH_LVL] = rows.find((x) => Number(x.lvl) === MONTH_LVL)?.n ?? 0;
  }
  return counts;
}

export interface RebuildProgress {
  (step: string, done: number, total: number): void;
}

/**
 * Runs `fill` with the table's indexes dropped, then builds them again: writing a whole table is
 * faster than maintaining its indexes row by row.
 */
async function withoutIndexes(q: QueryFn, table: string, fill: () => Promise<void>): Promise<void> {
  const indexDefs = await q<{ indexname: string; indexdef: string }>(
    `SELECT c.relname AS indexname, pg_get_indexdef(i.indexrelid) AS indexdef FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = $1::regclass`,
    [table],
  );
  for (const ix of indexDefs) await q(`DROP INDEX IF EXISTS "${ix.indexname.replace(/"/g, '')}"`);
  await fill();
  for (const ix of indexDefs) await q(ix.indexdef);
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
  const steps = rollups.reduce((n, r) => n + levelsOf(r).length, 0);
  let step = 0;
  for (const r of rollups) {
    // One transaction per table: several times faster than one commit per statement (PGlite above
    // all), and readers see the old rollup until the new one is complete.
    await transaction(database, async (q) => {
      const writeLevels = async () => {
        for (const level of LEVELS) {
          const from = range ? alignDown(range.fromMs, level.ms) : null;
          const to = range ? alignUp(range.toMs, level.ms) : null;
          const params = range ? [new Date(from!).toISOString(), new Date(to!).toISOString()] : [];
          if (range)
            await q(`DELETE FROM ${r.table} WHERE lvl = ${level.lvl} AND ts >= $1 AND ts < $2`, params);
          await q(levelInsertSql(r, level, range !== null), params);
          progress?.(`${r.table} level ${level.lvl}`, ++step, steps);
        }
        if (r.months) {
          const params = range
            ? [new Date(monthEdge(range.fromMs, false)).toISOString(), new Date(monthEdge(range.toMs, true)).toISOString()]
            : [];
          if (range)
            await q(`DELETE FROM ${r.table} WHERE lvl = ${MONTH_LVL} AND ts >= $1 AND ts < $2`, params);
          await q(monthInsertSql(r, range !== null), params);
          progress?.(`${r.table} months`, ++step, steps);
        }
      };
      if (range) await writeLevels();
      else {
        await q(`TRUNCATE ${r.table}`);
        await withoutIndexes(q, r.table, writeLevels);
      }
    });
    counts[r.table] = await levelCounts(database, r);
  }
  if (rollups.length > 0) await exec(database, `ANALYZE ${rollups.map((r) => r.table).join(', ')}`);
  return counts;
}

/** The loaded data set's state (range, options, row counts per rollup level), or null. */
export async function datasetState(database: Database): Promise<Record<string, unknown> | null> {
  const rows = await query<{ value: Record<string, unknown> | string }>(
    database,
    `SELECT value FROM stats_state WHERE key = 'dataset'`,
  );
  const v = rows[0]?.value;
  if (v === undefined) return null;
  return typeof v === 'string' ? (JSON.parse(v) as Record<string, unknown>) : v;
}

/**
 * Builds the levels and rollups that a data set loaded before they existed lacks (its statistics
 * list fewer levels than LEVELS, or not the rollup at all; until they are built the planner does
 * not read them), from what it has, one transaction per table, then records the new counts.
 * Returns the levels built per table.
 */
export async function completeRollupLevels(
  database: Database,
  progress?: RebuildProgress,
): Promise<Record<string, number[]>> {
  const state = await datasetState(database);
  if (!state) return {};
  const counts = (state.rollups ?? {}) as Record<string, number[]>;
  const todo = ROLLUPS.map((r) => ({
    r,
    missing: levelsOf(r).filter((lvl) => typeof counts[r.table]?.[lvl] !== 'number'),
  })).filter((t) => t.missing.length > 0);
  const steps = todo.reduce((n, t) => n + t.missing.length, 0);
  let step = 0;
  const built: Record<string, number[]> = {};
  for (const { r, missing } of todo) {
    await transaction(database, async (q) => {
      await q(`DELETE FROM ${r.table} WHERE lvl = ANY($1::int2[])`, [missing]);
      const writeLevels = async () => {
        // In LEVELS' order (a level's source comes before it), the month last (from the days).
        for (const lvl of missing) {
          await q(lvl === MONTH_LVL ? monthInsertSql(r, false) : levelInsertSql(r, LEVELS[lvl]!, false));
          progress?.(`${r.table} level ${lvl}`, ++step, steps);
        }
      };
      // A rollup new to the data set is written whole.
      if (missing.length === levelsOf(r).length) await withoutIndexes(q, r.table, writeLevels);
      else await writeLevels();
    });
    counts[r.table] = await levelCounts(database, r);
    built[r.table] = missing;
  }
  if (todo.length > 0) {
    await exec(database, `ANALYZE ${todo.map((t) => t.r.table).join(', ')}`);
    await query(database, `UPDATE stats_state SET value = $1, updated_at = now() WHERE key = 'dataset'`, [
      JSON.stringify({ ...state, rollups: counts }),
    ]);
  }
  return built;
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
