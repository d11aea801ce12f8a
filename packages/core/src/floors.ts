/**
 * Price-floor rules and their resolution (issue 20): the one function the floors tester, the API
 * and the Prebid export use to say which rule applies to a request.
 *
 * A rule keys on any of FLOOR_KEYS, each a value or `*` (any), and gives a CPM (exact decimal
 * text) in a currency, hard (bids below are dropped) or soft (they are flagged). Resolution:
 * - a rule matches a request when each of its keys is `*` or equals the request's value for that
 *   key (case-insensitive, trimmed); a request without a value for a key matches `*` only;
 * - the most specific matching rule wins: the one with the most non-wildcard keys;
 * - ties are broken by key priority, in FLOOR_KEYS order (publisher first, deal last): of two
 *   rules as specific, the one whose exact keys come earlier wins. This is the order Prebid.js's
 *   floors module walks its candidate keys in ("least `*` first, left-most fields taking
 *   precedence", schema.fields being the priority order), so the export gives the same answers;
 * - no rule: the partner's default floor (or none).
 * Two rules with the same keys are one rule twice: refused (`duplicateRuleKeys`).
 *
 * `FloorIndex` resolves without scanning the rules: it walks the 2^9 exact/wildcard patterns of
 * the request in that order and looks each one up in a map, so a lookup costs the same with 10
 * rules or 100,000. `resolveFloorByScan` is the plain definition, kept for tests and the bench.
 */

export const FLOOR_KEYS = ['publisher', 'site', 'ad_unit', 'country', 'device', 'media_type', 'size', 'demand_partner', 'deal'] as const;
export type FloorKey = (typeof FLOOR_KEYS)[number];
export const FLOOR_WILDCARD = '*';
export const FLOOR_TYPES = ['hard', 'soft'] as const;
export type FloorType = (typeof FLOOR_TYPES)[number];

export interface FloorRule {
  /** The rule's id where it is stored (absent for a rule not saved yet). */
  id?: number;
  keys: Record<FloorKey, string>;
  /** Decimal text, e.g. "1.25". */
  cpm: string;
  currency: string;
  type: FloorType;
}

/** A request's attributes; a key left out (or empty) is unknown and matches `*` only. */
export type FloorRequest = Partial<Record<FloorKey, string | null>>;

/** How each key of a rule met the request. */
export type KeyMatch = 'exact' | 'wildcard' | 'mismatch';

export interface FloorMatch {
  rule: FloorRule;
  /** How many keys are not `*`. */
  specificity: number;
  keys: Record<FloorKey, KeyMatch>;
}

export interface FloorResolution {
  /** The rule that applies, or null (then the default floor). */
  winner: FloorMatch | null;
  /** The other matching rules, best first (at most `limit`). */
  runnersUp: FloorMatch[];
  /** The partner's default floor when no rule matched (null when none). */
  fallback: { cpm: string; currency: string } | null;
}

const N = FLOOR_KEYS.length;

const norm = (v: string | null | undefined): string => (v ?? '').trim().toLowerCase();

/** A rule's keys as one string (case and spaces folded): equal strings are the same keys. */
export function ruleKeyString(keys: Record<FloorKey, string>): string {
  return FLOOR_KEYS.map((k) => norm(keys[k]) || FLOOR_WILDCARD).join('\u0001');
}

export function ruleSpecificity(keys: Record<FloorKey, string>): number {
  return FLOOR_KEYS.reduce((n, k) => n + (norm(keys[k]) !== FLOOR_WILDCARD && norm(keys[k]) !== '' ? 1 : 0), 0);
}

/** A bit per exact key, the first key (highest priority) as the highest bit. */
function exactMask(keys: Record<FloorKey, string>): number {
  let mask = 0;
  FLOOR_KEYS.forEach((k, i) => {
    const v = norm(keys[k]);
    if (v !== '' && v !== FLOOR_WILDCARD) mask |= 1 << (N - 1 - i);
  });
  return mask;
}

const popcount = (m: number) => {
  let n = 0;
  for (let x = m; x; x &= x - 1) n++;
  return n;
};

/** Every exact/wildcard pattern, best first: more exact keys first, then earlier exact keys. */
export const PATTERN_ORDER: readonly number[] = Array.from({ length: 1 << N }, (_, m) => m).sort((a, b) => popcount(b) - popcount(a) || b - a);

/** Compares two matching rules: negative when `a` wins over `b`. */
export function compareRules(a: Record<FloorKey, string>, b: Record<FloorKey, string>): number {
  const ma = exactMask(a);
  const mb = exactMask(b);
  return popcount(mb) - popcount(ma) || mb - ma;
}

/** How a rule meets a request, key by key; null when it does not match. */
export function matchRule(rule: FloorRule, request: FloorRequest): FloorMatch | null {
  const keys = {} as Record<FloorKey, KeyMatch>;
  let matched = true;
  for (const k of FLOOR_KEYS) {
    const v = norm(rule.keys[k]);
    if (v === '' || v === FLOOR_WILDCARD) keys[k] = 'wildcard';
    else if (v === norm(request[k])) keys[k] = 'exact';
    else {
      keys[k] = 'mismatch';
      matched = false;
    }
  }
  return matched ? { rule, specificity: ruleSpecificity(rule.keys), keys } : null;
}

/** The keys explained even for a rule that does not match (the tester's "why not"). */
export function explainRule(rule: FloorRule, request: FloorRequest): Record<FloorKey, KeyMatch> {
  const keys = {} as Record<FloorKey, KeyMatch>;
  for (const k of FLOOR_KEYS) {
    const v = norm(rule.keys[k]);
    keys[k] = v === '' || v === FLOOR_WILDCARD ? 'wildcard' : v === norm(request[k]) ? 'exact' : 'mismatch';
  }
  return keys;
}

/** The plain definition: every rule checked, the matches sorted. */
export function resolveFloorByScan(
  rules: readonly FloorRule[],
  request: FloorRequest,
  fallback: FloorResolution['fallback'] = null,
  limit = 5,
): FloorResolution {
  const matches: FloorMatch[] = [];
  for (const r of rules) {
    const m = matchRule(r, request);
    if (m) matches.push(m);
  }
  matches.sort((a, b) => compareRules(a.rule.keys, b.rule.keys));
  return { winner: matches[0] ?? null, runnersUp: matches.slice(1, 1 + limit), fallback: matches.length > 0 ? null : fallback };
}

/** Rules indexed by their keys: a lookup walks the request's patterns, not the rules. */
export class FloorIndex {
  private readonly byKey = new Map<string, FloorRule>();
  /** The patterns some rule has (only those are looked up). */
  private readonly patterns: number[];

  constructor(rules: readonly FloorRule[]) {
    const present = new Set<number>();
    for (const r of rules) {
      this.byKey.set(ruleKeyString(r.keys), r);
      present.add(exactMask(r.keys));
    }
    this.patterns = PATTERN_ORDER.filter((m) => present.has(m));
  }

  get size(): number {
    return this.byKey.size;
  }

  resolve(request: FloorRequest, fallback: FloorResolution['fallback'] = null, limit = 5): FloorResolution {
    const values = FLOOR_KEYS.map((k) => norm(request[k]));
    const matches: FloorMatch[] = [];
    for (const mask of this.patterns) {
      let key = '';
      let possible = true;
      for (let i = 0; i < N; i++) {
        const exact = (mask >> (N - 1 - i)) & 1;
        if (exact && values[i] === '') {
          possible = false;
          break;
        }
        key += (i ? '\u0001' : '') + (exact ? values[i] : FLOOR_WILDCARD);
      }
      if (!possible) continue;
      const rule = this.byKey.get(key);
      if (!rule) continue;
      matches.push(matchRule(rule, request)!);
      if (matches.length > limit) break;
    }
    return { winner: matches[0] ?? null, runnersUp: matches.slice(1, 1 + limit), fallback: matches.length > 0 ? null : fallback };
  }
}

/** Rules whose keys repeat an earlier rule's: [index of the repeat, index of the first]. */
export function duplicateRuleKeys(rules: readonly Pick<FloorRule, 'keys'>[]): [number, number][] {
  const seen = new Map<string, number>();
  const out: [number, number][] = [];
  rules.forEach((r, i) => {
    const k = ruleKeyString(r.keys);
    const first = seen.get(k);
    if (first === undefined) seen.set(k, i);
    else out.push([i, first]);
  });
  return out;
}

/** Keys with every field `*`, then the given ones. */
export function floorKeys(given: Partial<Record<FloorKey, string>> = {}): Record<FloorKey, string> {
  return Object.fromEntries(FLOOR_KEYS.map((k) => [k, given[k] ?? FLOOR_WILDCARD])) as Record<FloorKey, string>;
}

export interface RuleChange {
  before: FloorRule;
  after: FloorRule;
  /** What differs: cpm, currency, type. */
  fields: ('cpm' | 'currency' | 'type')[];
}

export interface RuleSetDiff {
  added: FloorRule[];
  removed: FloorRule[];
  changed: RuleChange[];
  /** Rules in both, unchanged. */
  unchanged: number;
}

/** Two decimal texts as the same amount ("1.5" and "1.50"). */
function sameAmount(a: string, b: string): boolean {
  const canon = (v: string) => {
    const [int = '0', frac = ''] = v.trim().replace(/^\+/, '').split('.');
    return `${int.replace(/^(-?)0+(?=\d)/, '$1')}.${frac.replace(/0+$/, '')}`;
  };
  return canon(a) === canon(b);
}

/**
 * What changes from one rule set to another, rules matched by their keys (a rule is its keys: a
 * different CPM for the same keys is a change, different keys are a removal and an addition). The
 * versions' comparison and the CSV import's preview both show this.
 */
export function diffRuleSets(before: readonly FloorRule[], after: readonly FloorRule[]): RuleSetDiff {
  const old = new Map(before.map((r) => [ruleKeyString(r.keys), r]));
  const added: FloorRule[] = [];
  const changed: RuleChange[] = [];
  let unchanged = 0;
  for (const r of after) {
    const k = ruleKeyString(r.keys);
    const prev = old.get(k);
    if (!prev) {
      added.push(r);
      continue;
    }
    old.delete(k);
    const fields: RuleChange['fields'] = [];
    if (!sameAmount(prev.cpm, r.cpm)) fields.push('cpm');
    if (prev.currency.toUpperCase() !== r.currency.toUpperCase()) fields.push('currency');
    if (prev.type !== r.type) fields.push('type');
    if (fields.length > 0) changed.push({ before: prev, after: r, fields });
    else unchanged++;
  }
  return { added, removed: [...old.values()], changed, unchanged };
}
