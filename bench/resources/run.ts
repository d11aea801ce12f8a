/**
 * `npm run bench:resources` (also part of `npm run bench`) — the resource layer's list API at
 * 100,000 companies (issue 18), on PGlite and on PostgreSQL.
 *
 * For each page: the first page, a filtered page (legal name contains), a sorted page (by city,
 * descending) and a deep page (page 2,000 of 25), the list API through the app (`app.inject`: the
 * whole route with auth, parsing, both queries and serialisation, without the socket) and the
 * same two statements (the page and its count) in raw SQL on the same database, alternated, so
 * both see the same minutes of a shared host. Prints p50 and p95 of each and the ratio API/raw
 * (target: at most 1.5, and p95 under 50 ms on PostgreSQL). Figures are reported, never judged.
 *
 *   npm run bench:resources -- [--db pglite|postgres|both] [--rows 100000] [--runs 40]
 * Results: bench/results/resources-<db>.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../../apps/api/src/db/client.ts';
import { generateCompanies } from '../../apps/api/src/db/generated-companies.ts';
import { query } from '../../apps/api/src/reports-data/sql.ts';
import { forEachDatabase } from './databases.ts';
import { benchApp, benchDatabase, option, pct, ROOT } from './harness.ts';

const ROWS = Number(option('rows', '100000'));
const RUNS = Number(option('runs', '40'));
const DB = option('db', 'both');
/**
 * Untimed runs before each question's timed ones. The first question also warms the whole
 * request path (JIT): with 3, its p95 on PGlite carried compilation pauses (about 2x its p50).
 */
const WARM_UP = 15;

const COLUMNS = 'id, legal_name, trade_name, country, tax_id, address, city, postal_code, billing_email, iban, currency, version, created_at, updated_at';

/** The questions: the API's query string, and the raw SQL of its page and of its count. */
const QUESTIONS = [
  {
    name: 'first page',
    api: 'page_size=25',
    page: `select ${COLUMNS} from companies order by legal_name asc, id asc limit 25`,
    count: 'select count(*) from companies',
  },
  {
    name: 'filtered (name contains)',
    api: 'page_size=25&f[legal_name]=levante',
    page: `select ${COLUMNS} from companies where legal_name ilike '%levante%' order by legal_name asc, id asc limit 25`,
    count: `select count(*) from companies where legal_name ilike '%levante%'`,
  },
  {
    name: 'sorted (city, descending)',
    api: 'page_size=25&sort=-city',
    page: `select ${COLUMNS} from companies order by city desc, id desc limit 25`,
    count: 'select count(*) from companies',
  },
  {
    name: 'deep page (2,000 of 25)',
    api: 'page_size=25&page=2000',
    page: `select ${COLUMNS} from companies order by legal_name asc, id asc limit 25 offset 49975`,
    count: 'select count(*) from companies',
  },
];

/**
 * Fills the table with generated companies (the same generator as `npm run data:generate --
 * --companies N`: realistic names, valid tax ids and IBANs), batched multi-row INSERTs.
 */
async function fill(database: Database, rows: number): Promise<number> {
  // The bench's kept PGlite folder may still hold the rows of the generator used before (tax ids
  // BENCH1, BENCH2…, one INSERT … SELECT from generate_series): those give way to the shared one.
  await query(database, "delete from companies where tax_id like 'BENCH%' and created_by is null");
  const result = await generateCompanies(database, { target: rows });
  return result.inserted > 0 ? result.ms : 0;
}

async function benchOne(kind: 'pglite' | 'postgres', databaseUrl: string | null) {
  const { database, config } = await benchDatabase(databaseUrl, 'bench-resources', false);
  const loadMs = await fill(database, ROWS);
  const { app, headers } = await benchApp(config, database);

  const results = [];
  for (const q of QUESTIONS) {
    const api: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < RUNS + WARM_UP; i++) {
      let t = performance.now();
      const res = await app.inject({ url: `/v1/companies?${q.api}`, headers });
      const apiMs = performance.now() - t;
      if (res.statusCode !== 200) throw new Error(`${q.name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      t = performance.now();
      await Promise.all([query(database, q.page), query(database, q.count)]);
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
  return { kind, rows: ROWS, load_ms: loadMs, runs: RUNS, results };
}

async function main() {
  await forEachDatabase(DB, 'bo_bench_resources', async (kind, url) => {
    const r = await benchOne(kind, url);
    console.log(`\nResource list API on ${kind}: ${r.rows.toLocaleString('en')} companies (${r.load_ms ? `generated in ${(r.load_ms / 1000).toFixed(1)} s` : 'already there'}), ${r.runs} runs each`);
    console.log('question                      API p50  API p95  raw p50  raw p95  ratio p50  ratio p95');
    for (const x of r.results) {
      const ms = (v: number) => `${v.toFixed(1)} ms`.padStart(8);
      console.log(`${x.question.padEnd(28)} ${ms(x.api_p50)} ${ms(x.api_p95)} ${ms(x.raw_p50)} ${ms(x.raw_p95)} ${x.ratio_p50.toFixed(2).padStart(9)} ${x.ratio_p95.toFixed(2).padStart(10)}`);
    }
    fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'bench', 'results', `resources-${kind}.json`), JSON.stringify(r, null, 2));
  });
}

await main();
process.exit(0);
