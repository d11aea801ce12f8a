import { describe, expect, it } from 'vitest';
import { en, es } from '../i18n/catalogues.ts';
import { parseSkadNetworkList, skadNetworkIssues } from './app-shared.ts';
import type { BuilderIssue } from './common.ts';
import { newSdkPlacement, sdkBuilder, withFormat, type SdkConfig } from './sdk.ts';

const [newsIos, puzzleAndroid] = sdkBuilder.examples().map((e) => e.config) as [SdkConfig, SdkConfig];
const clone = (c: SdkConfig): SdkConfig => structuredClone(c);
const errorsOf = (c: SdkConfig) => sdkBuilder.render(c).issues.filter((i) => i.severity === 'error');
const keysAt = (issues: BuilderIssue[], path: string) => issues.filter((i) => i.path === path).map((i) => i.key);

describe('SDK builder', () => {
  it('renders its examples without errors, as stable two-space JSON that reads back to the same configuration', () => {
    for (const { config } of sdkBuilder.examples()) {
      const out = sdkBuilder.render(config);
      expect(out.language).toBe('json');
      expect(out.issues.filter((i) => i.severity === 'error')).toEqual([]);
      expect(out.code.split('\n')[1]).toBe('  "platform": "' + config.platform + '",');
      const back = sdkBuilder.parse(out.code);
      expect(back.config).toEqual(config);
      expect(sdkBuilder.render(back.config!).code).toBe(out.code);
    }
    expect(sdkBuilder.render(newsIos).filename).toBe('sdk-config-com.nimbusnews.reader-ios.json');
  });

  it('writes keys in the schema’s order whatever order the configuration came in', () => {
    const shuffled = Object.fromEntries(Object.entries(clone(newsIos)).reverse()) as SdkConfig;
    expect(sdkBuilder.render(shuffled).code).toBe(sdkBuilder.render(newsIos).code);
    expect(Object.keys(JSON.parse(sdkBuilder.render(shuffled).code) as object)[0]).toBe('platform');
  });

  it('refuses duplicate placement ids, naming the first placement that has it', () => {
    const c = clone(newsIos);
    c.placements[2]!.id = 'home_banner';
    const issues = errorsOf(c);
    expect(issues.find((i) => i.path === 'placements.2.id')).toMatchObject({ key: 'sdk.placement.id_duplicate', params: { id: 'home_banner', first: 1 } });
    expect(keysAt(issues, 'placements.0.id')).toEqual([]);
  });

  it('keeps banner refresh within 30–120 seconds or off, and never refreshes an interstitial', () => {
    const c = clone(newsIos);
    c.placements[0]!.refresh_seconds = 29;
    c.placements[1]!.refresh_seconds = 121;
    c.placements[2]!.refresh_seconds = 60;
    const issues = errorsOf(c);
    expect(keysAt(issues, 'placements.0.refresh_seconds')).toEqual(['sdk.placement.refresh_range']);
    expect(keysAt(issues, 'placements.1.refresh_seconds')).toEqual(['sdk.placement.refresh_range']);
    expect(keysAt(issues, 'placements.2.refresh_seconds')).toEqual(['sdk.placement.refresh_not_allowed']);
    c.placements[0]!.refresh_seconds = 30;
    c.placements[1]!.refresh_seconds = null;
    c.placements[2]!.refresh_seconds = null;
    expect(errorsOf(c)).toEqual([]);
  });

  it('needs a rewarded video’s reward name and a positive amount', () => {
    const c = clone(puzzleAndroid);
    c.placements[0]!.reward = null;
    expect(keysAt(errorsOf(c), 'placements.0.reward')).toEqual(['sdk.placement.reward_required']);
    c.placements[0]!.reward = { name: ' ', amount: 0 };
    const issues = errorsOf(c);
    expect(keysAt(issues, 'placements.0.reward.name')).toEqual(['sdk.placement.reward_name_required']);
    expect(keysAt(issues, 'placements.0.reward.amount')).toEqual(['sdk.placement.reward_amount_range']);
  });

  it('checks a floor as exact decimal text and its currency, sizes for banners only, and an ad unit', () => {
    const c = clone(newsIos);
    c.placements[0]!.floor = { amount: '0.5e1', currency: 'usd' };
    c.placements[0]!.ad_unit_id = ' ';
    c.placements[0]!.sizes = ['320x50', '300x600'];
    c.placements[3]!.sizes = ['300x250'];
    const issues = errorsOf(c);
    expect(keysAt(issues, 'placements.0.floor.amount')).toEqual(['sdk.placement.floor_format']);
    expect(keysAt(issues, 'placements.0.floor.currency')).toEqual(['sdk.placement.currency_unknown']);
    expect(keysAt(issues, 'placements.0.ad_unit_id')).toEqual(['sdk.placement.ad_unit_required']);
    expect(keysAt(issues, 'placements.0.sizes.1')).toEqual(['sdk.placement.size_unknown']);
    expect(keysAt(issues, 'placements.3.sizes')).toEqual(['sdk.placement.sizes_banner_only']);
    c.placements[0]!.floor = { amount: '1234.5678', currency: 'EUR' };
    expect(keysAt(errorsOf(c), 'placements.0.floor.amount')).toEqual([]);
  });

  it('warns when an iOS app has no SKAdNetwork ids, refuses bad ones, and refuses them on Android', () => {
    const c = clone(newsIos);
    c.skadnetwork_ids = [];
    const out = sdkBuilder.render(c);
    expect(out.issues.filter((i) => i.path === 'skadnetwork_ids')).toMatchObject([{ severity: 'warning', key: 'sdk.skan_empty' }]);
    expect(out.issues.filter((i) => i.severity === 'error')).toEqual([]);
    c.skadnetwork_ids = ['cstr6suwn9.skadnetwork', 'CSTR6SUWN9.skadnetwork'];
    expect(keysAt(errorsOf(c), 'skadnetwork_ids.1')).toEqual(['app_tracking.skan.lowercase', 'app_tracking.skan.duplicate']);
    const android = clone(puzzleAndroid);
    android.skadnetwork_ids = ['cstr6suwn9.skadnetwork'];
    expect(keysAt(errorsOf(android), 'skadnetwork_ids')).toEqual(['sdk.skan_android']);
    android.skadnetwork_ids = [];
    android.privacy.att_prompt = true;
    expect(keysAt(errorsOf(android), 'privacy.att_prompt')).toEqual(['sdk.privacy.att_ios_only']);
  });

  it('checks the app (bundle and store id per platform), the SDK version, timeouts and mediation', () => {
    const c = clone(newsIos);
    c.app = { bundle: 'com.nimbus news', store_id: '1482750917' };
    c.sdk_version = '4.2';
    c.request_timeout_ms = 200;
    c.mediation = { enabled: true, timeout_ms: 500, networks: [] };
    const issues = errorsOf(c);
    expect(keysAt(issues, 'app.bundle')).toEqual(['app_tracking.bundle_format_ios']);
    expect(keysAt(issues, 'app.store_id')).toEqual(['app_tracking.store_id_ios']);
    expect(keysAt(issues, 'sdk_version')).toEqual(['sdk.sdk_version_format']);
    expect(keysAt(issues, 'request_timeout_ms')).toEqual(['sdk.request_timeout_range']);
    expect(keysAt(issues, 'mediation.networks')).toEqual(['sdk.mediation.networks_required']);
    expect(keysAt(issues, 'mediation.timeout_ms')).toEqual(['sdk.mediation.timeout_range']);
    const android = clone(puzzleAndroid);
    android.app = { bundle: '1com.runagames', store_id: 'com.other.app' };
    expect(keysAt(errorsOf(android), 'app.bundle')).toEqual(['app_tracking.bundle_format_android']);
  });

  it('places each rule’s problem at its line in the code view', () => {
    const c = clone(newsIos);
    c.placements[1]!.refresh_seconds = 5;
    const out = sdkBuilder.render(c);
    const issue = out.issues.find((i) => i.path === 'placements.1.refresh_seconds')!;
    expect(out.code.split('\n')[issue.line! - 1]).toContain('"refresh_seconds": 5');
  });

  it('reports JSON syntax errors with line and column, and schema errors at their path and line', () => {
    const code = sdkBuilder.render(newsIos).code;
    const broken = code.replace('"sdk_version": "4.2.0",', '"sdk_version": "4.2.0"');
    const syntax = sdkBuilder.parse(broken);
    expect(syntax.config).toBeUndefined();
    // The comma is missing at the end of line 7: the parser finds out at the next property, line 8.
    expect(syntax.issues[0]).toMatchObject({ source: 'syntax', key: 'sdk.json.comma_expected', line: 8 });
    const wrongType = sdkBuilder.parse(code.replace('"request_timeout_ms": 2500', '"request_timeout_ms": "2500"'));
    expect(wrongType.config).toBeUndefined();
    expect(wrongType.issues).toMatchObject([{ path: 'request_timeout_ms', source: 'schema', line: 8 }]);
    const unknownFormat = sdkBuilder.parse(code.replace('"format": "native"', '"format": "video"'));
    expect(unknownFormat.issues[0]).toMatchObject({ path: 'placements.3.format' });
    expect(sdkBuilder.parse('').issues[0]).toMatchObject({ source: 'syntax', line: 1 });
  });

  it('parses readable code that breaks a rule into a configuration with the issue at the typed line', () => {
    const code = sdkBuilder.render(newsIos).code.replace('"refresh_seconds": 30', '"refresh_seconds":    10');
    const out = sdkBuilder.parse(code);
    expect(out.config?.placements[0]?.refresh_seconds).toBe(10);
    const issue = out.issues.find((i) => i.path === 'placements.0.refresh_seconds')!;
    expect(code.split('\n')[issue.line! - 1]).toContain('"refresh_seconds":    10');
  });

  it('moves a placement to another format, dropping what the format does not take', () => {
    const banner = newSdkPlacement('banner', 1);
    const rewarded = withFormat(banner, 'rewarded_video');
    expect(rewarded).toMatchObject({ sizes: [], refresh_seconds: null, reward: { name: 'Coins', amount: 10 } });
    expect(withFormat(rewarded, 'banner')).toMatchObject({ sizes: ['320x50'], reward: null });
  });

  it('has every issue key in English and Spanish', () => {
    const c = clone(newsIos);
    c.placements.push({ ...newSdkPlacement('rewarded_video', 9), id: 'Bad Id', name: '', floor: { amount: 'x', currency: 'ZZZ' }, ad_unit_id: '', reward: { name: '', amount: 0 }, refresh_seconds: 45, sizes: ['1x1'], test_mode: true });
    c.skadnetwork_ids = ['', 'nope', 'ABCDEFGHIJ.skadnetwork', ' cstr6suwn9.skadnetwork'];
    c.privacy.coppa = true;
    c.mediation = { enabled: true, timeout_ms: 1, networks: ['admob', 'admob'] };
    const keys = new Set(sdkBuilder.render(c).issues.map((i) => i.key!));
    keys.add('sdk.placements_empty');
    keys.add('sdk.json.comma_expected');
    for (const k of keys) {
      expect(en, k).toHaveProperty([k]);
      expect(es, k).toHaveProperty([k]);
    }
  });
});

describe('SKAdNetwork ids', () => {
  it('accepts Apple’s format only: ten lowercase letters or digits, then .skadnetwork', () => {
    expect(skadNetworkIssues(['cstr6suwn9.skadnetwork', '4fzdc2evr5.skadnetwork'], 'ids')).toEqual([]);
    const bad = skadNetworkIssues(['cstr6suwn.skadnetwork', 'cstr6suwn9.skadnetwork.', 'cstr6suwn9', 'cstr6-uwn9.skadnetwork', 'CSTR6SUWN9.SKADNETWORK'], 'ids');
    expect(bad.map((i) => [i.path, i.key, i.params?.line])).toEqual([
      ['ids.0', 'app_tracking.skan.format', 1],
      ['ids.1', 'app_tracking.skan.format', 2],
      ['ids.2', 'app_tracking.skan.format', 3],
      ['ids.3', 'app_tracking.skan.format', 4],
      ['ids.4', 'app_tracking.skan.lowercase', 5],
    ]);
  });

  it('names the line a duplicate repeats', () => {
    expect(skadNetworkIssues(['cstr6suwn9.skadnetwork', 'ydx93a7ass.skadnetwork', 'cstr6suwn9.skadnetwork'], 'ids')).toMatchObject([
      { path: 'ids.2', key: 'app_tracking.skan.duplicate', params: { line: 3, first: 1 } },
    ]);
  });

  it('reads pasted lists: lines, commas, a JSON array, Info.plist lines', () => {
    expect(parseSkadNetworkList('cstr6suwn9.skadnetwork\r\n\n ydx93a7ass.skadnetwork \n')).toEqual(['cstr6suwn9.skadnetwork', 'ydx93a7ass.skadnetwork']);
    expect(parseSkadNetworkList('cstr6suwn9.skadnetwork, ydx93a7ass.skadnetwork;x')).toEqual(['cstr6suwn9.skadnetwork', 'ydx93a7ass.skadnetwork', 'x']);
    expect(parseSkadNetworkList('["cstr6suwn9.skadnetwork", "YDX93A7ASS.skadnetwork"]')).toEqual(['cstr6suwn9.skadnetwork', 'YDX93A7ASS.skadnetwork']);
    expect(
      parseSkadNetworkList('<dict>\n<key>SKAdNetworkIdentifier</key>\n<string>cstr6suwn9.skadnetwork</string>\n</dict><dict><key>SKAdNetworkIdentifier</key><string> 4fzdc2evr5.skadnetwork</string></dict>'),
    ).toEqual(['cstr6suwn9.skadnetwork', '4fzdc2evr5.skadnetwork']);
  });
});
