/**
 * `npm run bench:sellers` — the public /sellers.json with 50,000 sellers (issue 19), on PGlite and
 * on PostgreSQL: the time to build the document (query, core's builder, serialisation), its size
 * raw and gzip, and the response time through the app (`app.inject`, without the socket) uncached
 * (the first request after a publisher changed), cached (the same document again, gzip asked for)
 * and revalidated (If-None-Match: 304). Figures are reported, never judged.
 *
 *   npm run bench:sellers -- [--db pglite|postgres|both] [--sellers 50000] [--runs 20]
 * Results: bench/results/sellers-json-<db>.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildApp } from '../../apps/api/src/app.ts';
import { sellersJsonOf } from '../../apps/api/src/modules/publishers/routes.ts';
import { query } from '../../apps/api/src/reports-data/sql.ts';
import { forEachDatabase } from './databases.ts';
import { benchDatabase, option, ROOT, stats } from './harness.ts';

const SELLERS = Number(option('sellers', '50000'));
const RUNS = Number(option('runs', '20'));
const DB = option('db', 'both');

async function benchOne(kind: 'pglite' | 'postgres', databaseUrl: string | null) {
  const { database, config } = await benchDatabase(databaseUrl, 'bench-sellers', true);
  // Publishers as an exchange has them: most plain publishers, some intermediaries and "both",
  // one in twenty confidential.
  let t = performance.now();
  await query(
    database,
    `INSERT INTO publishers (name, side, status, seller_id, seller_type, seller_domain, is_confidential)
     SELECT 'Publisher ' || g || ' Media', 'ssp', 'live', 'pub-' || lpad(g::text, 6, '0'),
            (ARRAY['PUBLISHER','PUBLISHER','PUBLISHER','PUBLISHER','PUBLISHER','PUBLISHER','PUBLISHER','INTERMEDIARY','BOTH','PUBLISHER'])[g % 10 + 1],
            'site' || g || '.example', g % 20 = 0
     FROM generate_series(1, $1::int) AS g`,
    [SELLERS],
  );
  await query(database, 'analyze publishers');
  const loadMs = performance.now() - t;

  const app = await buildApp(config, { database, keepDatabase: true, skipPrepare: true });
  await app.ready();

  const build: number[] = [];
  let body = '';
  for (let i = 0; i < RUNS + 3; i++) {
    t = performance.now();
    body = await sellersJsonOf(app.ctx);
    if (i >= 3) build.push(performance.now() - t);
  }
  const gzipBytes = gzipSync(body).length;

  const uncached: number[] = [];
  const cached: number[] = [];
  const revalidated: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    // A publisher changes: the next request builds the document again.
    await query(database, 'UPDATE publishers SET updated_at = now() WHERE id = (SELECT min(id) FROM publishers)');
    t = performance.now();
    const first = await app.inject({ url: '/sellers.json', headers: { 'accept-encoding': 'gzip' } });
    const u = performance.now() - t;
    if (first.statusCode !== 200) throw new Error(`sellers.json: ${first.statusCode}`);
    t = performance.now();
    const again = await app.inject({ url: '/sellers.json', headers: { 'accept-encoding': 'gzip' } });
    const c = performance.now() - t;
    t = performance.now();
    const not = await app.inject({ url: '/sellers.json', headers: { 'if-none-match': String(again.headers.etag) } });
    const r = performance.now() - t;
    if (not.statusCode !== 304) throw new Error(`sellers.json revalidation: ${not.statusCode}`);
    if (i >= 3) {
      uncached.push(u);
      cached.push(c);
      revalidated.push(r);
    }
  }
  await app.close();
  await database.close();
  return {
    kind,
    sellers: SELLERS,
    load_ms: loadMs,
    runs: RUNS,
    bytes: Buffer.byteLength(body),
    gzip_bytes: gzipBytes,
    build_ms: stats(build),
    uncached_ms: stats(uncached),
    cached_ms: stats(cached),
    revalidated_ms: stats(revalidated),
  };
}

async function main() {
  await forEachDatabase(DB, 'bo_bench_sellers', async (kind, url) => {
    const r = await benchOne(kind, url);
    const ms = (x: { p50: number; p95: number }) => `${x.p50.toFixed(1)} / ${x.p95.toFixed(1)} ms`;
    console.log(`\n/sellers.json on ${kind}: ${r.sellers.toLocaleString('en')} sellers (inserted in ${(r.load_ms / 1000).toFixed(1)} s), ${r.runs} runs, p50 / p95`);
    console.log(`  size                     ${(r.bytes / 1024 / 1024).toFixed(2)} MB raw, ${(r.gzip_bytes / 1024).toFixed(0)} KB gzip`);
    console.log(`  build (query + builder)  ${ms(r.build_ms)}`);
    console.log(`  response, uncached       ${ms(r.uncached_ms)}`);
    console.log(`  response, cached (gzip)  ${ms(r.cached_ms)}`);
    console.log(`  response, 304            ${ms(r.revalidated_ms)}`);
    fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'bench', 'results', `sellers-json-${kind}.json`), JSON.stringify(r, null, 2));
  });
}

await main();
process.exit(0);
