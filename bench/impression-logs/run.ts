/**
 * `npm run bench:impression-logs` — the impression-log benchmark of issue 24 ("An impression-log
 * extract of one million rows: time and the server's peak memory (flat), on PGlite and
 * PostgreSQL"). A small warehouse gives the dimensions (publishers, sites, ad units, deals); then
 * --rows impression rows of one (day, network) are written with one generate_series statement and
 * marked sampled; a request is made through the HTTP API (inject) and the extract job's work runs
 * (service.runExtract: keyset pages, CSV, gzip, storage adapter, progress per page). Measured: the
 * time, and the process's RSS sampled every 50 ms during the run, reported as the peak and at each
 * quarter of the rows (flat: it must not grow with the rows). Checked: the file decompresses to
 * rows + 1 lines. Results: bench/results/impression-logs-<db>.json.
 *
 *   npm run bench:impression-logs -- [--db pglite|postgres|both] [--rows 1000000] [--page 5000]
 */
import { DEFAULT_IMPRESSION_LOG_COLUMNS, type ImpressionLogRequest } from '@backoffice/core/impression-logs';
import { FORMATS } from '@backoffice/core/reports';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createGunzip } from 'node:zlib';
import { storageOf } from '../../apps/api/src/lib/storage.ts';
import { runExtract, storageKeyOf } from '../../apps/api/src/modules/impression-logs/service.ts';
import { loadTestDataset } from '../../apps/api/src/reports-data/index.ts';
import { query } from '../../apps/api/src/reports-data/sql.ts';
import { forEachDatabase } from '../resources/databases.ts';
import { benchApp, benchDatabase, option, ROOT } from '../resources/harness.ts';

const ROWS = Number(option('rows', '1000000'));
const PAGE = Number(option('page', '5000'));
const DB = option('db', 'both');
const DAY = '2025-06-10';
const END = Date.UTC(2025, 5, 12, 0);
const mb = (bytes: number) => Number((bytes / 1048576).toFixed(1));

await forEachDatabase(DB, 'bench_impression_logs', async (kind, url) => {
  const { database, config } = await benchDatabase(url, 'bench-impression-logs', true);
  const storageDir = path.join(ROOT, '.tmp', 'bench-impression-logs', `storage-${kind}`);
  fs.rmSync(storageDir, { recursive: true, force: true });
  const cfg = { ...config, storageDir };
  await loadTestDataset(database, { endMs: END, days: 3, scale: 0.2, qpsDays: 0, seed: 3 });
  const [net] = await query<{ id: number; name: string }>(database, `SELECT id, name FROM demand_partners ORDER BY id LIMIT 1`);
  let t = performance.now();
  // One million impressions of that day: dimensions picked from the warehouse's own by hashing.
  await query(
    database,
    `WITH u AS (SELECT array_agg(a.id ORDER BY a.id) AS units, array_agg(s.id ORDER BY a.id) AS sites, array_agg(s.publisher_id ORDER BY a.id) AS pubs,
                       array_agg(a.format_id ORDER BY a.id) AS fmts, array_agg(a.size_id ORDER BY a.id) AS sizes, array_agg(s.environment_id ORDER BY a.id) AS envs
                  FROM ad_units a JOIN sites s ON s.id = a.site_id),
          d AS (SELECT COALESCE(array_agg(id ORDER BY id), ARRAY[]::int[]) AS deals FROM deals WHERE demand_partner_id = $2)
     INSERT INTO impression_log_rows (log_date, demand_partner_id, seq, ts, publisher_id, site_id, ad_unit_id, deal_id, country_id, device_id, os_id,
                                      format_id, size_id, environment_id, bid_micros, win_micros)
     SELECT $1::date, $2, g, $1::date::timestamptz + make_interval(secs => g * 86400.0 / $3),
            u.pubs[k], u.sites[k], u.units[k],
            CASE WHEN g % 7 = 0 AND cardinality(d.deals) > 0 THEN d.deals[1 + g % cardinality(d.deals)] ELSE 0 END,
            1 + (g * 31) % 40, 1 + (g * 7) % 4, 1 + (g * 11) % 9, u.fmts[k], u.sizes[k], u.envs[k],
            w + (w / 10), w
       FROM generate_series(1, $3::int) AS g, u, d,
            LATERAL (SELECT 1 + (g * 2654435761::bigint % cardinality(u.units))::int AS k, (200000 + (g::bigint * 7919) % 3000000) / 100 * 100 AS w) x`,
    [DAY, net!.id, ROWS],
  );
  await query(database, `INSERT INTO impression_log_samples (log_date, demand_partner_id, rows, complete) VALUES ($1, $2, $3, true)`, [DAY, net!.id, ROWS]);
  const loadS = (performance.now() - t) / 1000;
  const { app, headers } = await benchApp(cfg, database);
  app.ctx.now = () => Date.parse('2025-06-12T10:00:00Z');
  const res = await app.inject({
    method: 'POST',
    url: '/v1/impressions-log',
    headers,
    payload: { date: DAY, network_id: net!.id, columns: [...DEFAULT_IMPRESSION_LOG_COLUMNS], filters: [{ field: 'format', values: [...FORMATS] }] },
  });
  if (res.statusCode !== 200) throw new Error(`${kind}: request: ${res.statusCode} ${res.body}`);
  const req = (res.json() as { data: ImpressionLogRequest }).data;

  global.gc?.();
  const startRss = process.memoryUsage().rss;
  const samples: { at: number; rss: number; rows: number }[] = [];
  let rowsNow = 0;
  const progress = setInterval(() => {
    void query<{ n: number }>(database, `SELECT rows_done::int AS n FROM impression_log_requests WHERE id = $1`, [req.id]).then(([r]) => (rowsNow = r?.n ?? rowsNow)).catch(() => undefined);
  }, 500);
  const sampler = setInterval(() => samples.push({ at: performance.now(), rss: process.memoryUsage().rss, rows: rowsNow }), 50);
  t = performance.now();
  const out = await runExtract(app.ctx, { id: req.id, attempt: 1 }, { pageRows: PAGE });
  const seconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  clearInterval(progress);
  if (out.status !== 'done') throw new Error(`${kind}: extract ${out.status}: ${out.error}`);
  if (out.rows !== ROWS) throw new Error(`${kind}: ${out.rows} rows for ${ROWS}`);

  // The file: rows + 1 lines once decompressed (streamed, so the check itself stays small).
  let lines = 0;
  const rl = readline.createInterface({ input: (await storageOf(cfg).get(storageKeyOf(req.id))).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const _line of rl) lines++;
  if (lines !== ROWS + 1) throw new Error(`${kind}: ${lines} lines in the file for ${ROWS} rows`);

  const peak = Math.max(...samples.map((s) => s.rss));
  const quarter = (q: number) => {
    // The first sample once that share of the rows was written (the last sample for the end).
    const s = q === 4 ? samples.slice(-1) : samples.filter((x) => x.rows >= (ROWS * q) / 4);
    return s.length > 0 ? mb(s[0]!.rss) : null;
  };
  const result = {
    rows: ROWS,
    page_rows: PAGE,
    load_rows_s: Number(loadS.toFixed(1)),
    extract_s: Number(seconds.toFixed(1)),
    rows_per_s: Math.round(ROWS / seconds),
    file_mb: mb(out.bytes ?? 0),
    rss_start_mb: mb(startRss),
    rss_peak_mb: mb(peak),
    rss_at_quarters_mb: [quarter(1), quarter(2), quarter(3), quarter(4)],
    samples: samples.length,
  };
  console.log(
    `${kind}: ${ROWS.toLocaleString('en')} rows (pages of ${PAGE}) in ${result.extract_s} s (${result.rows_per_s.toLocaleString('en')} rows/s), gzip ${result.file_mb} MB; ` +
      `RSS ${result.rss_start_mb} MB at the start, peak ${result.rss_peak_mb} MB; at 25/50/75/100 % of the rows: ${result.rss_at_quarters_mb.join(' / ')} MB (loading the rows took ${result.load_rows_s} s)`,
  );
  await app.close();
  await database.close();
  const file = path.join(ROOT, 'bench', 'results', `impression-logs-${kind}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), ...result }, null, 2));
  fs.rmSync(storageDir, { recursive: true, force: true });
});
