import { describe, expect, it } from 'vitest';
import { FLOOR_KEYS, floorKeys, resolveFloorByScan, ruleKeyString, type FloorKey, type FloorRule } from './floors.ts';
import { PREBID_FIELDS, prebidFloorExport, type PrebidFloorData } from './floors-prebid.ts';

/*
 * ---------------------------------------------------------------------------------------------
 * Prebid.js's own code, ported: the export is checked against the standard's implementation, not
 * our reading of it. Source: github.com/prebid/Prebid.js, modules/priceFloors.ts (blob b30518f6),
 * as of commit 8660b4704c12fa878afa2e061adef0699aac3a28 (file last changed in 11424fdae9f2).
 * Kept as close to the original as TypeScript allows; what differs:
 * - `fieldMatchingFunctions[field](bidRequest, bidResponse)` reads the bid's field from a plain
 *   object instead (domain = the page's host name, adUnitCode, mediaType, size as "300x250"; a
 *   field the bid does not know is `*`, as Prebid's functions answer for a size it cannot parse or
 *   a getFloor({mediaType: '*'}));
 * - no userId tier fields, no `matchingInputs` cache, no floorMin (0), schema version 1 only,
 *   logging left out.
 * ---------------------------------------------------------------------------------------------
 */
type Data = Record<string, unknown> & { schema?: { fields?: unknown[]; delimiter?: string }; values?: Record<string, unknown>; default?: unknown; meta?: { defaultRule?: string } };

const SYN_FIELD = Symbol();
const allowedFields: unknown[] = [SYN_FIELD, 'gptSlot', 'adUnitCode', 'size', 'domain', 'mediaType'];
const isNumber = (v: unknown) => typeof v === 'number'; // src/utils.js isNumber: isA(object, 'Number')

function validateSchemaFields(fields: unknown) {
  if (Array.isArray(fields) && fields.length > 0) {
    if (fields.every((field) => allowedFields.includes(field))) {
      return true;
    }
  }
  return false;
}

function isValidRule(key: unknown, floor: unknown, numFields: number, delimiter: string) {
  if (typeof key !== 'string' || key.split(delimiter).length !== numFields) {
    return false;
  }
  return typeof floor === 'number' || floor === null;
}

function validateRules(floorsData: Data, numFields: number, delimiter: string) {
  if (typeof floorsData.values !== 'object') {
    return false;
  }
  // if an invalid rule exists we remove it
  floorsData.values = Object.keys(floorsData.values).reduce<Record<string, unknown>>((filteredRules, key) => {
    if (isValidRule(key, floorsData.values![key], numFields, delimiter)) {
      filteredRules[key] = floorsData.values![key];
    }
    return filteredRules;
  }, {});
  // rules is only valid if at least one rule remains
  return Object.keys(floorsData.values).length > 0;
}

function normalizeDefault(model: Data) {
  if (isNumber(model.default)) {
    let defaultRule = '*';
    const numFields = (model.schema?.fields || []).length;
    if (!numFields) {
      model.schema = { ...model.schema, fields: [SYN_FIELD] };
    } else {
      defaultRule = Array(numFields).fill('*').join(model.schema?.delimiter || '|');
    }
    model.values = model.values || {};
    if (model.values[defaultRule] == null) {
      model.values[defaultRule] = model.default;
      model.meta = { defaultRule };
    }
  }
  return model;
}

function modelIsValid(model: Data) {
  model = normalizeDefault(model);
  // schema.fields has only allowed attributes
  if (!validateSchemaFields(model.schema?.fields)) {
    return false;
  }
  return validateRules(model, model.schema!.fields!.length, model.schema!.delimiter || '|');
}

function isFloorsDataValid(floorsData: Data) {
  if (typeof floorsData !== 'object') {
    return false;
  }
  floorsData.floorsSchemaVersion = floorsData.floorsSchemaVersion || 1;
  if (floorsData.floorsSchemaVersion !== 1) return false;
  return modelIsValid(floorsData);
}

function getFloorsDataForAuction(floorData: Data) {
  const auctionFloorData = structuredClone(floorData);
  auctionFloorData.schema!.delimiter = floorData.schema!.delimiter || '|';
  auctionFloorData.values = normalizeRulesForAuction(auctionFloorData);
  // default the currency to USD if not passed in
  auctionFloorData.currency = auctionFloorData.currency || 'USD';
  return auctionFloorData;
}

function normalizeRulesForAuction(floorData: Data) {
  return Object.keys(floorData.values!).reduce<Record<string, unknown>>((rulesHash, oldKey) => {
    // we store the rule keys as lower case for case insensitive compare
    rulesHash[oldKey.toLowerCase()] = floorData.values![oldKey];
    return rulesHash;
  }, {});
}

/** What the field matching functions would read off a bid. */
type Bid = Partial<Record<(typeof PREBID_FIELDS)[number], string>>;

function enumeratePossibleFieldValues(floorFields: unknown[], bid: Bid) {
  if (!floorFields.length) return [];
  // generate combination of all exact matches and catch all for each field type
  return floorFields.reduce<string[][]>((accum, field) => {
    const exactMatch: string = (field === SYN_FIELD ? '*' : bid[field as keyof Bid]) || '*';
    // storing exact matches as lowerCase since we want to compare case insensitively
    accum.push(exactMatch === '*' ? ['*'] : [exactMatch.toLowerCase(), '*']);
    return accum;
  }, []);
}

function generatePossibleEnumerations(arrayOfFields: string[][], delimiter: string): string[] {
  return arrayOfFields
    .reduce((accum, currentVal) => {
      const ret: string[] = [];
      accum.forEach((obj) => {
        currentVal.forEach((obj1) => {
          ret.push(obj + delimiter + obj1);
        });
      });
      return ret;
    })
    .sort((left, right) => left.split('*').length - right.split('*').length);
}

function getFirstMatchingFloor(floorData: Data, bid: Bid) {
  const fieldValues = enumeratePossibleFieldValues(floorData.schema?.fields || [], bid);
  if (!fieldValues.length) {
    return { matchingFloor: undefined };
  }
  const allPossibleMatches = generatePossibleEnumerations(fieldValues, floorData.schema?.delimiter || '|');
  const matchingRule = (allPossibleMatches || []).find((hashValue) => Object.prototype.hasOwnProperty.call(floorData.values, hashValue));
  const matchingData = {
    floorMin: 0,
    floorRuleValue: floorData.values![matchingRule as string] as number | null | undefined,
    matchingData: allPossibleMatches[0],
    matchingRule: matchingRule === floorData.meta?.defaultRule ? undefined : matchingRule,
    matchingFloor: 0,
  };
  matchingData.matchingFloor = Math.max(matchingData.floorMin, matchingData.floorRuleValue as number);
  return matchingData;
}
// ------------------------------------------------------------------------ end of the Prebid port

/** A file as Prebid loads it (setConfig or a fetch): validated, then prepared for an auction. */
function prebidLoad(data: PrebidFloorData): { valid: boolean; auction: Data } {
  const copy = JSON.parse(JSON.stringify(data)) as Data;
  const valid = isFloorsDataValid(copy);
  return { valid, auction: getFloorsDataForAuction(copy) };
}

/** The rule value Prebid matches for a bid (undefined: no key matched; null: "no floor" key). */
const prebidFloor = (auction: Data, bid: Bid): number | null | undefined => {
  const found = getFirstMatchingFloor(auction, bid);
  return 'floorRuleValue' in found ? found.floorRuleValue : undefined;
};

let nextId = 1;
const rule = (keys: Partial<Record<FloorKey, string>>, cpm: string, extra: Partial<Pick<FloorRule, 'currency' | 'type'>> = {}): FloorRule => ({
  id: nextId++,
  keys: floorKeys(keys),
  cpm,
  currency: extra.currency ?? 'USD',
  type: extra.type ?? 'hard',
});

/** Our answer for a bid Prebid sees, as the file should give it: null = no rule applies. */
function ours(rules: readonly FloorRule[], publisher: string, bid: Bid, currency: string): number | undefined {
  const winner = resolveFloorByScan(rules, { publisher, site: bid.domain, ad_unit: bid.adUnitCode, media_type: bid.mediaType, size: bid.size }).winner?.rule;
  if (!winner) return undefined;
  if (winner.currency !== currency || winner.type === 'soft') return 0;
  return Number(winner.cpm);
}

describe('the Prebid port itself', () => {
  it('validates and matches as Prebid documents it: fewest * first, left-most fields first', () => {
    const data = { currency: 'USD', schema: { fields: ['mediaType', 'size'], delimiter: '|' }, values: { 'banner|300x250': 1, 'banner|*': 2, '*|300x250': 3, 'video|*': null, bad: 5 } };
    const { valid, auction } = prebidLoad(data as unknown as PrebidFloorData);
    expect(valid).toBe(true);
    expect(Object.keys(auction.values!)).not.toContain('bad');
    expect(prebidFloor(auction, { mediaType: 'banner', size: '300x250' })).toBe(1);
    expect(prebidFloor(auction, { mediaType: 'banner', size: '728x90' })).toBe(2);
    expect(prebidFloor(auction, { mediaType: 'native', size: '300x250' })).toBe(3);
    expect(prebidFloor(auction, { mediaType: 'video', size: '300x250' })).toBeNull();
    expect(prebidFloor(auction, { mediaType: 'native', size: '1x1' })).toBeUndefined();
    expect(prebidLoad({ currency: 'USD', schema: { fields: ['country'], delimiter: '|' }, values: { es: 1 } } as unknown as PrebidFloorData).valid).toBe(false);
    expect(prebidLoad({ currency: 'USD', schema: { fields: ['size'], delimiter: '|' }, values: {} } as unknown as PrebidFloorData).valid).toBe(false);
    // `default` becomes the all-* key.
    const withDefault = prebidLoad({ currency: 'USD', schema: { fields: ['size'], delimiter: '|' }, values: {}, default: 0.5 } as unknown as PrebidFloorData);
    expect(withDefault.valid).toBe(true);
    expect(prebidFloor(withDefault.auction, { size: '1x1' })).toBe(0.5);
  });
});

describe('Prebid floors export', () => {
  const P = '7';

  it('maps our keys to Prebid fields, keeps only the fields in use, writes numbers, version and default', () => {
    const rules = [
      rule({}, '0.1'),
      rule({ publisher: P, site: 'News.example', size: '300x250' }, '1.25'),
      rule({ publisher: P, media_type: 'video' }, '4'),
      rule({ publisher: '8', site: 'other.example' }, '9'),
    ];
    const { data, report } = prebidFloorExport(rules, { publisher: P, version: 12 });
    expect(data.currency).toBe('USD');
    expect(data.schema).toEqual({ fields: ['domain', 'mediaType', 'size'], delimiter: '|' });
    expect(data.modelVersion).toBe('backoffice-v12');
    expect(data.default).toBe(0.1);
    // news.example|video|300x250 (the join) is left out: its value is that of news.example|*|300x250,
    // which Prebid falls back to without it.
    expect(data.values).toEqual({ 'news.example|*|300x250': 1.25, '*|video|*': 4, '*|*|*': 0.1 });
    // Most specific first: the order Prebid tries keys in.
    expect(Object.keys(data.values)).toEqual(['news.example|*|300x250', '*|video|*', '*|*|*']);
    expect(report).toMatchObject({ included: 3, values: 3, combined: 0, pruned: 1, truncated: false, empty: false, fields: data.schema.fields });
    const { auction } = prebidLoad(data);
    expect(prebidFloor(auction, { domain: 'news.example', mediaType: 'video', size: '300x250' })).toBe(1.25);
    expect(prebidFloor(auction, { domain: 'news.example', mediaType: 'video', size: '728x90' })).toBe(4);
    expect(prebidLoad(data).valid).toBe(true);
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
  });

  it('adds the combination a lost publisher key would otherwise decide differently', () => {
    // For us publisher=P,size=S (2 keys) beats *,domain=D (1 key) on a bid for D and S. Prebid, not
    // seeing the publisher, would take D|* (left-most first) over *|S; the join D|S carries our answer.
    const rules = [rule({ site: 'd.example' }, '1'), rule({ publisher: P, size: '300x250' }, '2')];
    const { data, report } = prebidFloorExport(rules, { publisher: P, version: 1 });
    expect(data.values).toEqual({ 'd.example|300x250': 2, 'd.example|*': 1, '*|300x250': 2 });
    expect(report.combined).toBe(1);
    const { auction } = prebidLoad(data);
    expect(prebidFloor(auction, { domain: 'd.example', size: '300x250' })).toBe(2);
    // The rules' keys alone would have given the other rule.
    const naive = prebidLoad({ ...data, values: { 'd.example|*': 1, '*|300x250': 2 } });
    expect(prebidFloor(naive.auction, { domain: 'd.example', size: '300x250' })).toBe(1);
  });

  it('leaves rules with keys Prebid cannot see to the server, and reports them', () => {
    const rules = [rule({ publisher: P }, '1'), rule({ publisher: P, country: 'ES' }, '0.2'), rule({ deal: 'd-1', size: '300x250' }, '5'), rule({ publisher: '8', device: 'phone' }, '3')];
    const { data, report } = prebidFloorExport(rules, { publisher: P, version: 1 });
    expect(data.values).toEqual({ '*': 1 });
    expect(data.schema.fields).toEqual(['domain']);
    expect(data.default).toBe(1);
    expect(report.serverOnly.count).toBe(2);
    expect(report.serverOnly.examples.map((r) => r.cpm)).toEqual(['0.2', '5']);
    expect(prebidLoad(data).valid).toBe(true);
  });

  it('writes 0 (no floor in Prebid) where the winner is soft or in another currency, and reports it', () => {
    const rules = [
      rule({}, '0.5'),
      rule({ media_type: 'video' }, '3', { type: 'soft' }),
      rule({ size: '300x250' }, '2', { currency: 'EUR' }),
      rule({ size: '728x90' }, '1.5', { currency: 'usd' }),
    ];
    const { data, report } = prebidFloorExport(rules, { publisher: P, version: 1 });
    expect(data.currency).toBe('USD');
    expect(report.currencies).toEqual([
      { currency: 'USD', rules: 3 },
      { currency: 'EUR', rules: 1 },
    ]);
    // Soft video also decides video|300x250 and video|728x90 (media type comes before size): 0 as
    // video|* says, so those two are left out.
    expect(data.values).toEqual({ 'video|*': 0, '*|300x250': 0, '*|728x90': 1.5, '*|*': 0.5 });
    expect(report.softAsZero).toMatchObject({ count: 1, examples: [{ key: 'video|*' }] });
    expect(report.otherCurrency).toMatchObject({ count: 1, examples: [{ key: '*|300x250' }] });
    // Left out instead of 0, video would fall back to `*|*` (0.5): a floor our rules do not apply.
    const { auction } = prebidLoad(data);
    expect(prebidFloor(auction, { mediaType: 'video', size: '300x250' })).toBe(0);
    expect(prebidFloor(auction, { mediaType: 'video', size: '640x360' })).toBe(0);
    expect(prebidFloor(auction, { mediaType: 'banner', size: '640x360' })).toBe(0.5);

    const eur = prebidFloorExport(rules, { publisher: P, version: 1, currency: 'eur' });
    expect(eur.data.currency).toBe('EUR');
    expect(eur.data.values).toEqual({ 'video|300x250': 0, '*|300x250': 2, '*|*': 0 });
    expect(eur.data.default).toBe(0);
    expect(eur.report.otherCurrency.count).toBe(2);
  });

  it('drops a field whose every exact key Prebid answers the same without it', () => {
    const { data, report } = prebidFloorExport([rule({}, '1'), rule({ site: 'a.example' }, '1'), rule({ publisher: P, size: '300x250' }, '2')], { publisher: P, version: 1 });
    expect(data.schema.fields).toEqual(['size']);
    expect(data.values).toEqual({ '300x250': 2, '*': 1 });
    expect(report.pruned).toBe(2);
  });

  it('sets aside values Prebid cannot key on (the delimiter or a * inside)', () => {
    const rules = [rule({ ad_unit: 'a*b' }, '1'), rule({ site: 'x|y' }, '1'), rule({ ad_unit: 'top' }, '2')];
    const { data, report } = prebidFloorExport(rules, { publisher: P, version: 1 });
    expect(data.values).toEqual({ top: 2 });
    expect(report.unexpressible.count).toBe(2);
  });

  it('gives up the closure past the cap and says so', () => {
    const rules = [
      ...['a', 'b', 'c', 'd'].map((s) => rule({ site: `${s}.example` }, '1')),
      ...['banner', 'video', 'native'].map((m) => rule({ publisher: P, media_type: m }, '2')),
    ];
    expect(prebidFloorExport(rules, { publisher: P, version: 1 }).report).toMatchObject({ values: 19, combined: 12, pruned: 0, truncated: false });
    const capped = prebidFloorExport(rules, { publisher: P, version: 1, maxClosure: 10 });
    expect(capped.report).toMatchObject({ values: 7, combined: 0, truncated: true, maxClosure: 10 });
  });

  it('says when nothing is left to export (Prebid refuses an empty file; no floor applies either way)', () => {
    const { data, report } = prebidFloorExport([rule({ publisher: '8' }, '1')], { publisher: P, version: 3 });
    expect(report.empty).toBe(true);
    expect(data.values).toEqual({});
    expect(data.default).toBeUndefined();
    expect(prebidLoad(data).valid).toBe(false);
  });

  it("gives Prebid's answer = ours on random rule sets and bids (Prebid's own validation and matching)", () => {
    let seed = 20;
    const rand = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    const pool: Record<FloorKey, string[]> = {
      publisher: [P, '8'],
      site: ['a.example', 'B.example', 'c.example'],
      ad_unit: ['top', 'side', 'Foot'],
      country: ['ES', 'FR'],
      device: ['phone'],
      media_type: ['banner', 'video', 'native', 'audio'],
      size: ['300x250', '728x90', 'fluid'],
      demand_partner: ['3'],
      deal: ['d-1'],
    };
    const rare: FloorKey[] = ['country', 'device', 'demand_partner', 'deal'];
    const bidPool = {
      domain: ['a.example', 'b.example', 'C.EXAMPLE', 'z.example'],
      adUnitCode: ['top', 'side', 'foot', 'other'],
      mediaType: ['banner', 'video', 'native', 'audio'],
      size: ['300x250', '728x90', '160x600'],
    };
    let checked = 0;
    let combined = 0;
    let pruned = 0;
    for (let round = 0; round < 60; round++) {
      const seen = new Set<string>();
      const rules: FloorRule[] = [];
      const n = 5 + rand(60);
      for (let i = 0; i < n; i++) {
        const keys = Object.fromEntries(
          FLOOR_KEYS.map((k) => [k, rand(rare.includes(k) ? 12 : k === 'publisher' ? 2 : 3) === 0 ? pool[k][rand(pool[k].length)]! : '*']),
        ) as Record<FloorKey, string>;
        if (seen.has(ruleKeyString(keys))) continue;
        seen.add(ruleKeyString(keys));
        rules.push({ id: i, keys, cpm: String(rand(200_000) / 10_000), currency: rand(8) === 0 ? 'EUR' : 'USD', type: rand(6) === 0 ? 'soft' : 'hard' });
      }
      const { data, report } = prebidFloorExport(rules, { publisher: P, version: round });
      expect(report.truncated).toBe(false);
      combined += report.combined;
      const { valid, auction } = prebidLoad(data);
      expect(valid).toBe(!report.empty);
      pruned += report.pruned;
      // Prebid keeps every value we wrote (none is malformed).
      if (valid) expect(Object.keys(auction.values!).length).toBe(report.values);
      for (let q = 0; q < 150; q++) {
        const bid: Bid = {};
        for (const f of PREBID_FIELDS) if (rand(5) > 0) bid[f] = bidPool[f][rand(bidPool[f].length)]!;
        const expected = ours(rules, P, bid, data.currency);
        const got = valid ? prebidFloor(auction, bid) : undefined;
        expect(got, `${JSON.stringify(bid)} on ${JSON.stringify(rules)}`).toBe(expected);
        checked++;
      }
    }
    expect(checked).toBe(60 * 150);
    // The closure did matter on these sets.
    expect(combined).toBeGreaterThan(50);
    expect(pruned).toBeGreaterThan(50);
  });
});
