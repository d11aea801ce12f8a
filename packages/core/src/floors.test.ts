import { describe, expect, it } from 'vitest';
import {
  FLOOR_KEYS,
  FloorIndex,
  PATTERN_ORDER,
  compareRules,
  diffRuleSets,
  duplicateRuleKeys,
  explainRule,
  floorKeys,
  resolveFloorByScan,
  type FloorKey,
  type FloorRequest,
  type FloorRule,
} from './floors.ts';

let nextId = 1;
const rule = (keys: Partial<Record<FloorKey, string>>, cpm: string, type: 'hard' | 'soft' = 'hard'): FloorRule => ({
  id: nextId++,
  keys: floorKeys(keys),
  cpm,
  currency: 'USD',
  type,
});

const RULES = [
  rule({}, '0.10'),
  rule({ country: 'ES' }, '0.50'),
  rule({ country: 'ES', device: 'mobile' }, '0.70'),
  rule({ publisher: 'pub-1' }, '0.80'),
  rule({ publisher: 'pub-1', media_type: 'video' }, '4.00'),
  rule({ site: 'news.example', size: '300x250' }, '1.10'),
  rule({ demand_partner: 'Nimbus', deal: 'D-1' }, '2.00', 'soft'),
  rule({ deal: 'D-1', country: 'FR' }, '2.50'),
];

const both = (request: FloorRequest, rules = RULES) => {
  const scan = resolveFloorByScan(rules, request, { cpm: '0.05', currency: 'USD' });
  const indexed = new FloorIndex(rules).resolve(request, { cpm: '0.05', currency: 'USD' });
  expect(indexed.winner?.rule.id).toBe(scan.winner?.rule.id);
  expect(indexed.runnersUp.map((m) => m.rule.id)).toEqual(scan.runnersUp.map((m) => m.rule.id));
  return scan;
};

describe('floor resolution', () => {
  it.each<[string, FloorRequest, string | null]>([
    ['nothing known: the catch-all', {}, '0.10'],
    ['one exact key beats the catch-all', { country: 'es' }, '0.50'],
    ['two exact keys beat one', { country: 'ES', device: 'mobile' }, '0.70'],
    ['a key the rule does not name does not count against it', { country: 'ES', device: 'mobile', size: '728x90' }, '0.70'],
    ['a tie of one key each: publisher (earlier key) beats country', { publisher: 'pub-1', country: 'ES' }, '0.80'],
    ['publisher and media type (2) beat publisher (1) and country (1)', { publisher: 'pub-1', country: 'ES', media_type: 'video' }, '4.00'],
    ['a tie of two keys each: country+device (4th key) beat demand partner+deal (8th)', { country: 'ES', device: 'mobile', demand_partner: 'nimbus', deal: 'D-1' }, '0.70'],
    ['a tie of two keys: country+deal beats partner+deal (country comes first)', { country: 'FR', demand_partner: 'Nimbus', deal: 'D-1' }, '2.50'],
    ['a value that differs excludes the rule', { site: 'news.example', size: '300x600' }, '0.10'],
    ['case and spaces are folded', { site: ' NEWS.example ', size: '300X250' }, '1.10'],
  ])('%s', (_name, request, cpm) => {
    expect(both(request).winner?.rule.cpm ?? null).toBe(cpm);
  });

  it('gives the default floor when no rule matches, and lists the runners-up best first', () => {
    const rules = RULES.filter((r) => r.cpm !== '0.10');
    const none = both({ country: 'DE' }, rules);
    expect(none.winner).toBeNull();
    expect(none.fallback).toEqual({ cpm: '0.05', currency: 'USD' });
    const r = both({ publisher: 'pub-1', country: 'ES', device: 'mobile', media_type: 'video' });
    expect([r.winner!.rule.cpm, ...r.runnersUp.map((m) => m.rule.cpm)]).toEqual(['4.00', '0.70', '0.80', '0.50', '0.10']);
    expect(r.winner!.specificity).toBe(2);
    expect(r.winner!.keys.publisher).toBe('exact');
    expect(r.winner!.keys.country).toBe('wildcard');
    expect(r.fallback).toBeNull();
  });

  it('explains why a rule does not apply, key by key', () => {
    const keys = explainRule(RULES[5]!, { site: 'news.example', size: '728x90' });
    expect(keys.site).toBe('exact');
    expect(keys.size).toBe('mismatch');
    expect(keys.country).toBe('wildcard');
  });

  it('walks the patterns as Prebid does: fewer wildcards first, earlier keys exact first', () => {
    expect(PATTERN_ORDER).toHaveLength(512);
    expect(PATTERN_ORDER[0]).toBe(511);
    expect(PATTERN_ORDER[PATTERN_ORDER.length - 1]).toBe(0);
    // Among the one-key patterns, publisher (the first key) comes first and deal last.
    const ones = PATTERN_ORDER.filter((m) => m.toString(2).replace(/0/g, '').length === 1);
    expect(ones).toEqual([256, 128, 64, 32, 16, 8, 4, 2, 1]);
    expect(compareRules(floorKeys({ publisher: 'a' }), floorKeys({ deal: 'd' }))).toBeLessThan(0);
    expect(compareRules(floorKeys({ deal: 'd', size: 's' }), floorKeys({ publisher: 'a' }))).toBeLessThan(0);
  });

  it('finds rules with the same keys (any case), which a rule set may not hold', () => {
    const rules = [rule({ country: 'ES' }, '1'), rule({ country: 'FR' }, '1'), rule({ country: 'es ' }, '2')];
    expect(duplicateRuleKeys(rules)).toEqual([[2, 0]]);
  });

  it('the index and the scan agree on random rule sets and requests', () => {
    let seed = 42;
    const rand = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    const values: Record<FloorKey, string[]> = {
      publisher: ['p1', 'p2', 'p3'],
      site: ['a.com', 'b.com'],
      ad_unit: ['u1', 'u2'],
      country: ['ES', 'FR', 'DE'],
      device: ['mobile', 'desktop'],
      media_type: ['banner', 'video'],
      size: ['300x250', '728x90'],
      demand_partner: ['n1', 'n2'],
      deal: ['d1', 'd2'],
    };
    for (let round = 0; round < 20; round++) {
      const seen = new Set<string>();
      const rules: FloorRule[] = [];
      for (let i = 0; i < 300; i++) {
        const keys = Object.fromEntries(FLOOR_KEYS.map((k) => [k, rand(3) === 0 ? values[k][rand(values[k].length)]! : '*'])) as Record<FloorKey, string>;
        const s = JSON.stringify(keys);
        if (seen.has(s)) continue;
        seen.add(s);
        rules.push({ id: i, keys, cpm: `${i}.00`, currency: 'USD', type: 'hard' });
      }
      const index = new FloorIndex(rules);
      for (let q = 0; q < 50; q++) {
        const request = Object.fromEntries(FLOOR_KEYS.filter(() => rand(5) > 0).map((k) => [k, values[k][rand(values[k].length)]!])) as FloorRequest;
        const a = resolveFloorByScan(rules, request, null, 3);
        const b = index.resolve(request, null, 3);
        expect(b.winner?.rule.id).toBe(a.winner?.rule.id);
        expect(b.runnersUp.map((m) => m.rule.id)).toEqual(a.runnersUp.map((m) => m.rule.id));
      }
    }
  });
});

describe('rule set differences', () => {
  it('matches rules by their keys: a new CPM is a change, new keys an addition, missing keys a removal', () => {
    const before = [rule({ country: 'ES' }, '0.50'), rule({ country: 'FR' }, '0.60'), rule({ publisher: 'p1' }, '1.00', 'soft')];
    const after = [
      rule({ country: 'es' }, '0.5'),
      rule({ publisher: 'p1' }, '1.20', 'hard'),
      rule({ country: 'DE' }, '0.40'),
    ];
    const d = diffRuleSets(before, after);
    expect(d.added.map((r) => r.keys.country)).toEqual(['DE']);
    expect(d.removed.map((r) => r.keys.country)).toEqual(['FR']);
    expect(d.changed).toHaveLength(1);
    expect(d.changed[0]!.fields).toEqual(['cpm', 'type']);
    expect(d.changed[0]!.before.cpm).toBe('1.00');
    expect(d.unchanged).toBe(1);
    expect(diffRuleSets(after, after)).toMatchObject({ added: [], removed: [], changed: [], unchanged: 3 });
  });
});
