/**
 * Entry points of the reports data: the demo data set seeded on first start, small deterministic
 * sets for tests, and the generator CLI's loader.
 */
import type { Database } from '../db/client.ts';
import { HOUR_MS } from './generator.ts';
import { loadDataset, type LoadProgress, type LoadResult } from './loader.ts';
import { datasetState } from './rollups.ts';

export { loadDataset, type LoadProgress, type LoadResult };
export { datasetState };

/**
 * The demo data set: modest so that the first `npm start` stays quick, and 62 days long because the
 * performance report compares a month with the whole month before it, whatever the day.
 */
export const DEMO_DATASET = { seed: 2024, days: 62, scale: 1.5, qpsDays: 3 } as const;

/** Start of the current UTC hour: data ends there (the last complete hour). */
export function currentHourEnd(now = Date.now()): number {
  return Math.floor(now / HOUR_MS) * HOUR_MS;
}

/**
 * Seeds the demo warehouse (62 days ending at the current hour) unless one is loaded already.
 * Call it from the demo seed, after the demo users exist (the cap-change audit records name them).
 */
export async function seedReportsDemo(database: Database, now = Date.now()): Promise<LoadResult | null> {
  if (await datasetState(database)) return null;
  return loadDataset(database, { ...DEMO_DATASET, endMs: currentHourEnd(now) });
}

/** A small deterministic set for integration tests (a few thousand rows). */
export async function loadTestDataset(
  database: Database,
  opts: { endMs: number; days?: number; scale?: number; qpsDays?: number; seed?: number },
): Promise<LoadResult> {
  return loadDataset(database, {
    seed: opts.seed ?? 7,
    days: opts.days ?? 4,
    scale: opts.scale ?? 1,
    qpsDays: opts.qpsDays ?? 2,
    endMs: opts.endMs,
  });
}
