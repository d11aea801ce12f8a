/**
 * The floor rules of one publisher as a Prebid.js price-floors data object (issue 20;
 * docs/decisions/020-prebid-floors-export.md). Pure: the API serves it, the tests check it with
 * Prebid's own validation and matching.
 *
 * Prebid's floors module (modules/priceFloors.ts in prebid/Prebid.js) reads
 *   { currency, schema: { fields, delimiter }, values: { "f1|f2|…": floor }, default, modelVersion }
 * and, for a bid, tries the keys made of each field's exact value or `*`, fewest `*` first, the
 * left-most fields exact first (the schema's order is the priority), and takes the first key that
 * `values` holds. Its fields and ours:
 *   site → domain (the page's host name), ad_unit → adUnitCode, media_type → mediaType
 *   (banner|video|native|audio), size → size ("300x250").
 * Publisher, country, device, demand partner and deal have no Prebid field. The file is per
 * publisher P: it holds the rules whose publisher is P or `*`; a rule that names a country,
 * device, partner or deal is applied by our server only and is listed in the report.
 *
 * Dropping the publisher changes priorities (a rule publisher=P,size=S beats *,domain=D,size=S
 * for us; Prebid sees only the second as the more specific), so the file does not list the rules
 * as they are. It lists the closure V of the rules' keys S under "join" (two keys join when each
 * field is equal or one is `*`; the join keeps the exact values), each with our resolution at that
 * key taken as a request (`*` = unknown, publisher P). For a request r the join of every key of S
 * matching r is in V, is matched by r and has strictly more exact fields than any other key of V
 * matching r, so Prebid picks it; and the rules matching it are exactly those matching r, so its
 * value is our answer for r (the decision record has the proof; the unit test checks it on random
 * rule sets with Prebid's own code). A key of V whose value equals what Prebid would fall back to
 * without it (the first key below it, in Prebid's order, that the file keeps) is left out: the
 * answers stay the same and the file shrinks, often back to about the rules' own keys.
 *
 * What the file cannot say: a winner in another currency than the file's (no FX here) and a soft
 * winner (Prebid has only hard floors) are written as 0, "no floor in Prebid", not left out: a
 * missing key would make Prebid fall back to a less specific key, another rule's floor.
 */
import { FLOOR_WILDCARD, FloorIndex, type FloorKey, type FloorRequest, type FloorRule } from './floors.ts';

/** Prebid's schema fields we map to, in our priority order (FLOOR_KEYS order). */
export const PREBID_FIELDS = ['domain', 'adUnitCode', 'mediaType', 'size'] as const;
export type PrebidFloorField = (typeof PREBID_FIELDS)[number];

/** Our key behind each Prebid field, same order. */
export const PREBID_FIELD_KEYS = ['site', 'ad_unit', 'media_type', 'size'] as const satisfies readonly FloorKey[];

/** Keys Prebid cannot evaluate on a bid: a rule naming one is applied by our server only. */
export const SERVER_ONLY_KEYS = ['country', 'device', 'demand_partner', 'deal'] as const satisfies readonly FloorKey[];

export const PREBID_DELIMITER = '|';
/**
 * At most this many keys in the closure (the work and memory bound: 1–2 s at about 90,000);
 * past it the closure is given up (see `truncated`). The file is usually far smaller: keys that
 * Prebid's fallback already answers are left out.
 */
export const PREBID_MAX_CLOSURE = 100_000;
const EXAMPLES = 5;

export interface PrebidFloorData {
  currency: string;
  schema: { fields: PrebidFloorField[]; delimiter: string };
  values: Record<string, number>;
  /** The floor when no key matches: present only when a rule covers every request (all `*`). */
  default?: number;
  modelVersion: string;
}

/** An exported key and the rule that decides it. */
export interface PrebidValueNote {
  key: string;
  rule: FloorRule;
}

export interface PrebidExportReport {
  publisher: string;
  version: number;
  currency: string;
  /** The currencies of the included rules, most used first. */
  currencies: { currency: string; rules: number }[];
  fields: PrebidFloorField[];
  /** Rules the file expresses (publisher P or `*`, no server-only key). */
  included: number;
  /** Keys in `values`. */
  values: number;
  /** Of those, keys that are no rule's own (combinations the closure added). */
  combined: number;
  /** Keys left out because Prebid's fallback without them gives the same floor. */
  pruned: number;
  /** Rules of P or `*` that name a country, device, demand partner or deal. */
  serverOnly: { count: number; examples: FloorRule[] };
  /** Rules whose site or ad unit holds the delimiter `|` or a `*` inside: Prebid cannot key on them. */
  unexpressible: { count: number; examples: FloorRule[] };
  /** Keys whose winning rule is in another currency: written as 0. */
  otherCurrency: { count: number; examples: PrebidValueNote[] };
  /** Keys whose winning rule is soft: written as 0. */
  softAsZero: { count: number; examples: PrebidValueNote[] };
  /** The closure passed `maxClosure`: the file holds the rules' own keys only and may differ from our answers. */
  truncated: boolean;
  maxClosure: number;
  /** No value at all: Prebid refuses such a file (its data stays off, as no floor would apply anyway). */
  empty: boolean;
}

export interface PrebidFloorExport {
  data: PrebidFloorData;
  report: PrebidExportReport;
}

export interface PrebidExportOptions {
  /** The publisher's id, as rules key on it. */
  publisher: string | number;
  /** The rule set's version, for `modelVersion`. */
  version: number;
  /** The file's currency; default the most used one among the included rules (USD when none). */
  currency?: string | null;
  maxClosure?: number;
  examples?: number;
}

/** Prebid's default `modelVersion` for a version of our rule set. */
export const prebidModelVersion = (version: number) => `backoffice-v${version}`;

const norm = (v: string | null | undefined): string => (v ?? '').trim().toLowerCase();
const isWild = (v: string) => v === '' || v === FLOOR_WILDCARD;

/** A projected key: one value per Prebid field, `*` for any. */
type PKey = string[];
const F = PREBID_FIELDS.length;

const maskOf = (k: PKey) => k.reduce((m, v, i) => (v === FLOOR_WILDCARD ? m : m | (1 << (F - 1 - i))), 0);
const popcount = (m: number) => {
  let n = 0;
  for (let x = m; x; x &= x - 1) n++;
  return n;
};
const str = (k: PKey) => k.join(PREBID_DELIMITER);

/** The 2^4 exact/wildcard patterns in Prebid's order: more exact fields first, then left-most exact first. */
const PATTERNS = Array.from({ length: 1 << F }, (_, m) => m).sort((a, b) => popcount(b) - popcount(a) || b - a);

/**
 * What Prebid would answer for a bid whose most specific key is `k`, were `k` not in the file: the
 * first key below `k`, in Prebid's order, among those kept (every key a bid matching `k` matches
 * is below `k`, so this does not depend on the bid).
 */
function fallbackValue(kept: ReadonlyMap<string, { value: number }>, k: PKey): number | undefined {
  const mk = maskOf(k);
  for (const m of PATTERNS) {
    if (m === mk || (m & ~mk) !== 0) continue;
    const below = kept.get(str(k.map((v, i) => ((m >> (F - 1 - i)) & 1 ? v : FLOOR_WILDCARD))));
    if (below) return below.value;
  }
  return undefined;
}

/** The decimal text of a CPM as a JSON number (at most 4 decimals: exact as a double's shortest form). */
function amount(cpm: string): number {
  const n = Number(cpm.trim());
  if (!/^\d+(\.\d+)?$/.test(cpm.trim()) || !Number.isFinite(n)) throw new Error(`not a CPM: ${cpm}`);
  return n;
}

/**
 * The closure of `seeds` under join, or null past `max` keys. A new key is joined with the seeds
 * only (a join of keys of V is a chain of joins with seeds); the seeds are indexed by pattern and
 * by their values on each sub-pattern, so a key meets only the seeds it is compatible with.
 */
function joinClosure(seeds: Map<string, PKey>, max: number): Map<string, PKey> | null {
  if (seeds.size > max) return null;
  // pattern → (sub-pattern + values there) → seeds
  const index = new Map<number, Map<string, PKey[]>>();
  for (const s of seeds.values()) {
    const ps = maskOf(s);
    if (ps === 0) continue;
    let byValues = index.get(ps);
    if (!byValues) index.set(ps, (byValues = new Map()));
    for (let q = ps; ; q = (q - 1) & ps) {
      const k = `${q}:${s.filter((_, i) => (q >> (F - 1 - i)) & 1).join(PREBID_DELIMITER)}`;
      const list = byValues.get(k);
      if (list) list.push(s);
      else byValues.set(k, [s]);
      if (q === 0) break;
    }
  }
  const out = new Map(seeds);
  const queue = [...seeds.values()];
  while (queue.length > 0) {
    const v = queue.pop()!;
    const pv = maskOf(v);
    for (const [ps, byValues] of index) {
      if ((ps & ~pv) === 0) continue; // every such seed is below v: the join is v
      const q = ps & pv;
      const compatible = byValues.get(`${q}:${v.filter((_, i) => (q >> (F - 1 - i)) & 1).join(PREBID_DELIMITER)}`);
      if (!compatible) continue;
      for (const s of compatible) {
        const j = v.map((x, i) => (x === FLOOR_WILDCARD ? s[i]! : x));
        const key = str(j);
        if (out.has(key)) continue;
        out.set(key, j);
        if (out.size > max) return null;
        queue.push(j);
      }
    }
  }
  return out;
}

/** Publisher P's rules as a Prebid.js floors data object, and what it could not express. */
export function prebidFloorExport(rules: readonly FloorRule[], options: PrebidExportOptions): PrebidFloorExport {
  const publisher = norm(String(options.publisher));
  const maxClosure = options.maxClosure ?? PREBID_MAX_CLOSURE;
  const nExamples = options.examples ?? EXAMPLES;

  const included: FloorRule[] = [];
  const serverOnly: FloorRule[] = [];
  const unexpressible: FloorRule[] = [];
  for (const r of rules) {
    const p = norm(r.keys.publisher);
    if (!isWild(p) && p !== publisher) continue;
    if (SERVER_ONLY_KEYS.some((k) => !isWild(norm(r.keys[k])))) serverOnly.push(r);
    else if (PREBID_FIELD_KEYS.some((k) => norm(r.keys[k]) !== FLOOR_WILDCARD && /[|*]/.test(norm(r.keys[k])))) unexpressible.push(r);
    else included.push(r);
  }

  const counts = new Map<string, number>();
  for (const r of included) counts.set(r.currency.trim().toUpperCase(), (counts.get(r.currency.trim().toUpperCase()) ?? 0) + 1);
  const currencies = [...counts].map(([currency, n]) => ({ currency, rules: n })).sort((a, b) => b.rules - a.rules || a.currency.localeCompare(b.currency));
  const currency = options.currency?.trim().toUpperCase() || currencies[0]?.currency || 'USD';

  // S: the included rules' keys on Prebid's fields; V: their closure under join.
  const seeds = new Map<string, PKey>();
  for (const r of included) {
    const k = PREBID_FIELD_KEYS.map((f) => (isWild(norm(r.keys[f])) ? FLOOR_WILDCARD : norm(r.keys[f])));
    seeds.set(str(k), k);
  }
  const closure = joinClosure(seeds, maxClosure);
  const truncated = closure === null;
  const keys = [...(closure ?? seeds).values()];

  // Prebid's order (fewest `*` first, left-most exact first), then by text.
  keys.sort((a, b) => {
    const ma = maskOf(a);
    const mb = maskOf(b);
    return popcount(mb) - popcount(ma) || mb - ma || (str(a) < str(b) ? -1 : str(a) > str(b) ? 1 : 0);
  });

  // Each key's value: our resolution at the key taken as a request. Least specific first, so a
  // key whose value is what Prebid would fall back to without it can be left out (not when
  // truncated: the fallback argument needs the closure).
  const index = new FloorIndex(included);
  const kept = new Map<string, { k: PKey; value: number; winner: FloorRule }>();
  let combined = 0;
  let pruned = 0;
  for (let n = keys.length - 1; n >= 0; n--) {
    const k = keys[n]!;
    const request: FloorRequest = { publisher };
    PREBID_FIELD_KEYS.forEach((f, i) => {
      if (k[i] !== FLOOR_WILDCARD) request[f] = k[i];
    });
    const winner = index.resolve(request, null, 0).winner?.rule;
    // Every key of V is a join of rules' keys, each of which matches it.
    if (!winner) throw new Error(`no rule for ${str(k)}`);
    const value = winner.currency.trim().toUpperCase() !== currency || winner.type === 'soft' ? 0 : amount(winner.cpm);
    if (!truncated && fallbackValue(kept, k) === value) {
      pruned++;
      continue;
    }
    kept.set(str(k), { k, value, winner });
    if (!seeds.has(str(k))) combined++;
  }
  const written = [...kept.values()].reverse(); // Prebid's order: the file reads as Prebid tries it

  // Only the fields some written key names (Prebid needs at least one: `domain` when none does).
  const used = PREBID_FIELDS.map((_, i) => written.some(({ k }) => k[i] !== FLOOR_WILDCARD));
  const fields = PREBID_FIELDS.filter((_, i) => used[i]);
  if (fields.length === 0) fields.push('domain');
  const project = (k: PKey) => (used.some(Boolean) ? k.filter((_, i) => used[i]) : [k[0]!]).join(PREBID_DELIMITER);

  const values: Record<string, number> = {};
  const otherCurrency: PrebidValueNote[] = [];
  const softAsZero: PrebidValueNote[] = [];
  let defaultValue: number | undefined;
  for (const { k, value, winner } of written) {
    const key = project(k);
    values[key] = value;
    if (winner.currency.trim().toUpperCase() !== currency) otherCurrency.push({ key, rule: winner });
    else if (winner.type === 'soft') softAsZero.push({ key, rule: winner });
    if (maskOf(k) === 0) defaultValue = value;
  }

  const data: PrebidFloorData = {
    currency,
    schema: { fields, delimiter: PREBID_DELIMITER },
    values,
    ...(defaultValue !== undefined ? { default: defaultValue } : {}),
    modelVersion: prebidModelVersion(options.version),
  };
  const some = <T>(list: T[]) => ({ count: list.length, examples: list.slice(0, nExamples) });
  return {
    data,
    report: {
      publisher,
      version: options.version,
      currency,
      currencies,
      fields,
      included: included.length,
      values: written.length,
      combined,
      pruned,
      serverOnly: some(serverOnly),
      unexpressible: some(unexpressible),
      otherCurrency: some(otherCurrency),
      softAsZero: some(softAsZero),
      truncated,
      maxClosure,
      empty: written.length === 0,
    },
  };
}
