/**
 * `npm run bench:overview` — the demand partners' overview API (issue 19) with 1,000 live partners
 * and a day of their QPS series (1,440,000 one-minute rows, their 15-minute rollup, 24 hourly
 * rollup rows each), on PGlite and on PostgreSQL.
 *
 * For each question (the default view by cap usage, sorted by revenue, only the warnings, a name
 * search, a deep page) the API through the app (`app.inject`: auth, validation, both statements,
 * serialisation, without the socket) and the same two statements in raw SQL with the same
 * parameters (the page, then its sparklines), alternated, so both see the same minutes of a
 * shared host. Prints p50 and p95 of each and the ratio API/raw. Figures are reported, never judged.
 *
 *   npm run bench:overview -- [--db pglite|postgres|both] [--partners 1000] [--runs 40]
 * Results: bench/results/overview-<db>.json.
 */
import { overviewQuerySchema } from '@backoffice/core/partner-overview';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../../apps/api/src/db/client.ts';
import { overviewParams, overviewSql, overviewWindows, SPARK_SQL } from '../../apps/api/src/modules/demand-partners/overview.ts';
import { query } from '../../apps/api/src/reports-data/sql.ts';
import { forEachDatabase } from './databases.ts';
import { benchApp, benchDatabase, option, pct, ROOT } from './harness.ts';

const PARTNERS = Number(option('partners', '1000'));
const RUNS = Number(option('runs', '40'));
const DB = option('db', 'both');
const WARM_UP = 15;
const HOUR = 3_600_000;
/** The end of the loaded day: the last whole hour (the API clamps "now" to it). */
const END = Math.floor(Date.now() / HOUR) * HOUR;

const QUESTIONS = [
  { name: 'default (cap usage, 50)', api: 'timezone=Europe/Madrid' },
  { name: 'sorted by revenue today', api: 'timezone=Europe/Madrid&sort=-revenue_today' },
  { name: 'only over 90% of the cap', api: 'timezone=Europe/Madrid&warning=true' },
  { name: 'name search', api: 'timezone=Europe/Madrid&search=partner%2012' },
  { name: 'page 10 of 50, by name', api: 'timezone=Europe/Madrid&sort=name&page=10' },
];

/** 1,000 live SSP partners and a day of traffic: one statement per table, generated in SQL. */
async function fill(database: Database): Promise<number> {
  const t = performance.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  await query(
    database,
    `INSERT INTO demand_partners (name, side, status, type, qps_cap)
     SELECT 'Bench partner ' || g, 'ssp', 'live', 'DSP', 500 + (g * 37) % 9500 FROM generate_series(1, $1::int) g`,
    [PARTNERS],
  );
  // Demand at 20%..109% of the cap by partner, ±5% over the day; capped requests (about one
  // partner in ten is over 90% of its cap at any hour).
  await query(
    database,
    `INSERT INTO qps_minute (ts, kind, entity_id, requests, cap_qps, bids, timeouts, errors, latency_p95_ms)
     SELECT m, 1, p.id, r, p.qps_cap, (r * 0.3)::int, (r * 0.02)::int, (r * 0.001)::int, 80 + p.id % 120
     FROM demand_partners p
     CROSS JOIN generate_series($1::timestamptz, $2::timestamptz, interval '1 minute') m
     CROSS JOIN LATERAL (SELECT least(p.qps_cap, p.qps_cap * (0.2 + ((p.id * 7919) % 90) / 100.0)
                         * (0.95 + 0.05 * sin(extract(epoch FROM m) / 7200.0)))::int * 60 AS r) x
     WHERE p.name LIKE 'Bench partner %'`,
    [iso(END - 24 * HOUR), iso(END - 60_000)],
  );
  await query(
    database,
    `INSERT INTO qps_15m (ts, kind, entity_id, minutes, requests, bids, timeouts, errors, cap_last, cap_max, latency_p95_ms)
     SELECT date_bin(interval '15 minutes', ts, timestamptz '1970-01-01'), kind, entity_id, count(*), sum(requests), sum(bids),
            sum(timeouts), sum(errors), max(cap_qps), max(cap_qps), max(latency_p95_ms)
     FROM qps_minute WHERE kind = 1 GROUP BY 1, 2, 3`,
  );
  await query(
    database,
    `INSERT INTO stats_r_partner (lvl, ts, demand_partner_id, ad_requests, bid_requests, bids, wins, impressions, clicks,
                                  timeouts, errors, revenue_micros, cost_micros)
     SELECT 0, h, p.id, q * 4, q * 3, q, q / 3, q / 4, q / 400, q / 50, q / 1000, (q / 4)::bigint * 1500, (q / 4)::bigint * 1150
     FROM demand_partners p
     CROSS JOIN generate_series($1::timestamptz, $2::timestamptz, interval '1 hour') h
     CROSS JOIN LATERAL (SELECT (p.qps_cap * 3600 * (0.3 + (p.id % 7) / 10.0))::bigint AS q) x
     WHERE p.name LIKE 'Bench partner %'`,
    [iso(END - 24 * HOUR), iso(END - HOUR)],
  );
  await query(
    database,
    `INSERT INTO stats_state (key, value, updated_at) VALUES ('dataset', $1, now())
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [JSON.stringify({ startMs: END - 24 * HOUR, endMs: END, factRows: 0 })],
  );
  await query(database, 'VACUUM ANALYZE');
  return performance.now() - t;
}

async function benchOne(kind: 'pglite' | 'postgres', databaseUrl: string | null) {
  const { database, config } = await benchDatabase(databaseUrl, 'bench-overview', true);
  const loadMs = await fill(database);
  const [counts] = await query<{ minutes: number; quarters: number; hours: number }>(
    database,
    `SELECT (SELECT count(*) FROM qps_minute)::int AS minutes, (SELECT count(*) FROM qps_15m)::int AS quarters, (SELECT count(*) FROM stats_r_partner)::int AS hours`,
  );
  const { app, headers } = await benchApp(config, database);

  const results = [];
  for (const q of QUESTIONS) {
    const parsed = overviewQuerySchema.parse(Object.fromEntries(new URLSearchParams(q.api)));
    const sort = parsed.sort.replace(/^-/, '') as Parameters<typeof overviewSql>[0];
    const sql = overviewSql(sort, parsed.sort.startsWith('-'));
    const api: number[] = [];
    const raw: number[] = [];
    let rows = 0;
    for (let i = 0; i < RUNS + WARM_UP; i++) {
      let t = performance.now();
      const res = await app.inject({ url: `/v1/partners/demand/overview?${q.api}`, headers });
      const apiMs = performance.now() - t;
      if (res.statusCode !== 200) throw new Error(`${q.name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      rows = (res.json() as { data: { rows: unknown[] } }).data.rows.length;
      t = performance.now();
      const win = overviewWindows(Date.now(), END, parsed.timezone);
      const page = await query<{ id: number }>(database, sql, overviewParams(parsed, win));
      if (page.length > 0) await query(database, SPARK_SQL, [page.map((r) => r.id), new Date(win.spark.from).toISOString(), new Date(win.spark.to).toISOString()]);
      const rawMs = performance.now() - t;
      if (i >= WARM_UP) {
        api.push(apiMs);
        raw.push(rawMs);
      }
    }
    api.sort((a, b) => a - b);
    raw.sort((a, b) => a - b);
    results.push({
      question: q.name,
      rows,
      api_p50: pct(api, 50),
      api_p95: pct(api, 95),
      raw_p50: pct(raw, 50),
      raw_p95: pct(raw, 95),
      ratio_p50: pct(api, 50) / pct(raw, 50),
      ratio_p95: pct(api, 95) / pct(raw, 95),
    });
  }
  await app.close();
  await database.close();
  return { kind, partners: PARTNERS, qps_minutes: counts!.minutes, qps_quarters: counts!.quarters, rollup_hours: counts!.hours, load_ms: loadMs, runs: RUNS, results };
}

async function main() {
  await forEachDatabase(DB, 'bo_bench_overview', async (kind, url) => {
    const r = await benchOne(kind, url);
    console.log(
      `\nPartners overview API on ${kind}: ${r.partners.toLocaleString('en')} live partners, ${r.qps_minutes.toLocaleString('en')} QPS minutes, ` +
        `${r.qps_quarters.toLocaleString('en')} quarter hours, ${r.rollup_hours.toLocaleString('en')} rollup hours (loaded in ${(r.load_ms / 1000).toFixed(1)} s), ${r.runs} runs each`,
    );
    console.log('question                      rows  API p50  API p95  raw p50  raw p95  ratio p50  ratio p95');
    for (const x of r.results) {
      const ms = (v: number) => `${v.toFixed(1)} ms`.padStart(8);
      console.log(`${x.question.padEnd(28)} ${String(x.rows).padStart(5)} ${ms(x.api_p50)} ${ms(x.api_p95)} ${ms(x.raw_p50)} ${ms(x.raw_p95)} ${x.ratio_p50.toFixed(2).padStart(9)} ${x.ratio_p95.toFixed(2).padStart(10)}`);
    }
    fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'bench', 'results', `overview-${kind}.json`), JSON.stringify(r, null, 2));
  });
}

await main();
process.exit(0);
