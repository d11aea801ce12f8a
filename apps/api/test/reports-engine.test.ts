/** The planner's pure parts: time-block decomposition and source choice. */
import { describe, expect, it } from 'vitest';
import { buildReportSql, decompose, planReport, rowsAreGroups, type ReportSpec } from '../src/modules/reports/engine.ts';
import { LEVELS, ROLLUPS } from '../src/reports-data/rollups.ts';
import { microsToDecimal, timeBucketLabel } from '../src/modules/reports/service.ts';

const H = 3_600_000;
const D = 24 * H;

describe('decompose', () => {
  const ALL = LEVELS.map((l) => l.lvl);
  it('covers any hour-aligned range exactly with aligned blocks', () => {
    let seed = 1;
    const rand = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    for (let i = 0; i < 500; i++) {
      const from = Date.UTC(2025, 0, 1) + Math.floor(rand() * 200 * 24) * H;
      const to = from + Math.floor(rand() * 120 * 24) * H;
      for (const levels of [[0, 1, 2, 3], ALL]) {
        const segs = decompose(from, to, levels);
        let cursor = from;
        for (const s of segs) {
          expect(s.fromMs).toBe(cursor);
          expect(levels).toContain(s.lvl);
          const size = LEVELS[s.lvl]!.ms;
          expect((s.fromMs - Date.UTC(1970, 0, 5)) % size).toBe(0);
          expect((s.toMs - s.fromMs) % size).toBe(0);
          cursor = s.toMs;
        }
        expect(cursor).toBe(to);
      }
      // With days, weeks and 28-day blocks: at most two runs of each finer level around the middle.
      expect(decompose(from, to, [0, 1, 2, 3]).length).toBeLessThanOrEqual(7);
    }
  });

  it('reads fewer rows with the power-of-two blocks, and never more', () => {
    // Rows per block as in the 10-million-row bench (one partner's publisher x country rollup).
    const rows: Record<number, number> = { 0: 800, 1: 3500, 2: 8400, 3: 11400, 4: 6800, 5: 8700, 6: 10200, 7: 11500, 8: 11900, 9: 12000 };
    const cost = (segs: { lvl: number; fromMs: number; toMs: number }[]) =>
      segs.reduce((sum, s) => sum + rows[s.lvl]! * ((s.toMs - s.fromMs) / LEVELS[s.lvl]!.ms), 0);
    let before = 0;
    let after = 0;
    for (let shift = 0; shift < 120; shift++) {
      const from = Date.UTC(2025, 9, 3) + shift * D;
      const old = cost(decompose(from, from + 90 * D, [0, 1, 2, 3], (l) => rows[l]!));
      const now = cost(decompose(from, from + 90 * D, ALL, (l) => rows[l]!));
      expect(now).toBeLessThanOrEqual(old);
      before += old;
      after += now;
    }
    expect(after / before).toBeLessThan(0.8);
  });

  it('uses hours only when told so (local days in a zone with an offset)', () => {
    const segs = decompose(Date.UTC(2025, 2, 1, 23), Date.UTC(2025, 2, 31, 22), [0]);
    expect(segs).toEqual([{ lvl: 0, fromMs: Date.UTC(2025, 2, 1, 23), toMs: Date.UTC(2025, 2, 31, 22) }]);
  });
});

describe('ROLLUPS', () => {
  it("sums a rollup's hours from one built before it that has all its dimensions", () => {
    for (const [i, r] of ROLLUPS.entries()) {
      if (!r.hoursFrom) continue;
      const from = ROLLUPS.findIndex((x) => x.table === r.hoursFrom);
      expect(from, r.table).toBeGreaterThanOrEqual(0);
      expect(from, r.table).toBeLessThan(i);
      for (const d of r.dims) expect(ROLLUPS[from]!.dims, `${r.table}.${d}`).toContain(d);
    }
  });
});

describe('planReport', () => {
  const stats = { factRows: 10_000_000, hours: 2160, rollups: { stats_r_partner: [34_560, 1_440, 208, 64], stats_r_partner_publisher: [3e6, 1e6, 4e5, 2e5], stats_r_partner_geo: [4e6, 1e6, 3e5, 1e5], stats_r_partner_supply: [2e5, 2e4, 4e3, 1e3], stats_r_publisher: [3e6, 8e5, 2e5, 8e4] } };
  const spec = (over: Partial<ReportSpec>): ReportSpec => ({
    startMs: Date.UTC(2025, 0, 1),
    endMs: Date.UTC(2025, 0, 31),
    timezone: 'UTC',
    dimensions: [],
    metrics: ['revenue'],
    filters: [],
    sort: [],
    ...over,
  });

  it('picks the smallest rollup that covers dimensions and filters', () => {
    expect(planReport(spec({ dimensions: ['day', 'demand_partner'] }), stats).table).toBe('stats_r_partner');
    expect(planReport(spec({ dimensions: ['publisher', 'country'], filters: [{ dimension: 'demand_partner', op: 'include', values: [1] }] }), stats).table).toBe('stats_r_partner_publisher');
    expect(planReport(spec({ dimensions: ['hour', 'device'], filters: [{ dimension: 'country', op: 'include', values: ['ES'] }] }), stats).table).toBe('stats_r_partner_geo');
    expect(planReport(spec({ dimensions: ['ad_unit'] }), stats).table).toBe('stats_hourly');
  });

  it('reads day blocks in UTC but hours in other zones', () => {
    expect(planReport(spec({ dimensions: ['day'] }), stats).segments.every((s) => s.lvl === 1)).toBe(true);
    const madrid = planReport(spec({ dimensions: ['day'], timezone: 'Europe/Madrid', startMs: Date.UTC(2024, 11, 31, 23), endMs: Date.UTC(2025, 0, 30, 23) }), stats);
    expect(madrid.segments).toEqual([{ lvl: 0, fromMs: Date.UTC(2024, 11, 31, 23), toMs: Date.UTC(2025, 0, 30, 23) }]);
    const noTime = planReport(spec({ startMs: Date.UTC(2024, 11, 31, 23), endMs: Date.UTC(2025, 2, 30, 22) }), stats);
    expect(noTime.segments.some((s) => s.lvl === 3)).toBe(true);
    expect(noTime.segments[0]).toEqual({ lvl: 0, fromMs: Date.UTC(2024, 11, 31, 23), toMs: Date.UTC(2025, 0, 1) });
    // A data set loaded before the power-of-two levels existed lists four levels: only those are read.
    expect(noTime.segments.every((s) => s.lvl <= 3)).toBe(true);
    const withAll = { ...stats, rollups: { ...stats.rollups, stats_r_partner: [34_560, 1_440, 208, 64, 368, 192, 96, 48, 32, 16] } };
    const wide = planReport(spec({ startMs: Date.UTC(2024, 11, 31, 23), endMs: Date.UTC(2025, 2, 30, 22) }), withAll);
    expect(wide.segments.some((s) => s.lvl > 3)).toBe(true);
    expect(wide.estimatedRows).toBeLessThan(noTime.estimatedRows);
    // Day and week groupings never read a block that spans two of their buckets.
    const weeks = planReport(spec({ dimensions: ['week'], startMs: Date.UTC(2025, 0, 6), endMs: Date.UTC(2025, 3, 7) }), withAll);
    expect(weeks.segments.every((s) => s.lvl === 2)).toBe(true);
    expect(D).toBe(86_400_000);
  });

  it('reads a rollup once the statistics list it, with no aggregation where its rows are the groups', () => {
    const partner = { dimension: 'demand_partner' as const, op: 'include' as const, values: [1] };
    const spain = { dimension: 'country' as const, op: 'include' as const, values: ['ES'] };
    const q3 = spec({ dimensions: ['hour', 'device'], endMs: Date.UTC(2025, 0, 8), filters: [partner, spain] });
    // A data set loaded before the partner x country x device rollup existed does not list it.
    const old = planReport(q3, stats);
    expect(old.table).toBe('stats_r_partner_geo');
    expect(rowsAreGroups(q3, old)).toBe(false);
    const withNarrow = { ...stats, rollups: { ...stats.rollups, stats_r_partner_country_device: [2.3e6, 4e5, 1e5, 3e4] } };
    const plan = planReport(q3, withNarrow);
    expect(plan.table).toBe('stats_r_partner_country_device');
    expect(rowsAreGroups(q3, plan)).toBe(true);
    const sql = buildReportSql(q3, plan, { openAuctionLabel: 'Open' }).text;
    expect(sql).not.toContain('GROUP BY');
    // Whole UTC days read at level 1 are days' groups too.
    const days = spec({ dimensions: ['day', 'country', 'device'], filters: [partner] });
    expect(rowsAreGroups(days, planReport(days, withNarrow))).toBe(true);
    // Where two source rows can fall in one group, they are summed.
    const summed: ReportSpec[] = [
      { ...q3, filters: [{ ...partner, values: [1, 2] }, spain] },
      { ...q3, filters: [partner, { ...spain, op: 'exclude' }] },
      { ...q3, filters: [partner] },
      { ...q3, dimensions: ['device'] },
      { ...q3, timezone: 'Europe/Madrid' },
      { ...days, startMs: Date.UTC(2025, 0, 1, 12) },
    ];
    for (const other of summed) {
      const p = planReport(other, withNarrow);
      expect(rowsAreGroups(other, p), JSON.stringify(other)).toBe(false);
      expect(buildReportSql(other, p, { openAuctionLabel: 'Open' }).text).toContain('GROUP BY');
    }
  });
});

describe('paged answer cells', () => {
  it('turns integer micro-units of any size into exact 6-decimal money', () => {
    expect(microsToDecimal('0')).toBe('0.000000');
    expect(microsToDecimal('7')).toBe('0.000007');
    expect(microsToDecimal('45607641')).toBe('45.607641');
    expect(microsToDecimal('-1500000')).toBe('-1.500000');
    expect(microsToDecimal('-42')).toBe('-0.000042');
    // Beyond 2^53: still exact (the sum arrives as text).
    expect(microsToDecimal('9223372036854775807')).toBe('9223372036854.775807');
  });

  it('labels buckets from the epoch seconds of their wall time', () => {
    const s = Date.UTC(2025, 2, 30, 2) / 1000;
    expect(timeBucketLabel('hour', s)).toBe('2025-03-30 02:00');
    expect(timeBucketLabel('hour', s)).toBe('2025-03-30 02:00'); // cached
    expect(timeBucketLabel('day', s)).toBe('2025-03-30');
    expect(timeBucketLabel('week', Date.UTC(2025, 2, 24) / 1000)).toBe('2025-03-24');
    expect(timeBucketLabel('month', Date.UTC(2025, 2, 1) / 1000)).toBe('2025-03');
  });
});
