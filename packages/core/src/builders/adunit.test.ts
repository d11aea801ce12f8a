/**
 * The ad unit generator's pure parts: examples that Prebid's documented shape accepts (the JSON
 * Schema of ../standards/prebid/, with Ajv as the API runs it), code that runs and hands
 * `pbjs.addAdUnits` exactly that array, code read back into the same configuration, each rule at
 * its field and line, and the start from one of our ad units.
 */
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { PREBID_ADUNITS_SCHEMA } from '../standards/prebid/adunits-schema.ts';
import { adUnitsJson, adunitBuilder, applyAdUnitFacts, prebidAdUnit, readAdUnitsArray, type AdUnitGenConfig } from './adunit.ts';

const { $schema: _, ...schema } = PREBID_ADUNITS_SCHEMA;
const validate = new Ajv({ allErrors: true, jsonPointers: true }).compile(schema);
const shapeErrors = (units: unknown) => (validate(units) ? [] : (validate.errors ?? []).map((e) => `${e.dataPath} ${e.message}`));

/** Runs the output as a page would, with a pbjs stub that records what addAdUnits and setConfig receive. */
function runInPage(code: string) {
  const calls: { addAdUnits: unknown[]; setConfig: unknown[] } = { addAdUnits: [], setConfig: [] };
  const pbjs = { que: [] as (() => void)[], addAdUnits: (u: unknown) => calls.addAdUnits.push(u), setConfig: (c: unknown) => calls.setConfig.push(c) };
  // The test runs the generated code as the browser would (the app itself never evaluates code).
  new Function('pbjs', code)(pbjs);
  for (const f of pbjs.que) f();
  return calls;
}

const base = (): AdUnitGenConfig => adunitBuilder.examples()[0]!.config;
const keysAt = (config: AdUnitGenConfig) => adunitBuilder.render(config).issues.map((i) => `${i.severity} ${i.path} ${i.key}`);

describe('ad unit generator', () => {
  it('renders each example as code that hands Prebid its documented ad unit shape', () => {
    for (const e of adunitBuilder.examples()) {
      const out = adunitBuilder.render(e.config);
      expect(out.issues, e.name).toEqual([]);
      expect(out.language).toBe('javascript');
      const calls = runInPage(out.code);
      expect(calls.addAdUnits).toHaveLength(1);
      const units = calls.addAdUnits[0] as { code: string; mediaTypes: Record<string, unknown>; bids: { bidder: string; params: object }[] }[];
      expect(shapeErrors(units), e.name).toEqual([]);
      expect(units).toEqual([prebidAdUnit(e.config)]);
      expect(units[0]!.code).toBe(e.config.code);
      expect(units[0]!.bids.map((b) => b.bidder)).toEqual(e.config.bids.map((b) => b.bidder));
      expect(calls.setConfig).toEqual(e.config.floor ? [{ floors: {} }] : []);
      expect(JSON.parse(adUnitsJson(out.code)!)).toEqual(units);
    }
    expect(shapeErrors([prebidAdUnit(adunitBuilder.defaults())])).toEqual([]);
  });

  it('writes the floor as the price floors module’s ad unit object, exactly', () => {
    const unit = prebidAdUnit(base()) as { floors: unknown };
    expect(unit.floors).toEqual({ currency: 'EUR', schema: { delimiter: '|', fields: ['mediaType'] }, values: { '*': 0.45 } });
    expect(adunitBuilder.render({ ...base(), floor: { cpm: '2.3456', currency: 'USD' } }).code).toContain('"*": 2.3456');
  });

  it('reads its own code back into the same configuration', () => {
    for (const e of adunitBuilder.examples()) expect(adunitBuilder.parse(adunitBuilder.render(e.config).code)).toEqual({ config: e.config, issues: [] });
  });

  it('reads what Prebid also accepts: one size as [w, h], a player size as [[w, h]]', () => {
    const code = `var adUnits = [{"code": "slot-1", "mediaTypes": {"banner": {"sizes": [728, 90]}, "video": {"context": "outstream", "playerSize": [[640, 480]], "mimes": ["video/mp4"]}}, "bids": [{"bidder": "ix", "params": {"siteId": "12"}}]}];`;
    const r = adunitBuilder.parse(code);
    expect(r.issues).toEqual([]);
    expect(r.config!.mediaTypes.banner!.sizes).toEqual([[728, 90]]);
    expect(r.config!.mediaTypes.video!.playerSize).toEqual([640, 480]);
  });

  it('refuses code it cannot read, at the line and column of the problem', () => {
    const jsStyle = 'var adUnits = [{\n  code: "slot-1"\n}];';
    expect(adunitBuilder.parse(jsStyle)).toMatchObject({ issues: [{ key: 'json_builder.syntax.invalid_symbol', line: 2, column: 3, source: 'syntax' }] });
    expect(adunitBuilder.parse('pbjs.addAdUnits([]);').issues[0]).toMatchObject({ key: 'adunit.parse.no_array', line: 1 });
    const two = adunitBuilder.render(base()).code.replace('var adUnits = [', 'var adUnits = [{"code": "b", "mediaTypes": {}, "bids": []},');
    expect(adunitBuilder.parse(two)).toMatchObject({ issues: [{ key: 'adunit.parse.one_unit', params: { count: 2 }, line: 4 }] });
    const legacy = 'var adUnits = [{"code": "n", "mediaTypes": {"native": {"title": {"required": true}}}, "bids": []}];';
    expect(adunitBuilder.parse(legacy)).toMatchObject({ issues: [{ key: 'adunit.native.legacy', path: 'mediaTypes.native' }] });
    const unknown = adunitBuilder.render(base()).code.replace('"code": "div-gpt-ad-home-rectangle",', '"code": "div-gpt-ad-home-rectangle",\n    "sizes": [[300, 250]],');
    const u = adunitBuilder.parse(unknown);
    expect(u.config).toBeUndefined();
    expect(u.issues).toEqual([expect.objectContaining({ path: 'sizes', key: 'error.unknown_field', line: 7 })]);
  });

  it('checks its rules, each at its field and at its line in the code', () => {
    const code = (c: AdUnitGenConfig) => adunitBuilder.render(c).code.split('\n');
    const lineOf = (c: AdUnitGenConfig, path: string) => {
      const i = adunitBuilder.render(c).issues.find((x) => x.path === path)!;
      return code(c)[i.line! - 1]!.trim();
    };
    const noCode = { ...base(), code: '' };
    expect(keysAt(noCode)).toEqual(['error code adunit.code.required']);
    expect(lineOf(noCode, 'code')).toBe('"code": "",');

    expect(keysAt({ ...base(), mediaTypes: {} })).toEqual(['error mediaTypes adunit.media_types.required']);

    const zero: AdUnitGenConfig = { ...base(), mediaTypes: { banner: { sizes: [[300, 250], [0, 90], [300, 250]] } } };
    expect(keysAt(zero)).toEqual(['error mediaTypes.banner.sizes.1 adunit.size.invalid', 'warning mediaTypes.banner.sizes.2 adunit.size.duplicate']);
    expect(adunitBuilder.render(zero).issues[0]!.line).toBe(code(zero).findIndex((l, i) => l.trim() === '[' && code(zero)[i + 1]!.trim() === '0,') + 1);

    const outstream = structuredClone(adunitBuilder.examples()[1]!.config);
    delete outstream.mediaTypes.video!.playerSize;
    expect(keysAt(outstream)).toEqual(['error mediaTypes.video.playerSize adunit.video.player_size_required']);
    expect(lineOf(outstream, 'mediaTypes.video.playerSize')).toBe('"video": {');
    expect(keysAt({ ...outstream, mediaTypes: { video: { ...outstream.mediaTypes.video!, context: 'instream' } } })).toEqual([]);
    const pod = { ...outstream, mediaTypes: { video: { ...outstream.mediaTypes.video!, context: 'adpod' as const, playerSize: [640, 360] as [number, number] } } };
    expect(keysAt(pod)).toEqual(['error mediaTypes.video.adPodDurationSec adunit.video.pod_duration_required', 'error mediaTypes.video.durationRangeSec adunit.video.pod_ranges_required']);

    const bids = (b: AdUnitGenConfig['bids']) => keysAt({ ...base(), bids: b });
    expect(bids([])).toEqual(['error bids adunit.bids.required']);
    expect(bids([{ bidder: 'rubicon', params: { accountId: 14062, siteId: '70608' } }])).toEqual([
      'error bids.0.params.siteId adunit.param.type_integer',
      'error bids.0.params.zoneId adunit.param.required',
    ]);
    expect(bids([{ bidder: 'ix', params: { siteId: 715964 } }])).toEqual(['error bids.0.params.siteId adunit.param.type_string']);
    expect(bids([{ bidder: 'msft', params: { member: 958 } }])).toEqual(['error bids.0.params.inv_code adunit.param.required', 'error bids.0.params adunit.param.one_of']);
    expect(bids([{ bidder: 'msft', params: { member: 958, inv_code: 'home_top' } }])).toEqual([]);
    expect(bids([{ bidder: 'appnexus', params: { placementId: '13144370' } }])).toEqual(['warning bids.0.bidder adunit.bidder.replaced']);
    expect(bids([{ bidder: 'somethingnew', params: {} }])).toEqual([]);
    expect(bids([{ bidder: '1x', params: {} }])).toEqual(['error bids.0.bidder adunit.bidder.invalid']);
    const nativeOnSovrn = { ...adunitBuilder.examples()[2]!.config, bids: [{ bidder: 'sovrn', params: { tagid: '315045' } }] };
    expect(keysAt(nativeOnSovrn)).toEqual(['warning bids.0.bidder adunit.bidder.media_type']);
    expect(lineOf({ ...base(), bids: [{ bidder: 'rubicon', params: { accountId: 1, siteId: 2 } }] }, 'bids.0.params.zoneId')).toBe('"params": {');

    expect(keysAt({ ...base(), floor: { cpm: '0', currency: 'EUR' } })).toEqual(['error floor.cpm adunit.floor.invalid']);
    expect(keysAt({ ...base(), floor: { cpm: '1,50', currency: 'EUR' } })).toEqual(['error floor.cpm adunit.floor.invalid']);

    const native = structuredClone(adunitBuilder.examples()[2]!.config);
    native.mediaTypes.native!.ortb.assets[1] = { id: 1, img: { type: 2 }, title: { len: 0 } };
    expect(keysAt(native)).toEqual([
      'error mediaTypes.native.ortb.assets.1.id adunit.native.asset_id',
      'error mediaTypes.native.ortb.assets.1 adunit.native.asset_kind',
      'error mediaTypes.native.ortb.assets.1.title.len adunit.native.length_invalid',
      'error mediaTypes.native.ortb.assets.1.img.type adunit.native.image_type',
    ]);
  });

  it('refuses a configuration of the wrong shape with the keys the API answers', () => {
    expect(adunitBuilder.configSchema.safeParse({ ...base(), extra: 1 }).success).toBe(false);
    expect(adunitBuilder.configSchema.safeParse({ ...base(), mediaTypes: { banner: { sizes: [[300, '250']] } } }).success).toBe(false);
    expect(adunitBuilder.configSchema.safeParse(base()).success).toBe(true);
    expect(readAdUnitsArray(adunitBuilder.render(base()).code).base).toBeGreaterThan(0);
  });

  it('starts from one of our ad units: its name, media type and size, and a hard floor only', () => {
    const facts = {
      id: 310,
      name: 'dl_home_mpu',
      site: 'www.diariolevante.example',
      publisher: { id: 7, name: 'Diario Levante Digital' },
      media_type: 'banner' as const,
      size: '300x600',
      floor: { cpm: '0.85', currency: 'USD', type: 'hard' as const },
    };
    const next = applyAdUnitFacts(base(), facts);
    expect(next.code).toBe('dl_home_mpu');
    expect(next.mediaTypes.banner!.sizes).toEqual([[300, 600], [300, 250]]);
    expect(next.floor).toEqual({ cpm: '0.85', currency: 'USD' });
    expect(next.bids).toEqual(base().bids);
    expect(applyAdUnitFacts(base(), { ...facts, floor: { ...facts.floor, type: 'soft' } }).floor).toEqual(base().floor);
    const video = applyAdUnitFacts(adunitBuilder.defaults(), { ...facts, media_type: 'video', size: '640x360', floor: null });
    expect(video.mediaTypes.video).toMatchObject({ context: 'outstream', playerSize: [640, 360] });
    expect(keysAt(video)).toEqual([]);
  });
});
