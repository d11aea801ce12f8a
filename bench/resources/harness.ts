/**
 * What the resource benches share: their command-line options, percentiles, a seeded database
 * (a PGlite folder under .tmp or the PostgreSQL database `forEachDatabase` made) and the app on it,
 * signed in as the demo admin.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../apps/api/src/app.ts';
import { demoPasswordOf, loadConfig, type Config } from '../../apps/api/src/config.ts';
import { migrateDatabase, openDatabase, type Database } from '../../apps/api/src/db/client.ts';
import { seed } from '../../apps/api/src/db/seed.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `--name value` from the command line, or the fallback. */
export function option(name: string, fallback: string): string {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
}

/** Whether `--name` is on the command line. */
export function flag(name: string): boolean {
  return process.argv.slice(2).includes(`--${name}`);
}

/** A valid Spanish CIF of an S.L. (letter B, seven digits, the control digit). */
export function cif(n: number): string {
  const digits = String(1_000_000 + n)
    .padStart(7, '0')
    .slice(-7);
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = Number(digits[i]);
    if (i % 2 === 1) sum += d;
    else {
      const x = d * 2;
      sum += Math.floor(x / 10) + (x % 10);
    }
  }
  return `B${digits}${(10 - (sum % 10)) % 10}`;
}

/** The p-th percentile of sorted figures. */
export function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** p50 and p95 of figures in any order. */
export function stats(xs: number[]): { p50: number; p95: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: pct(s, 50), p95: pct(s, 95) };
}

/**
 * A migrated and seeded database: PostgreSQL at `databaseUrl`, else PGlite in .tmp/<folder>/pglite
 * (emptied first when `fresh`, kept otherwise so a large load can be reused).
 */
export async function benchDatabase(databaseUrl: string | null, folder: string, fresh: boolean): Promise<{ database: Database; config: Config }> {
  const dataDir = path.join(ROOT, '.tmp', folder, 'pglite');
  if (!databaseUrl) {
    if (fresh) fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
  }
  const config = loadConfig({ ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'silent', JOBS: 'false', WEB_DIST: '', DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '' });
  const database = await openDatabase({ databaseUrl, dataDir });
  await migrateDatabase(database);
  await seed(database, { ...config, env: 'test' });
  return { database, config };
}

/** The app on that database, ready, and the headers of the demo admin's session. */
export async function benchApp(config: Config, database: Database) {
  const app = await buildApp(config, { database, keepDatabase: true, skipPrepare: true });
  await app.ready();
  const login = await app.inject({ method: 'POST', url: '/v1/login', payload: { email: 'admin@adtech.example', password: demoPasswordOf(process.env) } });
  const token = (login.json() as { data: { token: string } }).data.token;
  return { app, headers: { authorization: `Bearer ${token}` } };
}
