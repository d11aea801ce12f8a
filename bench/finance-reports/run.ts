/**
 * `npm run bench:finance-reports` — the finance reports benchmark of issue 23, on PGlite and/or
 * PostgreSQL, in the same run as DuckDB on the raw rows:
 *
 * A finance report over twelve months (default 365 days at scale 27 ending 2026-01-01: about ten
 * million hourly fact rows, 2025-01 … 2025-12) through the real `financeReport` (the API's code,
 * in this process): month x network (the networks report, first page of 50 with the totals and
 * the months' totals), and month x publisher (the revenue and margin report). Each is timed
 * alternately with DuckDB's aggregation of the same months over the RAW fact rows (revenue, cost
 * and impressions by month x demand partner, or month x publisher, from the month before the range
 * on, as the deltas need it) — see `timePairs`. Ratio = ours / DuckDB (target <= 1). The billing
 * rows of the twelve months are computed first (as billing would), so the report joins them.
 * Then every row of the report is compared with DuckDB's answer (revenue, cost and impressions
 * per month and network or publisher, and the totals): any difference fails the bench.
 *
 *   npm run bench:finance-reports -- [--db pglite|postgres|both] [--days 365] [--scale 27]
 *                                    [--end 2026-01-01] [--runs 20] [--warmup 3] [--keep]
 *
 * Data: .tmp/bench-finance-reports/ (PGlite folders, the CSV); PostgreSQL database
 * bo_bench_finance_<days>d_s<scale>_e<end>. Results: bench/results/finance-reports-<db>.json.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monthOf, nextMonth } from '../../packages/core/src/billing-api.ts';
import type { FinanceAnswer, FinanceQuery } from '../../packages/core/src/finance-reports.ts';
import { computeMonth } from '../../apps/api/src/modules/billing/compute.ts';
import { financeReport, readFinanceRows } from '../../apps/api/src/modules/finance-reports/service.ts';
import { query } from '../../apps/api/src/reports-data/sql.ts';
import {
  ensureDataset,
  fmtMs,
  loadFactsIntoDuckDb,
  mb,
  dirSize,
  openBenchDatabase,
  ROOT,
  table,
  timePairs,
  writeFactsCsv,
  type DbKind,
} from '../reports/dataset.ts';
import { option } from '../resources/harness.ts';

const DAY = 86_400_000;
const DAYS = Number(option('days', '365'));
const SCALE = Number(option('scale', process.env.BENCH_FINANCE_SCALE ?? '27'));
const END = option('end', '2026-01-01');
const END_MS = Date.parse(`${END}T00:00:00Z`);
const RUNS = Number(option('runs', '20'));
const WARMUP = Number(option('warmup', '3'));
const KEEP = process.argv.slice(2).includes('--keep');
const DB_OPTION = option('db', 'both');
const DBS: DbKind[] = DB_OPTION === 'both' ? ['pglite', 'postgres'] : [DB_OPTION as DbKind];
const OPTS = { seed: 2024, days: DAYS, scale: SCALE, qpsDays: Math.min(DAYS, 2), endMs: END_MS };
const START_MS = END_MS - DAYS * DAY;

const TMP = path.join(ROOT, '.tmp', 'bench-finance-reports');
const RESULTS = path.join(ROOT, 'bench', 'results');
const NAME = `${DAYS}d-s${SCALE}-e${END}`;
const log = (s: string) => process.stderr.write(`${s}\n`);

/** The whole UTC calendar months inside the data, the last twelve at most. */
function wholeMonths(): string[] {
  const out: string[] = [];
  for (let m = monthOf(END_MS - 1); Date.parse(`${m}-01T00:00:00Z`) >= START_MS; m = nextMonth(m, -1)) {
    if (Date.parse(`${nextMonth(m)}-01T00:00:00Z`) <= END_MS) out.unshift(m);
  }
  return out.slice(-12);
}
const MONTHS = wholeMonths();
if (MONTHS.length === 0) {
  console.error(`No whole calendar month in the ${DAYS} days ending ${END}.`);
  process.exit(1);
}
const FROM = MONTHS[0]!;
const TO = MONTHS.at(-1)!;
const READ_FROM = nextMonth(FROM, -1);

const query0 = (group: 'network' | 'publisher'): FinanceQuery => ({
  from: FROM,
  to: TO,
  product: 'all',
  group,
  ids: [],
  sort: '-month',
  page: 1,
  page_size: 50,
});

const duckSql = (column: 'demand_partner_id' | 'publisher_id') =>
  `SELECT strftime(ts, '%Y-%m') AS month, ${column} AS gid, sum(revenue_micros)::VARCHAR AS revenue,
     sum(cost_micros)::VARCHAR AS cost, sum(impressions)::VARCHAR AS impressions
   FROM facts
   WHERE ts >= TIMESTAMP '${READ_FROM}-01 00:00:00' AND ts < TIMESTAMP '${nextMonth(TO)}-01 00:00:00'
   GROUP BY 1, 2`;

interface Cell {
  revenue: bigint;
  cost: bigint;
  impressions: bigint;
}

async function duckCells(
  con: DuckDBConnection,
  column: 'demand_partner_id' | 'publisher_id',
): Promise<Map<string, Cell>> {
  const reader = await con.runAndReadAll(duckSql(column));
  return new Map(
    reader
      .getRowObjectsJS()
      .map((r) => [
        `${String(r.month)}|${Number(r.gid)}`,
        {
          revenue: BigInt(String(r.revenue)),
          cost: BigInt(String(r.cost)),
          impressions: BigInt(String(r.impressions)),
        },
      ]),
  );
}

/** Our rows of the range (and the month before it) against DuckDB's: throws on any difference. */
async function check(
  database: Parameters<typeof readFinanceRows>[0],
  con: DuckDBConnection,
  group: 'network' | 'publisher',
) {
  const ours = await readFinanceRows(database, query0(group));
  const duck = await duckCells(con, group === 'network' ? 'demand_partner_id' : 'publisher_id');
  const problems: string[] = [];
  let revenue = 0n;
  let duckRevenue = 0n;
  const seen = new Set<string>();
  for (const r of ours) {
    const key = `${r.month}|${Number(r.gid)}`;
    seen.add(key);
    const d = duck.get(key);
    const o = { revenue: BigInt(r.revenue), cost: BigInt(r.cost), impressions: BigInt(r.impressions) };
    revenue += o.revenue;
    if (!d) {
      if (o.revenue !== 0n || o.cost !== 0n) problems.push(`${key}: ours only`);
      continue;
    }
    if (o.revenue !== d.revenue || o.cost !== d.cost || o.impressions !== d.impressions)
      problems.push(
        `${key}: ours ${o.revenue}/${o.cost}/${o.impressions}, DuckDB ${d.revenue}/${d.cost}/${d.impressions}`,
      );
  }
  for (const [key, d] of duck) {
    duckRevenue += d.revenue;
    if (!seen.has(key) && (d.revenue !== 0n || d.cost !== 0n)) problems.push(`${key}: DuckDB only`);
  }
  if (revenue !== duckRevenue)
    problems.unshift(`revenue totals differ: ours ${revenue}, DuckDB ${duckRevenue}`);
  if (problems.length > 0)
    throw new Error(
      `FINANCE REPORT CHECK FAILED (${group}): ${problems.length} difference(s):\n  ${problems.slice(0, 20).join('\n  ')}`,
    );
  return { rows: ours.length, revenueMicros: revenue.toString() };
}

async function benchDatabase(kind: DbKind, con: DuckDBConnection) {
  const dataDir = path.join(TMP, `pglite-${NAME}`);
  const where = { pgName: `bo_bench_finance_${NAME.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`, dataDir };
  const opened = await openBenchDatabase(kind, where, KEEP, log);
  const database = opened.database;
  const load = await ensureDataset(database, kind, OPTS, KEEP, log);
  // The billing rows of the twelve months, as billing computes them (the report joins them).
  const t0 = Date.now();
  for (const month of MONTHS) await computeMonth(database, 'ssp', month, null);
  const billingSec = (Date.now() - t0) / 1000;
  const [billingRows] = await query<{ n: string }>(
    database,
    `SELECT count(*)::text AS n FROM billing_rows WHERE side = 'ssp'`,
  );
  log(
    `${kind}: billing rows of ${FROM} … ${TO} computed in ${billingSec.toFixed(1)} s (${billingRows!.n} rows)`,
  );

  const timings = [];
  for (const group of ['network', 'publisher'] as const) {
    let answer: FinanceAnswer | null = null;
    const t = await timePairs(
      async () => {
        answer = await financeReport(database, query0(group), { limit: 50, offset: 0 });
      },
      () => duckCells(con, group === 'network' ? 'demand_partner_id' : 'publisher_id'),
      { runs: RUNS, warmup: WARMUP },
    );
    const a = answer as FinanceAnswer | null;
    timings.push({
      name: `${group === 'network' ? 'month x network' : 'month x publisher'} (${a?.total_rows ?? 0} rows, page of 50)`,
      ours: t.a,
      duckdb: t.b,
      ratioP50: t.a.p50 / t.b.p50,
      ratioP95: t.a.p95 / t.b.p95,
      oursFaster: t.aFaster,
    });
  }
  const checks = {
    network: await check(database, con, 'network'),
    publisher: await check(database, con, 'publisher'),
  };
  const dbSizeBytes = opened.dataDir ? dirSize(opened.dataDir) : null;
  await database.close();
  return {
    factRows: load.factRows,
    loadSec: load.loadSec,
    rollupSec: load.rollupSec,
    billingSec,
    dbSizeBytes,
    timings,
    checks,
  };
}

async function main() {
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.mkdirSync(TMP, { recursive: true });
  const loadAverageStart = os.loadavg();
  log(`finance reports bench: ${DAYS} days at scale ${SCALE} ending ${END}; ${FROM} … ${TO}; ${RUNS} runs`);
  const csv = path.join(TMP, `facts-${NAME}.csv`);
  log('DuckDB: writing the raw fact rows (same generator, same seed) to CSV…');
  const rows = await writeFactsCsv(csv, OPTS, KEEP);
  const duck = await loadFactsIntoDuckDb(csv);
  log(`DuckDB: ${rows.toLocaleString('en')} rows loaded in ${duck.loadSec.toFixed(1)} s`);
  const machine = {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model,
    memoryGB: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    loadAverageStart: loadAverageStart.map((x) => Number(x.toFixed(2))),
  };
  for (const kind of DBS) {
    const r = await benchDatabase(kind, duck.con);
    const out = {
      date: new Date().toISOString(),
      machine,
      loadAverageEnd: os.loadavg().map((x) => Number(x.toFixed(2))),
      options: { ...OPTS, from: FROM, to: TO, runs: RUNS, warmup: WARMUP },
      duckdb: { loadSec: duck.loadSec, rows },
      ...r,
    };
    fs.writeFileSync(path.join(RESULTS, `finance-reports-${kind}.json`), `${JSON.stringify(out, null, 2)}\n`);
    console.log(
      `\nFinance reports on ${kind}: ${r.factRows.toLocaleString('en')} fact rows; load ${r.loadSec?.toFixed(0) ?? 'reused'} s + rollups ${r.rollupSec?.toFixed(0) ?? '-'} s; billing ${r.billingSec.toFixed(0)} s; database ${mb(r.dbSizeBytes)}`,
    );
    console.log(
      table(
        ['ms', 'ours p50', 'ours p95', 'DuckDB p50', 'DuckDB p95', 'ratio p50', 'ratio p95', 'ours first'],
        r.timings.map((t) => [
          t.name,
          fmtMs(t.ours.p50),
          fmtMs(t.ours.p95),
          fmtMs(t.duckdb.p50),
          fmtMs(t.duckdb.p95),
          t.ratioP50.toFixed(2),
          t.ratioP95.toFixed(2),
          `${t.oursFaster}/${RUNS}`,
        ]),
      ),
    );
    console.log(
      `Check: network ${r.checks.network.rows} rows, publisher ${r.checks.publisher.rows} rows, revenue ${r.checks.network.revenueMicros} micros: identical to DuckDB's.`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
