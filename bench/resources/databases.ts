/**
 * The databases a resource bench runs on: PGlite and/or a PostgreSQL server (DATABASE_URL or the
 * local one, in a database of its own, recreated), one after the other.
 */
import os from 'node:os';
// @ts-expect-error plain ESM helper without types
import { findPostgres, recreateDatabase } from '../../scripts/lib/postgres.mjs';

export type BenchDb = 'pglite' | 'postgres';

/** Calls `run` for each database `which` names (`pglite`, `postgres`, `both`); PostgreSQL is skipped when none is reachable. */
export async function forEachDatabase(which: string, databaseName: string, run: (kind: BenchDb, url: string | null) => Promise<void>): Promise<void> {
  const kinds: BenchDb[] = which === 'both' ? ['pglite', 'postgres'] : [which as BenchDb];
  console.log(`Machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (const kind of kinds) {
    let url: string | null = null;
    if (kind === 'postgres') {
      const found = (await findPostgres({ log: () => undefined })) as { url: string | null; reason?: string };
      if (!found.url) {
        console.log(`PostgreSQL: skipped (${found.reason ?? 'not available'})`);
        continue;
      }
      url = (await recreateDatabase(found.url, databaseName)) as string;
    }
    await run(kind, url);
  }
}
