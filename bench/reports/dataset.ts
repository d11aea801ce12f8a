/**
 * The reports warehouse as the benches load it, shared by `bench:reports` (bench/reports/run.ts)
 * and `bench:billing` (bench/billing/run.ts):
 * - a PGlite folder or a PostgreSQL database holding the generator's data set (loaded once, then
 *   reused with `keep` when its size matches);
 * - the same raw fact rows written to a CSV and loaded into DuckDB (in memory);
 * - the API server as a child process (bench/reports/server.ts) and the demo admin's sign-in;
 * - small helpers (RSS of a process, folder size, percentiles, a text table).
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { demoPasswordOf } from '../../apps/api/src/config.ts';
import { migrateDatabase, openDatabase, type Database } from '../../apps/api/src/db/client.ts';
import { DEMO_MAILS } from '../../apps/api/src/db/demo-data.ts';
import {
  FACT_COLUMNS,
  generateHours,
  Scenario,
  type GenerateOptions,
} from '../../apps/api/src/reports-data/generator.ts';
import { datasetState, loadDataset } from '../../apps/api/src/reports-data/index.ts';
import { completeRollupLevels } from '../../apps/api/src/reports-data/rollups.ts';
// @ts-expect-error plain ESM helper without types
import { findPostgres, recreateDatabase } from '../../scripts/lib/postgres.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export type DbKind = 'pglite' | 'postgres';
type Log = (s: string) => void;

export const fmtMs = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
export const mb = (b: number | null) => (b === null ? '-' : `${(b / 1024 / 1024).toFixed(0)} MB`);
export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const iso = (ms: number) => new Date(ms).toISOString();

/** A timing's median and 95th percentile (ms). */
export type Timing = { p50: number; p95: number };

/**
 * Times two functions in alternation (a then b, then b then a, …) after `warmup` rounds, so that
 * both see the same moments of a shared host: on this machine memory-bound work (PGlite's and
 * DuckDB's both) varies by up to 2x from one minute to the next, which made ratios of figures taken
 * minutes apart swing. Also counts the runs in which a was faster than the b next to it.
 */
export async function timePairs(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  opts: { runs: number; warmup: number },
): Promise<{ a: Timing & { runs: number[] }; b: Timing & { runs: number[] }; aFaster: number }> {
  for (let i = 0; i < opts.warmup; i++) {
    await a();
    await b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  const time = async (fn: () => Promise<unknown>, into: number[]) => {
    const t = performance.now();
    await fn();
    into.push(performance.now() - t);
  };
  for (let i = 0; i < opts.runs; i++) {
    if (i % 2 === 0) {
      await time(a, ta);
      await time(b, tb);
    } else {
      await time(b, tb);
      await time(a, ta);
    }
  }
  const stats = (times: number[]) => {
    const sorted = [...times].sort((x, y) => x - y);
    return { p50: pct(sorted, 50), p95: pct(sorted, 95), runs: times };
  };
  return { a: stats(ta), b: stats(tb), aFaster: ta.filter((t, i) => t < tb[i]!).length };
}

export function rss(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export function dirSize(dir: string): number {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? dirSize(p) : fs.statSync(p).size;
  }
  return total;
}

export function table(head: string[], rows: (string | number)[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: (string | number)[]) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]!) : String(c).padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

// ---------------------------------------------------------------------------------------------
// The database side

export interface OpenedDatabase {
  database: Database;
  /** The server's environment for this database (DATA_DIR or DATABASE_URL). */
  env: Record<string, string>;
  dataDir: string | null;
  pgUrl: string | null;
}

/**
 * Opens the bench's database of `kind`: PostgreSQL database `pgName` on the server findPostgres
 * finds (the local cluster is started when stopped), recreated unless `keep`; or the PGlite folder
 * `dataDir`, emptied unless `keep`.
 */
export async function openBenchDatabase(
  kind: DbKind,
  where: { pgName: string; dataDir: string },
  keep: boolean,
  log: Log,
): Promise<OpenedDatabase> {
  if (kind === 'postgres') {
    const found = await findPostgres({ log });
    if (!found.url) throw new Error(`no PostgreSQL: ${found.reason}`);
    // With keep, a database that is not there yet is created (empty: the data set is then loaded).
    const pgUrl: string =
      keep && (await databaseExists(found.url, where.pgName))
        ? new URL(`/${where.pgName}`, found.url).toString()
        : await recreateDatabase(found.url, where.pgName);
    const database = await openDatabase({ databaseUrl: pgUrl, dataDir: '' });
    return { database, env: { DATABASE_URL: pgUrl }, dataDir: null, pgUrl };
  }
  if (!keep) fs.rmSync(where.dataDir, { recursive: true, force: true });
  const database = await openDatabase({ databaseUrl: null, dataDir: where.dataDir });
  return { database, env: { DATA_DIR: where.dataDir }, dataDir: where.dataDir, pgUrl: null };
}

async function databaseExists(serverUrl: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    return (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface DatasetLoad {
  factRows: number;
  /** Null when an already loaded data set was reused. */
  loadSec: number | null;
  rollupSec: number | null;
  /** The data set's own record (stats_state 'dataset': startMs, endMs, days, scale, …). */
  state: Record<string, unknown> | null;
}

/**
 * Migrates, then loads the generator's data set of `opts` unless `keep` and one of the same scale
 * and days is loaded already (it then gets the rollup levels added since it was loaded, as the
 * server's start would build them).
 */
export async function ensureDataset(
  database: Database,
  kind: DbKind,
  opts: GenerateOptions,
  keep: boolean,
  log: Log,
): Promise<DatasetLoad> {
  await migrateDatabase(database);
  const state = await datasetState(database);
  if (keep && state && Number(state.scale) === opts.scale && Number(state.days) === opts.days) {
    const factRows = Number(state.factRows);
    log(`${kind}: reusing the loaded data set (${factRows.toLocaleString('en')} rows)`);
    // A data set loaded before the newer rollup levels existed gets them now (as the server's
    // start does), so that the timed runs read what a fresh load would.
    const t0 = Date.now();
    const built = await completeRollupLevels(database, (step, done, total) =>
      log(`  rollup levels ${done}/${total} ${step}`),
    );
    if (Object.keys(built).length > 0)
      log(`${kind}: missing rollup levels built in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    return { factRows, loadSec: null, rollupSec: null, state };
  }
  log(`${kind}: loading ${opts.days} days at scale ${opts.scale}…`);
  let last = 0;
  const r = await loadDataset(
    database,
    opts,
    (p) => {
      if (Date.now() - last > 10_000 || p.phase === 'done') {
        last = Date.now();
        log(`  ${p.phase} ${p.done}/${p.total} facts ${p.factRows.toLocaleString('en')} ${p.detail ?? ''}`);
      }
    },
    kind === 'pglite' ? 100_000 : 50_000,
  );
  const loadSec = r.loadMs / 1000;
  const rollupSec = r.rollupMs / 1000;
  log(
    `${kind}: ${r.factRows.toLocaleString('en')} fact rows loaded in ${loadSec.toFixed(0)} s, rollups in ${rollupSec.toFixed(0)} s`,
  );
  return { factRows: r.factRows, loadSec, rollupSec, state: await datasetState(database) };
}

// ---------------------------------------------------------------------------------------------
// DuckDB over the raw rows

/**
 * Writes the generator's raw fact rows of `opts` (same generator, same seed as the databases') to
 * `file`, with a `<file>.rows` count beside it; with `keep`, an existing pair is reused.
 */
export async function writeFactsCsv(file: string, opts: GenerateOptions, keep: boolean): Promise<number> {
  if (keep && fs.existsSync(file) && fs.existsSync(`${file}.rows`))
    return Number(fs.readFileSync(`${file}.rows`, 'utf8'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const out = fs.createWriteStream(file);
  let rows = 0;
  out.write(`${FACT_COLUMNS.join(',')}\n`);
  for (const batch of generateHours(opts, new Scenario(opts))) {
    let chunk = '';
    for (const r of batch.rows) chunk += `${iso(r[0]!)},${r.slice(1).join(',')}\n`;
    rows += batch.rows.length;
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise((r) => out.end(r));
  fs.writeFileSync(`${file}.rows`, String(rows));
  return rows;
}

/**
 * An in-memory DuckDB (as many threads as CPUs) with the CSV's rows in table `facts`; `loadSec` is
 * the time of the load itself.
 */
export async function loadFactsIntoDuckDb(
  csv: string,
): Promise<{ instance: DuckDBInstance; con: DuckDBConnection; loadSec: number }> {
  const instance = await DuckDBInstance.create(':memory:', { threads: String(os.cpus().length) });
  const con = await instance.connect();
  const t0 = performance.now();
  await con.run(`SET TimeZone = 'UTC'`);
  // Naive UTC timestamps: the questions are asked in UTC and DuckDB groups plain TIMESTAMPs much
  // faster than TIMESTAMPTZ (which goes through ICU time zones row by row).
  await con.run(`CREATE TABLE facts AS SELECT * REPLACE (ts::TIMESTAMP AS ts) FROM read_csv('${csv}', header = true, columns = {
    'ts': 'TIMESTAMPTZ', 'publisher_id': 'INTEGER', 'site_id': 'INTEGER', 'ad_unit_id': 'INTEGER', 'supply_endpoint_id': 'INTEGER',
    'demand_partner_id': 'INTEGER', 'deal_id': 'INTEGER', 'country_id': 'SMALLINT', 'device_id': 'SMALLINT', 'os_id': 'SMALLINT',
    'format_id': 'SMALLINT', 'size_id': 'SMALLINT', 'environment_id': 'SMALLINT', 'ad_requests': 'INTEGER', 'bid_requests': 'INTEGER',
    'bids': 'INTEGER', 'wins': 'INTEGER', 'impressions': 'INTEGER', 'clicks': 'INTEGER', 'timeouts': 'INTEGER', 'errors': 'INTEGER',
    'revenue_micros': 'BIGINT', 'cost_micros': 'BIGINT'})`);
  return { instance, con, loadSec: (performance.now() - t0) / 1000 };
}

// ---------------------------------------------------------------------------------------------
// The API server

export interface BenchServer {
  child: ChildProcess;
  port: number;
  stop: () => Promise<void>;
}

/**
 * Starts bench/reports/server.ts (the real app, jobs off, demo data seeded) on the database of
 * `env`; resolves with its port once it listens.
 */
export async function startServer(env: Record<string, string>): Promise<BenchServer> {
  const child = spawn(
    process.execPath,
    ['--max-old-space-size=4096', '--import', 'tsx', path.join(ROOT, 'bench', 'reports', 'server.ts')],
    {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', JOBS: 'false', SEED_DEMO: 'true', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start within 300 s')), 300_000);
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('REPORTS_BENCH_READY ')) {
        clearTimeout(timer);
        resolve(JSON.parse(line.slice('REPORTS_BENCH_READY '.length)).port);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  return {
    child,
    port,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** Signs in as the demo admin; answers the bearer token. */
export async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: DEMO_MAILS.admin,
      password: demoPasswordOf(process.env),
    }),
  });
  const b = (await res.json()) as { data: { token: string } };
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(b)}`);
  return b.data.token;
}
