/**
 * The JS tag builder (`/utils/jstagbuilder`; docs/decisions/040-js-tag-and-playon-builders.md): the
 * ad tag a publisher pastes where an ad unit shows — async JavaScript, an iframe, or an image — with
 * its sizes, floor, passback, click macro and consent (IAB TCF 2, GPP and US privacy, from the ad
 * server's macros or from the page's CMP).
 *
 * Every tag has one root element, `<ins class="bo-ad" data-bo-tag="async|iframe|image" …>`, whose
 * data-* attributes carry the whole configuration: the async tag's script reads them, and `parse`
 * reads them back (a person may edit an attribute in the code view and the form follows). The
 * async tag's script is the same text for every configuration (JSTAG_LOADER), which is what lets
 * the web app's Content Security Policy allow exactly that script by its hash in the preview. It
 * uses no eval and no document.write: it creates an iframe that loads the ad server's creative, and
 * shows the passback (a URL or HTML) when the ad server answers that it has no ad.
 *
 * The ad server is the `server_url` (empty: this Back Office's own test ad server at
 * `/v1/public/serve/…`, which answers a test creative that prints what it received).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { z } from 'zod';
import { parseDecimalInput } from '../inputs.ts';
import { CURRENCIES } from '../resources/companies.ts';
import type { BuilderDefinition, BuilderIssue } from './common.ts';

// ---------------------------------------------------------------------------------------------
// The test ad server's paths (apps/api/src/modules/builders/serve-routes.ts answers them)

/** Public routes live under /v1/public/ (the firewall's nginx location; decision 020). */
export const SERVE_BASE_PATH = '/v1/public/serve';
export const SERVE_AD_PATH = `${SERVE_BASE_PATH}/ad`;
export const SERVE_AD_IMAGE_PATH = `${SERVE_BASE_PATH}/ad.svg`;
export const SERVE_CLICK_PATH = `${SERVE_BASE_PATH}/click`;
export const SERVE_PLAYON_PATH = `${SERVE_BASE_PATH}/playon.js`;
export const SERVE_VAST_DEMO_PATH = `${SERVE_BASE_PATH}/vast-demo.xml`;
export const SERVE_TRACK_PATH = `${SERVE_BASE_PATH}/track`;
export const SERVE_MEDIA_PATH = `${SERVE_BASE_PATH}/media/demo.mp4`;

/**
 * The test ad server bids this CPM (in any currency) for every request: a floor above it gets no
 * ad, so the tag shows its passback. Decimal text, compared exactly.
 */
export const TEST_BID_CPM = '5.00';

/** The message a creative frame posts to the tag: filled (and its size) or no ad. */
export const AD_MESSAGE_TYPE = 'bo-ad';

// ---------------------------------------------------------------------------------------------
// Configuration

export const JSTAG_TYPES = ['async', 'iframe', 'image'] as const;
export type JsTagType = (typeof JSTAG_TYPES)[number];
export const PASSBACK_TYPES = ['none', 'url', 'html'] as const;
export type PassbackType = (typeof PASSBACK_TYPES)[number];
/** Where a consent signal comes from: not sent, the ad server's macros, or the page's CMP (async only). */
export const CONSENT_MODES = ['off', 'macro', 'cmp'] as const;
export type ConsentMode = (typeof CONSENT_MODES)[number];

export const TAG_SIZE_MAX = 4000;
export const TAG_SIZES_MAX = 10;
export const AD_UNIT_MAX = 100;
export const PASSBACK_HTML_MAX = 20_000;
export const MACRO_MAX = 100;
export const CONSENT_TIMEOUT_MAX_MS = 5000;
export const VENDOR_ID_MAX = 99_999;
export const FLOOR_MAX_DECIMALS = 4;

export interface ConsentConfig {
  tcf: ConsentMode;
  gpp: ConsentMode;
  us_privacy: ConsentMode;
  /** The company's IAB Global Vendor List id, named by the TCF and GPP macros (${GDPR_CONSENT_755}). */
  vendor_id: number | null;
  /** How long the tag waits for the CMP before it asks for the ad anyway. */
  timeout_ms: number;
}

export interface JsTagConfig {
  type: JsTagType;
  /** The ad server's origin (https://ads.example.com); empty for this server's test ad server. */
  server_url: string;
  ad_unit: string;
  /** WxH, the first is the slot's size. */
  sizes: string[];
  /** CPM floor as decimal text; empty for none. */
  floor: string;
  currency: (typeof CURRENCIES)[number];
  passback_type: PassbackType;
  /** A URL (passback_type url) or HTML (html). */
  passback: string;
  /** A <noscript> image for browsers without JavaScript (async and iframe tags). */
  image_fallback: boolean;
  /** The trafficking ad server's click macro (%%CLICK_URL_UNESC%%), put before our click URL. */
  click_macro: string;
  /** The trafficking ad server's cache-buster macro, for the iframe and image tags (the async tag makes its own). */
  cachebuster_macro: string;
  consent: ConsentConfig;
}

const text = (max: number) => z.string({ error: 'error.invalid_type' }).max(max, 'error.too_long');

export const consentConfigSchema = z.strictObject({
  tcf: z.enum(CONSENT_MODES, { error: 'error.invalid_value' }),
  gpp: z.enum(CONSENT_MODES, { error: 'error.invalid_value' }),
  us_privacy: z.enum(CONSENT_MODES, { error: 'error.invalid_value' }),
  vendor_id: z.number({ error: 'error.invalid_type' }).int('error.invalid_value').nullable(),
  timeout_ms: z.number({ error: 'error.invalid_type' }).int('error.invalid_value'),
});

/**
 * The shape of a configuration (the API refuses another shape with 400); the rules (a valid size,
 * floor, URL…) are render's issues, so the form can show them at their fields while it is typed.
 */
export const jsTagConfigSchema: z.ZodType<JsTagConfig> = z.strictObject({
  type: z.enum(JSTAG_TYPES, { error: 'error.invalid_value' }),
  server_url: text(500),
  ad_unit: text(500),
  sizes: z.array(text(20), { error: 'error.invalid_type' }).max(50, 'error.invalid_value'),
  floor: text(50),
  currency: z.enum(CURRENCIES, { error: 'error.invalid_value' }),
  passback_type: z.enum(PASSBACK_TYPES, { error: 'error.invalid_value' }),
  passback: text(PASSBACK_HTML_MAX * 2),
  image_fallback: z.boolean({ error: 'error.invalid_type' }),
  click_macro: text(500),
  cachebuster_macro: text(500),
  consent: consentConfigSchema,
});

// ---------------------------------------------------------------------------------------------
// Rules shared by the JS tag and the PlayOn builder

const SIZE = /^([1-9]\d{0,3})x([1-9]\d{0,3})$/;
const AD_UNIT = /^[A-Za-z0-9_.:/-]+$/;
/** A macro of a trafficking ad server: %%NAME%%, ${NAME}, [NAME] or {NAME}, letters, digits and _. */
const MACRO = /^(%%[A-Z0-9_]+%%|\$\{[A-Z0-9_]+\}|\[[A-Z0-9_]+\]|\{[A-Z0-9_]+\})$/;
const CLICK_MACRO = /^(%%[A-Z0-9_]+%%|\$\{[A-Z0-9_]+\}|\[[A-Z0-9_]+\]|\{[A-Z0-9_]+\}|https?:\/\/[^\s"'<>]+)$/;

export function parseSize(size: string): { width: number; height: number } | null {
  const m = SIZE.exec(size.trim());
  if (!m) return null;
  const width = Number(m[1]);
  const height = Number(m[2]);
  return width <= TAG_SIZE_MAX && height <= TAG_SIZE_MAX ? { width, height } : null;
}

/** An http(s) URL with a host, nothing else (no javascript:, no data:). */
export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value) || !/^https?:\/\/[^/?#]+/i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** An ad server origin: http(s), a host, no path beyond "/", no query. */
export function isServerOrigin(value: string): boolean {
  if (!isHttpUrl(value)) return false;
  const url = new URL(value);
  return (url.pathname === '/' || url.pathname === '') && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
}

/** The server URL as the tag writes it: no trailing slash; empty stays empty (this server). */
export const serverBase = (serverUrl: string) => serverUrl.trim().replace(/\/+$/, '');

const issue = (path: string, key: string, params?: Record<string, string | number>, severity: 'error' | 'warning' = 'error'): BuilderIssue => ({
  severity,
  path,
  key,
  ...(params ? { params } : {}),
  source: 'rules',
});

export function serverUrlIssues(serverUrl: string, prefix: string): BuilderIssue[] {
  const value = serverUrl.trim();
  if (value === '') return [issue('server_url', `${prefix}.server_url.this_server`, undefined, 'warning')];
  if (!isServerOrigin(value)) return [issue('server_url', `${prefix}.server_url.invalid`)];
  return [];
}

export function adUnitIssues(adUnit: string, prefix: string): BuilderIssue[] {
  const value = adUnit.trim();
  if (value === '') return [issue('ad_unit', `${prefix}.ad_unit.required`)];
  if (value.length > AD_UNIT_MAX) return [issue('ad_unit', `${prefix}.ad_unit.too_long`, { max: AD_UNIT_MAX })];
  if (!AD_UNIT.test(value)) return [issue('ad_unit', `${prefix}.ad_unit.invalid`)];
  return [];
}

export function consentIssues(consent: ConsentConfig, canAskCmp: boolean): BuilderIssue[] {
  const out: BuilderIssue[] = [];
  for (const key of ['tcf', 'gpp', 'us_privacy'] as const)
    if (consent[key] === 'cmp' && !canAskCmp) out.push(issue(`consent.${key}`, 'jstag.consent.cmp_needs_script'));
  const needsVendor = consent.tcf === 'macro' || consent.gpp === 'macro';
  if (consent.vendor_id !== null && (consent.vendor_id < 1 || consent.vendor_id > VENDOR_ID_MAX))
    out.push(issue('consent.vendor_id', 'jstag.consent.vendor_invalid', { max: VENDOR_ID_MAX }));
  else if (needsVendor && consent.vendor_id === null) out.push(issue('consent.vendor_id', 'jstag.consent.vendor_required'));
  const asksCmp = consent.tcf === 'cmp' || consent.gpp === 'cmp' || consent.us_privacy === 'cmp';
  if (asksCmp && (consent.timeout_ms < 0 || consent.timeout_ms > CONSENT_TIMEOUT_MAX_MS))
    out.push(issue('consent.timeout_ms', 'jstag.consent.timeout_invalid', { max: CONSENT_TIMEOUT_MAX_MS }));
  return out;
}

function floorIssues(config: JsTagConfig): BuilderIssue[] {
  if (config.floor.trim() === '') return [];
  return parseDecimalInput(config.floor, { maxDecimals: FLOOR_MAX_DECIMALS, allowNegative: false }) === null
    ? [issue('floor', 'jstag.floor.invalid', { decimals: FLOOR_MAX_DECIMALS })]
    : [];
}

function sizeIssues(config: JsTagConfig): BuilderIssue[] {
  const out: BuilderIssue[] = [];
  if (config.sizes.length === 0) return [issue('sizes', 'jstag.sizes.required')];
  if (config.sizes.length > TAG_SIZES_MAX) out.push(issue('sizes', 'jstag.sizes.too_many', { max: TAG_SIZES_MAX }));
  const seen = new Set<string>();
  config.sizes.forEach((size, i) => {
    if (!parseSize(size)) out.push(issue(`sizes.${i}`, 'jstag.sizes.invalid', { size, max: TAG_SIZE_MAX }));
    else if (seen.has(size.trim())) out.push(issue(`sizes.${i}`, 'jstag.sizes.duplicate', { size }));
    seen.add(size.trim());
  });
  if (config.type !== 'async' && config.sizes.length > 1) out.push(issue('sizes', 'jstag.sizes.first_only', { size: config.sizes[0] ?? '' }, 'warning'));
  return out;
}

function passbackIssues(config: JsTagConfig): BuilderIssue[] {
  const value = config.passback.trim();
  if (config.passback_type === 'none') return [];
  if (config.type === 'image') return [issue('passback_type', 'jstag.passback.image_ignored', undefined, 'warning')];
  if (value === '') return [issue('passback', 'jstag.passback.required')];
  if (config.passback_type === 'url') return isHttpUrl(value) ? [] : [issue('passback', 'jstag.passback.url_invalid')];
  if (config.type === 'iframe') return [issue('passback_type', 'jstag.passback.iframe_html')];
  if (value.length > PASSBACK_HTML_MAX) return [issue('passback', 'jstag.passback.too_long', { max: PASSBACK_HTML_MAX })];
  return [];
}

function macroIssues(config: JsTagConfig): BuilderIssue[] {
  const out: BuilderIssue[] = [];
  const click = config.click_macro.trim();
  if (click !== '' && (click.length > MACRO_MAX || !CLICK_MACRO.test(click))) out.push(issue('click_macro', 'jstag.click_macro.invalid'));
  const cb = config.cachebuster_macro.trim();
  if (config.type !== 'async' && cb !== '' && (cb.length > MACRO_MAX || !MACRO.test(cb))) out.push(issue('cachebuster_macro', 'jstag.cachebuster.invalid'));
  return out;
}

/** Every rule of a JS tag configuration, at its field's path. */
export function jsTagIssues(config: JsTagConfig): BuilderIssue[] {
  return [
    ...serverUrlIssues(config.server_url, 'jstag'),
    ...adUnitIssues(config.ad_unit, 'jstag'),
    ...sizeIssues(config),
    ...floorIssues(config),
    ...passbackIssues(config),
    ...macroIssues(config),
    ...consentIssues(config.consent, config.type === 'async'),
  ];
}

// ---------------------------------------------------------------------------------------------
// Writing HTML

/** Text for an HTML attribute value in double quotes (or element content): nothing can break out. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** `name="value"` lines of a start tag, in order; undefined values are left out. */
export function attributeLines(attrs: readonly [string, string | undefined][], indent: string): string {
  return attrs
    .filter((a): a is [string, string] => a[1] !== undefined)
    .map(([name, value]) => `${indent}${name}="${escapeHtml(value)}"`)
    .join('\n');
}

/** The consent signals as macros the trafficking ad server replaces, by query parameter. */
export function consentMacros(consent: ConsentConfig): [string, string][] {
  const vendor = consent.vendor_id ?? 0;
  const out: [string, string][] = [];
  if (consent.tcf === 'macro') out.push(['gdpr', '${GDPR}'], ['gdpr_consent', `\${GDPR_CONSENT_${vendor}}`]);
  if (consent.gpp === 'macro') out.push(['gpp', `\${GPP_STRING_${vendor}}`], ['gpp_sid', '${GPP_SID}']);
  if (consent.us_privacy === 'macro') out.push(['us_privacy', '${US_PRIVACY}']);
  return out;
}

/** The data-* attributes that carry the consent configuration (read by the scripts and by parse). */
export function consentAttributes(consent: ConsentConfig): [string, string | undefined][] {
  const macros = Object.fromEntries(consentMacros(consent));
  const asksCmp = consent.tcf === 'cmp' || consent.gpp === 'cmp' || consent.us_privacy === 'cmp';
  const mode = (m: ConsentMode) => (m === 'off' ? undefined : m);
  return [
    ['data-tcf', mode(consent.tcf)],
    ['data-gdpr', macros.gdpr],
    ['data-gdpr-consent', macros.gdpr_consent],
    ['data-gpp', mode(consent.gpp)],
    ['data-gpp-string', macros.gpp],
    ['data-gpp-sid', macros.gpp_sid],
    ['data-usp', mode(consent.us_privacy)],
    ['data-us-privacy', macros.us_privacy],
    ['data-vendor', consent.vendor_id === null ? undefined : String(consent.vendor_id)],
    ['data-consent-timeout', asksCmp ? String(consent.timeout_ms) : undefined],
  ];
}

/**
 * A query string from parameters: values are percent-encoded, except macros, which must reach the
 * trafficking ad server exactly as written so it can replace them.
 */
export function queryString(params: readonly [string, string][]): string {
  return params
    .map(([k, v]) => `${encodeURIComponent(k)}=${MACRO.test(v) ? v : encodeURIComponent(v)}`)
    .join('&');
}

// ---------------------------------------------------------------------------------------------
// The async tag's script: the same text for every tag (its SHA-256 is in the app's CSP)

/**
 * Reads its <ins> (the element just before it), asks the page's CMP when the tag says so (at most
 * data-consent-timeout ms), then loads the ad server's creative in an iframe. The creative posts
 * {type: 'bo-ad', fill, width, height}: the frame takes the creative's size, or shows the passback
 * (a URL, or HTML in srcdoc) when there is no ad, or the slot collapses without a passback.
 * Unreplaced macros (${GDPR} when the tag was not served by an ad server) are not sent.
 */
export const JSTAG_LOADER = `
(function (script) {
  var slot = script && script.previousElementSibling;
  if (!slot || !slot.hasAttribute('data-bo-tag') || slot.hasAttribute('data-bo-loaded')) return;
  slot.setAttribute('data-bo-loaded', '');
  var d = slot.dataset;
  var size = (d.sizes || '1x1').split(',')[0].split('x');
  var url = new URL((d.server || '') + '${SERVE_AD_PATH}', document.baseURI);
  var q = url.searchParams;
  var frame = null;
  var waiting = 1;
  function given(v) {
    return typeof v === 'string' && v !== '' && !/^(%%[A-Z0-9_]+%%|\\$\\{[A-Z0-9_]+\\})$/.test(v);
  }
  function put(name, value) {
    if (given(value)) q.set(name, value);
  }
  put('unit', d.unit);
  put('sizes', d.sizes);
  if (given(d.floor)) { put('floor', d.floor); put('cur', d.currency); }
  put('gdpr', d.gdpr);
  put('gdpr_consent', d.gdprConsent);
  put('gpp', d.gppString);
  put('gpp_sid', d.gppSid);
  put('us_privacy', d.usPrivacy);
  put('click', d.click);
  q.set('cb', Date.now().toString(36) + Math.random().toString(36).slice(2, 8));
  q.set('page', location.href);

  function passback() {
    if (given(d.passbackUrl)) frame.src = d.passbackUrl;
    else if (given(d.passbackHtml)) { frame.removeAttribute('src'); frame.srcdoc = d.passbackHtml; }
    else slot.style.display = 'none';
  }
  function load() {
    frame = document.createElement('iframe');
    frame.title = 'Advertisement';
    frame.width = size[0];
    frame.height = size[1];
    frame.setAttribute('scrolling', 'no');
    frame.style.border = '0';
    frame.style.display = 'block';
    frame.src = url.href;
    window.addEventListener('message', function (event) {
      var m = event.data;
      if (event.source !== frame.contentWindow || !m || m.type !== '${AD_MESSAGE_TYPE}') return;
      if (!m.fill) return passback();
      if (m.width > 0 && m.width <= ${TAG_SIZE_MAX} && m.height > 0 && m.height <= ${TAG_SIZE_MAX}) {
        frame.width = m.width;
        frame.height = m.height;
        slot.style.width = m.width + 'px';
        slot.style.height = m.height + 'px';
      }
    });
    slot.appendChild(frame);
  }
  function answered() {
    waiting -= 1;
    if (waiting === 0) load();
  }
  function ask(api, lookup) {
    if (typeof window[api] !== 'function') return;
    var done = false;
    function finish() {
      if (done) return;
      done = true;
      answered();
    }
    waiting += 1;
    setTimeout(finish, Number(d.consentTimeout) || 500);
    try { lookup(window[api], function (set) { if (!done) set(); finish(); }); } catch (e) { finish(); }
  }
  if (d.tcf === 'cmp') ask('__tcfapi', function (api, reply) {
    api('addEventListener', 2, function (tc, success) {
      if (!success || !tc) return reply(function () {});
      if (tc.eventStatus !== 'tcloaded' && tc.eventStatus !== 'useractioncomplete') return;
      reply(function () {
        q.set('gdpr', tc.gdprApplies ? '1' : '0');
        put('gdpr_consent', tc.tcString);
      });
      if (tc.listenerId !== undefined) api('removeEventListener', 2, function () {}, tc.listenerId);
    });
  });
  if (d.gpp === 'cmp') ask('__gpp', function (api, reply) {
    api('addEventListener', function (event, success) {
      var ping = event && event.pingData;
      if (!success || !ping) return reply(function () {});
      if (ping.signalStatus !== 'ready') return;
      reply(function () {
        put('gpp', ping.gppString);
        var sections = (ping.applicableSections || []).filter(function (s) { return s > 0; });
        if (sections.length) q.set('gpp_sid', sections.join(','));
      });
    });
  });
  if (d.usp === 'cmp') ask('__uspapi', function (api, reply) {
    api('getUSPData', 1, function (data, success) {
      reply(function () { if (success && data) put('us_privacy', data.uspString); });
    });
  });
  answered();
})(document.currentScript);
`;

// ---------------------------------------------------------------------------------------------
// Rendering

const TAG_COMMENTS: Record<JsTagType, string> = {
  async: '<!-- Ad tag (async JavaScript): paste it where the ad should show. -->',
  iframe: '<!-- Ad tag (iframe): paste it where the ad should show; no JavaScript needed. -->',
  image: '<!-- Ad tag (image): paste it where the ad should show. -->',
};

const firstSize = (config: JsTagConfig) => parseSize(config.sizes[0] ?? '') ?? { width: 300, height: 250 };
const floorOf = (config: JsTagConfig) => parseDecimalInput(config.floor, { maxDecimals: FLOOR_MAX_DECIMALS, allowNegative: false });

/** The ad request's parameters for the iframe and image tags (and the noscript image). */
function requestParams(config: JsTagConfig, withPassback: boolean): [string, string][] {
  const params: [string, string][] = [['unit', config.ad_unit.trim()], ['sizes', config.sizes.map((s) => s.trim()).join(',')]];
  const floor = floorOf(config);
  if (config.floor.trim() !== '' && floor !== null) params.push(['floor', floor], ['cur', config.currency]);
  params.push(...consentMacros(config.consent));
  const click = config.click_macro.trim();
  if (click !== '') params.push(['click', click]);
  const cb = config.cachebuster_macro.trim();
  if (cb !== '') params.push(['cb', cb]);
  if (withPassback && config.passback_type === 'url' && config.passback.trim() !== '') params.push(['passback', config.passback.trim()]);
  return params;
}

/** The click URL of the image tag: the trafficking ad server's click macro, then ours, escaped. */
function clickHref(config: JsTagConfig): string {
  const ours = `${serverBase(config.server_url)}${SERVE_CLICK_PATH}?${queryString([['unit', config.ad_unit.trim()]])}`;
  const click = config.click_macro.trim();
  return click === '' ? ours : `${click}${encodeURIComponent(ours)}`;
}

function imageMarkup(config: JsTagConfig, indent: string): string {
  const { width, height } = firstSize(config);
  const src = `${serverBase(config.server_url)}${SERVE_AD_IMAGE_PATH}?${queryString(requestParams(config, false))}`;
  return [
    `${indent}<a href="${escapeHtml(clickHref(config))}" target="_blank" rel="noopener">`,
    `${indent}  <img src="${escapeHtml(src)}" width="${width}" height="${height}" alt="Advertisement" style="border:0">`,
    `${indent}</a>`,
  ].join('\n');
}

function rootAttributes(config: JsTagConfig): [string, string | undefined][] {
  const { width, height } = firstSize(config);
  const floor = floorOf(config);
  const server = serverBase(config.server_url);
  const passback = config.passback.trim();
  return [
    ['class', 'bo-ad'],
    ['style', `display:inline-block;width:${width}px;height:${height}px`],
    ['data-bo-tag', config.type],
    ['data-server', server === '' ? undefined : server],
    ['data-unit', config.ad_unit.trim()],
    ['data-sizes', config.sizes.map((s) => s.trim()).join(',')],
    ['data-floor', config.floor.trim() === '' ? undefined : (floor ?? config.floor.trim())],
    ['data-currency', config.currency],
    ['data-passback-url', config.passback_type === 'url' && passback !== '' ? passback : undefined],
    ['data-passback-html', config.passback_type === 'html' && passback !== '' ? config.passback : undefined],
    ['data-click', config.click_macro.trim() === '' ? undefined : config.click_macro.trim()],
    ['data-cachebuster', config.type !== 'async' && config.cachebuster_macro.trim() !== '' ? config.cachebuster_macro.trim() : undefined],
    ['data-image-fallback', config.image_fallback && config.type !== 'image' ? 'true' : undefined],
    ...consentAttributes(config.consent),
  ];
}

/** The tag's HTML for a configuration. */
export function renderJsTag(config: JsTagConfig): string {
  const { width, height } = firstSize(config);
  const start = `<ins\n${attributeLines(rootAttributes(config), '  ')}>`;
  const lines = [TAG_COMMENTS[config.type]];
  if (config.type === 'async') {
    lines.push(`${start}</ins>`, `<script>${JSTAG_LOADER}</script>`);
  } else if (config.type === 'iframe') {
    const src = `${serverBase(config.server_url)}${SERVE_AD_PATH}?${queryString(requestParams(config, true))}`;
    lines.push(
      start,
      `  <iframe src="${escapeHtml(src)}" width="${width}" height="${height}" title="Advertisement" scrolling="no" frameborder="0" style="border:0;display:block"></iframe>`,
      '</ins>',
    );
  } else {
    lines.push(start, imageMarkup(config, '  '), '</ins>');
  }
  if (config.type !== 'image' && config.image_fallback) lines.push('<noscript>', imageMarkup(config, '  '), '</noscript>');
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// Reading a tag back

/** 1-based line and column of an offset in a text. */
export function placeOf(code: string, offset: number): { line: number; column: number } {
  const before = code.slice(0, Math.max(0, offset));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1] ?? '').length + 1 };
}

const attributeParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  allowBooleanAttributes: true,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: true,
  trimValues: false,
});

/**
 * The attributes of the first start tag `<{element} … class="{className}" …>` in the code, decoded;
 * or the syntax issue that explains why there is none (with line and column).
 */
export function readRootAttributes(
  code: string,
  element: string,
  className: string,
  prefix: string,
): { attributes?: Record<string, string>; issues: BuilderIssue[] } {
  const pattern = new RegExp(`<${element}\\b(?:"[^"]*"|'[^']*'|[^'">])*>`, 'gi');
  for (const m of code.matchAll(pattern)) {
    const tag = m[0];
    if (!new RegExp(`class\\s*=\\s*["'][^"']*\\b${className}\\b`).test(tag)) continue;
    const at = placeOf(code, m.index ?? 0);
    const snippet = `${tag.replace(/\/>$/, '>')}</${element}>`;
    const valid = XMLValidator.validate(snippet, { allowBooleanAttributes: true });
    if (valid !== true) {
      const line = at.line + valid.err.line - 1;
      const column = valid.err.line === 1 ? at.column + valid.err.col - 1 : valid.err.col;
      return { issues: [{ severity: 'error', path: '', key: `${prefix}.parse.attributes`, params: { detail: valid.err.msg }, line, column, source: 'syntax' }] };
    }
    const parsed = attributeParser.parse(snippet) as Record<string, Record<string, string | boolean> | string>;
    const node = parsed[element];
    const attributes: Record<string, string> = {};
    if (node && typeof node === 'object')
      for (const [k, v] of Object.entries(node)) if (k !== '#text') attributes[k.toLowerCase()] = v === true ? '' : String(v);
    return { attributes, issues: [] };
  }
  return { issues: [{ severity: 'error', path: '', key: `${prefix}.parse.no_root`, line: 1, column: 1, source: 'syntax' }] };
}

/** The consent configuration back from a root element's attributes. */
export function consentFromAttributes(a: Record<string, string>): ConsentConfig {
  const mode = (v: string | undefined): ConsentMode => ((CONSENT_MODES as readonly string[]).includes(v ?? '') ? (v as ConsentMode) : 'off');
  const vendor = a['data-vendor'];
  const timeout = a['data-consent-timeout'];
  return {
    tcf: mode(a['data-tcf']),
    gpp: mode(a['data-gpp']),
    us_privacy: mode(a['data-usp']),
    vendor_id: vendor !== undefined && /^\d{1,9}$/.test(vendor) ? Number(vendor) : null,
    timeout_ms: timeout !== undefined && /^\d{1,9}$/.test(timeout) ? Number(timeout) : 500,
  };
}

/**
 * A hand edit that the configuration does not explain: the code differs from what the
 * configuration read from it renders. Answers the issue at the first differing line, or none.
 */
export function editedIssue(code: string, rendered: string, prefix: string): BuilderIssue | null {
  const norm = (s: string) =>
    s
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .map((l) => l.trimEnd());
  const a = norm(code.trim());
  const b = norm(rendered.trim());
  const leading = code.replace(/\r\n?/g, '\n').length - code.replace(/\r\n?/g, '\n').trimStart().length;
  const offsetLines = code.replace(/\r\n?/g, '\n').slice(0, leading).split('\n').length - 1;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++)
    if (a[i] !== b[i])
      return { severity: 'error', path: '', key: `${prefix}.parse.edited`, params: { line: i + 1 + offsetLines }, line: i + 1 + offsetLines, column: 1, source: 'syntax' };
  return null;
}

function parseJsTag(code: string): { config?: JsTagConfig; issues: BuilderIssue[] } {
  const root = readRootAttributes(code, 'ins', 'bo-ad', 'jstag');
  if (!root.attributes) return { issues: root.issues };
  const a = root.attributes;
  const type = (JSTAG_TYPES as readonly string[]).includes(a['data-bo-tag'] ?? '') ? (a['data-bo-tag'] as JsTagType) : null;
  if (!type) return { issues: [{ severity: 'error', path: 'type', key: 'jstag.parse.type', line: 1, column: 1, source: 'syntax' }] };
  const passbackType: PassbackType = a['data-passback-url'] !== undefined ? 'url' : a['data-passback-html'] !== undefined ? 'html' : 'none';
  const currency = (CURRENCIES as readonly string[]).includes(a['data-currency'] ?? '') ? (a['data-currency'] as JsTagConfig['currency']) : 'EUR';
  // The iframe tag sends its passback URL to the ad server; it also is on the root element.
  const cachebuster = a['data-cachebuster'] ?? '';
  const config: JsTagConfig = {
    type,
    server_url: a['data-server'] ?? '',
    ad_unit: a['data-unit'] ?? '',
    sizes: (a['data-sizes'] ?? '').split(',').map((s) => s.trim()).filter((s) => s !== ''),
    floor: a['data-floor'] ?? '',
    currency,
    passback_type: passbackType,
    passback: a['data-passback-url'] ?? a['data-passback-html'] ?? '',
    image_fallback: type !== 'image' && a['data-image-fallback'] === 'true',
    click_macro: a['data-click'] ?? '',
    cachebuster_macro: type === 'async' ? '%%CACHEBUSTER%%' : cachebuster,
    consent: consentFromAttributes(a),
  };
  const edited = editedIssue(code, renderJsTag(config), 'jstag');
  return { config, issues: edited ? [edited] : [] };
}

// ---------------------------------------------------------------------------------------------
// The builder

const DEFAULT_CONSENT: ConsentConfig = { tcf: 'cmp', gpp: 'cmp', us_privacy: 'off', vendor_id: null, timeout_ms: 500 };

const EXAMPLES: { name: string; config: JsTagConfig }[] = [
  {
    name: 'Homepage MPU 300x250, async, TCF and GPP from the CMP',
    config: {
      type: 'async',
      server_url: '',
      ad_unit: 'diariolevante_home_mpu_1',
      sizes: ['300x250', '300x600'],
      floor: '0.85',
      currency: 'EUR',
      passback_type: 'none',
      passback: '',
      image_fallback: true,
      click_macro: '%%CLICK_URL_UNESC%%',
      cachebuster_macro: '%%CACHEBUSTER%%',
      consent: { tcf: 'cmp', gpp: 'cmp', us_privacy: 'off', vendor_id: 1126, timeout_ms: 500 },
    },
  },
  {
    name: 'Leaderboard 728x90 iframe with a passback URL',
    config: {
      type: 'iframe',
      server_url: '',
      ad_unit: 'motorpasion_article_top_728',
      sizes: ['728x90'],
      floor: '6.50',
      currency: 'USD',
      passback_type: 'url',
      passback: 'https://ads.motorpasion.example/passback/leaderboard.html',
      image_fallback: false,
      click_macro: '%%CLICK_URL_ESC%%',
      cachebuster_macro: '%%CACHEBUSTER%%',
      consent: { tcf: 'macro', gpp: 'off', us_privacy: 'macro', vendor_id: 1126, timeout_ms: 500 },
    },
  },
  {
    name: 'Mobile banner 320x50 image tag',
    config: {
      type: 'image',
      server_url: '',
      ad_unit: 'recetasgalicia_mobile_sticky_320',
      sizes: ['320x50'],
      floor: '',
      currency: 'EUR',
      passback_type: 'none',
      passback: '',
      image_fallback: false,
      click_macro: '',
      cachebuster_macro: '[CACHEBUSTING]',
      consent: { tcf: 'macro', gpp: 'off', us_privacy: 'off', vendor_id: 1126, timeout_ms: 500 },
    },
  },
];

/** An ad unit code as a file name's stem (the tag builders' downloads). */
export const fileSlug = (unit: string) => unit.trim().replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'ad-unit';

export const jstagBuilder: BuilderDefinition<JsTagConfig> = {
  kind: 'jstag',
  subjects: ['ad_unit', 'publisher'],
  configSchema: jsTagConfigSchema,
  defaults: () => ({
    type: 'async',
    server_url: '',
    ad_unit: '',
    sizes: ['300x250'],
    floor: '',
    currency: 'EUR',
    passback_type: 'none',
    passback: '',
    image_fallback: true,
    click_macro: '',
    cachebuster_macro: '%%CACHEBUSTER%%',
    consent: { ...DEFAULT_CONSENT },
  }),
  render: (config) => ({
    code: renderJsTag(config),
    language: 'html',
    filename: `ad-tag-${fileSlug(config.ad_unit)}.html`,
    mime: 'text/html',
    issues: jsTagIssues(config),
  }),
  parse: parseJsTag,
  examples: () => structuredClone(EXAMPLES),
};
