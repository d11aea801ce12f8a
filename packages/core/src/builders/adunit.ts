/**
 * The ad unit generator (`/utils/adunit_generator`; docs/decisions/039-json-and-adunit-builders.md):
 * one Prebid.js ad unit — its code, media types (banner sizes; video context, player size and the
 * OpenRTB video fields Prebid documents; native as OpenRTB Native 1.2 assets, Prebid's current
 * form), bidders with their parameters, and an optional floor (Prebid's price floors module object)
 * — rendered as JavaScript a publisher pastes into the page:
 *
 *   var pbjs = pbjs || {};
 *   pbjs.que = pbjs.que || [];
 *   var adUnits = [ …strict JSON… ];
 *   pbjs.que.push(function () { pbjs.addAdUnits(adUnits); });
 *
 * The array is strict JSON, so the code reads back (parse) with a JSON parser and an integration
 * can take it as it is. The output is checked in the API against a JSON Schema of the ad unit shape
 * Prebid documents (../standards/prebid/, README there); the rules here are the generator's own
 * (a code, a media type, positive sizes, a player size for outstream, each known adapter's
 * required parameters as its Prebid documentation lists them).
 */
import { parseTree, type Node, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { z } from 'zod';
import { CURRENCIES } from '../resources/companies.ts';
import { issuesToErrors } from '../validation-errors.ts';
import type { BuilderDefinition, BuilderIssue } from './common.ts';
import { jsonSyntaxIssues, lineColumnAt, pointerOffset, segmentsPointer, type JsonValue } from './json.ts';

export const VIDEO_CONTEXTS = ['instream', 'outstream', 'adpod'] as const;
export type VideoContext = (typeof VIDEO_CONTEXTS)[number];
/** OpenRTB ad positions Prebid documents for banner and video `pos`. */
export const AD_POSITIONS = [0, 1, 3, 4, 5, 6, 7] as const;
/** OpenRTB 2.6 protocols (1–10: VAST 1.0 … VAST 4.1 Wrapper, DAAST), playback methods (1–7), plcmt (1–4). */
export const VIDEO_PROTOCOLS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
export const PLAYBACK_METHODS = [1, 2, 3, 4, 5, 6, 7] as const;
export const VIDEO_PLCMTS = [1, 2, 3, 4] as const;
export const VIDEO_MIMES = ['video/mp4', 'video/webm', 'video/ogg', 'video/3gpp', 'application/javascript', 'application/x-mpegURL'] as const;
/** OpenRTB Native 1.2 image types (1 icon, 3 main) and data asset types (1 sponsored … 12 CTA text). */
export const NATIVE_IMAGE_TYPES = [1, 3] as const;
export const NATIVE_DATA_TYPES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;
/** The largest pixel size and floor CPM the generator takes. */
export const MAX_PIXELS = 10_000;
export const MAX_FLOOR_CPM = 1000;
export const FLOOR_CPM = /^\d{1,4}(\.\d{1,4})?$/;
/** A Prebid bidder code (adapter or alias): letters, digits, `_`, `-`, `.`. */
export const BIDDER_CODE = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

export type Size = [number, number];

export interface NativeAsset {
  id: number;
  required?: 0 | 1;
  title?: { len: number };
  img?: { type: number; w?: number; h?: number; wmin?: number; hmin?: number };
  data?: { type: number; len?: number };
}

export interface BannerConfig {
  sizes: Size[];
  pos?: number;
}

export interface VideoConfig {
  context: VideoContext;
  playerSize?: Size;
  mimes: string[];
  protocols?: number[];
  playbackmethod?: number[];
  plcmt?: number;
  minduration?: number;
  maxduration?: number;
  startdelay?: number;
  skip?: 0 | 1;
  api?: number[];
  pos?: number;
  /** adpod (long-form) only: the pod's total seconds and the ad durations it takes. */
  adPodDurationSec?: number;
  durationRangeSec?: number[];
  requireExactDuration?: boolean;
}

export interface NativeConfig {
  ortb: { ver: '1.2'; assets: NativeAsset[] };
}

export interface BidConfig {
  bidder: string;
  params: { [key: string]: JsonValue };
}

export interface AdUnitGenConfig {
  /** Prebid's `code`: the slot's div id or GPT ad unit path. */
  code: string;
  mediaTypes: { banner?: BannerConfig; video?: VideoConfig; native?: NativeConfig };
  bids: BidConfig[];
  /** A static floor for every media type: Prebid's floors module object in the output. Money as decimal text. */
  floor?: { cpm: string; currency: (typeof CURRENCIES)[number] };
}

// ---------------------------------------------------------------------------------------------
// Adapters (Prebid's bidder parameter pages, docs.prebid.org/dev-docs/bidders/<code>.html)

export type ParamType = 'integer' | 'string' | 'integer_or_string';

/** One required parameter: its accepted spellings (the first is the one the form writes) and type. */
export interface ParamSpec {
  names: readonly string[];
  type: ParamType;
  example: string | number;
}

export interface PrebidAdapter {
  code: string;
  name: string;
  media: readonly ('banner' | 'video' | 'native')[];
  /** Alternatives: the bid needs every parameter of at least one alternative. */
  required: readonly (readonly ParamSpec[])[];
  /** The adapter Prebid asks to move to, when this one is being retired. */
  replacedBy?: string;
}

const p = (names: string | readonly string[], type: ParamType, example: string | number): ParamSpec => ({
  names: typeof names === 'string' ? [names] : names,
  type,
  example,
});

/** The well-known adapters whose required parameters the generator checks (as documented, August 2026). */
export const PREBID_ADAPTERS: readonly PrebidAdapter[] = [
  { code: 'msft', name: 'Microsoft Monetize', media: ['banner', 'video', 'native'], required: [[p('placement_id', 'integer', 11223344)], [p('member', 'integer', 1234), p('inv_code', 'string', 'abc123')]] },
  {
    code: 'appnexus',
    name: 'AppNexus',
    media: ['banner', 'video', 'native'],
    required: [[p(['placementId', 'placement_id'], 'integer_or_string', 13144370)], [p('member', 'integer_or_string', '12345'), p(['invCode', 'inv_code'], 'string', 'abc123')]],
    replacedBy: 'msft',
  },
  { code: 'rubicon', name: 'Magnite (Rubicon)', media: ['banner', 'video', 'native'], required: [[p('accountId', 'integer', 4934), p('siteId', 'integer', 13945), p('zoneId', 'integer', 23948)]] },
  { code: 'ix', name: 'Index Exchange', media: ['banner', 'video', 'native'], required: [[p('siteId', 'string', '9999990')]] },
  { code: 'pubmatic', name: 'PubMatic', media: ['banner', 'video', 'native'], required: [[p('publisherId', 'string', '156209')]] },
  { code: 'criteo', name: 'Criteo', media: ['banner', 'video', 'native'], required: [[p('networkId', 'integer', 456456)]] },
  { code: 'openx', name: 'OpenX', media: ['banner', 'video', 'native'], required: [[p('unit', 'string', '1611023122'), p('delDomain', 'string', 'publisher-d.openx.net')]] },
  { code: 'triplelift', name: 'TripleLift', media: ['banner', 'video'], required: [[p('inventoryCode', 'string', 'pubname_top_banner')]] },
  { code: 'sovrn', name: 'Sovrn', media: ['banner', 'video'], required: [[p('tagid', 'string', '315045')]] },
  { code: 'sharethrough', name: 'Sharethrough', media: ['banner', 'video', 'native'], required: [[p('pkey', 'string', 'DfFKxpkRGPMS7A9f71CquBgZ')]] },
  { code: 'teads', name: 'Teads', media: ['banner', 'video'], required: [[p('pageId', 'integer', 2453), p('placementId', 'integer', 113244)]] },
  { code: 'smartadserver', name: 'Equativ (Smart AdServer)', media: ['banner', 'video', 'native'], required: [[p('siteId', 'integer', 1234), p('pageId', 'integer', 1234), p('formatId', 'integer', 1234)]] },
];
export const PREBID_ADAPTER_BY_CODE: ReadonlyMap<string, PrebidAdapter> = new Map(PREBID_ADAPTERS.map((a) => [a.code, a]));

const typeOk = (value: unknown, type: ParamType) =>
  type === 'string'
    ? typeof value === 'string' && value.trim() !== ''
    : type === 'integer'
      ? Number.isInteger(value)
      : Number.isInteger(value) || (typeof value === 'string' && value.trim() !== '');

// ---------------------------------------------------------------------------------------------
// Configuration schema (shapes; the rules below give the field messages)

const num = z.number({ error: 'adunit.number_invalid' });
const size = z.tuple([num, num], { error: 'adunit.size.invalid' });
const intList = z.array(num, { error: 'adunit.list_invalid' }).max(20, 'adunit.list_invalid');

const nativeAssetSchema = z.strictObject({
  id: num,
  required: z.union([z.literal(0), z.literal(1)], { error: 'adunit.native.required_flag' }).optional(),
  title: z.strictObject({ len: num }).optional(),
  img: z.strictObject({ type: num, w: num.optional(), h: num.optional(), wmin: num.optional(), hmin: num.optional() }).optional(),
  data: z.strictObject({ type: num, len: num.optional() }).optional(),
});

export const adunitConfigSchema = z.strictObject({
  code: z.string({ error: 'adunit.code.required' }).max(200, 'error.too_long'),
  mediaTypes: z.strictObject({
    banner: z.strictObject({ sizes: z.array(size, { error: 'adunit.banner.sizes_required' }).max(30, 'adunit.list_invalid'), pos: num.optional() }).optional(),
    video: z
      .strictObject({
        context: z.enum(VIDEO_CONTEXTS, { error: 'adunit.video.context_invalid' }),
        playerSize: size.optional(),
        mimes: z.array(z.string({ error: 'adunit.video.mime_invalid' }).max(100, 'error.too_long'), { error: 'adunit.video.mimes_required' }).max(20, 'adunit.list_invalid'),
        protocols: intList.optional(),
        playbackmethod: intList.optional(),
        plcmt: num.optional(),
        minduration: num.optional(),
        maxduration: num.optional(),
        startdelay: num.optional(),
        skip: z.union([z.literal(0), z.literal(1)], { error: 'adunit.video.skip_invalid' }).optional(),
        api: intList.optional(),
        pos: num.optional(),
        adPodDurationSec: num.optional(),
        durationRangeSec: intList.optional(),
        requireExactDuration: z.boolean({ error: 'error.invalid_value' }).optional(),
      })
      .optional(),
    native: z
      .strictObject({
        ortb: z.strictObject({ ver: z.literal('1.2', { error: 'adunit.native.version' }), assets: z.array(nativeAssetSchema).max(20, 'adunit.list_invalid') }),
      })
      .optional(),
  }),
  bids: z
    .array(
      z.strictObject({
        bidder: z.string({ error: 'adunit.bidder.invalid' }).max(64, 'adunit.bidder.invalid'),
        params: z.record(z.string(), z.json(), { error: 'adunit.params_invalid' }),
      }),
      { error: 'adunit.bids.required' },
    )
    .max(30, 'adunit.list_invalid'),
  floor: z.strictObject({ cpm: z.string({ error: 'adunit.floor.invalid' }), currency: z.enum(CURRENCIES, { error: 'error.invalid_value' }) }).optional(),
}) as unknown as z.ZodType<AdUnitGenConfig>;

// ---------------------------------------------------------------------------------------------
// Rules

const issue = (path: string, key: string, params?: Record<string, string | number>, severity: 'error' | 'warning' = 'error'): BuilderIssue => ({
  severity,
  path,
  key,
  ...(params ? { params } : {}),
  source: 'rules',
});
const positiveInt = (v: unknown, max = MAX_PIXELS) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= max;
const sizeOk = (s: readonly unknown[]) => s.length === 2 && positiveInt(s[0]) && positiveInt(s[1]);

/** Everything the generator's rules find in a configuration (paths are the configuration's). */
export function adunitRules(c: AdUnitGenConfig): BuilderIssue[] {
  const out: BuilderIssue[] = [];
  if (c.code.trim() === '') out.push(issue('code', 'adunit.code.required'));
  else if (/\s/.test(c.code)) out.push(issue('code', 'adunit.code.spaces', undefined, 'warning'));
  const { banner, video, native } = c.mediaTypes;
  if (!banner && !video && !native) out.push(issue('mediaTypes', 'adunit.media_types.required'));

  if (banner) {
    if (banner.sizes.length === 0) out.push(issue('mediaTypes.banner.sizes', 'adunit.banner.sizes_required'));
    const seen = new Set<string>();
    banner.sizes.forEach((s, i) => {
      if (!sizeOk(s)) out.push(issue(`mediaTypes.banner.sizes.${i}`, 'adunit.size.invalid', { max: MAX_PIXELS }));
      else if (seen.has(`${s[0]}x${s[1]}`)) out.push(issue(`mediaTypes.banner.sizes.${i}`, 'adunit.size.duplicate', { size: `${s[0]}x${s[1]}` }, 'warning'));
      seen.add(`${s[0]}x${s[1]}`);
    });
    if (banner.pos !== undefined && !(AD_POSITIONS as readonly number[]).includes(banner.pos)) out.push(issue('mediaTypes.banner.pos', 'adunit.pos_invalid'));
  }

  if (video) {
    const v = 'mediaTypes.video';
    if (video.playerSize === undefined) {
      if (video.context === 'outstream') out.push(issue(`${v}.playerSize`, 'adunit.video.player_size_required'));
    } else if (!sizeOk(video.playerSize)) out.push(issue(`${v}.playerSize`, 'adunit.size.invalid', { max: MAX_PIXELS }));
    if (video.mimes.length === 0) out.push(issue(`${v}.mimes`, 'adunit.video.mimes_required'));
    video.mimes.forEach((m, i) => {
      if (!/^[a-z]+\/[A-Za-z0-9.+-]+$/.test(m)) out.push(issue(`${v}.mimes.${i}`, 'adunit.video.mime_invalid'));
    });
    const inList = (field: 'protocols' | 'playbackmethod' | 'api', allowed: readonly number[]) =>
      (video[field] ?? []).forEach((x, i) => {
        if (!allowed.includes(x)) out.push(issue(`${v}.${field}.${i}`, 'adunit.video.value_invalid'));
      });
    inList('protocols', VIDEO_PROTOCOLS);
    inList('playbackmethod', PLAYBACK_METHODS);
    inList('api', [1, 2, 3, 4, 5, 6, 7, 8]);
    if (video.plcmt !== undefined && !(VIDEO_PLCMTS as readonly number[]).includes(video.plcmt)) out.push(issue(`${v}.plcmt`, 'adunit.video.value_invalid'));
    if (video.pos !== undefined && !(AD_POSITIONS as readonly number[]).includes(video.pos)) out.push(issue(`${v}.pos`, 'adunit.pos_invalid'));
    for (const f of ['minduration', 'maxduration'] as const)
      if (video[f] !== undefined && !positiveInt(video[f], 3600)) out.push(issue(`${v}.${f}`, 'adunit.video.duration_invalid'));
    if (video.minduration !== undefined && video.maxduration !== undefined && video.minduration > video.maxduration)
      out.push(issue(`${v}.maxduration`, 'adunit.video.duration_order'));
    if (video.startdelay !== undefined && !(Number.isInteger(video.startdelay) && video.startdelay >= -2)) out.push(issue(`${v}.startdelay`, 'adunit.video.value_invalid'));
    if (video.context === 'adpod') {
      if (video.adPodDurationSec === undefined || !positiveInt(video.adPodDurationSec, 3600)) out.push(issue(`${v}.adPodDurationSec`, 'adunit.video.pod_duration_required'));
      const ranges = video.durationRangeSec ?? [];
      if (ranges.length === 0 || !ranges.every((r) => positiveInt(r, 3600))) out.push(issue(`${v}.durationRangeSec`, 'adunit.video.pod_ranges_required'));
    } else {
      for (const f of ['adPodDurationSec', 'durationRangeSec', 'requireExactDuration'] as const)
        if (video[f] !== undefined) out.push(issue(`${v}.${f}`, 'adunit.video.pod_only'));
    }
  }

  if (native) {
    const n = 'mediaTypes.native.ortb.assets';
    const assets = native.ortb.assets;
    if (assets.length === 0) out.push(issue(n, 'adunit.native.assets_required'));
    const ids = new Set<number>();
    assets.forEach((a, i) => {
      if (!positiveInt(a.id, 1_000_000) || ids.has(a.id)) out.push(issue(`${n}.${i}.id`, 'adunit.native.asset_id'));
      ids.add(a.id);
      const kinds = [a.title, a.img, a.data].filter((k) => k !== undefined).length;
      if (kinds !== 1) out.push(issue(`${n}.${i}`, 'adunit.native.asset_kind'));
      if (a.title && !positiveInt(a.title.len, 1000)) out.push(issue(`${n}.${i}.title.len`, 'adunit.native.length_invalid'));
      if (a.img) {
        if (!(NATIVE_IMAGE_TYPES as readonly number[]).includes(a.img.type)) out.push(issue(`${n}.${i}.img.type`, 'adunit.native.image_type'));
        for (const f of ['w', 'h', 'wmin', 'hmin'] as const)
          if (a.img[f] !== undefined && !positiveInt(a.img[f])) out.push(issue(`${n}.${i}.img.${f}`, 'adunit.size.invalid', { max: MAX_PIXELS }));
      }
      if (a.data) {
        if (!((NATIVE_DATA_TYPES as readonly number[]).includes(a.data.type) || (Number.isInteger(a.data.type) && a.data.type >= 500)))
          out.push(issue(`${n}.${i}.data.type`, 'adunit.native.data_type'));
        if (a.data.len !== undefined && !positiveInt(a.data.len, 10_000)) out.push(issue(`${n}.${i}.data.len`, 'adunit.native.length_invalid'));
      }
    });
  }

  if (c.bids.length === 0) out.push(issue('bids', 'adunit.bids.required'));
  c.bids.forEach((b, i) => {
    const at = `bids.${i}`;
    if (!BIDDER_CODE.test(b.bidder)) {
      out.push(issue(`${at}.bidder`, 'adunit.bidder.invalid'));
      return;
    }
    const adapter = PREBID_ADAPTER_BY_CODE.get(b.bidder);
    if (!adapter) return;
    if (adapter.replacedBy) out.push(issue(`${at}.bidder`, 'adunit.bidder.replaced', { bidder: adapter.code, replacement: adapter.replacedBy }, 'warning'));
    for (const m of ['banner', 'video', 'native'] as const)
      if (c.mediaTypes[m] && !adapter.media.includes(m)) out.push(issue(`${at}.bidder`, 'adunit.bidder.media_type', { bidder: adapter.code, media: m }, 'warning'));
    out.push(...paramIssues(adapter, b.params, at));
  });

  if (c.floor) {
    const cpm = c.floor.cpm.trim();
    if (!FLOOR_CPM.test(cpm) || Number(cpm) <= 0 || Number(cpm) > MAX_FLOOR_CPM) out.push(issue('floor.cpm', 'adunit.floor.invalid', { max: MAX_FLOOR_CPM }));
  }
  return out;
}

/** A bid's parameters against its adapter's documented required ones. */
function paramIssues(adapter: PrebidAdapter, params: Record<string, unknown>, at: string): BuilderIssue[] {
  const present = (spec: ParamSpec) => spec.names.find((n) => params[n] !== undefined && params[n] !== null && params[n] !== '');
  // The alternative the bid is closest to: the first one with any parameter given, else the first.
  const chosen = adapter.required.find((alt) => alt.some((s) => present(s))) ?? adapter.required[0]!;
  const out: BuilderIssue[] = [];
  for (const spec of chosen) {
    const name = present(spec);
    if (!name) out.push(issue(`${at}.params.${spec.names[0]}`, 'adunit.param.required', { bidder: adapter.code, param: spec.names[0]! }));
    else if (!typeOk(params[name], spec.type)) out.push(issue(`${at}.params.${name}`, `adunit.param.type_${spec.type}`, { bidder: adapter.code, param: name }));
  }
  if (out.some((o) => o.key === 'adunit.param.required') && adapter.required.length > 1)
    out.push(
      issue(`${at}.params`, 'adunit.param.one_of', {
        bidder: adapter.code,
        options: adapter.required.map((alt) => alt.map((s) => s.names[0]).join(' + ')).join(' | '),
      }),
    );
  return out;
}

// ---------------------------------------------------------------------------------------------
// Output

/** The Prebid ad unit object for a configuration (key order as Prebid's documentation writes it). */
export function prebidAdUnit(c: AdUnitGenConfig): Record<string, JsonValue> {
  const mediaTypes: Record<string, JsonValue> = {};
  const { banner, video, native } = c.mediaTypes;
  if (banner) mediaTypes.banner = { sizes: banner.sizes, ...(banner.pos !== undefined ? { pos: banner.pos } : {}) };
  if (video) mediaTypes.video = JSON.parse(JSON.stringify(video)) as JsonValue;
  if (native) mediaTypes.native = JSON.parse(JSON.stringify(native)) as JsonValue;
  const unit: Record<string, JsonValue> = { code: c.code, mediaTypes };
  if (c.floor && floorWritten(c))
    unit.floors = { currency: c.floor.currency, schema: { delimiter: '|', fields: ['mediaType'] }, values: { '*': Number(c.floor.cpm) } };
  unit.bids = c.bids.map((b) => ({ bidder: b.bidder, params: b.params }));
  return unit;
}

const ARRAY_START = /\b(?:var|let|const)\s+adUnits\s*=\s*/;

/** The configuration's path as it is in the output array's first ad unit (`floor.cpm` is under `floors`). */
function outputPointer(path: string): string {
  const segments: (string | number)[] = path === '' ? [] : path.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  if (segments[0] === 'floor') return segmentsPointer([0, 'floors', 'values', '*']);
  return segmentsPointer([0, ...segments]);
}

/** Places issues (configuration paths) in the code whose array (parsed as `tree`) starts at `base`. */
function placeIssues(code: string, base: number, tree: Node | undefined, issues: BuilderIssue[]): BuilderIssue[] {
  if (!tree) return issues;
  return issues.map((i) => {
    if (i.line !== undefined) return i;
    const at = lineColumnAt(code, base + pointerOffset(tree, outputPointer(i.path)));
    return { ...i, line: at.line, column: at.column };
  });
}

const floorWritten = (c: AdUnitGenConfig) => c.floor !== undefined && FLOOR_CPM.test(c.floor.cpm.trim());

function renderCode(c: AdUnitGenConfig): string {
  const array = JSON.stringify([prebidAdUnit(c)], null, 2);
  const floors = floorWritten(c);
  return [
    'var pbjs = pbjs || {};',
    'pbjs.que = pbjs.que || [];',
    '',
    `var adUnits = ${array};`,
    '',
    'pbjs.que.push(function () {',
    // Ad unit floors need the price floors module and a floors config, even an empty one (Prebid's floors docs).
    ...(floors ? ['  pbjs.setConfig({ floors: {} });'] : []),
    '  pbjs.addAdUnits(adUnits);',
    '});',
    '',
  ].join('\n');
}

/** The array literal after `var adUnits =`: where it starts, its tree and syntax issues. */
export function readAdUnitsArray(code: string): { base: number; tree?: Node; value?: unknown; issues: BuilderIssue[] } {
  const m = ARRAY_START.exec(code);
  if (!m) {
    const at = lineColumnAt(code, 0);
    return { base: 0, issues: [{ severity: 'error', path: '', key: 'adunit.parse.no_array', line: at.line, column: at.column, source: 'syntax' }] };
  }
  const base = m.index + m[0].length;
  const rest = code.slice(base);
  const errors: ParseError[] = [];
  const tree = parseTree(rest, errors, { disallowComments: false, allowTrailingComma: false });
  // What follows the array (`;` and the que call) is JavaScript: errors past its end are not the array's.
  const end = tree ? tree.offset + tree.length : 0;
  const own = errors.filter((e) => !tree || e.offset < end);
  if (!tree || own.length > 0) {
    const issues = jsonSyntaxIssues(code, own.length > 0 ? own : errors, base);
    return { base, issues: issues.length > 0 ? issues : jsonSyntaxIssues(code, [{ error: 4, offset: 0, length: 0 }], base) };
  }
  if (tree.type !== 'array') {
    const at = lineColumnAt(code, base);
    return { base, issues: [{ severity: 'error', path: '', key: 'adunit.parse.no_array', line: at.line, column: at.column, source: 'syntax' }] };
  }
  return { base, tree, value: JSON.parse(rest.slice(tree.offset, end)) as unknown, issues: [] };
}

/** Prebid's ad unit (as the output writes it, or as Prebid also accepts it) back to a configuration candidate. */
function candidateFrom(unit: Record<string, unknown>): { candidate: Record<string, unknown>; issues: BuilderIssue[] } {
  const issues: BuilderIssue[] = [];
  const { floors, ...rest } = unit;
  const candidate: Record<string, unknown> = { ...rest };
  const mt = unit.mediaTypes as Record<string, Record<string, unknown>> | undefined;
  if (mt && typeof mt === 'object') {
    const media = { ...mt };
    // Prebid takes one size as [w, h] and a player size as [[w, h]]; the configuration keeps [[w, h]…] and [w, h].
    const banner = media.banner;
    if (banner && Array.isArray(banner.sizes) && banner.sizes.length === 2 && banner.sizes.every((x) => typeof x === 'number'))
      media.banner = { ...banner, sizes: [banner.sizes] };
    const video = media.video;
    if (video && Array.isArray(video.playerSize) && video.playerSize.length === 1 && Array.isArray(video.playerSize[0]))
      media.video = { ...video, playerSize: video.playerSize[0] };
    if (video && video.mimes === undefined) media.video = { ...(media.video as object), mimes: [] };
    const native = media.native;
    if (native && typeof native === 'object' && !('ortb' in native)) {
      issues.push({ severity: 'error', path: 'mediaTypes.native', key: 'adunit.native.legacy', source: 'rules' });
      delete media.native;
    }
    candidate.mediaTypes = media;
  }
  if (floors !== undefined) {
    const f = floors as { currency?: unknown; schema?: { fields?: unknown }; values?: Record<string, unknown>; default?: unknown };
    const values = f && typeof f === 'object' && f.values && typeof f.values === 'object' ? Object.entries(f.values) : [];
    const star = values.length === 1 && values[0]![0] === '*' && typeof values[0]![1] === 'number' ? (values[0]![1] as number) : undefined;
    if (star === undefined || JSON.stringify(f.schema?.fields) !== '["mediaType"]')
      issues.push({ severity: 'error', path: 'floor', key: 'adunit.floor.unsupported', source: 'rules' });
    else candidate.floor = { cpm: String(star), currency: f.currency ?? 'USD' };
  }
  return { candidate, issues };
}

function parseAdUnits(code: string): { config?: AdUnitGenConfig; issues: BuilderIssue[] } {
  const read = readAdUnitsArray(code);
  if (read.value === undefined) return { issues: read.issues };
  const units = read.value as unknown[];
  if (units.length !== 1 || units[0] === null || typeof units[0] !== 'object' || Array.isArray(units[0])) {
    const at = lineColumnAt(code, read.base);
    return { issues: [{ severity: 'error', path: '', key: 'adunit.parse.one_unit', params: { count: units.length }, line: at.line, column: at.column, source: 'syntax' }] };
  }
  const { candidate, issues } = candidateFrom(units[0] as Record<string, unknown>);
  const parsed = adunitConfigSchema.safeParse(candidate);
  if (!parsed.success) {
    const shapeIssues = Object.entries(issuesToErrors(parsed.error.issues)).map(([path, key]) => issue(path === '_' ? '' : path, key));
    return { issues: placeIssues(code, read.base, read.tree, [...issues, ...shapeIssues]) };
  }
  if (issues.length > 0) return { issues: placeIssues(code, read.base, read.tree, issues) };
  return { config: parsed.data, issues: placeIssues(code, read.base, read.tree, adunitRules(parsed.data)) };
}

const EXAMPLES: { name: string; config: AdUnitGenConfig }[] = [
  {
    name: 'Display: homepage rectangle, Magnite and Index Exchange',
    config: {
      code: 'div-gpt-ad-home-rectangle',
      mediaTypes: { banner: { sizes: [[300, 250], [300, 600]], pos: 1 } },
      bids: [
        { bidder: 'rubicon', params: { accountId: 14062, siteId: 70608, zoneId: 498816 } },
        { bidder: 'ix', params: { siteId: '715964' } },
      ],
      floor: { cpm: '0.45', currency: 'EUR' },
    },
  },
  {
    name: 'Outstream video in article, 640x360',
    config: {
      code: 'div-article-outstream',
      mediaTypes: {
        video: {
          context: 'outstream',
          playerSize: [640, 360],
          mimes: ['video/mp4', 'video/webm'],
          protocols: [2, 3, 5, 6, 7, 8],
          playbackmethod: [6],
          plcmt: 4,
          minduration: 5,
          maxduration: 30,
          skip: 1,
          api: [2, 7],
        },
      },
      bids: [
        { bidder: 'pubmatic', params: { publisherId: '156209', adSlot: 'article_outstream@640x360' } },
        { bidder: 'msft', params: { placement_id: 13232385 } },
      ],
    },
  },
  {
    name: 'Native in-feed card',
    config: {
      code: 'div-feed-native-1',
      mediaTypes: {
        native: {
          ortb: {
            ver: '1.2',
            assets: [
              { id: 1, required: 1, title: { len: 80 } },
              { id: 2, required: 1, img: { type: 3, wmin: 300, hmin: 157 } },
              { id: 3, required: 0, img: { type: 1, w: 50, h: 50 } },
              { id: 4, required: 1, data: { type: 1, len: 30 } },
              { id: 5, required: 0, data: { type: 2, len: 140 } },
            ],
          },
        },
      },
      bids: [
        { bidder: 'sharethrough', params: { pkey: 'DfFKxpkRGPMS7A9f71CquBgZ' } },
        { bidder: 'criteo', params: { networkId: 4213 } },
      ],
    },
  },
];

export const adunitBuilder: BuilderDefinition<AdUnitGenConfig> = {
  kind: 'adunit',
  subjects: ['ad_unit', 'publisher'],
  configSchema: adunitConfigSchema,
  defaults: () => ({
    code: 'div-gpt-ad-1',
    mediaTypes: { banner: { sizes: [[300, 250]] } },
    bids: [{ bidder: 'msft', params: { placement_id: 13144370 } }],
  }),
  render: (config) => {
    const code = renderCode(config);
    const read = readAdUnitsArray(code);
    return {
      code,
      language: 'javascript',
      filename: `${(config.code.trim() || 'adunit').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80)}-prebid.js`,
      mime: 'text/javascript',
      issues: placeIssues(code, read.base, read.tree, adunitRules(config)),
    };
  },
  parse: parseAdUnits,
  examples: () => structuredClone(EXAMPLES),
};

/** The output's ad units as JSON (the array between `var adUnits =` and `;`), for integrations. */
export function adUnitsJson(code: string): string | null {
  const read = readAdUnitsArray(code);
  return read.value === undefined ? null : JSON.stringify(read.value, null, 2);
}

// ---------------------------------------------------------------------------------------------
// Starting from one of our ad units (GET /v1/builders/adunit/ad-units/:id)

/** What the exchange knows about an ad unit, for the generator to start from. */
export interface AdUnitFacts {
  id: number;
  name: string;
  site: string;
  publisher: { id: number; name: string };
  media_type: 'banner' | 'video' | 'native' | 'audio' | null;
  /** `300x250`, or `fluid`, or null. */
  size: string | null;
  /** The floor the floors screen resolves for the unit (its publisher, site, name, media type, size); null without one or without permission to read floors. */
  floor: { cpm: string; currency: string; type: 'hard' | 'soft' } | null;
}

export const DEFAULT_NATIVE_ASSETS: NativeAsset[] = [
  { id: 1, required: 1, title: { len: 80 } },
  { id: 2, required: 1, img: { type: 3, wmin: 300, hmin: 157 } },
  { id: 3, required: 1, data: { type: 1, len: 30 } },
];

/**
 * The configuration with the ad unit's name as the code, its media type and size, and its floor
 * when it is a hard floor in a currency Prebid's file may use (a soft floor is our server's only:
 * Prebid's floors are always enforced). Bidders are kept.
 */
export function applyAdUnitFacts(config: AdUnitGenConfig, facts: AdUnitFacts): AdUnitGenConfig {
  const next: AdUnitGenConfig = structuredClone(config);
  next.code = facts.name;
  const m = facts.size ? /^(\d+)x(\d+)$/.exec(facts.size) : null;
  const size: Size | null = m ? [Number(m[1]), Number(m[2])] : null;
  if (facts.media_type === 'banner') {
    const sizes = next.mediaTypes.banner?.sizes ?? [];
    const rest = size ? sizes.filter((s) => s[0] !== size[0] || s[1] !== size[1]) : sizes;
    next.mediaTypes.banner = { ...next.mediaTypes.banner, sizes: size ? [size, ...rest] : rest };
  } else if (facts.media_type === 'video') {
    const video = next.mediaTypes.video ?? { context: 'outstream', mimes: ['video/mp4'], protocols: [2, 3, 5, 6, 7, 8], playbackmethod: [6], plcmt: 4 };
    next.mediaTypes.video = { ...video, ...(size ? { playerSize: size } : {}) };
  } else if (facts.media_type === 'native') {
    next.mediaTypes.native ??= { ortb: { ver: '1.2', assets: structuredClone(DEFAULT_NATIVE_ASSETS) } };
  }
  const currencies: readonly string[] = CURRENCIES;
  if (facts.floor && facts.floor.type === 'hard' && currencies.includes(facts.floor.currency) && Number(facts.floor.cpm) > 0)
    next.floor = { cpm: facts.floor.cpm, currency: facts.floor.currency as (typeof CURRENCIES)[number] };
  return next;
}
