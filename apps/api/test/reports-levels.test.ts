/**
 * Rollup levels and rollups added after a data set was loaded: the planner leaves them alone until
 * they are built, and completeRollupLevels builds them to exactly what a full load writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { planReport } from '../src/modules/reports/engine.ts';
import { forgetSourceStats, sourceStats } from '../src/modules/reports/service.ts';
import { loadTestDataset } from '../src/reports-data/index.ts';
import { LEVELS, MONTH_LVL, ROLLUPS, completeRollupLevels, rebuildRollups } from '../src/reports-data/rollups.ts';
import { query } from '../src/reports-data/sql.ts';
import { freshDatabase, type TestDb } from './helpers.ts';

const END = Date.UTC(2025, 3, 2);
const OLD_LEVELS = 4;
/** A rollup added after the levels. */
const NEW_ROLLUP = 'stats_r_partner_country_device';

describe('rollup levels completed on an older data set', () => {
  let db: TestDb;
  let database: Database;
  beforeAll(async () => {
    db = await freshDatabase();
    database = await db.open();
    await loadTestDataset(database, { endMs: END, days: 20, scale: 0.3, seed: 5 });
  }, 120_000);
  afterAll(async () => {
    await database.close();
    await db.destroy();
  });

  /** Per table and level: rows, and sums of revenue and impressions by block (as text). */
  const snapshot = async () => {
    const out: Record<string, unknown> = {};
    for (const r of ROLLUPS)
      out[r.table] = await query(
        database,
        `SELECT lvl, ts::text AS ts, count(*)::int AS n, sum(revenue_micros)::text AS revenue, sum(impressions)::text AS impressions
         FROM ${r.table} GROUP BY lvl, ts ORDER BY lvl, ts`,
      );
    return out;
  };
  const noTimeReport = {
    startMs: END - 18 * 86_400_000,
    endMs: END,
    timezone: 'UTC',
    dimensions: ['publisher' as const],
    metrics: ['revenue' as const],
    filters: [],
    sort: [],
  };
  const partnerByHour = {
    ...noTimeReport,
    startMs: END - 7 * 86_400_000,
    dimensions: ['hour' as const, 'device' as const],
    filters: [
      { dimension: 'demand_partner' as const, op: 'include' as const, values: [1] },
      { dimension: 'country' as const, op: 'include' as const, values: ['ES'] },
    ],
  };

  it('reads only the levels and rollups the statistics list, then builds the missing ones as a load does', async () => {
    const full = await snapshot();
    const stateBefore = (await sourceStats(database))!;
    expect(stateBefore.rollups.stats_r_publisher).toHaveLength(LEVELS.length);
    // A long range without time grouping reads a power-of-two block when it can.
    expect(planReport(noTimeReport, stateBefore).segments.some((s) => s.lvl >= OLD_LEVELS)).toBe(true);

    expect(planReport(partnerByHour, stateBefore).table).toBe(NEW_ROLLUP);

    // The data set as an earlier version left it: four levels, no partner x country x device
    // rollup, and statistics that list that.
    for (const r of ROLLUPS) await query(database, `DELETE FROM ${r.table} WHERE lvl >= ${OLD_LEVELS}`);
    await query(database, `TRUNCATE ${NEW_ROLLUP}`);
    await query(
      database,
      `UPDATE stats_state SET value = jsonb_set(value, '{rollups}', (SELECT jsonb_object_agg(k, (SELECT jsonb_agg(x) FROM jsonb_array_elements(v) WITH ORDINALITY e(x, i) WHERE i <= ${OLD_LEVELS})) FROM jsonb_each(value->'rollups') j(k, v) WHERE k <> '${NEW_ROLLUP}')) WHERE key = 'dataset'`,
    );
    forgetSourceStats(database);
    const old = (await sourceStats(database))!;
    expect(old.rollups.stats_r_publisher).toHaveLength(OLD_LEVELS);
    expect(planReport(noTimeReport, old).segments.every((s) => s.lvl < OLD_LEVELS)).toBe(true);
    expect(old.rollups[NEW_ROLLUP]).toBeUndefined();
    expect(planReport(partnerByHour, old).table).toBe('stats_r_partner_geo');

    const built = await completeRollupLevels(database);
    const added = LEVELS.filter((l) => l.lvl >= OLD_LEVELS).map((l) => l.lvl);
    expect(built).toEqual(
      Object.fromEntries(
        ROLLUPS.map((r) => [
          r.table,
          r.table === NEW_ROLLUP ? LEVELS.map((l) => l.lvl) : [...added, ...(r.months ? [MONTH_LVL] : [])],
        ]),
      ),
    );
    expect(await snapshot()).toEqual(full);
    // Written with its indexes dropped, then built again.
    const indexes = await query<{ n: number }>(database, `SELECT count(*)::int AS n FROM pg_indexes WHERE tablename = $1`, [NEW_ROLLUP]);
    expect(indexes[0]!.n).toBe(2);
    forgetSourceStats(database);
    const after = (await sourceStats(database))!;
    expect(after.rollups).toEqual(stateBefore.rollups);
    expect(planReport(noTimeReport, after)).toEqual(planReport(noTimeReport, stateBefore));
    expect(planReport(partnerByHour, after)).toEqual(planReport(partnerByHour, stateBefore));
    // Nothing left to do the second time.
    expect(await completeRollupLevels(database)).toEqual({});
  });

  it('holds each UTC calendar month as one block equal to its hours, also after a ranged rebuild', async () => {
    const months = (table: string) =>
      query(
        database,
        `SELECT ts::text AS ts, publisher_id, environment_id, format_id, revenue_micros::text AS revenue,
                cost_micros::text AS cost, impressions::text AS impressions
         FROM ${table} WHERE lvl = ${MONTH_LVL} ORDER BY 1, 2, 3, 4`,
      );
    const fromFact = () =>
      query(
        database,
        `SELECT date_trunc('month', ts, 'UTC')::text AS ts, publisher_id, environment_id, format_id,
                sum(revenue_micros)::text AS revenue, sum(cost_micros)::text AS cost, sum(impressions)::text AS impressions
         FROM stats_hourly GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
      );
    const before = await months('stats_r_publisher_format');
    // 2025-03-13 … 2025-04-01: two months, the first partial.
    expect(new Set(before.map((r) => String(r.ts).slice(0, 7)))).toEqual(new Set(['2025-03', '2025-04']));
    expect(before).toEqual(await fromFact());

    // New figures for one hour of March: a ranged rebuild (as an ingest does) rewrites March's block.
    const hour = Date.UTC(2025, 2, 20, 10);
    await query(
      database,
      `UPDATE stats_hourly SET revenue_micros = revenue_micros + 1000, impressions = impressions + 1 WHERE ts = $1`,
      [new Date(hour).toISOString()],
    );
    await rebuildRollups(database, { fromMs: hour, toMs: hour + 3_600_000 });
    const after = await months('stats_r_publisher_format');
    expect(after).not.toEqual(before);
    expect(after).toEqual(await fromFact());
    const partners = await query<{ n: number }>(
      database,
      `SELECT count(*)::int AS n FROM (
         SELECT demand_partner_id, environment_id, format_id, date_trunc('month', ts, 'UTC') AS m, sum(revenue_micros) AS r
         FROM stats_hourly GROUP BY 1, 2, 3, 4
         EXCEPT
         SELECT demand_partner_id, environment_id, format_id, ts, revenue_micros FROM stats_r_partner_format WHERE lvl = ${MONTH_LVL}
       ) d`,
    );
    expect(partners[0]!.n).toBe(0);
  });
});
