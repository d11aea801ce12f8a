/**
 * `npm run bench:discrepancy` — the discrepancy benchmark of issue 24 ("A discrepancy run over 500
 * networks x 31 days: time"), on PGlite and/or PostgreSQL, through the HTTP API (inject) of the
 * real app: --networks performance advertisers with two products each for a 31-day month in
 * `performance_daily` and their billing rows computed; then, --runs times: the request with the
 * partners' CSV (networks x 31 lines: parsed, checked line by line, stored), the run (the job's
 * handler: our figures per day with billing's SQL, compared and written day by day), accepting
 * theirs for every flagged row in one bulk decision, and applying to the billing rows. Checked:
 * networks x 31 rows, the flagged count the CSV was built with, every partner applied. Figures are
 * reported, never judged. Results: bench/results/discrepancy-<db>.json.
 *
 *   npm run bench:discrepancy -- [--db pglite|postgres|both] [--networks 500] [--runs 3]
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DiscrepancyRequestDto } from '@backoffice/core/discrepancy';
import { query } from '../../apps/api/src/reports-data/sql.ts';
import { runDiscrepancy } from '../../apps/api/src/modules/discrepancy/service.ts';
import { forEachDatabase } from '../resources/databases.ts';
import { benchApp, benchDatabase, option, ROOT, stats } from '../resources/harness.ts';

const NETWORKS = Number(option('networks', '500'));
const RUNS = Number(option('runs', '3'));
const DB = option('db', 'both');
const results: Record<string, unknown> = {};
const sec = (ms: number) => Number((ms / 1000).toFixed(3));

// The month before the current one, requested for its last day (always within one month of today).
const now = new Date();
const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
const MONTH = first.toISOString().slice(0, 7);
const DAYS = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).getUTCDate();
const LAST = `${MONTH}-${String(DAYS).padStart(2, '0')}`;

await forEachDatabase(DB, 'bench_discrepancy', async (kind, url) => {
  const { database, config } = await benchDatabase(url, 'bench-discrepancy', true);
  const ids = (
    await query<{ id: number }>(
      database,
      `INSERT INTO demand_partners (name, side, type) SELECT 'Bench Advertiser ' || g, 'performance', 'network' FROM generate_series(1, $1::int) g RETURNING id`,
      [NETWORKS],
    )
  ).map((r) => Number(r.id));
  const [pub] = await query<{ id: number }>(database, `INSERT INTO publishers (name, side, seller_id, min_payout, payment_terms) VALUES ('Bench Publisher', 'performance', 'bench-perf-1', 50, 'net30') RETURNING id`);
  await query(
    database,
    `INSERT INTO performance_daily (day, advertiser_id, publisher_id, product, impressions, clicks, conversions, revenue_micros, cost_micros)
     SELECT d::date, a, $2, p, 10000 + a % 977, 100, 2, (40 + a % 13) * 1000000::int8, (20 + a % 7) * 1000000::int8
     FROM generate_series($3::date, $4::date, '1 day') d, unnest($1::int4[]) a, unnest(ARRAY['cpc', 'cpm']) p`,
    [ids, pub!.id, `${MONTH}-01`, LAST],
  );
  const { app, headers } = await benchApp(config, database);
  const computed = await app.inject({ method: 'POST', url: '/v1/billing/performance/compute', headers, payload: { month: MONTH } });
  if (computed.statusCode !== 200) throw new Error(`${kind}: compute ${computed.statusCode} ${computed.body.slice(0, 300)}`);
  // Theirs = ours, except one day in 31 per partner 20 % under: NETWORKS flagged rows.
  const lines = ['date;network;impressions;revenue'];
  for (const a of ids)
    for (let d = 1; d <= DAYS; d++) {
      const ours = 2 * (40 + (a % 13));
      lines.push(`${MONTH}-${String(d).padStart(2, '0')};${a};${2 * (10000 + (a % 977))};${d === 1 + (a % DAYS) ? (ours * 0.8).toFixed(2).replace('.', ',') : ours}`);
    }
  const csv = lines.join('\n');
  const timings = { request: [] as number[], run: [] as number[], decide: [] as number[], apply: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    let t = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/v1/discrepancy/requests',
      headers,
      payload: { date: LAST, network_ids: ids, source: 'csv', csv: { file_name: 'bench.csv', text: csv }, idempotency_key: `bench-disc-${kind}-${run}-${Date.now()}` },
    });
    timings.request.push(performance.now() - t);
    if (res.statusCode !== 201) throw new Error(`${kind}: request ${res.statusCode} ${res.body.slice(0, 300)}`);
    const id = (res.json() as { data: DiscrepancyRequestDto }).data.id;
    t = performance.now();
    await runDiscrepancy(database, id);
    timings.run.push(performance.now() - t);
    const req = (await app.inject({ url: `/v1/discrepancy/requests/${id}`, headers })).json() as { data: DiscrepancyRequestDto };
    if (req.data.counts.rows !== NETWORKS * DAYS || req.data.counts.flagged !== NETWORKS) throw new Error(`${kind}: ${JSON.stringify(req.data.counts)}`);
    const flagged = await query<{ id: number; version: number }>(database, `SELECT id, version FROM discrepancy_rows WHERE request_id = $1 AND flagged ORDER BY id`, [id]);
    t = performance.now();
    const decided = await app.inject({ method: 'POST', url: `/v1/discrepancy/requests/${id}/decisions`, headers, payload: { rows: flagged, decision: 'theirs' } });
    timings.decide.push(performance.now() - t);
    if (decided.statusCode !== 200) throw new Error(`${kind}: decide ${decided.statusCode} ${decided.body.slice(0, 300)}`);
    const version = (decided.json() as { data: { request: DiscrepancyRequestDto } }).data.request.version;
    t = performance.now();
    const applied = await app.inject({ method: 'POST', url: `/v1/discrepancy/requests/${id}/apply`, headers, payload: { version } });
    timings.apply.push(performance.now() - t);
    const out = (applied.json() as { data: { request: DiscrepancyRequestDto } }).data.request;
    if (out.apply_result?.filter((o) => o.ok).length !== NETWORKS) throw new Error(`${kind}: applied ${out.apply_result?.filter((o) => o.ok).length} of ${NETWORKS}`);
  }
  await app.close();
  await database.close();
  const p50 = (xs: number[]) => sec(stats(xs).p50);
  results[kind] = { networks: NETWORKS, days: DAYS, runs: RUNS, request_s: p50(timings.request), run_s: p50(timings.run), decide_s: p50(timings.decide), apply_s: p50(timings.apply) };
  console.log(
    `${kind}: ${NETWORKS} networks x ${DAYS} days — request (CSV of ${NETWORKS * DAYS} lines) ${p50(timings.request)} s, run ${p50(timings.run)} s, decide ${NETWORKS} rows ${p50(timings.decide)} s, apply ${p50(timings.apply)} s (p50 of ${RUNS})`,
  );
  const file = path.join(ROOT, 'bench', 'results', `discrepancy-${kind}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), ...(results[kind] as object) }, null, 2));
});
