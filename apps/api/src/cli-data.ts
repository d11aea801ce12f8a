/**
 * `npm run data:generate -- --days 90 --scale N [--seed S] [--qps-days D] [--end YYYY-MM-DDTHH:00Z]`
 * Generates the ad-stats warehouse (deterministic for the same options) into the configured
 * database (DATA_DIR for PGlite, or DATABASE_URL), replacing the warehouse data there, then
 * rebuilds the rollups. About scale x 1000 fact rows per day. Progress on stderr.
 *
 * `npm run data:generate -- --companies N` adds generated companies (db/generated-companies.ts:
 * valid tax ids and IBANs) until the companies table holds N, and leaves the warehouse alone;
 * with any warehouse option as well it does both.
 *
 * Stop the server first when it uses the same PGlite folder (PGlite allows one process).
 */
import { loadConfig } from './config.ts';
import { migrateDatabase, openDatabase, type Database } from './db/client.ts';
import { generateCompanies, MAX_GENERATED_COMPANIES, type CompaniesProgress } from './db/generated-companies.ts';
import { claimDataDir, DataDirLockError } from './lib/data-dir-lock.ts';
import { currentHourEnd, loadDataset, type LoadProgress } from './reports-data/index.ts';

function usage(message?: string): never {
  if (message) console.error(message);
  console.error('usage: npm run data:generate -- --days 90 --scale 10 [--seed 2024] [--qps-days 14] [--end 2025-06-01T00:00Z]');
  console.error('       npm run data:generate -- --companies 100000   (adds generated companies until there are that many)');
  process.exit(2);
}

function parseArgs(argv: string[]) {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) usage(`unexpected argument ${a}`);
    const [k, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
    const v = inline ?? argv[++i];
    if (v === undefined) usage(`missing value for --${k}`);
    out[k] = v;
  }
  return out;
}

function num(v: string | undefined, fallback: number, name: string, min: number, max: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max) usage(`--${name} must be a number between ${min} and ${max}`);
  return n;
}

function bar(p: LoadProgress, started: number): string {
  const width = 30;
  const frac = p.total > 0 ? p.done / p.total : 0;
  const filled = Math.round(frac * width);
  const secs = ((Date.now() - started) / 1000).toFixed(0);
  const label = p.phase === 'facts' ? `facts ${p.factRows.toLocaleString('en')} rows, qps ${p.qpsRows.toLocaleString('en')}` : p.phase === 'rollups' ? `rollups: ${p.detail ?? ''}` : p.phase;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(frac * 100).toFixed(0).padStart(3)}% ${label} ${secs}s`;
}

function companiesLine(p: CompaniesProgress, started: number): string {
  const width = 30;
  const frac = p.toAdd > 0 ? p.inserted / p.toAdd : 1;
  const filled = Math.round(frac * width);
  const secs = ((Date.now() - started) / 1000).toFixed(0);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(frac * 100).toFixed(0).padStart(3)}% companies ${p.inserted.toLocaleString('en')} of ${p.toAdd.toLocaleString('en')} ${secs}s`;
}

/** Adds generated companies until the table holds `target`; progress on stderr. */
async function generateCompaniesCommand(database: Database, target: number, where: string): Promise<void> {
  const started = Date.now();
  const tty = process.stderr.isTTY;
  let lastLine = 0;
  let announced = false;
  const result = await generateCompanies(database, { target }, (p) => {
    if (!announced) {
      announced = true;
      if (p.toAdd === 0) return;
      console.error(`Companies: ${p.existing.toLocaleString('en')} there; adding ${p.toAdd.toLocaleString('en')} generated ones to reach ${target.toLocaleString('en')} in ${where}…`);
    }
    const now = Date.now();
    if (tty) process.stderr.write(`\r${companiesLine(p, started)}\x1b[K`);
    else if (now - lastLine > 5000 || p.inserted === p.toAdd) {
      lastLine = now;
      process.stderr.write(`${companiesLine(p, started)}\n`);
    }
  });
  if (tty && result.inserted > 0) process.stderr.write('\n');
  if (result.inserted === 0) {
    console.error(`Companies: the table already holds ${result.existing.toLocaleString('en')} (at least ${target.toLocaleString('en')}); none added.`);
    return;
  }
  const secs = result.ms / 1000;
  console.error(
    `Added ${result.inserted.toLocaleString('en')} companies in ${secs.toFixed(1)} s (${Math.round(result.inserted / secs).toLocaleString('en')}/s); ` +
      `the table holds ${result.total.toLocaleString('en')}.`,
  );
}

const WAREHOUSE_OPTIONS = ['days', 'scale', 'seed', 'qps-days', 'end'];

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  for (const k of Object.keys(args)) if (![...WAREHOUSE_OPTIONS, 'companies'].includes(k)) usage(`unknown option --${k}`);
  const companies = args.companies === undefined ? null : Math.round(num(args.companies, 0, 'companies', 0, MAX_GENERATED_COMPANIES));
  // --companies alone leaves the warehouse as it is.
  const warehouse = companies === null || WAREHOUSE_OPTIONS.some((k) => args[k] !== undefined);
  const days = Math.round(num(args.days, 90, 'days', 1, 400));
  const scale = num(args.scale, 10, 'scale', 0.05, 1000);
  const seed = Math.round(num(args.seed, 2024, 'seed', 0, 2 ** 31));
  const qpsDays = Math.round(num(args['qps-days'], Math.min(days, 14), 'qps-days', 0, days));
  let endMs = currentHourEnd();
  if (args.end) {
    const t = Date.parse(args.end);
    if (!Number.isFinite(t)) usage('--end must be an ISO date-time');
    endMs = currentHourEnd(t);
  }
  const config = loadConfig();
  if (!config.databaseUrl) claimDataDir(config.dataDir, 'npm run data:generate');
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 });
  const where = config.databaseUrl ? 'PostgreSQL' : `PGlite at ${config.dataDir}`;
  const tty = process.stderr.isTTY;
  let lastLine = 0;
  try {
    await migrateDatabase(database);
    if (companies !== null) await generateCompaniesCommand(database, companies, where);
    if (!warehouse) return;
    const started = Date.now();
    console.error(`Generating ${days} days at scale ${scale} (seed ${seed}) into ${where}…`);
    const result = await loadDataset(database, { seed, days, scale, qpsDays, endMs }, (p) => {
      const now = Date.now();
      if (tty) process.stderr.write(`\r${bar(p, started)}\x1b[K`);
      else if (now - lastLine > 5000 || p.phase === 'done') {
        lastLine = now;
        process.stderr.write(`${bar(p, started)}\n`);
      }
    });
    if (tty) process.stderr.write('\n');
    console.error(
      `Loaded ${result.factRows.toLocaleString('en')} fact rows and ${result.qpsRows.toLocaleString('en')} QPS rows ` +
        `(${new Date(result.startMs).toISOString()} – ${new Date(result.endMs).toISOString()}) in ${(result.loadMs / 1000).toFixed(1)} s; ` +
        `rollups in ${(result.rollupMs / 1000).toFixed(1)} s.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  // A folder a live server holds: its message says what to do; anything else with its stack.
  console.error(err instanceof DataDirLockError ? err.message : err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
