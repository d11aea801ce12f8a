import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { en, es } from '../i18n/catalogues.ts';
import { appTrackingBuilder, resolvedExample, splitTemplate, trackingTemplate, type AppTrackingConfig } from './app-tracking.ts';
import type { BuilderIssue } from './common.ts';

const [newsIos, puzzleAndroid] = appTrackingBuilder.examples().map((e) => e.config) as [AppTrackingConfig, AppTrackingConfig];
const clone = (c: AppTrackingConfig): AppTrackingConfig => structuredClone(c);
const errorsOf = (c: AppTrackingConfig) => appTrackingBuilder.render(c).issues.filter((i) => i.severity === 'error');
const keysAt = (issues: BuilderIssue[], path: string) => issues.filter((i) => i.path === path).map((i) => i.key);

describe('app tracking: outputs', () => {
  it('renders iOS as a property list with Apple’s SKAdNetworkItems shape, and reads it back', () => {
    const out = appTrackingBuilder.render(newsIos);
    expect(out).toMatchObject({ language: 'xml', filename: 'com.nimbusnews.reader-app-tracking.plist' });
    expect(out.issues).toEqual([]);
    // Read with a generic XML parser: plist > dict with the SKAdNetworkItems key, then an array of
    // dicts each holding SKAdNetworkIdentifier and the id (Apple's documented Info.plist shape).
    const doc = new XMLParser({ isArray: (name) => ['key', 'string', 'dict'].includes(name) }).parse(out.code) as { plist: { dict: { key: string[]; array: { dict: { key: string[]; string: string[] }[] } | unknown }[] } };
    const root = doc.plist.dict[0]!;
    expect(root.key).toEqual(['NSUserTrackingUsageDescription', 'SKAdNetworkItems', 'AdTechTracking']);
    const items = (root.array as { dict: { key: string[]; string: string[] }[] }).dict;
    expect(items.map((d) => d.key[0])).toEqual(newsIos.skadnetwork_ids.map(() => 'SKAdNetworkIdentifier'));
    expect(items.map((d) => d.string[0])).toEqual(newsIos.skadnetwork_ids);
    expect(appTrackingBuilder.parse(out.code)).toEqual({ config: newsIos, issues: [] });
  });

  it('renders Android as JSON links with template and resolved example, and reads it back', () => {
    const out = appTrackingBuilder.render(puzzleAndroid);
    expect(out).toMatchObject({ language: 'json', filename: 'com.runagames.puzzle-app-tracking.json' });
    const file = JSON.parse(out.code) as { platform: string; links: { template: string; example: string }[] };
    expect(file.platform).toBe('android');
    expect(file.links[0]!.template).toBe('https://track.adtech.example/v2/click?cid={campaign_id}&click_id={click_id}&gaid={gaid}&ifa_type={ifa_type}&lmt={lmt}&geo={country}&bundle={app_bundle}');
    const example = new URL(file.links[0]!.example);
    expect(Object.fromEntries(example.searchParams)).toEqual({
      cid: 'rg-ua-latam-07',
      click_id: 'c7f3e2a1-5b4d-4f8e-9a1c-2d3e4f5a6b7c',
      gaid: '38400000-8cf0-11bd-b23e-10b96e40000d',
      ifa_type: 'aaid',
      lmt: '0',
      geo: 'ES',
      bundle: 'com.runagames.puzzle',
    });
    expect(appTrackingBuilder.parse(out.code)).toEqual({ config: puzzleAndroid, issues: [] });
  });

  it('percent-encodes literal values in templates and examples, keeping macros for the SDK', () => {
    const link = { name: 'x', campaign_id: 'c 1', base_url: 'https://t.example/c', params: [{ key: 'utm campaign', value: 'spring & summer {campaign_id}' }] };
    expect(trackingTemplate(link)).toBe('https://t.example/c?utm%20campaign=spring%20%26%20summer%20{campaign_id}');
    expect(new URL(resolvedExample({ platform: 'ios', app_bundle: 'com.a.b' }, link)).searchParams.get('utm campaign')).toBe('spring & summer c 1');
    expect(splitTemplate(trackingTemplate(link))).toEqual({ base_url: link.base_url, params: link.params });
  });

  it('escapes XML in the property list and reads it back', () => {
    const c = clone(newsIos);
    c.att_usage_description = 'Ads <personalised> & measured';
    c.links[0]!.name = 'Spring -- "launch"';
    const out = appTrackingBuilder.render(c);
    expect(out.code).toContain('<string>Ads &lt;personalised&gt; &amp; measured</string>');
    expect(appTrackingBuilder.parse(out.code).config).toEqual(c);
  });

  it('reports XML syntax errors with line and column, and a foreign property list as such', () => {
    const code = appTrackingBuilder.render(newsIos).code;
    const broken = code.replace('<string>4fzdc2evr5.skadnetwork</string>', '<string>4fzdc2evr5.skadnetwork</strin>');
    const out = appTrackingBuilder.parse(broken);
    expect(out.config).toBeUndefined();
    expect(out.issues[0]).toMatchObject({ source: 'syntax', key: 'app_tracking.xml_syntax', line: 16 });
    const foreign = appTrackingBuilder.parse('<?xml version="1.0"?>\n<plist version="1.0"><dict><key>CFBundleName</key><string>x</string></dict></plist>');
    expect(foreign.issues[0]).toMatchObject({ source: 'syntax', key: 'app_tracking.plist_structure' });
  });
});

describe('app tracking: SKAdNetwork ids and the ATT text (iOS)', () => {
  it('puts a bad id’s error at its list line and at its line in the property list', () => {
    const c = clone(newsIos);
    c.skadnetwork_ids.splice(2, 0, 'not-an-id.skadnetwork');
    const out = appTrackingBuilder.render(c);
    const issue = out.issues.find((i) => i.path === 'skadnetwork_ids.2')!;
    expect(issue).toMatchObject({ key: 'app_tracking.skan.format', params: { line: 3, id: 'not-an-id.skadnetwork' } });
    expect(out.code.split('\n')[issue.line! - 1]).toContain('SKAdNetworkIdentifier');
    expect(out.code.split('\n')[issue.line!]).toContain('not-an-id.skadnetwork');
  });

  it('finds a rule’s problem at the line of the code as typed', () => {
    const code = appTrackingBuilder.render(newsIos).code.replace('<string>ydx93a7ass.skadnetwork</string>', '\n\n<string>YDX93A7ASS.skadnetwork</string>');
    const out = appTrackingBuilder.parse(code);
    expect(out.config?.skadnetwork_ids[3]).toBe('YDX93A7ASS.skadnetwork');
    const issue = out.issues.find((i) => i.path === 'skadnetwork_ids.3')!;
    expect(issue.key).toBe('app_tracking.skan.lowercase');
    expect(code.split('\n')[issue.line! - 1]).toContain('SKAdNetworkIdentifier');
  });

  it('warns on an empty list and needs the ATT text when links read the IDFA', () => {
    const c = clone(newsIos);
    c.skadnetwork_ids = [];
    c.att_usage_description = '';
    const out = appTrackingBuilder.render(c);
    expect(out.issues.find((i) => i.path === 'skadnetwork_ids')).toMatchObject({ severity: 'warning', key: 'app_tracking.skan.empty' });
    expect(keysAt(errorsOf(c), 'att_usage_description')).toEqual(['app_tracking.att_description_required']);
    c.links = c.links.filter((l) => !l.params.some((p) => p.value.includes('{idfa}') || p.value.includes('{att_status}')));
    expect(keysAt(errorsOf(c), 'att_usage_description')).toEqual([]);
  });

  it('refuses SKAdNetwork ids and the ATT text on Android', () => {
    const c = clone(puzzleAndroid);
    c.skadnetwork_ids = ['cstr6suwn9.skadnetwork'];
    c.att_usage_description = 'x';
    const issues = errorsOf(c);
    expect(keysAt(issues, 'skadnetwork_ids')).toEqual(['app_tracking.skan.android']);
    expect(keysAt(issues, 'att_usage_description')).toEqual(['app_tracking.att_android']);
  });
});

describe('app tracking: links and macros', () => {
  it('refuses macros of the other platform, unknown macros and stray braces', () => {
    const ios = clone(newsIos);
    ios.links[0]!.params.push({ key: 'gaid', value: '{gaid}' }, { key: 'x', value: '{device_id}' }, { key: 'y', value: '{click_id' });
    const issues = errorsOf(ios);
    expect(issues.find((i) => i.path === 'links.0.params.8.value')).toMatchObject({ key: 'app_tracking.param.macro_platform_ios', params: { macro: '{gaid}' } });
    expect(issues.find((i) => i.path === 'links.0.params.9.value')).toMatchObject({ key: 'app_tracking.param.macro_unknown', params: { macro: '{device_id}' } });
    expect(keysAt(issues, 'links.0.params.10.value')).toEqual(['app_tracking.param.macro_syntax']);
    const android = clone(puzzleAndroid);
    android.links[0]!.params.push({ key: 'idfa', value: '{idfa}' });
    expect(keysAt(errorsOf(android), 'links.0.params.7.value')).toEqual(['app_tracking.param.macro_platform_android']);
  });

  it('needs an https base URL without a query, unique names and parameters, and a campaign id when the macro is used', () => {
    const c = clone(puzzleAndroid);
    c.links[0]!.base_url = 'http://track.adtech.example/click';
    c.links[1]!.base_url = 'https://track.adtech.example/click?x=1';
    c.links[1]!.name = 'ua install, latam';
    c.links[0]!.campaign_id = '';
    c.links[0]!.params.push({ key: 'cid', value: 'again' }, { key: 'bad key', value: '1' });
    const issues = errorsOf(c);
    expect(keysAt(issues, 'links.0.base_url')).toEqual(['app_tracking.link.base_url_https']);
    expect(keysAt(issues, 'links.1.base_url')).toEqual(['app_tracking.link.base_url_query']);
    expect(keysAt(issues, 'links.1.name')).toEqual(['app_tracking.link.name_duplicate']);
    expect(keysAt(issues, 'links.0.campaign_id')).toEqual(['app_tracking.link.campaign_id_required']);
    expect(keysAt(issues, 'links.0.params.7.key')).toEqual(['app_tracking.param.key_duplicate']);
    expect(keysAt(issues, 'links.0.params.8.key')).toEqual(['app_tracking.param.key_format']);
  });

  it('warns when a link sends no click id, at the link’s template line on Android', () => {
    const c = clone(puzzleAndroid);
    c.links[1]!.params = c.links[1]!.params.filter((p) => p.key !== 'click_id');
    const out = appTrackingBuilder.render(c);
    const issue = out.issues.find((i) => i.path === 'links.1.params')!;
    expect(issue).toMatchObject({ severity: 'warning', key: 'app_tracking.link.click_id_missing' });
    expect(out.code.split('\n')[issue.line! - 1]).toContain('"template"');
  });

  it('has every issue key in English and Spanish', () => {
    const c = clone(newsIos);
    c.app_bundle = '';
    c.store_id = '';
    c.skadnetwork_ids = ['', 'x', 'CSTR6SUWN9.skadnetwork', ' cstr6suwn9.skadnetwork', 'cstr6suwn9.skadnetwork'];
    c.att_usage_description = '';
    c.links.push({ name: '', campaign_id: '', base_url: 'nope', params: [{ key: '', value: '{campaign_id}{gaid}{zzz}{' }] });
    const android = { ...clone(puzzleAndroid), app_bundle: '9x', store_id: 'com.other', skadnetwork_ids: ['a'], att_usage_description: 'x' };
    const keys = new Set([...appTrackingBuilder.render(c).issues, ...appTrackingBuilder.render(android).issues].map((i) => i.key!));
    for (const k of [...keys, 'app_tracking.xml_syntax', 'app_tracking.plist_structure', 'app_tracking.link.base_url_https', 'app_tracking.link.base_url_query', 'app_tracking.skan.too_many', 'app_tracking.bundle_format_ios']) {
      expect(en, k).toHaveProperty([k]);
      expect(es, k).toHaveProperty([k]);
    }
  });
});
