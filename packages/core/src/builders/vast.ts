/**
 * The VAST builder (issue 25, `/utils/vastbuilder`; docs/decisions/038-vast-builder.md): one ad,
 * InLine or Wrapper, with AdSystem, AdTitle, Impression, Error, AdServingId, Pricing,
 * AdVerifications and linear creatives (Duration, MediaFiles, TrackingEvents, VideoClicks,
 * UniversalAdId), written for VAST 4.2, 4.1 or 3.0.
 *
 * The element order is the IAB XSDs' (`xs:sequence`), not the order the specification's prose
 * lists them in: e.g. in 4.x an InLine is AdSystem, Error*, Extensions?, Impression+, Pricing?,
 * (ViewableImpression?), AdServingId, AdTitle, AdVerifications?, …, Creatives (the base type's
 * sequence first, then the extension's), while 3.0's draft XSD has AdTitle right after AdSystem and
 * Error after Survey. Each version's order is written out below where it is built. The API
 * validates the output against the XSD of its version (apps/api/src/modules/builders/vast-xsd.ts).
 *
 * VAST 3.0 has no AdVerifications element: its verifications go in `<Extensions><Extension
 * type="AdVerifications">`, as the IAB's Open Measurement guidance does for VAST before 4.1.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { z } from 'zod';
import type { BuilderDefinition, BuilderIssue, BuilderOutput } from './common.ts';

export const VAST_VERSIONS = ['4.2', '4.1', '3.0'] as const;
export type VastVersion = (typeof VAST_VERSIONS)[number];
export const VAST_AD_TYPES = ['inline', 'wrapper'] as const;
export type VastAdType = (typeof VAST_AD_TYPES)[number];
export const VAST_PRICING_MODELS = ['CPM', 'CPC', 'CPE', 'CPV'] as const;
export const VAST_DELIVERIES = ['progressive', 'streaming'] as const;
/** The 4.x documents' namespace (the 3.0 draft XSD has none). */
export const VAST_NAMESPACE = 'http://www.iab.com/VAST';

/** Linear tracking events by version: the XSDs' enumerations (TrackingEvents_type). */
const EVENTS_41 = [
  'mute', 'unmute', 'pause', 'resume', 'rewind', 'skip', 'playerExpand', 'playerCollapse', 'loaded', 'start', 'firstQuartile', 'midpoint',
  'thirdQuartile', 'complete', 'progress', 'closeLinear', 'creativeView', 'acceptInvitation', 'adExpand', 'adCollapse', 'minimize', 'close',
  'overlayViewDuration', 'otherAdInteraction',
] as const;
export const VAST_TRACKING_EVENTS: Record<VastVersion, readonly string[]> = {
  '4.2': [...EVENTS_41, 'interactiveStart'],
  '4.1': EVENTS_41,
  '3.0': [
    'creativeView', 'start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete', 'mute', 'unmute', 'pause', 'rewind', 'resume', 'fullscreen',
    'exitFullscreen', 'expand', 'collapse', 'acceptInvitation', 'close', 'skip', 'progress', 'acceptInvitationLinear', 'closeLinear',
  ],
};

/**
 * The IAB's VAST macros (the names of `macros` in the IAB Tech Lab's macros-data.json, VAST 4.x
 * macro list, read from ../shared/standards/vast/macros-data.json; 3.0's [ERRORCODE],
 * [CONTENTPLAYHEAD], [CACHEBUSTING] and [ASSETURI] are among them).
 */
export const VAST_MACROS = [
  'TIMESTAMP', 'CACHEBUSTING', 'CONTENTPLAYHEAD', 'MEDIAPLAYHEAD', 'BREAKPOSITION', 'BLOCKEDADCATEGORIES', 'ADCATEGORIES', 'ADCOUNT',
  'TRANSACTIONID', 'PLACEMENTTYPE', 'ADTYPE', 'UNIVERSALADID', 'BREAKMAXDURATION', 'BREAKMAXADS', 'BREAKMINADLENGTH', 'BREAKMAXADLENGTH', 'IFA',
  'IFATYPE', 'CLIENTUA', 'SERVERUA', 'DEVICEUA', 'SERVERSIDE', 'DEVICEIP', 'LATLONG', 'DOMAIN', 'PAGEURL', 'APPBUNDLE', 'VASTVERSIONS',
  'APIFRAMEWORKS', 'EXTENSIONS', 'VERIFICATIONVENDORS', 'OMIDPARTNER', 'MEDIAMIME', 'PLAYERCAPABILITIES', 'CLICKTYPE', 'PLAYERSTATE',
  'INVENTORYSTATE', 'PLAYERSIZE', 'ADPLAYHEAD', 'ASSETURI', 'CONTENTID', 'CONTENTURI', 'PODSEQUENCE', 'ADSERVINGID', 'CLICKPOS', 'ERRORCODE',
  'REASON', 'LIMITADTRACKING', 'REGULATIONS', 'GDPRCONSENT', 'STOREID', 'STOREURL', 'PLAYBACKMETHODS', 'CONTENTCAT', 'GPPSTRING', 'GPPSECTIONID',
  'DSAREQUIRED', 'DSAPARAMS', 'DSAPUBRENDER',
] as const;

// ---------------------------------------------------------------------------------------------
// The configuration

const text = (max: number) => z.string().max(max);
const count = z.number().int().min(0).max(1_000_000_000).nullable();

export const vastMediaFileSchema = z.strictObject({
  delivery: z.enum(VAST_DELIVERIES),
  /** MIME type: video/mp4, video/webm, application/x-mpegURL… */
  type: text(100),
  width: count,
  height: count,
  /** Kbit/s. */
  bitrate: count,
  codec: text(100),
  url: text(4096),
});
export type VastMediaFile = z.infer<typeof vastMediaFileSchema>;

export const vastTrackingSchema = z.strictObject({
  /** One of the version's events (a rule checks it, so a loaded document's unknown event reaches the form). */
  event: text(60),
  url: text(4096),
  /** HH:MM:SS(.mmm) or n%: required for `progress`. */
  offset: text(20),
});
export type VastTracking = z.infer<typeof vastTrackingSchema>;

export const vastClickTrackingSchema = z.strictObject({ id: text(200), url: text(4096) });

export const vastLinearSchema = z.strictObject({
  /** HH:MM:SS or HH:MM:SS.mmm (xs:time); InLine only. */
  duration: text(20),
  /** When the ad becomes skippable (HH:MM:SS(.mmm) or n%); empty: not skippable. */
  skipoffset: text(20),
  media_files: z.array(vastMediaFileSchema).max(20),
  tracking: z.array(vastTrackingSchema).max(100),
  /** InLine only. */
  click_through: text(4096),
  click_tracking: z.array(vastClickTrackingSchema).max(20),
});
export type VastLinear = z.infer<typeof vastLinearSchema>;

export const vastCreativeSchema = z.strictObject({
  id: text(200),
  sequence: z.number().int().min(1).max(1000).nullable(),
  /** The ad-id attribute (4.x adId, 3.0 AdID). */
  ad_id: text(200),
  /** 4.x InLine (required there): the registry (ad-id.org, clearcast.co.uk, …) and the creative's id in it. */
  universal_ad_id: z.strictObject({ registry: text(200), value: text(200) }),
  linear: vastLinearSchema,
});
export type VastCreative = z.infer<typeof vastCreativeSchema>;

export const vastVerificationSchema = z.strictObject({
  /** `company.com-omid` as Open Measurement names vendors. */
  vendor: text(200),
  js_url: text(4096),
  api_framework: text(50),
  browser_optional: z.boolean(),
  /** Passed as is to the verification script (CDATA). */
  parameters: text(10_000),
  /** Pinged with [REASON] when the script could not run (event verificationNotExecuted). */
  not_executed_url: text(4096),
});
export type VastVerification = z.infer<typeof vastVerificationSchema>;

export const vastConfigSchema = z.strictObject({
  version: z.enum(VAST_VERSIONS),
  ad_type: z.enum(VAST_AD_TYPES),
  ad_id: text(200),
  /** Position in an ad pod. */
  sequence: z.number().int().min(1).max(1000).nullable(),
  ad_system: z.strictObject({ name: text(200), version: text(50) }),
  /** InLine only. */
  ad_title: text(500),
  /** 4.x InLine only (required there). */
  ad_serving_id: text(200),
  impressions: z.array(z.strictObject({ id: text(200), url: text(4096) })).max(50),
  error_urls: z.array(text(4096)).max(50),
  /** A decimal string (never a float) in an ISO 4217 currency. */
  pricing: z.strictObject({ model: z.enum(VAST_PRICING_MODELS), currency: text(10), value: text(40) }).nullable(),
  verifications: z.array(vastVerificationSchema).max(20),
  /** Wrapper only. Null attributes are left out (the player's default applies). */
  wrapper: z.strictObject({
    tag_uri: text(4096),
    follow_additional_wrappers: z.boolean().nullable(),
    allow_multiple_ads: z.boolean().nullable(),
    fallback_on_no_ad: z.boolean().nullable(),
  }),
  creatives: z.array(vastCreativeSchema).max(10),
});
export type VastConfig = z.infer<typeof vastConfigSchema>;

export const emptyLinear = (): VastLinear => ({ duration: '', skipoffset: '', media_files: [], tracking: [], click_through: '', click_tracking: [] });
export const emptyCreative = (): VastCreative => ({ id: '', sequence: null, ad_id: '', universal_ad_id: { registry: 'unknown', value: 'unknown' }, linear: emptyLinear() });
export const emptyMediaFile = (): VastMediaFile => ({ delivery: 'progressive', type: 'video/mp4', width: null, height: null, bitrate: null, codec: '', url: '' });
export const emptyVerification = (): VastVerification => ({ vendor: '', js_url: '', api_framework: 'omid', browser_optional: true, parameters: '', not_executed_url: '' });
const emptyWrapper = (): VastConfig['wrapper'] => ({ tag_uri: '', follow_additional_wrappers: null, allow_multiple_ads: null, fallback_on_no_ad: null });

// ---------------------------------------------------------------------------------------------
// Rules

const TIME = /^([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.(\d{3}))?$/;
/** The XSDs' pattern for skipoffset and tracking offsets. */
const OFFSET = /^(\d{2}:[0-5]\d:[0-5]\d(\.\d\d\d)?|1?\d?\d(\.?\d)*%)$/;
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;.*)?$/i;
const DECIMAL = /^\d{1,12}(\.\d{1,6})?$/;

/** Milliseconds of an HH:MM:SS(.mmm) time, or null. */
export function vastTimeMs(value: string): number | null {
  const m = TIME.exec(value.trim());
  if (!m) return null;
  return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + (m[5] ? Number(m[5]) : 0);
}

/**
 * An absolute http(s) URL without spaces. IAB macros ([CACHEBUSTING]) may stand anywhere, the host
 * included ([DOMAIN]); the core has no URL class (no DOM, no Node), so this is a shape check.
 */
export function isVastUrl(value: string): boolean {
  const v = value.trim();
  const m = /^https?:\/\/([^/?#\s]+)([/?#][^\s]*)?$/i.exec(v);
  if (!m) return false;
  const host = m[1]!.replace(/\[[A-Z][A-Z0-9_]*\]/g, 'macro');
  return /^([a-z0-9-]+\.)*[a-z0-9-]+(:\d{1,5})?$/i.test(host) || /^\[[0-9a-f:.]+\](:\d{1,5})?$/i.test(m[1]!);
}

let currencies: Set<string> | null = null;
/** ISO 4217 codes (the runtime's Intl list: no table copied into the code). */
export function isIsoCurrency(code: string): boolean {
  // A runtime without the list (older browsers) checks the shape only; the API's Node has it.
  if (typeof Intl.supportedValuesOf !== 'function') return /^[A-Z]{3}$/.test(code);
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(code);
}

const isInline = (c: VastConfig) => c.ad_type === 'inline';
const is4 = (v: VastVersion) => v !== '3.0';

/** The rules' problems, at configuration paths (the form shows each at its field). */
export function vastRuleIssues(c: VastConfig): BuilderIssue[] {
  const issues: BuilderIssue[] = [];
  const add = (path: string, key: string, params?: Record<string, string | number>, severity: 'error' | 'warning' = 'error') =>
    issues.push({ severity, path, key, ...(params ? { params } : {}), source: 'rules' });
  const required = (path: string, value: string) => {
    if (value.trim() === '') add(path, 'vast.rule.required');
    return value.trim() !== '';
  };
  const url = (path: string, value: string, optional = false) => {
    if (value.trim() === '') {
      if (!optional) add(path, 'vast.rule.required');
    } else if (!isVastUrl(value)) add(path, 'vast.rule.url');
  };
  const offset = (path: string, value: string) => {
    const v = value.trim();
    if (v === '') return;
    if (!OFFSET.test(v)) add(path, 'vast.rule.offset');
    else if (v.endsWith('%') && Number(v.slice(0, -1)) > 100) add(path, 'vast.rule.percent_range');
  };
  const inline = isInline(c);
  const v = c.version;

  required('ad_system.name', c.ad_system.name);
  if (inline) required('ad_title', c.ad_title);
  if (inline && is4(v)) required('ad_serving_id', c.ad_serving_id);
  if (c.impressions.length === 0) add('impressions', 'vast.rule.impression_required');
  c.impressions.forEach((imp, i) => {
    url(`impressions.${i}.url`, imp.url);
    if (v === '3.0' && !inline && imp.id.trim() !== '') add(`impressions.${i}.id`, 'vast.rule.impression_id_30_wrapper', undefined, 'warning');
  });
  c.error_urls.forEach((e, i) => url(`error_urls.${i}`, e));
  if (v === '3.0' && c.error_urls.length > 1) add('error_urls.1', 'vast.rule.one_error_30');

  if (c.pricing) {
    if (v === '3.0' && !inline) add('pricing', 'vast.rule.pricing_wrapper_30');
    const cur = c.pricing.currency.trim();
    if (cur === '') add('pricing.currency', 'vast.rule.required');
    else if (!/^[A-Z]{3}$/.test(cur) || !isIsoCurrency(cur)) add('pricing.currency', 'vast.rule.currency');
    const val = c.pricing.value.trim();
    if (val === '') add('pricing.value', 'vast.rule.required');
    else if (!DECIMAL.test(val)) add('pricing.value', 'vast.rule.price');
  }

  c.verifications.forEach((ver, i) => {
    required(`verifications.${i}.vendor`, ver.vendor);
    url(`verifications.${i}.js_url`, ver.js_url);
    required(`verifications.${i}.api_framework`, ver.api_framework);
    url(`verifications.${i}.not_executed_url`, ver.not_executed_url, true);
  });

  if (!inline) {
    url('wrapper.tag_uri', c.wrapper.tag_uri);
    if (v === '3.0')
      for (const k of ['follow_additional_wrappers', 'allow_multiple_ads', 'fallback_on_no_ad'] as const)
        if (c.wrapper[k] !== null) add(`wrapper.${k}`, 'vast.rule.wrapper_attribute_30', undefined, 'warning');
  }

  if (inline && c.creatives.length === 0) add('creatives', 'vast.rule.creative_required');
  const events = VAST_TRACKING_EVENTS[v];
  c.creatives.forEach((cr, ci) => {
    const p = `creatives.${ci}`;
    const lin = cr.linear;
    if (inline && is4(v)) {
      required(`${p}.universal_ad_id.registry`, cr.universal_ad_id.registry);
      required(`${p}.universal_ad_id.value`, cr.universal_ad_id.value);
    }
    let durationMs: number | null = null;
    if (inline) {
      if (required(`${p}.linear.duration`, lin.duration)) {
        durationMs = vastTimeMs(lin.duration);
        if (durationMs === null) add(`${p}.linear.duration`, 'vast.rule.duration');
        else if (durationMs === 0) add(`${p}.linear.duration`, 'vast.rule.duration_zero');
      }
      if (lin.media_files.length === 0) add(`${p}.linear.media_files`, 'vast.rule.media_required');
      lin.media_files.forEach((mf, mi) => {
        const mp = `${p}.linear.media_files.${mi}`;
        if (required(`${mp}.type`, mf.type) && !MIME.test(mf.type.trim())) add(`${mp}.type`, 'vast.rule.mime');
        if (mf.width === null || mf.width <= 0) add(`${mp}.width`, 'vast.rule.dimension');
        if (mf.height === null || mf.height <= 0) add(`${mp}.height`, 'vast.rule.dimension');
        url(`${mp}.url`, mf.url);
      });
      url(`${p}.linear.click_through`, lin.click_through, true);
      const skip = lin.skipoffset.trim();
      offset(`${p}.linear.skipoffset`, skip);
      const skipMs = vastTimeMs(skip);
      if (skipMs !== null && durationMs !== null && durationMs > 0 && skipMs >= durationMs) add(`${p}.linear.skipoffset`, 'vast.rule.skipoffset_after_end', { duration: lin.duration.trim() });
    }
    lin.tracking.forEach((t, ti) => {
      const tp = `${p}.linear.tracking.${ti}`;
      if (required(`${tp}.event`, t.event) && !events.includes(t.event.trim())) add(`${tp}.event`, 'vast.rule.event_unknown', { event: t.event.trim(), version: v });
      url(`${tp}.url`, t.url);
      if (t.event.trim() === 'progress' && t.offset.trim() === '') add(`${tp}.offset`, 'vast.rule.offset_required');
      offset(`${tp}.offset`, t.offset);
    });
    lin.click_tracking.forEach((ct, i) => url(`${p}.linear.click_tracking.${i}.url`, ct.url));
  });
  return issues;
}

// ---------------------------------------------------------------------------------------------
// Render: a tiny XML tree, written with the lines each configuration path lands on

interface XmlNode {
  name: string;
  attrs?: [string, string | number | boolean | null | undefined][];
  /** Escaped text content. */
  text?: string;
  /** CDATA content (URLs, parameters). */
  cdata?: string;
  children?: (XmlNode | null | false)[];
  /** The configuration path this element writes (to place the XSD's findings at form fields). */
  path?: string;
}

// eslint-disable-next-line no-control-regex -- these are exactly the characters XML 1.0 cannot hold
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const escapeText = (s: string) => s.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
/** CDATA cannot contain `]]>`: it is split across two sections. */
const cdata = (s: string) => `<![CDATA[${s.replace(NOT_XML, '').replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;

function el(name: string, attrs: XmlNode['attrs'], content?: { text?: string; cdata?: string; children?: XmlNode['children'] }, path?: string): XmlNode {
  return { name, ...(attrs ? { attrs } : {}), ...content, ...(path ? { path } : {}) };
}

function serialize(root: XmlNode): { code: string; lines: Map<number, string> } {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const lines = new Map<number, string>();
  const write = (n: XmlNode, depth: number) => {
    const pad = '  '.repeat(depth);
    const attrs = (n.attrs ?? [])
      .filter(([, v]) => v !== null && v !== undefined && v !== '')
      .map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`)
      .join('');
    if (n.path) lines.set(out.length + 1, n.path);
    const kids = (n.children ?? []).filter((k): k is XmlNode => Boolean(k));
    if (kids.length > 0) {
      out.push(`${pad}<${n.name}${attrs}>`);
      for (const k of kids) write(k, depth + 1);
      out.push(`${pad}</${n.name}>`);
    } else if (n.cdata !== undefined) out.push(`${pad}<${n.name}${attrs}>${cdata(n.cdata)}</${n.name}>`);
    else if (n.text !== undefined && n.text !== '') out.push(`${pad}<${n.name}${attrs}>${escapeText(n.text)}</${n.name}>`);
    else out.push(`${pad}<${n.name}${attrs}/>`);
  };
  write(root, 0);
  return { code: `${out.join('\n')}\n`, lines };
}

const trimmed = (s: string) => s.trim();
const urlEl = (name: string, url: string, path: string, attrs?: XmlNode['attrs']) => el(name, attrs, { cdata: trimmed(url) }, path);

function verificationNodes(c: VastConfig): XmlNode[] {
  return c.verifications.map((ver, i) =>
    el(
      'Verification',
      [['vendor', ver.vendor.trim()]],
      {
        children: [
          urlEl('JavaScriptResource', ver.js_url, `verifications.${i}.js_url`, [
            ['apiFramework', ver.api_framework.trim()],
            ['browserOptional', ver.browser_optional],
          ]),
          ver.not_executed_url.trim() !== '' &&
            el('TrackingEvents', undefined, {
              children: [urlEl('Tracking', ver.not_executed_url, `verifications.${i}.not_executed_url`, [['event', 'verificationNotExecuted']])],
            }),
          ver.parameters.trim() !== '' && el('VerificationParameters', undefined, { cdata: ver.parameters }, `verifications.${i}.parameters`),
        ],
      },
      `verifications.${i}.vendor`,
    ),
  );
}

function creativeNode(c: VastConfig, cr: VastCreative, ci: number): XmlNode {
  const v = c.version;
  const inline = isInline(c);
  const p = `creatives.${ci}`;
  const lin = cr.linear;
  const tracking =
    lin.tracking.length > 0 &&
    el('TrackingEvents', undefined, {
      children: lin.tracking.map((t, ti) =>
        urlEl('Tracking', t.url, `${p}.linear.tracking.${ti}.event`, [
          ['event', t.event.trim()],
          ['offset', t.offset.trim()],
        ]),
      ),
    });
  const clickTracking = lin.click_tracking.map((ct, i) => urlEl('ClickTracking', ct.url, `${p}.linear.click_tracking.${i}.url`, [['id', ct.id.trim()]]));
  const clickThrough = inline && lin.click_through.trim() !== '' && urlEl('ClickThrough', lin.click_through, `${p}.linear.click_through`);
  // 4.2: ClickTracking*, ClickThrough?, CustomClick*; 4.1 InLine: ClickTracking*, CustomClick*, ClickThrough?
  // (the same for what the form holds); 3.0: ClickThrough?, ClickTracking*, CustomClick*.
  const clicks = v === '3.0' ? [clickThrough, ...clickTracking] : [...clickTracking, clickThrough];
  const videoClicks = clicks.some(Boolean) && el('VideoClicks', undefined, { children: clicks }, `${p}.linear.click_through`);
  const duration = el('Duration', undefined, { text: lin.duration.trim() }, `${p}.linear.duration`);
  const mediaFiles = el(
    'MediaFiles',
    undefined,
    {
      children: lin.media_files.map((mf, mi) =>
        urlEl('MediaFile', mf.url, `${p}.linear.media_files.${mi}.url`, [
          ['delivery', mf.delivery],
          ['type', mf.type.trim()],
          ['width', mf.width],
          ['height', mf.height],
          ['codec', mf.codec.trim()],
          ['bitrate', mf.bitrate],
        ]),
      ),
    },
    `${p}.linear.media_files`,
  );
  const skip: XmlNode['attrs'] = inline ? [['skipoffset', lin.skipoffset.trim()]] : undefined;
  let linear: XmlNode;
  if (v === '3.0')
    // 3.0 InLine Linear: Icons?, CreativeExtensions?, Duration, TrackingEvents?, AdParameters?, VideoClicks?, MediaFiles?
    // 3.0 Wrapper Linear: CreativeExtensions?, Icons?, TrackingEvents?, VideoClicks?
    linear = el('Linear', skip, { children: inline ? [duration, tracking, videoClicks, mediaFiles] : [tracking, videoClicks] });
  // 4.x InLine Linear: Icons?, TrackingEvents?, AdParameters?, Duration, MediaFiles, VideoClicks?
  // 4.x Wrapper Linear: Icons?, TrackingEvents?, VideoClicks?
  else linear = el('Linear', skip, { children: inline ? [tracking, duration, mediaFiles, videoClicks] : [tracking, videoClicks] });
  const attrs: XmlNode['attrs'] = [
    ['id', cr.id.trim()],
    ['sequence', cr.sequence],
    [v === '3.0' ? 'AdID' : 'adId', cr.ad_id.trim()],
  ];
  // 4.x Creative (InLine): CompanionAds?, CreativeExtensions?, Linear?, NonLinearAds?, UniversalAdId+ (4.1: xs:all, one UniversalAdId).
  const universal =
    inline &&
    is4(v) &&
    el('UniversalAdId', [['idRegistry', cr.universal_ad_id.registry.trim()]], { text: cr.universal_ad_id.value.trim() }, `${p}.universal_ad_id.value`);
  return el('Creative', attrs, { children: [linear, universal] }, `${p}.id`);
}

function adNode(c: VastConfig): XmlNode {
  const v = c.version;
  const inline = isInline(c);
  const adSystem = el('AdSystem', [['version', c.ad_system.version.trim()]], { text: c.ad_system.name.trim() }, 'ad_system.name');
  const errors = c.error_urls.map((e, i) => urlEl('Error', e, `error_urls.${i}`));
  const impressions = c.impressions.map((imp, i) =>
    urlEl('Impression', imp.url, `impressions.${i}.url`, v === '3.0' && !inline ? undefined : [['id', imp.id.trim()]]),
  );
  const pricing =
    c.pricing &&
    el(
      'Pricing',
      [
        // 3.0's XSD allows the models in lower case only.
        ['model', v === '3.0' ? c.pricing.model.toLowerCase() : c.pricing.model],
        ['currency', c.pricing.currency.trim()],
      ],
      { text: c.pricing.value.trim() },
      'pricing.value',
    );
  const creatives = c.creatives.map((cr, ci) => creativeNode(c, cr, ci));
  const creativesEl = el('Creatives', undefined, { children: creatives }, 'creatives');
  const verifications = c.verifications.length > 0 && el('AdVerifications', undefined, { children: verificationNodes(c) }, 'verifications');
  const extensions30 =
    v === '3.0' &&
    c.verifications.length > 0 &&
    el('Extensions', undefined, { children: [el('Extension', [['type', 'AdVerifications']], { children: [verifications] })] });
  const tagUri = urlEl('VASTAdTagURI', c.wrapper.tag_uri, 'wrapper.tag_uri');
  let body: XmlNode;
  if (v === '3.0') {
    body = inline
      ? // 3.0 InLine: AdSystem, AdTitle, Description?, Advertiser?, Pricing?, Survey?, Error?, Impression+, Creatives, Extensions?
        el('InLine', undefined, {
          children: [adSystem, el('AdTitle', undefined, { text: c.ad_title.trim() }, 'ad_title'), pricing, ...errors, ...impressions, creativesEl, extensions30],
        })
      : // 3.0 Wrapper: AdSystem, VASTAdTagURI, Error?, Impression+, Creatives, Extensions? (no Pricing, no attributes)
        el('Wrapper', undefined, { children: [adSystem, tagUri, ...errors, ...impressions, creativesEl, extensions30] });
  } else if (inline) {
    // 4.x InLine: AdSystem, Error*, Extensions?, Impression+, Pricing?, ViewableImpression?, then AdServingId, AdTitle,
    // AdVerifications?, Advertiser?, Category*, Creatives, Description?, Expires?, Survey?
    body = el('InLine', undefined, {
      children: [
        adSystem,
        ...errors,
        ...impressions,
        pricing,
        el('AdServingId', undefined, { text: c.ad_serving_id.trim() }, 'ad_serving_id'),
        el('AdTitle', undefined, { text: c.ad_title.trim() }, 'ad_title'),
        verifications,
        creativesEl,
      ],
    });
  } else {
    // 4.x Wrapper: AdSystem, Error*, Extensions?, Impression+, Pricing?, ViewableImpression?, then AdVerifications?,
    // BlockedAdCategories*, Creatives?, VASTAdTagURI
    body = el(
      'Wrapper',
      [
        ['followAdditionalWrappers', c.wrapper.follow_additional_wrappers],
        ['allowMultipleAds', c.wrapper.allow_multiple_ads],
        ['fallbackOnNoAd', c.wrapper.fallback_on_no_ad],
      ],
      { children: [adSystem, ...errors, ...impressions, pricing, verifications, creatives.length > 0 && creativesEl, tagUri] },
    );
  }
  return el(
    'Ad',
    [
      ['id', c.ad_id.trim()],
      ['sequence', c.sequence],
    ],
    { children: [body] },
    'ad_id',
  );
}

/** The document and the line each configuration path is written on (the XSD check maps its lines back with it). */
export function renderVast(c: VastConfig): { code: string; lines: Map<number, string> } {
  const rootAttrs: XmlNode['attrs'] = is4(c.version) ? [['version', c.version], ['xmlns', VAST_NAMESPACE]] : [['version', c.version]];
  return serialize(el('VAST', rootAttrs, { children: [adNode(c)] }, 'version'));
}

// ---------------------------------------------------------------------------------------------
// Parse: a VAST document back into the configuration

/** A parsed element: `#text`, `@_attribute`s and child elements (always arrays). */
type XNode = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  alwaysCreateTextNode: true,
  removeNSPrefix: true,
  captureMetaData: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});
// The library types it as the `Symbol` wrapper object; it is a symbol.
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

/** Line and column (1-based) of character offsets in a text (the line starts are found once). */
function lineLocator(code: string): (index: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) starts.push(i + 1);
  return (index) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: index - starts[lo]! + 1 };
  };
}

class VastReader {
  readonly issues: BuilderIssue[] = [];
  private readonly used = new WeakMap<XNode, Set<string>>();
  private readonly locate: (index: number) => { line: number; column: number };
  constructor(code: string) {
    this.locate = lineLocator(code);
  }

  where(node: XNode): { line?: number; column?: number } {
    const meta = (node as Record<symbol, { startIndex?: number } | undefined>)[META];
    return meta?.startIndex !== undefined ? this.locate(meta.startIndex) : {};
  }
  private mark(node: XNode, key: string) {
    let set = this.used.get(node);
    if (!set) this.used.set(node, (set = new Set()));
    set.add(key);
  }
  /** The child elements of that name (marked as read). */
  all(node: XNode, name: string): XNode[] {
    this.mark(node, name);
    const v = node[name];
    return Array.isArray(v) ? (v as XNode[]) : [];
  }
  one(node: XNode, name: string): XNode | undefined {
    return this.all(node, name)[0];
  }
  text(node: XNode | undefined): string {
    if (!node) return '';
    this.mark(node, '#text');
    const t = node['#text'];
    return typeof t === 'string' ? t.trim() : t === undefined ? '' : String(t);
  }
  attr(node: XNode | undefined, name: string): string {
    if (!node) return '';
    this.mark(node, `@_${name}`);
    const v = node[`@_${name}`];
    return typeof v === 'string' ? v.trim() : v === undefined ? '' : String(v);
  }
  /** A whole-number attribute (at least `min`); another value is reported at `path` and read as empty. */
  int(node: XNode | undefined, name: string, element: string, path: string, min = 0): number | null {
    const v = this.attr(node, name);
    if (v === '') return null;
    if (/^\d{1,9}$/.test(v) && Number(v) >= min) return Number(v);
    if (node) this.warn(node, path, 'vast.parse.not_integer', { attribute: name, element, value: v.slice(0, 40) });
    return null;
  }
  bool(node: XNode | undefined, name: string): boolean | null {
    const v = this.attr(node, name).toLowerCase();
    return v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : null;
  }
  warn(node: XNode, path: string, key: string, params: Record<string, string | number>) {
    this.issues.push({ severity: 'warning', path, key, params, source: 'syntax', ...this.where(node) });
  }
  /** Reports what the form does not hold in this element (and its unread children, once each). */
  leftovers(node: XNode, element: string, path: string, ignoreAttrs: string[] = []) {
    const used = this.used.get(node) ?? new Set();
    for (const key of Object.keys(node)) {
      if (used.has(key) || key === '#text') continue;
      if (key.startsWith('@_')) {
        const a = key.slice(2);
        if (!ignoreAttrs.includes(a)) this.warn(node, path, 'vast.parse.ignored_attribute', { attribute: a, element });
      } else for (const child of this.all(node, key)) this.warn(child, path, 'vast.parse.ignored_element', { element: `${element}/${key}` });
    }
    const t = node['#text'];
    if (!used.has('#text') && typeof t === 'string' && t.trim() !== '') this.warn(node, path, 'vast.parse.ignored_text', { element });
  }
}

/** The version a document's `version` attribute names, or the nearest this builder writes (`exact` false). */
export function vastVersionOf(found: string): { version: VastVersion; exact: boolean } {
  const f = found.trim();
  for (const v of VAST_VERSIONS) if (f === v || f.startsWith(`${v}.`)) return { version: v, exact: true };
  if (/^4(\.0)?(\.|$)/.test(f)) return { version: '4.1', exact: false };
  if (/^[12]\./.test(f) || f === '2' || f === '1') return { version: '3.0', exact: false };
  return { version: '4.2', exact: false };
}

function readLinear(r: VastReader, lin: XNode, inline: boolean, path: string): VastLinear {
  const out = emptyLinear();
  out.skipoffset = r.attr(lin, 'skipoffset');
  const events = r.one(lin, 'TrackingEvents');
  if (events) {
    out.tracking = r.all(events, 'Tracking').map((t, i) => {
      const item = { event: r.attr(t, 'event'), url: r.text(t), offset: r.attr(t, 'offset') };
      r.leftovers(t, 'Tracking', `${path}.tracking.${i}`);
      return item;
    });
    r.leftovers(events, 'TrackingEvents', `${path}.tracking`);
  }
  if (inline) {
    out.duration = r.text(r.one(lin, 'Duration'));
    const mfs = r.one(lin, 'MediaFiles');
    if (mfs) {
      out.media_files = r.all(mfs, 'MediaFile').map((mf, i) => {
        const item: VastMediaFile = {
          delivery: r.attr(mf, 'delivery') === 'streaming' ? 'streaming' : 'progressive',
          type: r.attr(mf, 'type'),
          width: r.int(mf, 'width', 'MediaFile', `${path}.media_files.${i}.width`),
          height: r.int(mf, 'height', 'MediaFile', `${path}.media_files.${i}.height`),
          bitrate: r.int(mf, 'bitrate', 'MediaFile', `${path}.media_files.${i}.bitrate`),
          codec: r.attr(mf, 'codec'),
          url: r.text(mf),
        };
        r.leftovers(mf, 'MediaFile', `${path}.media_files.${i}`, ['id']);
        return item;
      });
      r.leftovers(mfs, 'MediaFiles', `${path}.media_files`);
    }
  }
  const clicks = r.one(lin, 'VideoClicks');
  if (clicks) {
    const through = r.one(clicks, 'ClickThrough');
    if (inline) out.click_through = r.text(through);
    else if (through) r.warn(through, `${path}.click_tracking`, 'vast.parse.ignored_element', { element: 'VideoClicks/ClickThrough' });
    if (through) r.leftovers(through, 'ClickThrough', `${path}.click_through`, ['id']);
    out.click_tracking = r.all(clicks, 'ClickTracking').map((ct, i) => {
      const item = { id: r.attr(ct, 'id'), url: r.text(ct) };
      r.leftovers(ct, 'ClickTracking', `${path}.click_tracking.${i}`);
      return item;
    });
    r.leftovers(clicks, 'VideoClicks', `${path}.click_tracking`);
  }
  r.leftovers(lin, 'Linear', path);
  return out;
}

function readVerifications(r: VastReader, node: XNode): VastVerification[] {
  return r.all(node, 'Verification').map((ver, i) => {
    const path = `verifications.${i}`;
    const js = r.all(ver, 'JavaScriptResource');
    const first = js[0];
    for (const extra of js.slice(1)) r.warn(extra, path, 'vast.parse.ignored_element', { element: 'Verification/JavaScriptResource' });
    const notExecuted = r
      .all(r.one(ver, 'TrackingEvents') ?? {}, 'Tracking')
      .find((t) => r.attr(t, 'event') === 'verificationNotExecuted');
    const out: VastVerification = {
      vendor: r.attr(ver, 'vendor'),
      js_url: r.text(first),
      api_framework: r.attr(first, 'apiFramework'),
      browser_optional: r.bool(first, 'browserOptional') ?? false,
      parameters: r.text(r.one(ver, 'VerificationParameters')),
      not_executed_url: r.text(notExecuted),
    };
    if (first) r.leftovers(first, 'JavaScriptResource', `${path}.js_url`);
    const tev = r.one(ver, 'TrackingEvents');
    if (tev) {
      for (const t of r.all(tev, 'Tracking')) if (t !== notExecuted) r.warn(t, path, 'vast.parse.ignored_element', { element: 'Verification/TrackingEvents/Tracking' });
      r.leftovers(tev, 'TrackingEvents', path);
    }
    r.leftovers(ver, 'Verification', path);
    return out;
  });
}

function readCreative(r: VastReader, cr: XNode, inline: boolean, v: VastVersion, ci: number): VastCreative {
  const path = `creatives.${ci}`;
  const out = emptyCreative();
  out.id = r.attr(cr, 'id');
  out.sequence = r.int(cr, 'sequence', 'Creative', `${path}.sequence`, 1);
  out.ad_id = r.attr(cr, 'adId') || r.attr(cr, 'AdID');
  const uids = r.all(cr, 'UniversalAdId');
  if (uids[0]) {
    out.universal_ad_id = { registry: r.attr(uids[0], 'idRegistry'), value: r.text(uids[0]) };
    r.leftovers(uids[0], 'UniversalAdId', `${path}.universal_ad_id.value`, ['idValue']);
  } else if (!inline || v === '3.0') out.universal_ad_id = { registry: 'unknown', value: 'unknown' };
  else out.universal_ad_id = { registry: '', value: '' };
  for (const extra of uids.slice(1)) r.warn(extra, `${path}.universal_ad_id.value`, 'vast.parse.ignored_element', { element: 'Creative/UniversalAdId' });
  const lin = r.one(cr, 'Linear');
  if (lin) out.linear = readLinear(r, lin, inline, `${path}.linear`);
  r.leftovers(cr, 'Creative', path);
  return out;
}

/** Reads a VAST document into the configuration; what the form cannot hold comes back as warnings. */
export function parseVast(code: string): { config?: VastConfig; issues: BuilderIssue[] } {
  const syntax = XMLValidator.validate(code);
  if (syntax !== true)
    return { issues: [{ severity: 'error', path: '', text: syntax.err.msg, line: syntax.err.line, column: syntax.err.col, source: 'syntax' }] };
  let doc: XNode;
  try {
    doc = parser.parse(code) as XNode;
  } catch (err) {
    return { issues: [{ severity: 'error', path: '', text: err instanceof Error ? err.message : String(err), source: 'syntax' }] };
  }
  const r = new VastReader(code);
  const rootName = Object.keys(doc).find((k) => !k.startsWith('?') && !k.startsWith('#'));
  const root = rootName === 'VAST' ? r.one(doc, 'VAST') : undefined;
  if (!root) return { issues: [{ severity: 'error', path: '', key: 'vast.parse.not_vast', params: { element: rootName ?? '' }, source: 'syntax' }] };
  const found = r.attr(root, 'version');
  const { version, exact } = vastVersionOf(found);
  if (!exact) r.warn(root, 'version', 'vast.parse.version', { found: found || '?', used: version });
  const ads = r.all(root, 'Ad');
  const ad = ads[0];
  if (!ad) return { issues: [{ severity: 'error', path: '', key: 'vast.parse.no_ad', source: 'syntax', ...r.where(root) }] };
  for (const extra of ads.slice(1)) r.warn(extra, 'ad_id', 'vast.parse.extra_ad', { count: ads.length });
  const inlineNode = r.one(ad, 'InLine');
  const wrapperNode = r.one(ad, 'Wrapper');
  const body = inlineNode ?? wrapperNode;
  if (!body) return { issues: [...r.issues, { severity: 'error', path: '', key: 'vast.parse.no_inline_or_wrapper', source: 'syntax', ...r.where(ad) }] };
  const inline = body === inlineNode;

  const adSystem = r.one(body, 'AdSystem');
  const pricingNode = r.one(body, 'Pricing');
  let pricing: VastConfig['pricing'] = null;
  if (pricingNode) {
    const model = r.attr(pricingNode, 'model').toUpperCase();
    pricing = {
      model: (VAST_PRICING_MODELS as readonly string[]).includes(model) ? (model as (typeof VAST_PRICING_MODELS)[number]) : 'CPM',
      currency: r.attr(pricingNode, 'currency').toUpperCase(),
      value: r.text(pricingNode),
    };
    if (!(VAST_PRICING_MODELS as readonly string[]).includes(model)) r.warn(pricingNode, 'pricing.model', 'vast.parse.pricing_model', { model });
    r.leftovers(pricingNode, 'Pricing', 'pricing.value');
  }
  // 4.1+: AdVerifications; before: an Extension of type AdVerifications (read in either place).
  const verificationSources: XNode[] = [];
  const av = r.one(body, 'AdVerifications');
  if (av) verificationSources.push(av);
  const extensions = r.one(body, 'Extensions');
  if (extensions) {
    for (const ext of r.all(extensions, 'Extension')) {
      const inner = r.attr(ext, 'type') === 'AdVerifications' ? r.one(ext, 'AdVerifications') : undefined;
      if (inner) {
        verificationSources.push(inner);
        r.leftovers(ext, 'Extension', 'verifications');
      } else r.warn(ext, '', 'vast.parse.ignored_element', { element: `Extensions/Extension${r.attr(ext, 'type') ? ` type="${r.attr(ext, 'type')}"` : ''}` });
    }
    r.leftovers(extensions, 'Extensions', '');
  }
  const verifications: VastVerification[] = [];
  for (const src of verificationSources) {
    verifications.push(...readVerifications(r, src));
    r.leftovers(src, 'AdVerifications', 'verifications');
  }

  const creativesNode = r.one(body, 'Creatives');
  const creatives = creativesNode ? r.all(creativesNode, 'Creative').map((cr, ci) => readCreative(r, cr, inline, version, ci)) : [];
  if (creativesNode) r.leftovers(creativesNode, 'Creatives', 'creatives');

  const config: VastConfig = {
    version,
    ad_type: inline ? 'inline' : 'wrapper',
    ad_id: r.attr(ad, 'id'),
    sequence: r.int(ad, 'sequence', 'Ad', 'sequence', 1),
    ad_system: { name: r.text(adSystem), version: r.attr(adSystem, 'version') },
    ad_title: inline ? r.text(r.one(body, 'AdTitle')) : '',
    ad_serving_id: inline ? r.text(r.one(body, 'AdServingId')) : '',
    impressions: r.all(body, 'Impression').map((imp, i) => {
      const item = { id: r.attr(imp, 'id'), url: r.text(imp) };
      r.leftovers(imp, 'Impression', `impressions.${i}.url`);
      return item;
    }),
    error_urls: r.all(body, 'Error').map((e, i) => {
      const t = r.text(e);
      r.leftovers(e, 'Error', `error_urls.${i}`);
      return t;
    }),
    pricing,
    verifications,
    wrapper: inline
      ? emptyWrapper()
      : {
          tag_uri: r.text(r.one(body, 'VASTAdTagURI')),
          follow_additional_wrappers: r.bool(body, 'followAdditionalWrappers'),
          allow_multiple_ads: r.bool(body, 'allowMultipleAds'),
          fallback_on_no_ad: r.bool(body, 'fallbackOnNoAd'),
        },
    creatives,
  };
  if (adSystem) r.leftovers(adSystem, 'AdSystem', 'ad_system.name');
  r.leftovers(body, inline ? 'InLine' : 'Wrapper', '');
  r.leftovers(ad, 'Ad', 'ad_id');
  r.leftovers(root, 'VAST', 'version', ['schemaLocation', 'noNamespaceSchemaLocation']);
  // The document is read; whatever does not fit the configuration's limits is refused like a form's input.
  const checked = vastConfigSchema.safeParse(config);
  if (!checked.success)
    return {
      issues: [
        ...r.issues,
        ...checked.error.issues.map((i): BuilderIssue => ({ severity: 'error', path: i.path.join('.'), key: 'vast.parse.out_of_range', source: 'syntax' })),
      ],
    };
  return { config: checked.data, issues: r.issues };
}

/**
 * Each element's path (`VAST/Ad/InLine/Creatives/Creative/Linear/Duration`) by the line it starts
 * on, to name where a validator's line-numbered finding is in a document the builder did not write.
 * Empty for a document that is not well-formed.
 */
export function vastElementLines(code: string): { line: number; path: string }[] {
  if (XMLValidator.validate(code) !== true) return [];
  const locate = lineLocator(code);
  const out: { line: number; path: string }[] = [];
  const walk = (node: XNode, path: string) => {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('@_') || key === '#text' || !Array.isArray(value)) continue;
      for (const child of value as XNode[]) {
        const here = path ? `${path}/${key}` : key;
        const meta = (child as Record<symbol, { startIndex?: number } | undefined>)[META];
        if (meta?.startIndex !== undefined) out.push({ line: locate(meta.startIndex).line, path: here });
        walk(child, here);
      }
    }
  };
  try {
    walk(parser.parse(code) as XNode, '');
  } catch {
    return [];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Macros

export interface VastMacroUse {
  name: string;
  /** One of the IAB's macros (VAST_MACROS); unknown ones are flagged. */
  known: boolean;
  count: number;
  /** The first line it is on. */
  line: number;
}

/** The `[MACRO]`s a document uses, in order of first appearance. */
export function vastMacros(code: string): VastMacroUse[] {
  const known = new Set<string>(VAST_MACROS);
  const found = new Map<string, VastMacroUse>();
  const locate = lineLocator(code);
  const re = /\[([A-Z][A-Z0-9_]{1,40})\]/g;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    const name = m[1]!;
    if (name === 'CDATA') continue;
    const use = found.get(name);
    if (use) use.count++;
    else found.set(name, { name, known: known.has(name), count: 1, line: locate(m.index).line });
  }
  return [...found.values()];
}

// ---------------------------------------------------------------------------------------------
// The definition

/** Where the demo's media live (h3's test creative server is not assumed; docs/decisions/038). */
const CDN = 'https://cdn.adserver-demo.com/creatives/northwind';
const TRACK = 'https://track.adserver-demo.com/v1';

function quartiles(base: string): VastTracking[] {
  return ['start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete'].map((event) => ({ event, url: `${base}/${event}?cb=[CACHEBUSTING]`, offset: '' }));
}

function inline42(): VastConfig {
  return {
    version: '4.2',
    ad_type: 'inline',
    ad_id: 'nw-winter-2291',
    sequence: null,
    ad_system: { name: 'Back Office Ad Server', version: '4.2' },
    ad_title: 'Northwind Coffee – Winter Roast 30s pre-roll',
    ad_serving_id: 'bo-7f3c9a2e-2291',
    impressions: [
      { id: 'bo', url: `${TRACK}/impression?ad=2291&ts=[TIMESTAMP]&cb=[CACHEBUSTING]` },
      { id: 'dsp', url: 'https://dsp.helixbid.io/imp?crid=hx-88412&cb=[CACHEBUSTING]' },
    ],
    error_urls: [`${TRACK}/error?ad=2291&code=[ERRORCODE]`],
    pricing: { model: 'CPM', currency: 'EUR', value: '12.50' },
    verifications: [
      {
        vendor: 'verifyline.com-omid',
        js_url: 'https://cdn.verifyline.com/omid/verification-client-v2.js',
        api_framework: 'omid',
        browser_optional: true,
        parameters: '{"campaign":"nw-winter","placement":"preroll","ad":"2291"}',
        not_executed_url: 'https://t.verifyline.com/not-executed?reason=[REASON]',
      },
    ],
    wrapper: emptyWrapper(),
    creatives: [
      {
        id: 'cr-5521',
        sequence: 1,
        ad_id: 'NWC-WR-30',
        universal_ad_id: { registry: 'ad-id.org', value: 'NWCO0030000H' },
        linear: {
          duration: '00:00:30',
          skipoffset: '00:00:05',
          media_files: [
            { delivery: 'progressive', type: 'video/mp4', width: 1920, height: 1080, bitrate: 4500, codec: 'avc1.640028', url: `${CDN}/winter-roast-30s-1080p.mp4` },
            { delivery: 'progressive', type: 'video/webm', width: 1280, height: 720, bitrate: 2000, codec: 'vp9', url: `${CDN}/winter-roast-30s-720p.webm` },
          ],
          tracking: [
            ...quartiles(`${TRACK}/event/2291`),
            { event: 'progress', url: `${TRACK}/event/2291/progress-10s?cb=[CACHEBUSTING]`, offset: '00:00:10' },
            { event: 'skip', url: `${TRACK}/event/2291/skip?cb=[CACHEBUSTING]`, offset: '' },
          ],
          click_through: 'https://www.northwind-coffee.eu/winter-roast?utm_source=preroll',
          click_tracking: [{ id: 'bo', url: `${TRACK}/click?ad=2291&cb=[CACHEBUSTING]` }],
        },
      },
    ],
  };
}

function wrapper42(): VastConfig {
  return {
    version: '4.2',
    ad_type: 'wrapper',
    ad_id: 'hx-wrap-7730',
    sequence: null,
    ad_system: { name: 'Back Office Ad Server', version: '4.2' },
    ad_title: '',
    ad_serving_id: '',
    impressions: [{ id: 'bo', url: `${TRACK}/impression?ad=7730&cb=[CACHEBUSTING]` }],
    error_urls: [`${TRACK}/error?ad=7730&code=[ERRORCODE]`],
    pricing: { model: 'CPM', currency: 'USD', value: '8.75' },
    verifications: [],
    wrapper: {
      tag_uri: 'https://vast.helixbid.io/v4/tag?pub=4410&w=[PLAYERSIZE]&cb=[CACHEBUSTING]',
      follow_additional_wrappers: true,
      allow_multiple_ads: false,
      fallback_on_no_ad: true,
    },
    creatives: [
      {
        ...emptyCreative(),
        id: 'cr-7730',
        linear: { ...emptyLinear(), tracking: quartiles(`${TRACK}/event/7730`), click_tracking: [{ id: 'bo', url: `${TRACK}/click?ad=7730&cb=[CACHEBUSTING]` }] },
      },
    ],
  };
}

function inline30(): VastConfig {
  const base = inline42();
  return {
    ...base,
    version: '3.0',
    ad_id: 'nw-winter-2292',
    ad_title: 'Northwind Coffee – Winter Roast 15s (VAST 3.0 players)',
    ad_serving_id: '',
    impressions: [{ id: 'bo', url: `${TRACK}/impression?ad=2292&cb=[CACHEBUSTING]` }],
    error_urls: [`${TRACK}/error?ad=2292&code=[ERRORCODE]`],
    pricing: { model: 'CPM', currency: 'USD', value: '9.20' },
    creatives: [
      {
        id: 'cr-5522',
        sequence: 1,
        ad_id: 'NWC-WR-15',
        universal_ad_id: { registry: 'unknown', value: 'unknown' },
        linear: {
          duration: '00:00:15',
          skipoffset: '',
          media_files: [{ delivery: 'progressive', type: 'video/mp4', width: 1280, height: 720, bitrate: 2200, codec: '', url: `${CDN}/winter-roast-15s-720p.mp4` }],
          tracking: quartiles(`${TRACK}/event/2292`),
          click_through: 'https://www.northwind-coffee.eu/winter-roast?utm_source=preroll-v3',
          click_tracking: [],
        },
      },
    ],
  };
}

function output(c: VastConfig): BuilderOutput {
  return {
    code: renderVast(c).code,
    language: 'xml',
    filename: `vast-${c.version}-${c.ad_type}${c.ad_id.trim() ? `-${c.ad_id.trim().replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60)}` : ''}.xml`,
    mime: 'application/xml',
    issues: vastRuleIssues(c),
  };
}

export const vastBuilder: BuilderDefinition<VastConfig> = {
  kind: 'vast',
  subjects: ['partner', 'publisher', 'ad_unit', 'none'],
  configSchema: vastConfigSchema,
  defaults(): VastConfig {
    return {
      version: '4.2',
      ad_type: 'inline',
      ad_id: '',
      sequence: null,
      ad_system: { name: 'Back Office Ad Server', version: '' },
      ad_title: 'New video ad',
      ad_serving_id: 'bo-new-ad',
      impressions: [{ id: '', url: `${TRACK}/impression?cb=[CACHEBUSTING]` }],
      error_urls: [`${TRACK}/error?code=[ERRORCODE]`],
      pricing: null,
      verifications: [],
      wrapper: emptyWrapper(),
      creatives: [
        {
          ...emptyCreative(),
          linear: {
            ...emptyLinear(),
            duration: '00:00:15',
            media_files: [{ ...emptyMediaFile(), width: 1280, height: 720, url: `${CDN}/house-ad-15s-720p.mp4` }],
            tracking: quartiles(`${TRACK}/event`),
          },
        },
      ],
    };
  },
  render: output,
  parse: parseVast,
  examples() {
    return [
      { name: 'InLine 4.2 pre-roll (two media files, quartiles, pricing, OMID)', config: inline42() },
      { name: 'Wrapper 4.2 to a DSP tag', config: wrapper42() },
      { name: 'InLine 3.0 (verification in an Extension)', config: inline30() },
    ];
  },
};
