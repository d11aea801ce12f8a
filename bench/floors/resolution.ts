/**
 * `npm run bench:floors` — floor resolution (issue 20) with 100,000 rules: lookups per second of
 * core's FloorIndex against the plain scan of every rule (resolveFloorByScan), same rules, same
 * requests, same run; and how long building the index takes. The two must agree on every winner
 * (checked). Figures are reported, never judged.
 *
 *   npm run bench:floors -- [--rules 100000] [--requests 2000]
 */
import { FLOOR_KEYS, FloorIndex, resolveFloorByScan, type FloorKey, type FloorRequest, type FloorRule } from '@backoffice/core/floors';
import { option } from '../resources/harness.ts';

const RULES = Number(option('rules', '100000'));
const REQUESTS = Number(option('requests', '2000'));

let seed = 2026;
const rand = (n: number) => (seed = (seed * 48271) % 2147483647) % n;

/** Realistic cardinalities: many publishers, sites and ad units; few devices and media types. */
const CARDINALITY: Record<FloorKey, number> = {
  publisher: 2000,
  site: 8000,
  ad_unit: 20000,
  country: 60,
  device: 4,
  media_type: 3,
  size: 12,
  demand_partner: 40,
  deal: 300,
};
/** How often a rule names a key (the rest are `*`). */
const NAMED: Record<FloorKey, number> = { publisher: 0.7, site: 0.3, ad_unit: 0.15, country: 0.5, device: 0.3, media_type: 0.4, size: 0.3, demand_partner: 0.2, deal: 0.05 };

const value = (k: FloorKey) => `${k}-${rand(CARDINALITY[k])}`;

const rules: FloorRule[] = [];
const seen = new Set<string>();
while (rules.length < RULES) {
  const keys = Object.fromEntries(FLOOR_KEYS.map((k) => [k, rand(1000) < NAMED[k] * 1000 ? value(k) : '*'])) as Record<FloorKey, string>;
  const s = FLOOR_KEYS.map((k) => keys[k]).join('|');
  if (seen.has(s)) continue;
  seen.add(s);
  rules.push({ id: rules.length + 1, keys, cpm: `${(rand(500) / 100).toFixed(2)}`, currency: 'USD', type: 'hard' });
}
// Requests drawn from the rules' own values (so that specific rules do match), every key known.
const requests: FloorRequest[] = Array.from({ length: REQUESTS }, () => {
  const base = rules[rand(rules.length)]!.keys;
  return Object.fromEntries(FLOOR_KEYS.map((k) => [k, base[k] !== '*' ? base[k] : value(k)]));
});

const t = performance.now();
const index = new FloorIndex(rules);
const buildMs = performance.now() - t;

const time = (fn: (r: FloorRequest) => unknown, n: number) => {
  const start = performance.now();
  for (let i = 0; i < n; i++) fn(requests[i % requests.length]!);
  return performance.now() - start;
};
// Warm both paths, then time them.
time((r) => index.resolve(r), 200);
time((r) => resolveFloorByScan(rules, r), 20);
const indexMs = time((r) => index.resolve(r), REQUESTS * 10);
const scanRuns = Math.min(REQUESTS, 500);
const scanMs = time((r) => resolveFloorByScan(rules, r), scanRuns);

let disagreements = 0;
for (const r of requests.slice(0, scanRuns)) {
  if (index.resolve(r).winner?.rule.id !== resolveFloorByScan(rules, r).winner?.rule.id) disagreements++;
}

const perSecond = (ms: number, n: number) => Math.round((n / ms) * 1000);
const indexed = perSecond(indexMs, REQUESTS * 10);
const scanned = perSecond(scanMs, scanRuns);
console.log(`Floor resolution, ${RULES.toLocaleString('en')} rules (index built in ${buildMs.toFixed(0)} ms)`);
console.log(`  FloorIndex.resolve    ${indexed.toLocaleString('en').padStart(10)} lookups/s  (${((indexMs * 1000) / (REQUESTS * 10)).toFixed(1)} µs each)`);
console.log(`  resolveFloorByScan    ${scanned.toLocaleString('en').padStart(10)} lookups/s  (${((scanMs * 1000) / scanRuns).toFixed(1)} µs each)`);
console.log(`  ratio                 ${(indexed / scanned).toFixed(0)}x; winners that differ: ${disagreements} of ${scanRuns}`);
process.exit(disagreements === 0 ? 0 : 1);
