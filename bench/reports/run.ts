/**
 * `npm run bench:reports` — the reports benchmark of issue 4.
 *
 * 1. Generates the warehouse with the project's generator (default 90 days at scale 111: about ten
 *    million fact rows) into PGlite and/or PostgreSQL (load time, database size).
 * 2. Writes the same raw fact rows to a CSV and loads them into DuckDB (in memory).
 * 3. Starts the API server (a child process: its peak RSS is measured), times four canonical
 *    reports through HTTP and the same four questions asked of DuckDB over the raw rows:
 *      Q1 day x demand partner, 30 days
 *      Q2 top 50 publishers x country for one partner, 90 days
 *      Q3 hour x device, 7 days, filters partner = 1 and country = ES
 *      Q4 dashboard tiles (today vs yesterday vs same weekday last week)
 *    and prints p50/p95 for both and the ratio (API / DuckDB; target <= 1.0). Each side is timed
 *    right after it starts (reported as "at start"), then again after each question was asked --warm
 *    times with other parameters (the figures the ratios use; see `timeQuestions`). Those runs
 *    alternate an API request and the same question to DuckDB (`timePairs`), so that the ratio
 *    compares both over the same minutes of a shared host; "API first" counts the pairs in which the
 *    API answered faster, and DuckDB's figures timed alone right after loading are kept too.
 * 4. Times a streamed CSV export of about one million rows and samples the server's memory.
 *
 *   npm run bench:reports -- [--db pglite|postgres|both] [--scale 111] [--days 90] [--runs 30] [--warm 100]
 *                            [--only q1,q2,q3,q4,export,xlsx] (default: all but xlsx) [--export-runs 1]
 *                            [--keep] (reuse an already loaded database of the same size)
 *                            [--load-only] (load the database(s) and stop: no DuckDB, no server)
 * PGlite data folders: .tmp/bench-reports/pglite-<days>d-s<scale>.
 * Results: bench/results/reports-<db>.json. Figures are reported, never judged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { query } from '../../apps/api/src/reports-data/sql.ts';
import { filterValueId } from '../../packages/core/src/reports.ts';
import {
  dirSize,
  ensureDataset,
  fmtMs,
  loadFactsIntoDuckDb,
  mb,
  openBenchDatabase,
  pct,
  ROOT,
  rss,
  signIn,
  startServer,
  table,
  timePairs,
  type Timing,
  writeFactsCsv,
  type DbKind,
} from './dataset.ts';
import { flag, option } from '../resources/harness.ts';

const TMP = path.join(ROOT, '.tmp', 'bench-reports');
const RESULTS = path.join(ROOT, 'bench', 'results');
const DAYS = Number(option('days', '90'));
const SCALE = Number(option('scale', '111'));
const RUNS = Number(option('runs', '30'));
/** How many times each question is asked with other parameters before the timed runs (`timeQuestions`). */
const WARM = Number(option('warm', '100'));
const WARMUP = 5;
const DBS = option('db', 'both') === 'both' ? ['postgres', 'pglite'] : [option('db', 'both')];
const KEEP = flag('keep');
const LOAD_ONLY = flag('load-only');
/** Parts to run: q1..q4, export (CSV), xlsx (XLSX export); default all but xlsx. */
const ONLY = new Set(option('only', 'q1,q2,q3,q4,export').split(','));
/** Each export is run this many times in a row (the later runs show whether memory stays flat). */
const EXPORT_RUNS = Number(option('export-runs', '1'));
const NEEDS_DUCKDB = ['q1', 'q2', 'q3', 'q4'].some((q) => ONLY.has(q));
const SEED = 2024;
// A fixed end keeps runs comparable (the dashboard uses the end of the loaded data as "now").
const END_MS = Date.UTC(2026, 0, 1);
const OPTS = { seed: SEED, days: DAYS, scale: SCALE, qpsDays: Math.min(DAYS, 7), endMs: END_MS };
const PARTNER = 1;

const log = (s: string) => process.stderr.write(`${s}\n`);

async function timeIt(
  fn: () => Promise<unknown>,
  runs = RUNS,
): Promise<{ p50: number; p95: number; runs: number[] }> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: pct(sorted, 50), p95: pct(sorted, 95), runs: times };
}

// ---------------------------------------------------------------------------------------------
// The four questions

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const date = (ms: number) => iso(ms).slice(0, 10);
/**
 * The parameters of a question. The timed runs use the canonical ones (partner 1, Spain, ranges
 * ending on the last loaded day); the warm-up asks the same four questions with other partners,
 * countries and ranges, so that nothing it runs is the timed statement itself.
 */
interface Params {
  partner: number;
  country: string;
  /** Days the ranges end before the last loaded day. */
  shiftDays: number;
  /** Q4's time zone; DuckDB shifts Q4's days by the zone's offset from UTC in the same way. */
  zone: { name: string; offsetHours: number };
}
const CANONICAL: Params = {
  partner: PARTNER,
  country: 'ES',
  shiftDays: 0,
  zone: { name: 'UTC', offsetHours: 0 },
};
const WARM_ZONES = [
  { name: 'Europe/Madrid', offsetHours: 1 },
  { name: 'America/New_York', offsetHours: -5 },
  { name: 'Asia/Tokyo', offsetHours: 9 },
];
const WARM_COUNTRIES = ['US', 'DE', 'FR', 'GB', 'IT', 'NL'];
const warmParams = (i: number): Params => ({
  partner: 2 + (i % 5),
  country: WARM_COUNTRIES[i % WARM_COUNTRIES.length]!,
  shiftDays: 1 + (i % 20),
  zone: WARM_ZONES[i % WARM_ZONES.length]!,
});

const ranges = (p: Params) => {
  const end = END_MS - p.shiftDays * DAY;
  return {
    end,
    q1: { start: date(end - 30 * DAY), end: date(end - DAY) },
    q2: { start: date(end - 90 * DAY), end: date(end - DAY) },
    q3: { start: date(end - 7 * DAY), end: date(end - DAY) },
  };
};

const apiQuery = (name: 'q1' | 'q2' | 'q3', p: Params) => {
  const r = ranges(p);
  if (name === 'q1')
    return {
      range: r.q1,
      timezone: 'UTC',
      dimensions: ['day', 'demand_partner'],
      metrics: ['impressions', 'revenue', 'ecpm'],
      limit: 1000,
    };
  if (name === 'q2')
    return {
      range: r.q2,
      timezone: 'UTC',
      dimensions: ['publisher', 'country'],
      metrics: ['revenue', 'impressions', 'ecpm'],
      filters: [{ dimension: 'demand_partner', op: 'include', values: [p.partner] }],
      sort: [{ field: 'revenue', dir: 'desc' }],
      limit: 50,
    };
  return {
    range: r.q3,
    timezone: 'UTC',
    dimensions: ['hour', 'device'],
    metrics: ['bid_requests', 'bids', 'impressions', 'revenue'],
    filters: [
      { dimension: 'demand_partner', op: 'include', values: [p.partner] },
      { dimension: 'country', op: 'include', values: [p.country] },
    ],
    limit: 1000,
  };
};
const dashboardUrl = (p: Params) =>
  `/v1/dashboard?timezone=${encodeURIComponent(p.zone.name)}&sections=tiles`;

// DuckDB over the raw rows: the same questions, the same arithmetic (sums, then ratios).
const duckQuery = (name: string, p: Params): string => {
  const r = ranges(p);
  const until = `ts < TIMESTAMP '${date(r.end)} 00:00:00'`;
  const countryId = filterValueId('country', p.country);
  if (name === 'q1')
    return `SELECT date_trunc('day', ts) AS day, demand_partner_id, sum(impressions) AS impressions, sum(revenue_micros) / 1e6 AS revenue,
         sum(revenue_micros) / nullif(sum(impressions) * 1000, 0) AS ecpm
       FROM facts WHERE ts >= TIMESTAMP '${r.q1.start} 00:00:00' AND ${until}
       GROUP BY ALL ORDER BY day, demand_partner_id`;
  if (name === 'q2')
    return `SELECT publisher_id, country_id, sum(revenue_micros) / 1e6 AS revenue, sum(impressions) AS impressions,
         sum(revenue_micros) / nullif(sum(impressions) * 1000, 0) AS ecpm
       FROM facts WHERE demand_partner_id = ${p.partner} AND ts >= TIMESTAMP '${r.q2.start} 00:00:00' AND ${until}
       GROUP BY ALL ORDER BY revenue DESC LIMIT 50`;
  if (name === 'q3')
    return `SELECT ts AS hour, device_id, sum(bid_requests), sum(bids), sum(impressions), sum(revenue_micros) / 1e6
       FROM facts WHERE demand_partner_id = ${p.partner} AND country_id = ${countryId}
         AND ts >= TIMESTAMP '${r.q3.start} 00:00:00' AND ${until}
       GROUP BY ALL ORDER BY hour, device_id`;
  // Q4: today (the last loaded day), yesterday and the same weekday last week, in the zone's days.
  const today = END_MS - DAY - p.zone.offsetHours * 3_600_000;
  return `SELECT ${['today', 'yesterday', 'last_week']
    .map((k, i) => {
      const from = today - [0, 1, 7][i]! * DAY;
      const cond = `ts >= TIMESTAMP '${iso(from).slice(0, 19)}' AND ts < TIMESTAMP '${iso(from + DAY).slice(0, 19)}'`;
      return `sum(revenue_micros) FILTER (WHERE ${cond}) AS ${k}_revenue, sum(cost_micros) FILTER (WHERE ${cond}) AS ${k}_cost, sum(impressions) FILTER (WHERE ${cond}) AS ${k}_impressions`;
    })
    .join(', ')} FROM facts WHERE ts >= TIMESTAMP '${iso(today - 7 * DAY).slice(0, 19)}'`;
};

const QUESTIONS = ['q1', 'q2', 'q3', 'q4'] as const;


/**
 * Times the selected questions on one side (API or DuckDB): right after it started ("cold"), then
 * again after asking each question WARM times with other parameters (`warmParams`), in turn, as a
 * server that has been up for a while has. Until then V8 runs the app's JavaScript, and PGlite's
 * WebAssembly, with its baseline compilers; the hot functions are recompiled by the optimising
 * ones after some use. `last` keeps each question's last answer (the API's source and row count).
 */
async function timeQuestions<R>(
  side: string,
  ask: (name: string, p: Params) => Promise<R>,
  /** Asked in alternation with `ask` in the timed runs (DuckDB next to the API; see timePairs). */
  alongside?: (name: string, p: Params) => Promise<unknown>,
): Promise<{
  cold: Record<string, Timing>;
  warm: Record<string, Timing>;
  last: Record<string, R>;
  along: Record<string, Timing>;
  faster: Record<string, number>;
}> {
  const names = QUESTIONS.filter((q) => ONLY.has(q));
  const cold: Record<string, Timing> = {};
  const warm: Record<string, Timing> = {};
  const last: Record<string, R> = {};
  const along: Record<string, Timing> = {};
  const faster: Record<string, number> = {};
  for (const name of names) cold[name] = await timeIt(() => ask(name, CANONICAL));
  const w0 = performance.now();
  let n = 0;
  for (let i = 0; i < WARM; i++) for (const name of names) await ask(name, warmParams(n++));
  log(
    `${side}: warm-up ${n} questions (other partners, countries, ranges) in ${((performance.now() - w0) / 1000).toFixed(1)} s`,
  );
  for (const name of names) {
    const mine = async () => (last[name] = await ask(name, CANONICAL));
    if (!alongside) {
      warm[name] = await timeIt(mine);
      continue;
    }
    const pair = await timePairs(mine, () => alongside(name, CANONICAL), { runs: RUNS, warmup: WARMUP });
    warm[name] = pair.a;
    along[name] = pair.b;
    faster[name] = pair.aFaster;
  }
  return { cold, warm, last, along, faster };
}

// ---------------------------------------------------------------------------------------------

interface DbResult {
  database: string;
  factRows: number;
  loadSec: number | null;
  rollupSec: number | null;
  dbSizeBytes: number | null;
  rssIdle: number | null;
  rssPeak: number | null;
  queries: {
    name: string;
    /** After the warm-up (what the ratios use). */
    api: { p50: number; p95: number };
    /** The same runs right after the server started, before the warm-up. */
    apiCold: { p50: number; p95: number };
    /** DuckDB's runs alternated with the API's (or, without DuckDB in this run, its own earlier ones). */
    duckdb: { p50: number; p95: number };
    /** DuckDB timed on its own right after loading, minutes before this database's runs. */
    duckdbAlone?: { p50: number; p95: number };
    /** In how many of the `runs` alternated pairs the API answered first. */
    apiFasterRuns?: number;
    runs?: number;
    ratioP50: number;
    ratioP95: number;
    source?: string;
    rows?: number;
  }[];
  export: ExportResult | null;
  exports?: ExportResult[];
  /** 1, 5 and 15-minute load averages at the end of the run (the machine is shared). */
  loadAverage?: number[];
}

interface ExportResult {
  format: 'csv' | 'xlsx';
  rows: number;
  seconds: number;
  firstByteSec: number;
  bytes: number;
  rssBefore: number | null;
  rssPeak: number | null;
  rssAfter: number | null;
  /** RSS sampled every 100 ms while streaming (bytes). */
  rssSamples: number[];
}

/** Streams one export, counting its rows (CSV lines, or XLSX <row> elements) and sampling RSS. */
async function timeExport(
  base: string,
  headers: Record<string, string>,
  pid: number,
  spec: object,
  format: 'csv' | 'xlsx',
): Promise<ExportResult> {
  const rssBefore = rss(pid);
  const samples: number[] = [];
  const sampler = setInterval(() => {
    const v = rss(pid);
    if (v !== null) samples.push(v);
  }, 100);
  const t0 = performance.now();
  let firstByteSec = 0;
  let bytes = 0;
  let lines = 0;
  try {
    const res = await fetch(`${base}/v1/reports/dataviewer/export?format=${format}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(spec),
    });
    if (!res.ok) throw new Error(`export: ${res.status} ${await res.text()}`);
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (bytes === 0) firstByteSec = (performance.now() - t0) / 1000;
      bytes += value.length;
      if (format === 'csv') for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 500));
  const rssAfter = rss(pid);
  // XLSX rows: the bytes are deflated, so the count comes from the bench's own CSV twin (same rows).
  return {
    format,
    rows: format === 'csv' ? lines - 1 : -1,
    seconds,
    firstByteSec,
    bytes,
    rssBefore,
    rssPeak: Math.max(rssBefore ?? 0, ...samples),
    rssAfter,
    rssSamples: samples,
  };
}

async function benchDatabase(
  kind: string,
  duckTimes: Record<string, { p50: number; p95: number }>,
  duckAsk?: (name: string, p: Params) => Promise<unknown>,
): Promise<DbResult> {
  const { database, env, dataDir } = await openBenchDatabase(
    kind as DbKind,
    { pgName: 'bo_bench_reports', dataDir: path.join(TMP, `pglite-${DAYS}d-s${SCALE}`) },
    KEEP,
    log,
  );
  const { factRows, loadSec, rollupSec } = await ensureDataset(database, kind as DbKind, OPTS, KEEP, log);
  let dbSizeBytes: number | null = null;
  if (kind === 'postgres')
    dbSizeBytes = Number(
      (await query<{ n: string }>(database, 'SELECT pg_database_size(current_database())::text AS n'))[0]!.n,
    );
  await database.close();
  if (dataDir) dbSizeBytes = dirSize(dataDir);
  if (LOAD_ONLY) {
    log(`${kind}: loaded (--load-only); database ${mb(dbSizeBytes)}`);
    return {
      database: kind,
      factRows,
      loadSec,
      rollupSec,
      dbSizeBytes,
      rssIdle: null,
      rssPeak: null,
      queries: [],
      export: null,
    };
  }

  const server = await startServer(env);
  const base = `http://127.0.0.1:${server.port}`;
  try {
    const token = await signIn(base);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    await new Promise((r) => setTimeout(r, 1000));
    const rssIdle = rss(server.child.pid!);
    let rssPeak = rssIdle ?? 0;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rss(server.child.pid!) ?? 0)), 100);
    const queries: DbResult['queries'] = [];
    const ask = async (name: string, p: Params) => {
      if (name === 'q4') {
        const res = await fetch(`${base}${dashboardUrl(p)}`, { headers });
        if (!res.ok) throw new Error(`dashboard: ${res.status}`);
        await res.json();
        return { source: 'stats_r_partner' };
      }
      const res = await fetch(`${base}/v1/reports/dataviewer/query`, {
        method: 'POST',
        headers,
        body: JSON.stringify(apiQuery(name as 'q1' | 'q2' | 'q3', p)),
      });
      const b = (await res.json()) as { data: { source: string; rows: unknown[] } };
      if (!res.ok) throw new Error(`${name}: ${res.status} ${JSON.stringify(b)}`);
      return { source: b.data.source, rows: b.data.rows.length };
    };
    // Right after the start (as the bench timed it until 2026-11-22), then after the warm-up.
    // The timed runs alternate with DuckDB's (when it is loaded): the ratio compares the two over
    // the same minutes of the host. DuckDB's own earlier figures are kept as `duckdbAlone`.
    const timed = await timeQuestions(kind, ask, duckAsk);
    for (const [name, t] of Object.entries(timed.warm)) {
      const d = timed.along[name] ?? duckTimes[name]!;
      queries.push({
        name,
        api: { p50: t.p50, p95: t.p95 },
        apiCold: timed.cold[name]!,
        duckdb: { p50: d.p50, p95: d.p95 },
        ...(duckTimes[name] ? { duckdbAlone: duckTimes[name] } : {}),
        ...(timed.faster[name] !== undefined ? { apiFasterRuns: timed.faster[name], runs: RUNS } : {}),
        ratioP50: t.p50 / d.p50,
        ratioP95: t.p95 / d.p95,
        ...timed.last[name],
      });
    }
    if (ONLY.has('q4')) {
      const full = await timeIt(async () => {
        const res = await fetch(`${base}/v1/dashboard?timezone=Europe/Madrid`, { headers });
        if (!res.ok) throw new Error(`dashboard: ${res.status}`);
        await res.json();
      }, 5);
      log(`${kind}: full dashboard (all sections, Europe/Madrid) p50 ${fmtMs(full.p50)} ms`);
    }
    clearInterval(sampler);

    // Streamed export of about a million rows: hour x ad unit x country x device x partner over
    // the last days (EXPORT_ROWS=n asks for about n rows instead).
    const exports: ExportResult[] = [];
    const target = Number(process.env.EXPORT_ROWS ?? 1_000_000);
    const exportDays = Math.min(DAYS - 1, Math.max(1, Math.round((target / Math.max(1, factRows)) * DAYS)));
    const exportSpec = {
      range: { start: date(END_MS - exportDays * DAY), end: date(END_MS - DAY) },
      timezone: 'UTC',
      dimensions: ['hour', 'ad_unit', 'country', 'device', 'demand_partner'],
      metrics: ['impressions', 'revenue'],
    };
    for (const format of ['csv', 'xlsx'] as const) {
      if (!ONLY.has(format === 'csv' ? 'export' : 'xlsx')) continue;
      for (let run = 1; run <= EXPORT_RUNS; run++) {
        const r = await timeExport(base, headers, server.child.pid!, exportSpec, format);
        rssPeak = Math.max(rssPeak, r.rssPeak ?? 0);
        log(
          `${kind}: ${format} export of ${r.rows >= 0 ? `${r.rows.toLocaleString('en')} rows` : mb(r.bytes)} in ${r.seconds.toFixed(1)} s (first byte ${r.firstByteSec.toFixed(2)} s); RSS ${mb(r.rssBefore)} → peak ${mb(r.rssPeak)} → end ${mb(r.rssAfter)}`,
        );
        exports.push(r);
      }
    }
    return {
      database: kind,
      factRows,
      loadSec,
      rollupSec,
      dbSizeBytes,
      rssIdle,
      rssPeak,
      queries,
      export: exports.find((e) => e.format === 'csv') ?? null,
      exports,
      loadAverage: os.loadavg(),
    };
  } finally {
    await server.stop();
  }
}

async function duckdbBench(): Promise<{
  ask: (name: string, p: Params) => Promise<unknown>;
  times: Record<string, { p50: number; p95: number }>;
  loadSec: number;
  rows: number;
}> {
  fs.mkdirSync(TMP, { recursive: true });
  const csv = path.join(TMP, `facts-${DAYS}d-s${SCALE}.csv`);
  log('DuckDB: writing the raw fact rows (same generator, same seed) to CSV…');
  const rows = await writeFactsCsv(csv, OPTS, KEEP);
  const { con, loadSec } = await loadFactsIntoDuckDb(csv);
  log(`DuckDB: ${rows.toLocaleString('en')} rows loaded in ${loadSec.toFixed(1)} s`);
  const timed = await timeQuestions('DuckDB', (name, p) => con.runAndReadAll(duckQuery(name, p)));
  const times: Record<string, Timing> = {};
  for (const [name, t] of Object.entries(timed.warm)) {
    times[name] = { p50: t.p50, p95: t.p95 };
    log(
      `DuckDB ${name}: p50 ${fmtMs(t.p50)} ms, p95 ${fmtMs(t.p95)} ms (right after loading: p50 ${fmtMs(timed.cold[name]!.p50)} ms)`,
    );
  }
  // The connection stays open: each database's timed runs ask DuckDB again, in alternation.
  return { times, loadSec, rows, ask: (name, p) => con.runAndReadAll(duckQuery(name, p)) };
}

const LABELS: Record<string, string> = {
  q1: 'Q1 day x partner, 30 d',
  q2: 'Q2 top 50 publisher x country, 1 partner, 90 d',
  q3: 'Q3 hour x device, 7 d, 2 filters',
  q4: 'Q4 dashboard tiles',
};

async function main() {
  fs.mkdirSync(RESULTS, { recursive: true });
  if (LOAD_ONLY) {
    for (const kind of DBS) await benchDatabase(kind, {});
    return;
  }
  const duck = NEEDS_DUCKDB ? await duckdbBench() : { times: {}, loadSec: 0, rows: 0, ask: undefined };
  if (flag('duckdb-only')) {
    fs.writeFileSync(
      path.join(RESULTS, 'reports-duckdb.json'),
      JSON.stringify(
        { date: new Date().toISOString(), options: OPTS, duckdb: { ...duck, ask: undefined } },
        null,
        2,
      ),
    );
    return;
  }
  for (const kind of DBS) {
    const r = await benchDatabase(kind, duck.times, duck.ask);
    const out = {
      date: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        model: os.cpus()[0]?.model,
        memoryGB: Math.round(os.totalmem() / 1024 ** 3),
        node: process.version,
      },
      options: OPTS,
      duckdb: { ...duck, ask: undefined },
      ...r,
    };
    fs.writeFileSync(path.join(RESULTS, `reports-${kind}.json`), JSON.stringify(out, null, 2));
    console.log(
      `\nReports on ${kind}: ${r.factRows.toLocaleString('en')} fact rows; load ${r.loadSec?.toFixed(0) ?? 'reused'} s + rollups ${r.rollupSec?.toFixed(0) ?? '-'} s; database ${mb(r.dbSizeBytes)}; server RSS idle ${mb(r.rssIdle)}, peak ${mb(r.rssPeak)}`,
    );
    console.log(
      table(
        [
          'question',
          'API p50 ms',
          'API p95 ms',
          'DuckDB p50',
          'DuckDB p95',
          'ratio p50',
          'ratio p95',
          'API first',
          'DuckDB p50 alone',
          'API p50 at start',
          'source',
        ],
        r.queries.map((q) => [
          LABELS[q.name]!,
          fmtMs(q.api.p50),
          fmtMs(q.api.p95),
          fmtMs(q.duckdb.p50),
          fmtMs(q.duckdb.p95),
          q.ratioP50.toFixed(2),
          q.ratioP95.toFixed(2),
          q.apiFasterRuns !== undefined ? `${q.apiFasterRuns}/${q.runs}` : '',
          q.duckdbAlone ? fmtMs(q.duckdbAlone.p50) : '',
          fmtMs(q.apiCold.p50),
          q.source ?? '',
        ]),
      ),
    );
    for (const e of r.exports ?? [])
      console.log(
        `Export ${e.format}: ${e.rows >= 0 ? `${e.rows.toLocaleString('en')} rows, ` : ''}${mb(e.bytes)} in ${e.seconds.toFixed(1)} s (first byte ${e.firstByteSec.toFixed(2)} s); server RSS ${mb(e.rssBefore)} before, ${mb(e.rssPeak)} peak while streaming, ${mb(e.rssAfter)} after`,
      );
    console.log(
      `Load average (1/5/15 min) at the end: ${(r.loadAverage ?? []).map((x) => x.toFixed(2)).join(' / ')}`,
    );
  }
  if (NEEDS_DUCKDB)
    console.log(
      `\nDuckDB (in memory, ${os.cpus().length} threads) loaded ${duck.rows.toLocaleString('en')} raw rows from CSV in ${duck.loadSec.toFixed(1)} s.`,
    );
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
