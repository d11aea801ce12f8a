/**
 * `npm run bench:floors-import` — the floors API at 100,000 rules (issue 20), on PGlite and on
 * PostgreSQL, through the HTTP API (inject) of the real app:
 *   1. the CSV import of 100,000 rules into an empty set: preview, then apply (one version);
 *   2. the same file with 1% of the CPMs changed: preview, then apply (1,000 changes);
 *   3. the tester (POST /v1/floors/test): the first answer after a new version (reads the set and
 *      builds the index) and the p50 / p95 of the next ones (the index cached per version);
 *   4. a comparison of the two versions and the first page of the rules list.
 * Figures are reported, never judged. Results: bench/results/floors-import-<db>.json.
 *
 *   npm run bench:floors-import -- [--db pglite|postgres|both] [--rules 100000] [--tests 300]
 */
import fs from 'node:fs';
import path from 'node:path';
import { FLOOR_KEYS, type FloorKey } from '@backoffice/core/floors';
import { FLOOR_CSV_COLUMNS } from '@backoffice/core/floors-input';
import { COUNTRIES, DEVICES, FORMATS, SIZES } from '@backoffice/core/reports';
import type { Database } from '../../apps/api/src/db/client.ts';
import { query } from '../../apps/api/src/reports-data/sql.ts';
import { forEachDatabase } from '../resources/databases.ts';
import { benchApp, benchDatabase, option, ROOT, stats } from '../resources/harness.ts';

const RULES = Number(option('rules', '100000'));
const TESTS = Number(option('tests', '300'));
const DB = option('db', 'both');
const PUBLISHERS = 2000;
const PARTNERS = 40;

let seed = 2026;
const rand = (n: number) => (seed = (seed * 48271) % 2147483647) % n;

/** Realistic cardinalities and how often a rule names each key (the rest are `*`). */
const NAMED: Record<FloorKey, number> = { publisher: 0.7, site: 0.3, ad_unit: 0.15, country: 0.5, device: 0.3, media_type: 0.4, size: 0.3, demand_partner: 0.2, deal: 0.05 };

function valueOf(k: FloorKey, pubIds: number[], partnerIds: number[]): string {
  switch (k) {
    case 'publisher':
      return String(pubIds[rand(pubIds.length)]);
    case 'demand_partner':
      return String(partnerIds[rand(partnerIds.length)]);
    case 'site':
      return `site-${rand(8000)}.example`;
    case 'ad_unit':
      return `unit-${rand(20000)}`;
    case 'country':
      return COUNTRIES[rand(COUNTRIES.length)]!;
    case 'device':
      return DEVICES[rand(DEVICES.length)]!;
    case 'media_type':
      return FORMATS[rand(FORMATS.length)]!;
    case 'size':
      return SIZES[rand(SIZES.length - 1)]!;
    case 'deal':
      return `deal-${rand(300)}`;
  }
}

interface Rule {
  keys: Record<FloorKey, string>;
  cpm: string;
}

function makeRules(pubIds: number[], partnerIds: number[]): Rule[] {
  const rules: Rule[] = [];
  const seen = new Set<string>();
  while (rules.length < RULES) {
    const keys = Object.fromEntries(FLOOR_KEYS.map((k) => [k, rand(1000) < NAMED[k] * 1000 ? valueOf(k, pubIds, partnerIds) : '*'])) as Record<FloorKey, string>;
    const s = FLOOR_KEYS.map((k) => keys[k].toLowerCase()).join('|');
    if (seen.has(s)) continue;
    seen.add(s);
    rules.push({ keys, cpm: (rand(500) / 100 + 0.01).toFixed(2) });
  }
  return rules;
}

const csvOf = (rules: Rule[]) =>
  `${FLOOR_CSV_COLUMNS.join(',')}\r\n${rules
    .map((r) => FLOOR_CSV_COLUMNS.map((c) => (c === 'cpm' ? r.cpm : c === 'currency' ? 'USD' : c === 'type' ? 'hard' : c.endsWith('_name') ? '' : r.keys[c as FloorKey])).join(','))
    .join('\r\n')}\r\n`;

async function entities(database: Database): Promise<{ pubIds: number[]; partnerIds: number[] }> {
  await query(database, `INSERT INTO publishers (name, seller_id) SELECT 'Bench publisher ' || g, 'bench-floors-' || g FROM generate_series(1, ${PUBLISHERS}) g ON CONFLICT DO NOTHING`);
  await query(database, `INSERT INTO demand_partners (name) SELECT 'Bench partner ' || g FROM generate_series(1, ${PARTNERS}) g`);
  const pubs = await query<{ id: number }>(database, "SELECT id FROM publishers WHERE name LIKE 'Bench publisher %' ORDER BY id");
  const partners = await query<{ id: number }>(database, "SELECT id FROM demand_partners WHERE name LIKE 'Bench partner %' ORDER BY id");
  return { pubIds: pubs.map((p) => Number(p.id)), partnerIds: partners.map((p) => Number(p.id)) };
}

const ms = (start: number) => Math.round(performance.now() - start);

await forEachDatabase(DB, 'bench_floors', async (kind, url) => {
  const { database, config } = await benchDatabase(url, 'bench-floors', true);
  const { app, headers } = await benchApp(config, database);
  const { pubIds, partnerIds } = await entities(database);
  const rules = makeRules(pubIds, partnerIds);
  const csv = csvOf(rules);
  const post = async (url: string, payload: object) => {
    const res = await app.inject({ method: 'POST', url, payload, headers });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res.json() as { data: Record<string, unknown> };
  };
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res.json() as { data: Record<string, unknown> };
  };

  console.log(`\n${kind}: ${RULES.toLocaleString('en')} rules, CSV of ${(csv.length / 1e6).toFixed(1)} MB`);
  let t = performance.now();
  const preview1 = await post('/v1/floors/import/preview', { csv });
  const preview1Ms = ms(t);
  if (preview1.data.error_count !== 0) throw new Error(`bad rows: ${JSON.stringify(preview1.data.errors).slice(0, 400)}`);
  t = performance.now();
  const applied1 = await post('/v1/floors/import/apply', { csv, base_version: preview1.data.base_version, comment: 'bench' });
  const apply1Ms = ms(t);
  console.log(`  import of ${RULES} new rules: preview ${preview1Ms} ms, apply ${apply1Ms} ms (${JSON.stringify(applied1.data)})`);

  // 1% of the CPMs change.
  const changed = rules.map((r, i) => (i % 100 === 0 ? { ...r, cpm: (Number(r.cpm) + 0.5).toFixed(2) } : r));
  const csv2 = csvOf(changed);
  t = performance.now();
  const preview2 = await post('/v1/floors/import/preview', { csv: csv2 });
  const preview2Ms = ms(t);
  t = performance.now();
  const applied2 = await post('/v1/floors/import/apply', { csv: csv2, base_version: preview2.data.base_version, comment: 'bench 1%' });
  const apply2Ms = ms(t);
  console.log(`  1% changed: preview ${preview2Ms} ms (${JSON.stringify(preview2.data.diff)}), apply ${apply2Ms} ms (version ${String(applied2.data.version)})`);

  // The tester: the first call reads the set and builds the index; the next ones use it.
  const requests = Array.from({ length: TESTS }, () => {
    const base = rules[rand(rules.length)]!.keys;
    return Object.fromEntries(FLOOR_KEYS.map((k) => [k, base[k] !== '*' ? base[k] : valueOf(k, pubIds, partnerIds)]));
  });
  t = performance.now();
  await post('/v1/floors/test', requests[0]!);
  const firstTestMs = ms(t);
  const times: number[] = [];
  let matched = 0;
  for (const r of requests) {
    const s = performance.now();
    const answer = await post('/v1/floors/test', r);
    times.push(performance.now() - s);
    if (answer.data.winner) matched++;
  }
  const tester = stats(times);
  console.log(`  tester: first after a new version ${firstTestMs} ms; then p50 ${tester.p50.toFixed(1)} ms, p95 ${tester.p95.toFixed(1)} ms over ${TESTS} requests (${matched} with a winning rule)`);

  t = performance.now();
  const cmp = await get(`/v1/floors/versions/compare?from=${String(applied1.data.version)}&to=${String(applied2.data.version)}`);
  const compareMs = ms(t);
  t = performance.now();
  await get('/v1/floors/rules?page=1&page_size=50');
  const listMs = ms(t);
  t = performance.now();
  await get('/v1/floors/rules?page=1&page_size=50&sort=-cpm');
  const listCpmMs = ms(t);
  console.log(`  compare the two versions: ${compareMs} ms (${String(cmp.data.changed)} changed); rules list page 1: ${listMs} ms, by CPM: ${listCpmMs} ms`);

  const result = {
    db: kind,
    rules: RULES,
    csv_mb: Number((csv.length / 1e6).toFixed(1)),
    import_new: { preview_ms: preview1Ms, apply_ms: apply1Ms },
    import_1pct: { preview_ms: preview2Ms, apply_ms: apply2Ms },
    tester: { first_ms: firstTestMs, p50_ms: Number(tester.p50.toFixed(1)), p95_ms: Number(tester.p95.toFixed(1)), requests: TESTS },
    compare_ms: compareMs,
    list_ms: listMs,
    list_by_cpm_ms: listCpmMs,
  };
  const out = path.join(ROOT, 'bench', 'results', `floors-import-${kind}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  await app.close();
  await database.close();
});
process.exit(0);
