/**
 * `npm run bench:billing` — the billing benchmark of issue 21, on PGlite and/or PostgreSQL, in the
 * same run as DuckDB:
 *
 * 1. Compute: one whole UTC calendar month of SSP billing rows from the reports warehouse (default
 *    90 days at scale 111 ending 2026-01-01: about ten million hourly fact rows, the data set of
 *    bench:reports; the month is the last whole one inside the data, 2025-12). Times the real
 *    `computeMonth(database, 'ssp', month)` (both kinds, one transaction, in this process): the
 *    first run, which inserts the rows, then p50/p95 of the recomputes of the open rows; and each
 *    kind on its own (`writeMonth`, and its SELECT alone, `computeLines`). DuckDB asks the same two
 *    aggregations of the month's RAW fact rows (revenue and cost by demand partner x format; by
 *    publisher x format with the distinct partners per publisher), alternating run by run with
 *    ours (see `timePairs`). Ratio = ours / DuckDB (target <= 1). Then the rows written are
 *    compared with DuckDB's answer row by row and in total: any difference fails the bench (a
 *    correctness check; timings are never judged). EXPLAIN (ANALYZE, BUFFERS) of both kinds' SELECT
 *    goes to bench/results/billing-explain-<db>.txt.
 * 2. Approve: 5,000 confirmed rows of a synthetic month (2020-01: publishers x formats, then demand
 *    partners x formats) approved through the HTTP API of the real server (bench/reports/server.ts,
 *    a child process): the rows listed as a client lists them (pages of 500), one POST
 *    /v1/billing/ssp/actions with all of them, then GET …/actions/{run} every --poll-ms until the
 *    run is done: total seconds, time to first progress, the progress seen. Then the same request
 *    with the same idempotency key (must answer the same run) and with a new key (must skip all
 *    5,000 as billing.skip.already); afterwards the database must hold 5,000 approved rows with
 *    one approve audit entry each. Any of these failing fails the bench.
 *
 *   npm run bench:billing -- [--db pglite|postgres|both] [--scale 111] [--days 90] [--end 2026-01-01]
 *                            [--month YYYY-MM] [--runs 20] [--warmup 3] [--rows 5000] [--poll-ms 250]
 *                            [--keep] (reuse the data set, CSV and database loaded by an earlier run)
 *   BENCH_BILLING_SCALE=2 npm run bench:billing -- --keep     a small data set (about 2,000 rows a day)
 *
 * Data: .tmp/bench-billing/ (PGlite folders, the CSV); PostgreSQL database bo_bench_billing_<days>d_s<scale>_e<end>
 * (e.g. bo_bench_billing_90d_s111_e2026_01_01).
 * Results: bench/results/billing-<db>.json, and `billing` in bench/results/latest.json.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BILLING_ACTION_CHUNK,
  monthOf,
  nextMonth,
  type BillingActionRun,
} from '../../packages/core/src/billing-api.ts';
import { FORMATS } from '../../packages/core/src/reports.ts';
import { loadConfig } from '../../apps/api/src/config.ts';
import { withAdvisoryLock, type Database } from '../../apps/api/src/db/client.ts';
import { DEMO_MAILS } from '../../apps/api/src/db/demo-data.ts';
import { seed } from '../../apps/api/src/db/seed.ts';
import {
  computeLines,
  computeMonth,
  computeSql,
  monthBounds,
  monthSources,
  writeMonth,
} from '../../apps/api/src/modules/billing/compute.ts';
import { query, transaction, type QueryFn } from '../../apps/api/src/reports-data/sql.ts';
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
} from '../reports/dataset.ts';
import { flag, option } from '../resources/harness.ts';

const DAY = 86_400_000;
const DAYS = Number(option('days', '90'));
const SCALE = Number(option('scale', process.env.BENCH_BILLING_SCALE ?? '111'));
const END = option('end', '2026-01-01');
const END_MS = Date.parse(`${END}T00:00:00Z`);
const RUNS = Number(option('runs', '20'));
const WARMUP = Number(option('warmup', '3'));
const APPROVE_ROWS = Number(option('rows', '5000'));
const POLL_MS = Number(option('poll-ms', '250'));
const KEEP = flag('keep');
const DBS: DbKind[] =
  option('db', 'both') === 'both' ? ['pglite', 'postgres'] : [option('db', 'both') as DbKind];
const OPTS = { seed: 2024, days: DAYS, scale: SCALE, qpsDays: Math.min(DAYS, 7), endMs: END_MS };
const START_MS = END_MS - DAYS * DAY;
/** The synthetic month of the approve part (no traffic, nothing else writes it). */
const SYNTH_MONTH = '2020-01';

const TMP = path.join(ROOT, '.tmp', 'bench-billing');
const RESULTS = path.join(ROOT, 'bench', 'results');
const NAME = `${DAYS}d-s${SCALE}-e${END}`;
const log = (s: string) => process.stderr.write(`${s}\n`);

/** The last whole UTC calendar month inside [START_MS, END_MS). */
function lastWholeMonth(): string | null {
  for (let m = monthOf(END_MS - 1); Date.parse(`${m}-01T00:00:00Z`) >= START_MS; m = nextMonth(m, -1)) {
    if (Date.parse(`${nextMonth(m)}-01T00:00:00Z`) <= END_MS) return m;
  }
  return null;
}
const MONTH = option('month', '') || lastWholeMonth();
if (!MONTH) {
  console.error(`No whole calendar month in the ${DAYS} days ending ${END}: use --days 62 or more.`);
  process.exit(1);
}
const [MONTH_START, MONTH_END] = monthBounds('ssp', MONTH);
if (Date.parse(MONTH_START) < START_MS || Date.parse(MONTH_END) > END_MS) {
  console.error(
    `Month ${MONTH} is not wholly inside the data (${new Date(START_MS).toISOString()} – ${END}).`,
  );
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// Timing

async function timeOnce<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

// ---------------------------------------------------------------------------------------------
// DuckDB: the same two aggregations over the month's raw fact rows

const duckRange = `f.ts >= TIMESTAMP '${MONTH_START.slice(0, 19).replace('T', ' ')}' AND f.ts < TIMESTAMP '${MONTH_END.slice(0, 19).replace('T', ' ')}'`;
const DUCK_SQL = {
  advertiser: `SELECT f.demand_partner_id AS counterparty_id, f.format_id, sum(f.revenue_micros)::VARCHAR AS billed,
      sum(f.cost_micros)::VARCHAR AS other, max(p.name) AS demand_partners
    FROM facts f JOIN partners p ON p.id = f.demand_partner_id AND p.side = 'ssp'
    WHERE ${duckRange}
    GROUP BY f.demand_partner_id, f.format_id
    HAVING sum(f.revenue_micros) <> 0 OR sum(f.cost_micros) <> 0`,
  supply: `WITH m AS (SELECT f.publisher_id, f.format_id, f.demand_partner_id, f.revenue_micros, f.cost_micros FROM facts f WHERE ${duckRange}),
    s AS (SELECT m.publisher_id, m.format_id, sum(m.cost_micros) AS billed, sum(m.revenue_micros) AS other
      FROM m JOIN publishers pb ON pb.id = m.publisher_id AND pb.side = 'ssp'
      GROUP BY m.publisher_id, m.format_id HAVING sum(m.revenue_micros) <> 0 OR sum(m.cost_micros) <> 0),
    d AS (SELECT x.publisher_id, string_agg(p.name, ', ' ORDER BY p.name) AS demand_partners
      FROM (SELECT DISTINCT publisher_id, demand_partner_id FROM m) x JOIN partners p ON p.id = x.demand_partner_id
      GROUP BY x.publisher_id)
    SELECT s.publisher_id AS counterparty_id, s.format_id, s.billed::VARCHAR AS billed, s.other::VARCHAR AS other,
      coalesce(d.demand_partners, '') AS demand_partners
    FROM s LEFT JOIN d ON d.publisher_id = s.publisher_id`,
};
type Kind = keyof typeof DUCK_SQL;
const KINDS: Kind[] = ['advertiser', 'supply'];

interface Line {
  key: string;
  billed: bigint;
  other: bigint;
  partners: string;
}
/** Partner lists compared as sets of names (the two engines' collations may order them differently). */
const partnerSet = (s: string) => (s === '' ? [] : s.split(', ')).sort().join(', ');

async function duckLines(con: DuckDBConnection, kind: Kind): Promise<Line[]> {
  const reader = await con.runAndReadAll(DUCK_SQL[kind]);
  return reader.getRowObjectsJS().map((r) => ({
    key: `${kind === 'advertiser' ? 'demand_partner' : 'publisher'}:${Number(r.counterparty_id)}:${FORMATS[Number(r.format_id) - 1]}`,
    billed: BigInt(String(r.billed)),
    other: BigInt(String(r.other)),
    partners: partnerSet(String(r.demand_partners ?? '')),
  }));
}

/** The month's billing rows as written (amounts back to integer micro-units). */
async function ourLines(database: Database, kind: Kind): Promise<(Line & { state: string })[]> {
  const rows = await query<{
    counterparty_type: string;
    counterparty_id: number;
    product: string;
    billed: string;
    other: string;
    demand_partners: string;
    state: string;
  }>(
    database,
    `SELECT counterparty_type, counterparty_id, product, (revenue_ours * 1000000)::bigint::text AS billed,
       (other_side * 1000000)::bigint::text AS other, demand_partners, state
     FROM billing_rows WHERE side = 'ssp' AND kind = $1 AND month = $2`,
    [kind, MONTH],
  );
  return rows.map((r) => ({
    key: `${r.counterparty_type}:${Number(r.counterparty_id)}:${r.product}`,
    billed: BigInt(r.billed),
    other: BigInt(r.other),
    partners: partnerSet(r.demand_partners),
    state: r.state,
  }));
}

interface KindCheck {
  rows: number;
  billedMicros: string;
  otherMicros: string;
  duckdbRows: number;
  duckdbBilledMicros: string;
  duckdbOtherMicros: string;
}

/** Compares our rows with DuckDB's answer; throws (fails the bench) on any difference. */
function compare(kind: Kind, ours: (Line & { state: string })[], duck: Line[]): KindCheck {
  const sum = (lines: Line[], f: 'billed' | 'other') => lines.reduce((s, l) => s + l[f], 0n);
  const problems: string[] = [];
  // Rows whose traffic is zero on both sides are not written (HAVING), nor answered by DuckDB.
  const live = ours.filter((l) => l.billed !== 0n || l.other !== 0n);
  const byKey = new Map(duck.map((l) => [l.key, l]));
  for (const o of live) {
    const d = byKey.get(o.key);
    if (!d) problems.push(`${o.key}: in billing_rows, not in DuckDB's answer`);
    else {
      if (o.billed !== d.billed || o.other !== d.other)
        problems.push(`${o.key}: ours ${o.billed}/${o.other} micros, DuckDB ${d.billed}/${d.other}`);
      if (o.partners !== d.partners)
        problems.push(`${o.key}: partners "${o.partners}" vs DuckDB "${d.partners}"`);
    }
    if (o.state !== 'open') problems.push(`${o.key}: state ${o.state} (expected open)`);
    byKey.delete(o.key);
  }
  for (const k of byKey.keys()) problems.push(`${k}: in DuckDB's answer, not in billing_rows`);
  const check: KindCheck = {
    rows: live.length,
    billedMicros: sum(live, 'billed').toString(),
    otherMicros: sum(live, 'other').toString(),
    duckdbRows: duck.length,
    duckdbBilledMicros: sum(duck, 'billed').toString(),
    duckdbOtherMicros: sum(duck, 'other').toString(),
  };
  if (check.billedMicros !== check.duckdbBilledMicros || check.otherMicros !== check.duckdbOtherMicros)
    problems.unshift(
      `totals differ: ours ${check.billedMicros}/${check.otherMicros}, DuckDB ${check.duckdbBilledMicros}/${check.duckdbOtherMicros}`,
    );
  if (problems.length > 0)
    throw new Error(
      `BILLING CHECK FAILED (${kind}, ${MONTH}): ${problems.length} difference(s) between billing_rows and DuckDB over the raw rows:\n  ${problems.slice(0, 20).join('\n  ')}`,
    );
  return check;
}

// ---------------------------------------------------------------------------------------------

interface ComputeTiming {
  name: string;
  ours: Timing & { runs: number[] };
  duckdb: Timing & { runs: number[] };
  ratioP50: number;
  ratioP95: number;
  oursFaster: number;
}

interface ApproveResult {
  rows: number;
  runId: number;
  /** Listing the rows as a client does (GET …/rows, pages of 500, both kinds). */
  listSec: number;
  /** The POST's answer: its status code, seconds and how many rows were done then. */
  postStatus: number;
  postSec: number;
  doneAtAnswer: number;
  /** First answer (POST or poll) with done > 0, from the POST's start. */
  firstProgressSec: number | null;
  totalSec: number;
  polls: number;
  progress: [number, number][];
  serverRssBefore: number | null;
  serverRssPeak: number | null;
  /** /healthz asked every 100 ms during the run: its slowest answer = the longest the server served nothing else. */
  healthzDuringRun: { probes: number; p50Ms: number; maxMs: number };
  sameKey: { status: number; runId: number; ms: number };
  newKey: {
    status: number;
    runId: number;
    totalSec: number;
    skipped: number;
    reasons: Record<string, number>;
  };
  approvedRows: number;
  auditEntries: number;
  auditRowsDistinct: number;
}

/**
 * 5,000 (--rows) confirmed rows of SYNTH_MONTH: SSP publishers x formats, then demand partners x
 * formats. The warehouse has about 300 SSP publishers (whatever the scale), so publishers named
 * `bench:billing publisher NNNN` (no traffic) are added first as needed: rows of real counterparties.
 */
async function insertSyntheticRows(
  database: Database,
  adminId: number,
): Promise<{ benchPublishers: number }> {
  await query(database, `DELETE FROM billing_rows WHERE side = 'ssp' AND month = $1`, [SYNTH_MONTH]);
  const [have] = await query<{ pubs: number; partners: number; bench: number }>(
    database,
    `SELECT (SELECT count(*)::int FROM publishers WHERE side = 'ssp') AS pubs,
            (SELECT count(*)::int FROM demand_partners WHERE side = 'ssp') AS partners,
            (SELECT count(*)::int FROM publishers WHERE name LIKE 'bench:billing publisher %') AS bench`,
  );
  const missing = Math.ceil(
    (APPROVE_ROWS - (Number(have!.pubs) + Number(have!.partners)) * FORMATS.length) / FORMATS.length,
  );
  if (missing > 0)
    await query(
      database,
      `INSERT INTO publishers (name, side) SELECT 'bench:billing publisher ' || lpad(i::text, 4, '0'), 'ssp'
       FROM generate_series($1::int + 1, $1::int + $2::int) AS i`,
      [Number(have!.bench), missing],
    );
  const formats = `(SELECT unnest($2::text[]) AS product)`;
  const [n] = await query<{ n: number }>(
    database,
    `WITH c AS (
       SELECT 'supply' AS kind, 'publisher' AS counterparty_type, p.id AS counterparty_id, f.product, 0 AS pass
       FROM publishers p CROSS JOIN ${formats} f WHERE p.side = 'ssp'
       UNION ALL
       SELECT 'advertiser', 'demand_partner', d.id, f.product, 1 FROM demand_partners d CROSS JOIN ${formats} f WHERE d.side = 'ssp'
     ), picked AS (SELECT * FROM c ORDER BY pass, counterparty_id, product LIMIT $1)
     , ins AS (
       INSERT INTO billing_rows (side, kind, month, counterparty_type, counterparty_id, product, currency, revenue_ours, other_side,
         state, confirmed_by, confirmed_at, updated_by)
       SELECT 'ssp', kind, $3, counterparty_type, counterparty_id, product, 'USD',
         (1000 + (counterparty_id * 37 + length(product) * 11) % 9000)::numeric + 0.123456,
         round(((1000 + (counterparty_id * 37 + length(product) * 11) % 9000)::numeric) * 0.7, 6),
         'confirmed', $4::int4, now(), $4::int4
       FROM picked RETURNING 1)
     SELECT count(*)::int AS n FROM ins`,
    [APPROVE_ROWS, [...FORMATS], SYNTH_MONTH, adminId],
  );
  if (Number(n!.n) !== APPROVE_ROWS)
    throw new Error(
      `only ${n!.n} publisher/partner x format combinations for ${APPROVE_ROWS} synthetic rows`,
    );
  return { benchPublishers: Number(have!.bench) + Math.max(0, missing) };
}

async function approveOverHttp(
  env: Record<string, string>,
): Promise<Omit<ApproveResult, 'approvedRows' | 'auditEntries' | 'auditRowsDistinct'> & { ids: number[] }> {
  const server = await startServer(env);
  const base = `http://127.0.0.1:${server.port}`;
  const pid = server.child.pid!;
  try {
    const token = await signIn(base);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const api = async <T>(
      method: string,
      url: string,
      body?: unknown,
    ): Promise<{ status: number; data: T }> => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: body ? headers : { authorization: headers.authorization },
        body: body ? JSON.stringify(body) : undefined,
      });
      const b = (await res.json()) as { data: T };
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(b).slice(0, 500)}`);
      return { status: res.status, data: b.data };
    };

    // The rows as a client lists them.
    const t0 = performance.now();
    const rows: { id: number; version: number; state: string }[] = [];
    for (const kind of KINDS) {
      for (let page = 1; ; page++) {
        const { data } = await api<{ rows: { id: number; version: number; state: string }[]; total: number }>(
          'GET',
          `/v1/billing/ssp/rows?month=${SYNTH_MONTH}&kind=${kind}&page_size=500&page=${page}`,
        );
        rows.push(...data.rows.map((r) => ({ id: r.id, version: r.version, state: r.state })));
        if (page * 500 >= data.total) break;
      }
    }
    const listSec = (performance.now() - t0) / 1000;
    if (
      rows.length !== APPROVE_ROWS ||
      new Set(rows.map((r) => r.id)).size !== APPROVE_ROWS ||
      rows.some((r) => r.state !== 'confirmed')
    )
      throw new Error(
        `listed ${rows.length} rows (${new Set(rows.map((r) => r.id)).size} distinct) for ${APPROVE_ROWS} confirmed ones`,
      );
    const selection = rows.map((r) => ({ id: r.id, version: r.version }));
    const key = `bench-approve-${Date.now()}`;
    const body = { action: 'approve', rows: selection, idempotency_key: key, confirm_low_margin: false };

    /**
     * POSTs an action and polls its run until it is no longer running. Meanwhile /healthz is asked
     * every 100 ms (one at a time): its slowest answer is how long the server served nothing else.
     */
    const runToEnd = async (b: typeof body) => {
      const rssBefore = rss(pid);
      let rssPeak = rssBefore ?? 0;
      const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rss(pid) ?? 0)), 100);
      let probing = true;
      const probeTimes: number[] = [];
      const probe = (async () => {
        while (probing) {
          const t = performance.now();
          await fetch(`${base}/healthz`).then((r) => r.arrayBuffer());
          probeTimes.push(performance.now() - t);
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      try {
        const start = performance.now();
        const since = () => (performance.now() - start) / 1000;
        const post = await api<BillingActionRun>('POST', '/v1/billing/ssp/actions', b);
        const postSec = since();
        const progress: [number, number][] = [[Number(postSec.toFixed(3)), post.data.done]];
        let firstProgressSec = post.data.done > 0 ? postSec : null;
        let run = post.data;
        let polls = 0;
        while (run.status === 'running') {
          await new Promise((r) => setTimeout(r, POLL_MS));
          run = (await api<BillingActionRun>('GET', `/v1/billing/ssp/actions/${run.id}`)).data;
          polls++;
          if (run.done !== progress.at(-1)![1]) progress.push([Number(since().toFixed(3)), run.done]);
          if (firstProgressSec === null && run.done > 0) firstProgressSec = since();
        }
        const totalSec = since();
        probing = false;
        await probe;
        const healthz = {
          probes: probeTimes.length,
          p50Ms: pct(
            [...probeTimes].sort((x, y) => x - y),
            50,
          ),
          maxMs: Math.max(...probeTimes),
        };
        return {
          post,
          postSec,
          run,
          totalSec,
          firstProgressSec,
          progress,
          polls,
          rssBefore,
          rssPeak,
          healthz,
        };
      } finally {
        probing = false;
        clearInterval(sampler);
      }
    };

    log(
      `approving ${APPROVE_ROWS} rows through the API (chunks of ${BILLING_ACTION_CHUNK}, polled every ${POLL_MS} ms)…`,
    );
    const first = await runToEnd(body);
    const run = first.run;
    const ids = new Set(selection.map((r) => r.id));
    const resultIds = new Set(run.results.map((r) => r.id));
    const approvedOk = run.results.filter((r) => r.ok && r.state === 'approved').length;
    if (
      run.status !== 'done' ||
      run.total !== APPROVE_ROWS ||
      run.done !== APPROVE_ROWS ||
      run.applied !== APPROVE_ROWS ||
      run.skipped !== 0 ||
      run.results.length !== APPROVE_ROWS ||
      resultIds.size !== APPROVE_ROWS ||
      [...ids].some((id) => !resultIds.has(id)) ||
      approvedOk !== APPROVE_ROWS
    )
      throw new Error(
        `APPROVE CHECK FAILED: run ${run.id} ${run.status}, total ${run.total}, done ${run.done}, applied ${run.applied}, skipped ${run.skipped}, ${run.results.length} results (${resultIds.size} distinct ids, ${approvedOk} approved)`,
      );

    // The same click again (same key): the same run, nothing done twice.
    const again = await timeOnce(() => api<BillingActionRun>('POST', '/v1/billing/ssp/actions', body));
    if (
      again.value.data.id !== run.id ||
      again.value.data.status !== 'done' ||
      again.value.data.applied !== APPROVE_ROWS
    )
      throw new Error(
        `APPROVE CHECK FAILED: the same key answered run ${again.value.data.id} (${again.value.data.status}), not run ${run.id}`,
      );

    // A new click on the same (now approved) rows: a new run that skips every row.
    const second = await runToEnd({ ...body, idempotency_key: `${key}-again` });
    const reasons: Record<string, number> = {};
    for (const r of second.run.results)
      if (!r.ok) reasons[r.reason ?? '?'] = (reasons[r.reason ?? '?'] ?? 0) + 1;
    if (
      second.run.id === run.id ||
      second.run.status !== 'done' ||
      second.run.applied !== 0 ||
      second.run.skipped !== APPROVE_ROWS ||
      reasons['billing.skip.already'] !== APPROVE_ROWS
    )
      throw new Error(
        `APPROVE CHECK FAILED: a new key answered run ${second.run.id} (${second.run.status}) applied ${second.run.applied}, skipped ${JSON.stringify(reasons)}`,
      );

    return {
      ids: [...ids],
      rows: APPROVE_ROWS,
      runId: run.id,
      listSec,
      postStatus: first.post.status,
      postSec: first.postSec,
      doneAtAnswer: first.post.data.done,
      firstProgressSec: first.firstProgressSec,
      totalSec: first.totalSec,
      polls: first.polls,
      progress: first.progress,
      serverRssBefore: first.rssBefore,
      serverRssPeak: first.rssPeak,
      healthzDuringRun: first.healthz,
      sameKey: { status: again.value.status, runId: again.value.data.id, ms: again.ms },
      newKey: {
        status: second.post.status,
        runId: second.run.id,
        totalSec: second.totalSec,
        skipped: second.run.skipped,
        reasons,
      },
    };
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------

async function benchDatabase(kind: DbKind, con: DuckDBConnection, duckMonthRows: number) {
  const dataDir = path.join(TMP, `pglite-${NAME}`);
  // One PostgreSQL database per data set, as one PGlite folder (a run at another scale keeps it).
  const where = { pgName: `bo_bench_billing_${NAME.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`, dataDir };
  let opened = await openBenchDatabase(kind, where, KEEP, log);
  let database = opened.database;
  const load = await ensureDataset(database, kind, OPTS, KEEP, log);
  const state = load.state ?? {};
  if (Number(state.startMs) > Date.parse(MONTH_START) || Number(state.endMs) < Date.parse(MONTH_END))
    throw new Error(
      `${kind}: the loaded data (${JSON.stringify({ startMs: state.startMs, endMs: state.endMs })}) does not cover ${MONTH}; run without --keep`,
    );

  // The warehouse must hold exactly the generator's rows, DuckDB's: the demo seed's performance
  // spend (demo-budgets.ts writes hourly rows for three performance partners into stats_hourly and
  // the rollups) is skipped by setting its marker first.
  await query(
    database,
    `INSERT INTO settings (key, value) VALUES ('demo_budgets_seeded', 'skipped by bench:billing') ON CONFLICT DO NOTHING`,
  );
  const [facts] = await query<{ n: string }>(database, 'SELECT count(*)::text AS n FROM stats_hourly');
  if (Number(facts!.n) !== load.factRows)
    throw new Error(
      `${kind}: stats_hourly holds ${facts!.n} rows, the generator wrote ${load.factRows} (an earlier demo seed added some?): run without --keep`,
    );
  // The demo seed, as the server's start runs it (users, roles, the billing demo months): done
  // here so that the server started later changes no billing row.
  const t0 = Date.now();
  const config = loadConfig({ ...process.env, ...opened.env, SEED_DEMO: 'true', LOG_LEVEL: 'warn' });
  await withAdvisoryLock(database, 7263542, () => seed(database, config));
  log(`${kind}: demo seed checked in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const [admin] = await query<{ id: number }>(database, 'SELECT id FROM users WHERE mail = $1', [
    DEMO_MAILS.admin,
  ]);
  const adminId = Number(admin!.id);

  // DuckDB's counterparties (names, sides): this database's, as compute.ts joins them.
  for (const t of ['demand_partners', 'publishers']) {
    const rows = await query<{ id: number; name: string; side: string }>(
      database,
      `SELECT id, name, side FROM ${t} ORDER BY id`,
    );
    const name = t === 'demand_partners' ? 'partners' : 'publishers';
    await con.run(`CREATE OR REPLACE TABLE ${name} (id INTEGER, name VARCHAR, side VARCHAR)`);
    const appender = await con.createAppender(name);
    for (const r of rows) {
      appender.appendInteger(Number(r.id));
      appender.appendVarchar(r.name);
      appender.appendVarchar(r.side);
      appender.endRow();
    }
    appender.closeSync();
  }

  // 1. Compute. The month's SSP rows go first (the demo seed computed and approved them), so
  // that the first run inserts them and the next ones recompute open rows.
  await query(database, `DELETE FROM billing_rows WHERE side = 'ssp' AND month = $1`, [MONTH]);
  const duckBoth = async () => {
    await con.runAndReadAll(DUCK_SQL.advertiser);
    await con.runAndReadAll(DUCK_SQL.supply);
  };
  log(`${kind}: computing ${MONTH} (first run inserts)…`);
  const first = await timeOnce(() => computeMonth(database, 'ssp', MONTH!, adminId));
  const duckFirst = await timeOnce(duckBoth);
  log(
    `${kind}: first computeMonth ${fmtMs(first.ms)} ms ${JSON.stringify(first.value)}; DuckDB ${fmtMs(duckFirst.ms)} ms`,
  );
  for (const k of KINDS)
    if (
      first.value[k].inserted === 0 ||
      first.value[k].updated + first.value[k].kept + first.value[k].zeroed !== 0
    )
      throw new Error(
        `${kind}: the first computeMonth of ${MONTH} should only insert: ${JSON.stringify(first.value)}`,
      );

  const timings: ComputeTiming[] = [];
  const pair = async (name: string, ours: () => Promise<unknown>, duck: () => Promise<unknown>) => {
    log(`${kind}: timing ${name} (${WARMUP} warm-up + ${RUNS} runs, alternating with DuckDB)…`);
    const p = await timePairs(ours, duck, { runs: RUNS, warmup: WARMUP });
    timings.push({
      name,
      ours: p.a,
      duckdb: p.b,
      ratioP50: p.a.p50 / p.b.p50,
      ratioP95: p.a.p95 / p.b.p95,
      oursFaster: p.aFaster,
    });
  };
  let lastRecompute: Awaited<ReturnType<typeof computeMonth>> | null = null;
  await pair(
    'computeMonth (both kinds, upsert)',
    async () => (lastRecompute = await computeMonth(database, 'ssp', MONTH!, adminId)),
    duckBoth,
  );
  for (const k of KINDS) {
    await pair(
      `${k}: writeMonth (upsert)`,
      async () => {
        const sources = await monthSources(database, 'ssp', MONTH!);
        return transaction(database, (q) => writeMonth(q, 'ssp', k, MONTH!, adminId, sources));
      },
      () => con.runAndReadAll(DUCK_SQL[k]),
    );
    await pair(
      `${k}: SELECT only (computeLines)`,
      () => computeLines(database, 'ssp', k, MONTH!),
      () => con.runAndReadAll(DUCK_SQL[k]),
    );
  }
  for (const k of KINDS) {
    const r = lastRecompute![k];
    if (r.inserted !== 0 || r.zeroed !== 0 || r.kept !== 0 || r.updated !== first.value[k].inserted)
      throw new Error(
        `${kind}: a recompute of ${MONTH} should update every open row, no more: ${JSON.stringify(lastRecompute)}`,
      );
  }

  // The correctness check: our rows against DuckDB over the raw rows.
  const check: Record<string, KindCheck> = {};
  for (const k of KINDS) check[k] = compare(k, await ourLines(database, k), await duckLines(con, k));
  log(
    `${kind}: billing rows of ${MONTH} identical to DuckDB's answer over the raw rows (${JSON.stringify(check)})`,
  );

  // EXPLAIN (ANALYZE, BUFFERS) of both kinds' SELECT, then of each statement writeMonth runs
  // (executed: a recompute of the open rows, as the timed runs do). What a fix would look at.
  let explain = '';
  const plan = async (title: string, text: string, params: unknown[]) => {
    const rows = await query<Record<string, string>>(database, `EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
    explain += `-- ${kind}, ${title}, ${MONTH}\n${rows.map((r) => Object.values(r)[0]).join('\n')}\n\n`;
  };
  const sources = await monthSources(database, 'ssp', MONTH!);
  for (const k of KINDS)
    await plan(
      `ssp ${k}: computeSql (the SELECT)`,
      computeSql('ssp', k, sources),
      monthBounds('ssp', MONTH!),
    );
  for (const k of KINDS) {
    let n = 0;
    const explainQ = (async (text: string, params: unknown[] = []) => {
      await plan(`ssp ${k}: writeMonth statement ${++n}`, text, params);
      return [{ inserted: 0, updated: 0, kept: 0, zeroed: 0 }];
    }) as unknown as QueryFn;
    await writeMonth(explainQ, 'ssp', k, MONTH!, adminId, sources);
  }
  fs.writeFileSync(path.join(RESULTS, `billing-explain-${kind}.txt`), explain);
  // Rows of each rollup the month reads (its blocks), against the month's day rows.
  const rollupRows: { t: string; days: number; read: number; blocks: string }[] = [];
  for (const { table: t, segments } of Object.values(sources)) {
    const cover = segments
      .map(
        (s) =>
          `(lvl = ${s.lvl} AND ts >= '${new Date(s.fromMs).toISOString()}' AND ts < '${new Date(s.toMs).toISOString()}')`,
      )
      .join(' OR ');
    const [r] = await query<{ days: number; read: number }>(
      database,
      `SELECT (SELECT count(*) FROM ${t} WHERE lvl = 1 AND ts >= $1 AND ts < $2)::int AS days,
              (SELECT count(*) FROM ${t} WHERE ${cover})::int AS read`,
      monthBounds('ssp', MONTH!),
    );
    rollupRows.push({
      t,
      days: Number(r!.days),
      read: Number(r!.read),
      blocks: segments
        .map(
          (s) =>
            `L${s.lvl}:${new Date(s.fromMs).toISOString().slice(5, 10)}..${new Date(s.toMs).toISOString().slice(5, 10)}`,
        )
        .join(' '),
    });
  }

  // 2. Approve: the synthetic rows, then the server.
  const synthetic = await insertSyntheticRows(database, adminId);
  let dbSizeBytes: number | null = null;
  if (kind === 'postgres')
    dbSizeBytes = Number(
      (await query<{ n: string }>(database, 'SELECT pg_database_size(current_database())::text AS n'))[0]!.n,
    );
  await database.close();
  if (kind === 'pglite') dbSizeBytes = dirSize(dataDir);
  const approve = await approveOverHttp(opened.env);
  // Once each: the rows approved, one approve audit entry per row.
  opened = await openBenchDatabase(kind, where, true, log);
  database = opened.database;
  const [after] = await query<{ approved: number; v2: number }>(
    database,
    `SELECT count(*) FILTER (WHERE state = 'approved')::int AS approved, count(*) FILTER (WHERE state = 'approved' AND version = 2)::int AS v2
     FROM billing_rows WHERE id = ANY($1::int4[])`,
    [approve.ids],
  );
  const [audit] = await query<{ n: number; d: number }>(
    database,
    `SELECT count(*)::int AS n, count(DISTINCT entity_id)::int AS d FROM audit_log
     WHERE entity = 'billing_rows' AND action = 'billing_rows.approve' AND entity_id = ANY($1::text[])`,
    [approve.ids.map(String)],
  );
  await database.close();
  if (
    after!.approved !== APPROVE_ROWS ||
    after!.v2 !== APPROVE_ROWS ||
    audit!.n !== APPROVE_ROWS ||
    audit!.d !== APPROVE_ROWS
  )
    throw new Error(
      `APPROVE CHECK FAILED: ${after!.approved} rows approved (${after!.v2} at version 2), ${audit!.n} approve audit entries for ${audit!.d} rows`,
    );
  const { ids: _ids, ...approveFigures } = approve;

  return {
    database: kind,
    factRows: load.factRows,
    monthFactRows: duckMonthRows,
    loadSec: load.loadSec,
    rollupSec: load.rollupSec,
    dbSizeBytes,
    monthRollupRows: Object.fromEntries(
      rollupRows.map((r) => [r.t, { days: r.days, read: r.read, blocks: r.blocks }]),
    ),
    compute: {
      month: MONTH,
      rows: { advertiser: first.value.advertiser.inserted, supply: first.value.supply.inserted },
      first: { ms: first.ms, duckdbMs: duckFirst.ms, result: first.value },
      timings,
      check,
    },
    approve: {
      ...approveFigures,
      month: SYNTH_MONTH,
      benchPublishers: synthetic.benchPublishers,
      approvedRows: after!.approved,
      auditEntries: audit!.n,
      auditRowsDistinct: audit!.d,
    },
    loadAverageEnd: os.loadavg(),
  };
}

async function main() {
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.mkdirSync(TMP, { recursive: true });
  const loadAverageStart = os.loadavg();
  log(
    `billing bench: ${DAYS} days at scale ${SCALE} ending ${END}; month ${MONTH}; ${RUNS} runs; ${APPROVE_ROWS} rows to approve`,
  );
  const csv = path.join(TMP, `facts-${NAME}.csv`);
  log('DuckDB: writing the raw fact rows (same generator, same seed) to CSV…');
  const rows = await writeFactsCsv(csv, OPTS, KEEP);
  const duck = await loadFactsIntoDuckDb(csv);
  log(`DuckDB: ${rows.toLocaleString('en')} rows loaded in ${duck.loadSec.toFixed(1)} s`);
  const monthRows = Number(
    (
      await duck.con.runAndReadAll(`SELECT count(*) AS n FROM facts f WHERE ${duckRange}`)
    ).getRowObjectsJS()[0]!.n,
  );

  const machine = {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model,
    memoryGB: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    loadAverageStart: loadAverageStart.map((x) => Number(x.toFixed(2))),
  };
  const all: Record<string, unknown> = {};
  for (const kind of DBS) {
    const r = await benchDatabase(kind, duck.con, monthRows);
    const out = {
      date: new Date().toISOString(),
      machine,
      options: {
        ...OPTS,
        month: MONTH,
        runs: RUNS,
        warmup: WARMUP,
        approveRows: APPROVE_ROWS,
        pollMs: POLL_MS,
      },
      duckdb: { loadSec: duck.loadSec, rows },
      ...r,
    };
    all[kind] = out;
    fs.writeFileSync(path.join(RESULTS, `billing-${kind}.json`), `${JSON.stringify(out, null, 2)}\n`);

    console.log(
      `\nBilling on ${kind}: ${r.factRows.toLocaleString('en')} fact rows (${monthRows.toLocaleString('en')} in ${MONTH}); load ${r.loadSec?.toFixed(0) ?? 'reused'} s + rollups ${r.rollupSec?.toFixed(0) ?? '-'} s; database ${mb(r.dbSizeBytes)}`,
    );
    console.log(
      `Rows of ${MONTH}: ${r.compute.rows.advertiser} advertiser + ${r.compute.rows.supply} supply, from ${Object.entries(
        r.monthRollupRows,
      )
        .map(
          ([t, n]) =>
            `${t}: ${n.read.toLocaleString('en')} rows read (${n.blocks}) instead of ${n.days.toLocaleString('en')} day rows`,
        )
        .join(
          '; ',
        )}. First computeMonth (inserts) ${fmtMs(r.compute.first.ms)} ms; DuckDB's first ${fmtMs(r.compute.first.duckdbMs)} ms.`,
    );
    console.log(
      table(
        ['ms', 'ours p50', 'ours p95', 'DuckDB p50', 'DuckDB p95', 'ratio p50', 'ratio p95', 'ours first'],
        r.compute.timings.map((t) => [
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
      `Check: ${KINDS.map((k) => `${k} ${r.compute.check[k]!.rows} rows, ${r.compute.check[k]!.billedMicros} / ${r.compute.check[k]!.otherMicros} micros`).join('; ')}: identical to DuckDB's.`,
    );
    const a = r.approve;
    console.log(
      table(
        ['approve', 'value'],
        [
          ['rows approved (one run)', a.rows.toLocaleString('en')],
          ['listing them (GET rows, pages of 500)', `${a.listSec.toFixed(2)} s`],
          [`POST answered (${a.postStatus}, ${a.doneAtAnswer} done)`, `${a.postSec.toFixed(2)} s`],
          ['first progress', a.firstProgressSec === null ? '-' : `${a.firstProgressSec.toFixed(2)} s`],
          ['run done', `${a.totalSec.toFixed(2)} s`],
          ['progress seen (s: rows)', a.progress.map(([t, d]) => `${t.toFixed(1)}: ${d}`).join(', ')],
          ['same key again', `run ${a.sameKey.runId} (same), ${fmtMs(a.sameKey.ms)} ms`],
          [
            'new key',
            `${a.newKey.skipped} skipped (${Object.keys(a.newKey.reasons).join(', ')}) in ${a.newKey.totalSec.toFixed(2)} s`,
          ],
          [
            'approved rows / audit entries',
            `${a.approvedRows} / ${a.auditEntries} (${a.auditRowsDistinct} rows)`,
          ],
          [
            '/healthz during the run: p50 / slowest',
            `${fmtMs(a.healthzDuringRun.p50Ms)} / ${fmtMs(a.healthzDuringRun.maxMs)} ms (${a.healthzDuringRun.probes} asked)`,
          ],
          ['server RSS before / peak', `${mb(a.serverRssBefore)} / ${mb(a.serverRssPeak)}`],
        ],
      ),
    );
  }
  console.log(
    `\nDuckDB (in memory, ${os.cpus().length} threads) loaded ${rows.toLocaleString('en')} raw rows from CSV in ${duck.loadSec.toFixed(1)} s. Load average (1/5/15 min) at the end: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')}`,
  );

  // latest.json keeps what the other benches wrote; `billing` holds this run's databases (a run
  // on one database keeps the other's previous figures).
  const latestFile = path.join(RESULTS, 'latest.json');
  let latest: Record<string, unknown> = {};
  try {
    latest = JSON.parse(fs.readFileSync(latestFile, 'utf8')) as Record<string, unknown>;
  } catch {
    latest = {};
  }
  const previous = (latest.billing ?? {}) as Record<string, unknown>;
  latest.billing = { ...previous, date: new Date().toISOString(), ...all };
  fs.writeFileSync(latestFile, `${JSON.stringify(latest, null, 2)}\n`);
  log(`Wrote bench/results/billing-<db>.json and \`billing\` in bench/results/latest.json`);
}

main()
  .then(() => process.exit(0))
  .catch((err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  });
