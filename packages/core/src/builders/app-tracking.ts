/**
 * The app tracking manager (`/utils/app-tracking-manager`, issue 25;
 * docs/decisions/041-sdk-and-app-tracking.md): per app, the campaign tracking links (a base URL and
 * query parameters whose values hold macros such as `{click_id}` or `{idfa}`, which the SDK fills
 * in when it opens the link) and, for iOS, the SKAdNetwork ids of the ad networks that buy it and
 * the App Tracking Transparency prompt's text.
 *
 * One output per platform, what the app's developer pastes:
 * - iOS: a property list (XML, Apple's PropertyList-1.0 DTD) to merge into the app's Info.plist
 *   (`PlistBuddy -c "Merge app-tracking.plist" Info.plist`): `NSUserTrackingUsageDescription`,
 *   `SKAdNetworkItems` (one `SKAdNetworkIdentifier` dict per id, Apple's documented shape) and our
 *   SDK's `AdTechTracking` dict with the link templates; each link is preceded by a comment with
 *   an example URL, the macros resolved.
 * - Android: JSON (`res/raw/app_tracking.json`) with the app and the links, each as its template
 *   and a resolved example.
 * parse() reads either back (the template is split into base URL and parameters again); the
 * examples are derived and ignored when read.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { z } from 'zod';
import { bundleIssues, fileStem, lineColumnOf, locateJsonPath, placed, readJson, skadNetworkIssues, storeIdIssues, zodIssues, APP_PLATFORMS, EXAMPLE_SKADNETWORK_IDS, type AppPlatform } from './app-shared.ts';
import type { BuilderDefinition, BuilderIssue, BuilderOutput } from './common.ts';

/**
 * The macros a link's parameter values may hold, the platforms where the SDK can fill each in, and
 * the value the screen's example URL shows (fixed, so the output does not change by itself).
 */
export const TRACKING_MACROS = {
  click_id: { platforms: ['ios', 'android'], example: 'c7f3e2a1-5b4d-4f8e-9a1c-2d3e4f5a6b7c' },
  idfa: { platforms: ['ios'], example: '6D92078A-8246-4BA4-AE5B-76104861E7DC' },
  idfv: { platforms: ['ios'], example: 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F' },
  gaid: { platforms: ['android'], example: '38400000-8cf0-11bd-b23e-10b96e40000d' },
  ifa_type: { platforms: ['ios', 'android'], example: '' },
  lmt: { platforms: ['ios', 'android'], example: '0' },
  att_status: { platforms: ['ios'], example: '3' },
  country: { platforms: ['ios', 'android'], example: 'ES' },
  app_bundle: { platforms: ['ios', 'android'], example: '' },
  campaign_id: { platforms: ['ios', 'android'], example: '' },
  timestamp: { platforms: ['ios', 'android'], example: '1767225600' },
  os_version: { platforms: ['ios', 'android'], example: '' },
  ip: { platforms: ['ios', 'android'], example: '203.0.113.7' },
} as const satisfies Record<string, { platforms: readonly AppPlatform[]; example: string }>;
export type TrackingMacro = keyof typeof TRACKING_MACROS;
export const TRACKING_MACRO_NAMES = Object.keys(TRACKING_MACROS) as TrackingMacro[];
/** Macros that read the device's advertising id or its tracking consent: iOS must ask first (ATT). */
const ATT_MACROS: readonly TrackingMacro[] = ['idfa', 'att_status'];

export const trackingParamSchema = z.strictObject({ key: z.string().max(100), value: z.string().max(500) });
export const trackingLinkSchema = z.strictObject({
  name: z.string().max(120),
  campaign_id: z.string().max(60),
  /** https URL without a query: the parameters come from `params`. */
  base_url: z.string().max(2000),
  params: z.array(trackingParamSchema).max(50),
});
export type TrackingLink = z.infer<typeof trackingLinkSchema>;
export const MAX_TRACKING_LINKS = 100;

export const appTrackingConfigSchema = z.strictObject({
  platform: z.enum(APP_PLATFORMS),
  app_bundle: z.string().max(200),
  store_id: z.string().max(200),
  /** iOS: the ATT prompt's text (Info.plist NSUserTrackingUsageDescription). */
  att_usage_description: z.string().max(500),
  /** iOS: Info.plist SKAdNetworkItems. */
  skadnetwork_ids: z.array(z.string().max(100)).max(1000),
  links: z.array(trackingLinkSchema).max(MAX_TRACKING_LINKS),
});
export type AppTrackingConfig = z.infer<typeof appTrackingConfigSchema>;

// ---------------------------------------------------------------------------------------------
// Templates

const MACRO_TOKEN = /\{([a-z_]+)\}/g;
const PARAM_KEY = /^[A-Za-z0-9_.~[\]-]+$/;

/** The macros a text holds, in order (names as written, known or not). */
export function macrosIn(text: string): string[] {
  return [...text.matchAll(MACRO_TOKEN)].map((m) => m[1]!);
}

/** A parameter value for a URL: literal text percent-encoded, `{macro}` tokens kept for the SDK. */
function encodeTemplateValue(value: string): string {
  let out = '';
  let last = 0;
  for (const m of value.matchAll(MACRO_TOKEN)) {
    out += encodeURIComponent(value.slice(last, m.index)) + m[0];
    last = m.index + m[0].length;
  }
  return out + encodeURIComponent(value.slice(last));
}

/** A link's template: `https://…/click?cid={campaign_id}&clid={click_id}`. */
export function trackingTemplate(link: Pick<TrackingLink, 'base_url' | 'params'>): string {
  const query = link.params.map((p) => `${encodeURIComponent(p.key)}=${encodeTemplateValue(p.value)}`).join('&');
  return query === '' ? link.base_url : `${link.base_url}?${query}`;
}

/** What each macro stands for in the example URL of an app's link. */
function exampleValues(config: Pick<AppTrackingConfig, 'platform' | 'app_bundle'>, link: Pick<TrackingLink, 'campaign_id'>): Record<string, string> {
  const values: Record<string, string> = Object.fromEntries(TRACKING_MACRO_NAMES.map((m) => [m, TRACKING_MACROS[m].example]));
  values.ifa_type = config.platform === 'ios' ? 'idfa' : 'aaid';
  values.app_bundle = config.app_bundle;
  values.campaign_id = link.campaign_id;
  values.os_version = config.platform === 'ios' ? '18.3' : '15';
  return values;
}

/** The link as the SDK would open it on a device, the macros replaced by example values. */
export function resolvedExample(config: Pick<AppTrackingConfig, 'platform' | 'app_bundle'>, link: TrackingLink): string {
  const values = exampleValues(config, link);
  const query = link.params.map((p) => `${encodeURIComponent(p.key)}=${encodeURIComponent(p.value.replace(MACRO_TOKEN, (all, name: string) => values[name] ?? all))}`).join('&');
  return query === '' ? link.base_url : `${link.base_url}?${query}`;
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

/** A template split back into its base URL and parameters (what parse() does with an edited one). */
export function splitTemplate(template: string): Pick<TrackingLink, 'base_url' | 'params'> {
  const q = template.indexOf('?');
  if (q < 0) return { base_url: template, params: [] };
  const params = template
    .slice(q + 1)
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const eq = part.indexOf('=');
      return eq < 0 ? { key: decode(part), value: '' } : { key: decode(part.slice(0, eq)), value: decode(part.slice(eq + 1)) };
    });
  return { base_url: template.slice(0, q), params };
}

// ---------------------------------------------------------------------------------------------
// Rules

const err = (path: string, key: string, params?: Record<string, string | number>): BuilderIssue => ({ severity: 'error', path, key, ...(params ? { params } : {}), source: 'rules' });
const warn = (path: string, key: string, params?: Record<string, string | number>): BuilderIssue => ({ severity: 'warning', path, key, ...(params ? { params } : {}), source: 'rules' });

function baseUrlIssues(url: string, path: string): BuilderIssue[] {
  if (url.trim() === '') return [err(path, 'app_tracking.link.base_url_required')];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [err(path, 'app_tracking.link.base_url_invalid')];
  }
  // App Transport Security blocks plain http on iOS; Android 9+ blocks cleartext by default.
  if (parsed.protocol !== 'https:') return [err(path, 'app_tracking.link.base_url_https')];
  if (url.includes('?') || url.includes('#')) return [err(path, 'app_tracking.link.base_url_query')];
  if (/\s/.test(url)) return [err(path, 'app_tracking.link.base_url_invalid')];
  return [];
}

function linkIssues(c: AppTrackingConfig, link: TrackingLink, i: number, firstOfName: Map<string, number>): BuilderIssue[] {
  const at = `links.${i}`;
  const out: BuilderIssue[] = [];
  const name = link.name.trim().toLowerCase();
  if (name === '') out.push(err(`${at}.name`, 'app_tracking.link.name_required'));
  else if (firstOfName.has(name)) out.push(err(`${at}.name`, 'app_tracking.link.name_duplicate', { first: firstOfName.get(name)! + 1 }));
  else firstOfName.set(name, i);
  out.push(...baseUrlIssues(link.base_url, `${at}.base_url`));
  const keys = new Set<string>();
  let usesClickId = false;
  link.params.forEach((p, j) => {
    const pat = `${at}.params.${j}`;
    if (p.key === '') out.push(err(`${pat}.key`, 'app_tracking.param.key_required'));
    else if (!PARAM_KEY.test(p.key)) out.push(err(`${pat}.key`, 'app_tracking.param.key_format'));
    else if (keys.has(p.key)) out.push(err(`${pat}.key`, 'app_tracking.param.key_duplicate', { key: p.key }));
    keys.add(p.key);
    // Braces that do not make a `{macro}` token are a typo the SDK would send as is.
    const leftover = p.value.replace(MACRO_TOKEN, '');
    if (leftover.includes('{') || leftover.includes('}')) out.push(err(`${pat}.value`, 'app_tracking.param.macro_syntax', { example: '{click_id}' }));
    for (const m of macrosIn(p.value)) {
      if (!(m in TRACKING_MACROS)) {
        out.push(err(`${pat}.value`, 'app_tracking.param.macro_unknown', { macro: `{${m}}` }));
        continue;
      }
      const macro = m as TrackingMacro;
      if (macro === 'click_id') usesClickId = true;
      if (!(TRACKING_MACROS[macro].platforms as readonly string[]).includes(c.platform))
        out.push(err(`${pat}.value`, `app_tracking.param.macro_platform_${c.platform}`, { macro: `{${m}}` }));
      if (macro === 'campaign_id' && link.campaign_id.trim() === '' && !out.some((o) => o.path === `${at}.campaign_id`)) out.push(err(`${at}.campaign_id`, 'app_tracking.link.campaign_id_required', { macro: '{campaign_id}' }));
    }
  });
  // Without the click id the advertiser's postback cannot be matched to the click.
  if (!usesClickId) out.push(warn(`${at}.params`, 'app_tracking.link.click_id_missing', { macro: '{click_id}' }));
  return out;
}

/** Every rule of an app tracking configuration, at its field's path. */
export function appTrackingIssues(c: AppTrackingConfig): BuilderIssue[] {
  const out: BuilderIssue[] = [...bundleIssues(c.platform, c.app_bundle, 'app_bundle'), ...storeIdIssues(c.platform, c.store_id, c.app_bundle, 'store_id')];
  const firstOfName = new Map<string, number>();
  c.links.forEach((l, i) => out.push(...linkIssues(c, l, i, firstOfName)));
  if (c.platform === 'ios') {
    if (c.skadnetwork_ids.length === 0) out.push(warn('skadnetwork_ids', 'app_tracking.skan.empty'));
    out.push(...skadNetworkIssues(c.skadnetwork_ids, 'skadnetwork_ids'));
    const asksTracking = c.links.some((l) => l.params.some((p) => macrosIn(p.value).some((m) => (ATT_MACROS as readonly string[]).includes(m))));
    if (asksTracking && c.att_usage_description.trim() === '') out.push(err('att_usage_description', 'app_tracking.att_description_required'));
  } else {
    if (c.skadnetwork_ids.length > 0) out.push(err('skadnetwork_ids', 'app_tracking.skan.android'));
    if (c.att_usage_description.trim() !== '') out.push(err('att_usage_description', 'app_tracking.att_android'));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Android: JSON

interface AndroidFile {
  platform: 'android';
  app_bundle: string;
  store_id: string;
  links: { name: string; campaign_id: string; template: string; example: string }[];
}

function renderAndroid(c: AppTrackingConfig): string {
  const file: AndroidFile = {
    platform: 'android',
    app_bundle: c.app_bundle,
    store_id: c.store_id,
    links: c.links.map((l) => ({ name: l.name, campaign_id: l.campaign_id, template: trackingTemplate(l), example: resolvedExample(c, l) })),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

const androidFileSchema = z.strictObject({
  platform: z.literal('android'),
  app_bundle: z.string().max(200),
  store_id: z.string().max(200),
  links: z.array(z.strictObject({ name: z.string().max(120), campaign_id: z.string().max(60), template: z.string().max(30_000), example: z.string().max(40_000).optional() })).max(MAX_TRACKING_LINKS),
});

/** Where a configuration path is in the Android file (links' URL parts live in `template`). */
function androidJsonPath(path: string): (string | number)[] {
  const parts = path.split('.');
  if (parts[0] === 'links' && parts[1] !== undefined) {
    const i = Number(parts[1]);
    if (parts[2] === 'name' || parts[2] === 'campaign_id') return ['links', i, parts[2]];
    return parts.length > 2 ? ['links', i, 'template'] : ['links', i];
  }
  return [parts[0] ?? ''];
}

function parseAndroid(code: string): { config?: AppTrackingConfig; issues: BuilderIssue[] } {
  const read = readJson(code);
  if (read.issues.length > 0) return { issues: read.issues };
  const locate = (path: string) => locateJsonPath(read.tree, code, androidJsonPath(path));
  const checked = androidFileSchema.safeParse(read.value);
  if (!checked.success) {
    // The file's paths are already JSON paths.
    return { issues: placed(zodIssues(checked.error.issues), (p) => locateJsonPath(read.tree, code, p.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s)))) };
  }
  const f = checked.data;
  const config: AppTrackingConfig = {
    platform: 'android',
    app_bundle: f.app_bundle,
    store_id: f.store_id,
    att_usage_description: '',
    skadnetwork_ids: [],
    links: f.links.map((l) => ({ name: l.name, campaign_id: l.campaign_id, ...splitTemplate(l.template) })),
  };
  return { config, issues: placed(appTrackingIssues(config), locate) };
}

// ---------------------------------------------------------------------------------------------
// iOS: property list

/** Our SDK's Info.plist key for the links (its sub-keys: AppBundle, StoreId, Links). */
export const PLIST_TRACKING_KEY = 'AdTechTracking';

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** A comment cannot hold `--`. */
const xmlComment = (s: string) => s.replace(/--/g, '-%2D');

function renderIos(c: AppTrackingConfig): string {
  const lines: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    `<!-- App tracking for ${xmlComment(c.app_bundle || 'the app')}: merge into Info.plist (PlistBuddy -c "Merge app-tracking.plist" Info.plist). -->`,
    '<plist version="1.0">',
    '<dict>',
  ];
  const s = (indent: string, key: string, value: string) => lines.push(`${indent}<key>${key}</key>`, `${indent}<string>${xmlText(value)}</string>`);
  s('  ', 'NSUserTrackingUsageDescription', c.att_usage_description);
  lines.push('  <key>SKAdNetworkItems</key>', '  <array>');
  for (const id of c.skadnetwork_ids) lines.push('    <dict>', '      <key>SKAdNetworkIdentifier</key>', `      <string>${xmlText(id)}</string>`, '    </dict>');
  lines.push('  </array>', `  <key>${PLIST_TRACKING_KEY}</key>`, '  <dict>');
  s('    ', 'AppBundle', c.app_bundle);
  s('    ', 'StoreId', c.store_id);
  lines.push('    <key>Links</key>', '    <array>');
  for (const l of c.links) {
    lines.push(`      <!-- Example: ${xmlComment(resolvedExample(c, l))} -->`, '      <dict>');
    s('        ', 'Name', l.name);
    s('        ', 'CampaignId', l.campaign_id);
    s('        ', 'Template', trackingTemplate(l));
    lines.push('      </dict>');
  }
  lines.push('    </array>', '  </dict>', '</dict>', '</plist>');
  return `${lines.join('\n')}\n`;
}

/** A plist value read from fast-xml-parser's ordered nodes. */
type PlistValue = string | boolean | number | PlistValue[] | { [key: string]: PlistValue };

class PlistError extends Error {}

function textOf(children: unknown): string {
  if (!Array.isArray(children)) return '';
  return children.map((c) => (c && typeof c === 'object' && '#text' in c ? String((c as Record<string, unknown>)['#text']) : '')).join('');
}

function plistValue(node: Record<string, unknown>): PlistValue {
  const tag = Object.keys(node).find((k) => k !== ':@');
  const children = tag ? node[tag] : undefined;
  switch (tag) {
    case 'string':
    case 'date':
    case 'data':
      return textOf(children);
    case 'integer':
    case 'real':
      return Number(textOf(children));
    case 'true':
      return true;
    case 'false':
      return false;
    case 'array':
      return (children as Record<string, unknown>[]).filter((c) => !('#comment' in c) && !('#text' in c)).map(plistValue);
    case 'dict': {
      const out: { [key: string]: PlistValue } = {};
      const items = (children as Record<string, unknown>[]).filter((c) => !('#comment' in c) && !('#text' in c));
      for (let i = 0; i < items.length; i += 2) {
        const k = items[i]!;
        const v = items[i + 1];
        if (!('key' in k) || !v) throw new PlistError('A <dict> must hold <key> elements each followed by a value.');
        out[textOf(k.key)] = plistValue(v);
      }
      return out;
    }
    default:
      throw new PlistError(`<${tag ?? '?'}> is not a property list element.`);
  }
}

const isDict = (v: PlistValue | undefined): v is { [key: string]: PlistValue } => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: PlistValue | undefined) => (typeof v === 'string' ? v : '');

/** The n-th match's offset of a pattern in the text after `from` (or -1). */
function nthOffset(text: string, pattern: RegExp, n: number, from = 0): number {
  const re = new RegExp(pattern.source, 'g');
  re.lastIndex = from;
  let m: RegExpExecArray | null;
  let k = 0;
  while ((m = re.exec(text))) {
    if (k === n) return m.index;
    k++;
  }
  return -1;
}

/** Where a configuration path is in a plist the builder wrote (or a person edited in its shape). */
function locatePlist(code: string, path: string): { line: number; column: number } | null {
  const parts = path.split('.');
  const keyAt = (key: string, n = 0, from = 0) => nthOffset(code, new RegExp(`<key>\\s*${key}\\s*</key>`), n, from);
  let offset = -1;
  switch (parts[0]) {
    case 'att_usage_description':
      offset = keyAt('NSUserTrackingUsageDescription');
      break;
    case 'skadnetwork_ids':
      offset = parts[1] === undefined ? keyAt('SKAdNetworkItems') : keyAt('SKAdNetworkIdentifier', Number(parts[1]));
      break;
    case 'app_bundle':
      offset = keyAt('AppBundle');
      break;
    case 'store_id':
      offset = keyAt('StoreId');
      break;
    case 'links': {
      const links = keyAt('Links');
      if (parts[1] === undefined) offset = links;
      else {
        const i = Number(parts[1]);
        const key = parts[2] === 'name' ? 'Name' : parts[2] === 'campaign_id' ? 'CampaignId' : 'Template';
        offset = links < 0 ? -1 : keyAt(key, i, links);
      }
      break;
    }
    default:
      offset = -1;
  }
  return offset < 0 ? null : lineColumnOf(code, offset);
}

function parseIos(code: string): { config?: AppTrackingConfig; issues: BuilderIssue[] } {
  const valid = XMLValidator.validate(code);
  if (valid !== true) {
    return { issues: [{ severity: 'error', path: '', key: 'app_tracking.xml_syntax', params: { detail: valid.err.msg }, source: 'syntax', line: valid.err.line, column: valid.err.col }] };
  }
  const structure = (detail: string): { issues: BuilderIssue[] } => ({ issues: [{ severity: 'error', path: '', key: 'app_tracking.plist_structure', params: { detail }, source: 'syntax', line: 1, column: 1 }] });
  let root: PlistValue;
  try {
    const nodes = new XMLParser({ preserveOrder: true, ignoreAttributes: true, parseTagValue: false, trimValues: false, commentPropName: '#comment', processEntities: true }).parse(code) as Record<string, unknown>[];
    const plist = nodes.find((n) => 'plist' in n);
    if (!plist) return structure('The document has no <plist> element.');
    const inner = (plist.plist as Record<string, unknown>[]).filter((c) => !('#comment' in c) && !('#text' in c));
    if (inner.length !== 1) return structure('<plist> must hold exactly one value (a <dict>).');
    root = plistValue(inner[0]!);
  } catch (e) {
    if (e instanceof PlistError) return structure(e.message);
    throw e;
  }
  if (!isDict(root)) return structure('The property list must be a <dict>.');
  const tracking = root[PLIST_TRACKING_KEY];
  if (!isDict(tracking)) return structure(`The <dict> must hold the ${PLIST_TRACKING_KEY} key with a <dict>.`);
  const items = root.SKAdNetworkItems ?? [];
  if (!Array.isArray(items)) return structure('SKAdNetworkItems must be an <array>.');
  const links = tracking.Links ?? [];
  if (!Array.isArray(links)) return structure('Links must be an <array>.');
  const candidate = {
    platform: 'ios' as const,
    app_bundle: str(tracking.AppBundle),
    store_id: str(tracking.StoreId),
    att_usage_description: str(root.NSUserTrackingUsageDescription),
    skadnetwork_ids: items.map((it) => (isDict(it) ? str(it.SKAdNetworkIdentifier) : '')),
    links: links.map((l) => {
      const d = isDict(l) ? l : {};
      return { name: str(d.Name), campaign_id: str(d.CampaignId), ...splitTemplate(str(d.Template)) };
    }),
  };
  const locate = (p: string) => locatePlist(code, p);
  const checked = appTrackingConfigSchema.safeParse(candidate);
  if (!checked.success) return { issues: placed(zodIssues(checked.error.issues), locate) };
  return { config: checked.data, issues: placed(appTrackingIssues(checked.data), locate) };
}

// ---------------------------------------------------------------------------------------------
// The definition

function render(c: AppTrackingConfig): BuilderOutput {
  const stem = fileStem(c.app_bundle);
  if (c.platform === 'ios') {
    const code = renderIos(c);
    return { code, language: 'xml', filename: `${stem}-app-tracking.plist`, mime: 'application/x-plist', issues: placed(appTrackingIssues(c), (p) => locatePlist(code, p)) };
  }
  const code = renderAndroid(c);
  const tree = readJson(code).tree;
  return {
    code,
    language: 'json',
    filename: `${stem}-app-tracking.json`,
    mime: 'application/json',
    issues: placed(appTrackingIssues(c), (p) => locateJsonPath(tree, code, androidJsonPath(p))),
  };
}

/** iOS output is XML (it starts with `<`), Android's JSON. */
function parse(code: string): { config?: AppTrackingConfig; issues: BuilderIssue[] } {
  return code.trimStart().startsWith('<') ? parseIos(code) : parseAndroid(code);
}

function defaults(): AppTrackingConfig {
  return {
    platform: 'ios',
    app_bundle: '',
    store_id: '',
    att_usage_description: 'Your advertising identifier is used to measure which ads led you to this app.',
    skadnetwork_ids: [],
    links: [
      {
        name: 'Install campaign',
        campaign_id: '',
        base_url: 'https://track.adtech.example/click',
        params: [
          { key: 'click_id', value: '{click_id}' },
          { key: 'bundle', value: '{app_bundle}' },
          { key: 'ts', value: '{timestamp}' },
        ],
      },
    ],
  };
}

function examples(): { name: string; config: AppTrackingConfig }[] {
  return [
    {
      name: 'Nimbus News (iOS): spring campaign links and SKAdNetwork ids',
      config: {
        platform: 'ios',
        app_bundle: 'com.nimbusnews.reader',
        store_id: 'id1482750917',
        att_usage_description: 'Nimbus News uses your advertising identifier to show you fewer repeated ads and to measure our campaigns.',
        skadnetwork_ids: [...EXAMPLE_SKADNETWORK_IDS],
        links: [
          {
            name: 'Spring subscription push',
            campaign_id: 'cmp-2026-spring',
            base_url: 'https://track.adtech.example/v2/click',
            params: [
              { key: 'cid', value: '{campaign_id}' },
              { key: 'click_id', value: '{click_id}' },
              { key: 'idfa', value: '{idfa}' },
              { key: 'ifa_type', value: '{ifa_type}' },
              { key: 'lmt', value: '{lmt}' },
              { key: 'att', value: '{att_status}' },
              { key: 'geo', value: '{country}' },
              { key: 'ts', value: '{timestamp}' },
            ],
          },
          {
            name: 'Newsletter re-engagement',
            campaign_id: 'cmp-2026-newsletter',
            base_url: 'https://track.adtech.example/v2/click',
            params: [
              { key: 'cid', value: '{campaign_id}' },
              { key: 'click_id', value: '{click_id}' },
              { key: 'idfv', value: '{idfv}' },
              { key: 'utm_source', value: 'newsletter' },
              { key: 'utm_campaign', value: 'spring re-engagement' },
            ],
          },
        ],
      },
    },
    {
      name: 'Runa Puzzle (Android): install and rewarded re-engagement links',
      config: {
        platform: 'android',
        app_bundle: 'com.runagames.puzzle',
        store_id: 'com.runagames.puzzle',
        att_usage_description: '',
        skadnetwork_ids: [],
        links: [
          {
            name: 'UA install, LATAM',
            campaign_id: 'rg-ua-latam-07',
            base_url: 'https://track.adtech.example/v2/click',
            params: [
              { key: 'cid', value: '{campaign_id}' },
              { key: 'click_id', value: '{click_id}' },
              { key: 'gaid', value: '{gaid}' },
              { key: 'ifa_type', value: '{ifa_type}' },
              { key: 'lmt', value: '{lmt}' },
              { key: 'geo', value: '{country}' },
              { key: 'bundle', value: '{app_bundle}' },
            ],
          },
          {
            name: 'Lapsed players, rewarded',
            campaign_id: 'rg-reengage-12',
            base_url: 'https://track.adtech.example/v2/reengage',
            params: [
              { key: 'cid', value: '{campaign_id}' },
              { key: 'click_id', value: '{click_id}' },
              { key: 'gaid', value: '{gaid}' },
              { key: 'ts', value: '{timestamp}' },
              { key: 'offer', value: 'lives-x3' },
            ],
          },
        ],
      },
    },
  ];
}

export const appTrackingBuilder: BuilderDefinition<AppTrackingConfig> = {
  kind: 'app-tracking',
  subjects: ['app'],
  configSchema: appTrackingConfigSchema,
  defaults,
  render,
  parse,
  examples,
};
