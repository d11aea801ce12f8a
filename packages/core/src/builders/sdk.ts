/**
 * The SDK builder (`/utils/sdk-builder`, issue 25; docs/decisions/041-sdk-and-app-tracking.md):
 * the JSON configuration our mobile SDK reads at start-up for one app on one platform: the app,
 * the SDK version, its placements (format, banner sizes and refresh, floor, the ad unit it maps
 * to, test mode, a rewarded video's reward), the privacy defaults (the ATT prompt on iOS, COPPA,
 * the consent framework), mediation and timeouts, and on iOS the SKAdNetwork ids the SDK checks
 * the app's Info.plist against.
 *
 * The configuration IS the file: render() writes it with a stable key order and two-space
 * indentation, parse() reads it back (jsonc-parser, strict JSON, syntax errors at line and
 * column), so editing the code view and the form are the same edit. The zod schema below is the
 * file's contract (types and lengths); the rules (ranges, uniqueness, what a format allows) are
 * issues at the field's path, the same in the screen and in `POST /v1/builders/sdk/render`.
 */
import { z } from 'zod';
import { bundleIssues, fileStem, jsonPathOf, locateJsonPath, placed, readJson, skadNetworkIssues, storeIdIssues, zodIssues, APP_PLATFORMS, EXAMPLE_SKADNETWORK_IDS } from './app-shared.ts';
import type { BuilderDefinition, BuilderIssue, BuilderOutput } from './common.ts';

export const SDK_FORMATS = ['banner', 'interstitial', 'rewarded_video', 'native', 'app_open'] as const;
export type SdkFormat = (typeof SDK_FORMATS)[number];
/** The IAB mobile banner sizes the SDK renders (phone and tablet). */
export const SDK_BANNER_SIZES = ['320x50', '320x100', '300x250', '728x90', '468x60'] as const;
/** A banner refreshes every 30 to 120 seconds, or never (null). */
export const SDK_REFRESH_MIN = 30;
export const SDK_REFRESH_MAX = 120;
export const SDK_CONSENT_FRAMEWORKS = ['tcf', 'gpp', 'none'] as const;
export const SDK_FLOOR_CURRENCIES = ['USD', 'EUR', 'GBP'] as const;
/** The ad networks the SDK's mediation adapters cover (their own names, not translated). */
export const SDK_MEDIATION_NETWORKS = ['admob', 'applovin', 'unity_ads', 'ironsource', 'meta_audience_network', 'mintegral', 'liftoff', 'inmobi', 'pangle', 'chartboost'] as const;
export const SDK_MEDIATION_NETWORK_NAMES: Record<(typeof SDK_MEDIATION_NETWORKS)[number], string> = {
  admob: 'Google AdMob',
  applovin: 'AppLovin',
  unity_ads: 'Unity Ads',
  ironsource: 'ironSource',
  meta_audience_network: 'Meta Audience Network',
  mintegral: 'Mintegral',
  liftoff: 'Liftoff Monetize',
  inmobi: 'InMobi',
  pangle: 'Pangle',
  chartboost: 'Chartboost',
};
/** The SDK's whole ad request (ms) and the mediation waterfall's budget (ms). */
export const SDK_REQUEST_TIMEOUT = { min: 500, max: 10_000 } as const;
export const SDK_MEDIATION_TIMEOUT = { min: 1000, max: 30_000 } as const;
export const SDK_MAX_PLACEMENTS = 100;

/** A placement id: what the app passes to the SDK (`loadAd("home_banner")`). */
const PLACEMENT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** A semantic version (`4.2.0`, `4.3.0-beta.1`). */
const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;
/** A CPM floor: exact decimal text, at most 6 integer and 4 decimal digits (never a float). */
const DECIMAL = /^\d{1,6}(\.\d{1,4})?$/;

export const sdkPlacementSchema = z.strictObject({
  id: z.string().max(64),
  name: z.string().max(120),
  format: z.enum(SDK_FORMATS),
  /** Banner only: one or more of SDK_BANNER_SIZES. */
  sizes: z.array(z.string().max(12)).max(SDK_BANNER_SIZES.length),
  /** Banner only: seconds between refreshes, or null for no refresh. */
  refresh_seconds: z.number().int().nullable(),
  floor: z.strictObject({ amount: z.string().max(24), currency: z.string().max(3) }),
  /** The exchange's ad unit the placement's requests carry (OpenRTB imp.tagid). */
  ad_unit_id: z.string().max(200),
  /** Rewarded video only: what the user earns. */
  reward: z.strictObject({ name: z.string().max(60), amount: z.number().int() }).nullable(),
  test_mode: z.boolean(),
});
export type SdkPlacement = z.infer<typeof sdkPlacementSchema>;

export const sdkConfigSchema = z.strictObject({
  platform: z.enum(APP_PLATFORMS),
  app: z.strictObject({ bundle: z.string().max(200), store_id: z.string().max(200) }),
  sdk_version: z.string().max(40),
  request_timeout_ms: z.number().int(),
  placements: z.array(sdkPlacementSchema).max(SDK_MAX_PLACEMENTS),
  privacy: z.strictObject({
    /** iOS: the SDK shows Apple's App Tracking Transparency prompt before the first request. */
    att_prompt: z.boolean(),
    /** The app is directed at children (COPPA): requests carry regs.coppa=1, no identifiers. */
    coppa: z.boolean(),
    consent: z.enum(SDK_CONSENT_FRAMEWORKS),
  }),
  mediation: z.strictObject({ enabled: z.boolean(), timeout_ms: z.number().int(), networks: z.array(z.enum(SDK_MEDIATION_NETWORKS)).max(SDK_MEDIATION_NETWORKS.length) }),
  /** iOS: the SKAdNetwork ids the app's Info.plist must list (the SDK logs the missing ones). */
  skadnetwork_ids: z.array(z.string().max(100)).max(1000),
});
export type SdkConfig = z.infer<typeof sdkConfigSchema>;

/** A new placement of a format, valid once it has an id and an ad unit. */
export function newSdkPlacement(format: SdkFormat, n: number): SdkPlacement {
  return {
    id: `${format}_${n}`,
    name: '',
    format,
    sizes: format === 'banner' ? ['320x50'] : [],
    refresh_seconds: format === 'banner' ? 30 : null,
    floor: { amount: '0.50', currency: 'USD' },
    ad_unit_id: '',
    reward: format === 'rewarded_video' ? { name: 'Coins', amount: 10 } : null,
    test_mode: false,
  };
}

/**
 * A placement moved to another format: what the new format does not take is reset (sizes and
 * refresh only for banners, a reward only for rewarded video), what it needs gets a default.
 */
export function withFormat(p: SdkPlacement, format: SdkFormat): SdkPlacement {
  const fresh = newSdkPlacement(format, 1);
  return {
    ...p,
    format,
    sizes: format === 'banner' ? (p.sizes.length > 0 ? p.sizes : fresh.sizes) : [],
    refresh_seconds: format === 'banner' ? p.refresh_seconds : null,
    reward: format === 'rewarded_video' ? (p.reward ?? fresh.reward) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Rules

const err = (path: string, key: string, params?: Record<string, string | number>): BuilderIssue => ({ severity: 'error', path, key, ...(params ? { params } : {}), source: 'rules' });
const warn = (path: string, key: string, params?: Record<string, string | number>): BuilderIssue => ({ severity: 'warning', path, key, ...(params ? { params } : {}), source: 'rules' });

function placementIssues(p: SdkPlacement, i: number, firstOfId: Map<string, number>): BuilderIssue[] {
  const at = `placements.${i}`;
  const out: BuilderIssue[] = [];
  if (p.id === '') out.push(err(`${at}.id`, 'sdk.placement.id_required'));
  else if (!PLACEMENT_ID.test(p.id)) out.push(err(`${at}.id`, 'sdk.placement.id_format'));
  else {
    const first = firstOfId.get(p.id);
    if (first !== undefined) out.push(err(`${at}.id`, 'sdk.placement.id_duplicate', { id: p.id, first: first + 1 }));
    else firstOfId.set(p.id, i);
  }
  if (p.name.trim() === '') out.push(err(`${at}.name`, 'sdk.placement.name_required'));
  if (p.format === 'banner') {
    if (p.sizes.length === 0) out.push(err(`${at}.sizes`, 'sdk.placement.sizes_required'));
    p.sizes.forEach((s, j) => {
      if (!(SDK_BANNER_SIZES as readonly string[]).includes(s)) out.push(err(`${at}.sizes.${j}`, 'sdk.placement.size_unknown', { size: s }));
    });
    if (new Set(p.sizes).size !== p.sizes.length) out.push(err(`${at}.sizes`, 'sdk.placement.size_duplicate'));
    if (p.refresh_seconds !== null && (p.refresh_seconds < SDK_REFRESH_MIN || p.refresh_seconds > SDK_REFRESH_MAX))
      out.push(err(`${at}.refresh_seconds`, 'sdk.placement.refresh_range', { min: SDK_REFRESH_MIN, max: SDK_REFRESH_MAX }));
  } else {
    if (p.sizes.length > 0) out.push(err(`${at}.sizes`, 'sdk.placement.sizes_banner_only'));
    // Full-screen formats are shown once; refreshing them would replace an ad the user is watching.
    if (p.refresh_seconds !== null) out.push(err(`${at}.refresh_seconds`, 'sdk.placement.refresh_not_allowed', { format: p.format }));
  }
  if (!DECIMAL.test(p.floor.amount)) out.push(err(`${at}.floor.amount`, 'sdk.placement.floor_format'));
  if (!(SDK_FLOOR_CURRENCIES as readonly string[]).includes(p.floor.currency)) out.push(err(`${at}.floor.currency`, 'sdk.placement.currency_unknown', { currency: p.floor.currency }));
  if (p.ad_unit_id.trim() === '') out.push(err(`${at}.ad_unit_id`, 'sdk.placement.ad_unit_required'));
  if (p.format === 'rewarded_video') {
    if (!p.reward) out.push(err(`${at}.reward`, 'sdk.placement.reward_required'));
    else {
      if (p.reward.name.trim() === '') out.push(err(`${at}.reward.name`, 'sdk.placement.reward_name_required'));
      if (p.reward.amount < 1 || p.reward.amount > 1_000_000) out.push(err(`${at}.reward.amount`, 'sdk.placement.reward_amount_range', { min: 1, max: 1_000_000 }));
    }
  } else if (p.reward !== null) out.push(err(`${at}.reward`, 'sdk.placement.reward_not_allowed', { format: p.format }));
  if (p.test_mode) out.push(warn(`${at}.test_mode`, 'sdk.placement.test_mode_on'));
  return out;
}

/** Every rule of an SDK configuration, at its field's path. */
export function sdkIssues(c: SdkConfig): BuilderIssue[] {
  const out: BuilderIssue[] = [...bundleIssues(c.platform, c.app.bundle, 'app.bundle'), ...storeIdIssues(c.platform, c.app.store_id, c.app.bundle, 'app.store_id')];
  if (!SEMVER.test(c.sdk_version)) out.push(err('sdk_version', 'sdk.sdk_version_format'));
  if (c.request_timeout_ms < SDK_REQUEST_TIMEOUT.min || c.request_timeout_ms > SDK_REQUEST_TIMEOUT.max)
    out.push(err('request_timeout_ms', 'sdk.request_timeout_range', { ...SDK_REQUEST_TIMEOUT }));
  if (c.placements.length === 0) out.push(warn('placements', 'sdk.placements_empty'));
  const firstOfId = new Map<string, number>();
  c.placements.forEach((p, i) => out.push(...placementIssues(p, i, firstOfId)));
  if (c.platform === 'android' && c.privacy.att_prompt) out.push(err('privacy.att_prompt', 'sdk.privacy.att_ios_only'));
  if (c.platform === 'ios' && c.privacy.coppa && c.privacy.att_prompt) out.push(warn('privacy.att_prompt', 'sdk.privacy.coppa_att'));
  if (c.mediation.enabled) {
    if (c.mediation.networks.length === 0) out.push(err('mediation.networks', 'sdk.mediation.networks_required'));
    if (new Set(c.mediation.networks).size !== c.mediation.networks.length) out.push(err('mediation.networks', 'sdk.mediation.network_duplicate'));
    if (c.mediation.timeout_ms < SDK_MEDIATION_TIMEOUT.min || c.mediation.timeout_ms > SDK_MEDIATION_TIMEOUT.max)
      out.push(err('mediation.timeout_ms', 'sdk.mediation.timeout_range', { ...SDK_MEDIATION_TIMEOUT }));
  }
  if (c.platform === 'ios') {
    // Without the ids, iOS 14.5+ installs from our ads cannot be attributed: allowed, but said.
    if (c.skadnetwork_ids.length === 0) out.push(warn('skadnetwork_ids', 'sdk.skan_empty'));
    out.push(...skadNetworkIssues(c.skadnetwork_ids, 'skadnetwork_ids'));
  } else if (c.skadnetwork_ids.length > 0) out.push(err('skadnetwork_ids', 'sdk.skan_android'));
  return out;
}

// ---------------------------------------------------------------------------------------------
// The file

/** The configuration with its keys in the file's order (the schema's), whatever order it came in. */
function ordered(c: SdkConfig): SdkConfig {
  return {
    platform: c.platform,
    app: { bundle: c.app.bundle, store_id: c.app.store_id },
    sdk_version: c.sdk_version,
    request_timeout_ms: c.request_timeout_ms,
    placements: c.placements.map((p) => ({
      id: p.id,
      name: p.name,
      format: p.format,
      sizes: [...p.sizes],
      refresh_seconds: p.refresh_seconds,
      floor: { amount: p.floor.amount, currency: p.floor.currency },
      ad_unit_id: p.ad_unit_id,
      reward: p.reward ? { name: p.reward.name, amount: p.reward.amount } : null,
      test_mode: p.test_mode,
    })),
    privacy: { att_prompt: c.privacy.att_prompt, coppa: c.privacy.coppa, consent: c.privacy.consent },
    mediation: { enabled: c.mediation.enabled, timeout_ms: c.mediation.timeout_ms, networks: [...c.mediation.networks] },
    skadnetwork_ids: [...c.skadnetwork_ids],
  };
}

/** The SDK's file for a configuration. */
export function renderSdkJson(c: SdkConfig): string {
  return `${JSON.stringify(ordered(c), null, 2)}\n`;
}

function render(config: SdkConfig): BuilderOutput {
  const code = renderSdkJson(config);
  const tree = readJson(code).tree;
  return {
    code,
    language: 'json',
    filename: `sdk-config-${fileStem(config.app.bundle)}-${config.platform}.json`,
    mime: 'application/json',
    issues: placed(sdkIssues(config), (path) => locateJsonPath(tree, code, jsonPathOf(path))),
  };
}

function parse(code: string): { config?: SdkConfig; issues: BuilderIssue[] } {
  const read = readJson(code);
  if (read.issues.length > 0) return { issues: read.issues };
  const locate = (path: string) => locateJsonPath(read.tree, code, jsonPathOf(path));
  const checked = sdkConfigSchema.safeParse(read.value);
  if (!checked.success) return { issues: placed(zodIssues(checked.error.issues), locate) };
  return { config: checked.data, issues: placed(sdkIssues(checked.data), locate) };
}

// ---------------------------------------------------------------------------------------------
// Defaults and examples


function defaults(): SdkConfig {
  return {
    platform: 'ios',
    app: { bundle: '', store_id: '' },
    sdk_version: '4.2.0',
    request_timeout_ms: 3000,
    placements: [{ ...newSdkPlacement('banner', 1), id: 'home_banner', name: 'Home banner' }],
    privacy: { att_prompt: true, coppa: false, consent: 'tcf' },
    mediation: { enabled: false, timeout_ms: 5000, networks: [] },
    skadnetwork_ids: [],
  };
}

function examples(): { name: string; config: SdkConfig }[] {
  return [
    {
      name: 'Nimbus News (iOS): banners, interstitial and native feed',
      config: {
        platform: 'ios',
        app: { bundle: 'com.nimbusnews.reader', store_id: 'id1482750917' },
        sdk_version: '4.2.0',
        request_timeout_ms: 2500,
        placements: [
          { id: 'home_banner', name: 'Home banner', format: 'banner', sizes: ['320x50'], refresh_seconds: 30, floor: { amount: '0.40', currency: 'USD' }, ad_unit_id: 'nimbusnews_ios/home_320x50', reward: null, test_mode: false },
          { id: 'article_mpu', name: 'Article MPU', format: 'banner', sizes: ['300x250'], refresh_seconds: 60, floor: { amount: '0.85', currency: 'USD' }, ad_unit_id: 'nimbusnews_ios/article_300x250', reward: null, test_mode: false },
          { id: 'gallery_interstitial', name: 'Gallery interstitial', format: 'interstitial', sizes: [], refresh_seconds: null, floor: { amount: '2.50', currency: 'USD' }, ad_unit_id: 'nimbusnews_ios/gallery_interstitial', reward: null, test_mode: false },
          { id: 'feed_native', name: 'Feed native', format: 'native', sizes: [], refresh_seconds: null, floor: { amount: '0.60', currency: 'USD' }, ad_unit_id: 'nimbusnews_ios/feed_native', reward: null, test_mode: false },
        ],
        privacy: { att_prompt: true, coppa: false, consent: 'tcf' },
        mediation: { enabled: true, timeout_ms: 4000, networks: ['admob', 'applovin', 'meta_audience_network'] },
        skadnetwork_ids: EXAMPLE_SKADNETWORK_IDS.slice(0, 8),
      },
    },
    {
      name: 'Runa Puzzle (Android): rewarded video, banner and app open',
      config: {
        platform: 'android',
        app: { bundle: 'com.runagames.puzzle', store_id: 'com.runagames.puzzle' },
        sdk_version: '4.2.0',
        request_timeout_ms: 3000,
        placements: [
          { id: 'extra_lives', name: 'Extra lives (rewarded)', format: 'rewarded_video', sizes: [], refresh_seconds: null, floor: { amount: '8.00', currency: 'EUR' }, ad_unit_id: 'runapuzzle_android/rewarded_lives', reward: { name: 'Lives', amount: 3 }, test_mode: false },
          { id: 'level_banner', name: 'Level banner', format: 'banner', sizes: ['320x50', '320x100'], refresh_seconds: 45, floor: { amount: '0.25', currency: 'EUR' }, ad_unit_id: 'runapuzzle_android/level_320x50', reward: null, test_mode: false },
          { id: 'launch_app_open', name: 'Launch (app open)', format: 'app_open', sizes: [], refresh_seconds: null, floor: { amount: '3.00', currency: 'EUR' }, ad_unit_id: 'runapuzzle_android/app_open', reward: null, test_mode: false },
        ],
        privacy: { att_prompt: false, coppa: false, consent: 'gpp' },
        mediation: { enabled: true, timeout_ms: 6000, networks: ['unity_ads', 'ironsource', 'mintegral'] },
        skadnetwork_ids: [],
      },
    },
  ];
}

export const sdkBuilder: BuilderDefinition<SdkConfig> = {
  kind: 'sdk',
  subjects: ['app'],
  configSchema: sdkConfigSchema,
  defaults,
  render,
  parse,
  examples,
};
