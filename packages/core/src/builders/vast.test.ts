import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { VAST_VERSIONS, parseVast, renderVast, vastBuilder, vastElementLines, vastMacros, vastRuleIssues, type VastConfig, type VastVersion } from './vast.ts';

const [inline42, wrapper42, inline30] = vastBuilder.examples().map((e) => e.config) as [VastConfig, VastConfig, VastConfig];
const clone = (c: VastConfig): VastConfig => structuredClone(c);

/** The child element names of a path, in document order. */
function childOrder(code: string, ...path: string[]): string[] {
  const doc = new XMLParser({ preserveOrder: true, ignoreAttributes: false }).parse(code) as Record<string, unknown>[];
  let nodes = doc;
  for (const name of path) {
    const next = nodes.find((n) => name in n);
    if (!next) throw new Error(`no ${name} in ${path.join('/')}`);
    nodes = next[name] as Record<string, unknown>[];
  }
  return nodes.map((n) => Object.keys(n).find((k) => k !== ':@')!).filter((k) => k !== '#text');
}

/** What a version cannot carry, as the configuration reads back after a round trip. */
function expectedAfterRoundTrip(c: VastConfig): VastConfig {
  const e = clone(c);
  const inline = e.ad_type === 'inline';
  if (!inline) {
    e.ad_title = '';
    e.ad_serving_id = '';
    for (const cr of e.creatives) {
      cr.universal_ad_id = { registry: 'unknown', value: 'unknown' };
      cr.linear = { ...cr.linear, duration: '', skipoffset: '', media_files: [], click_through: '' };
    }
  }
  if (e.version === '3.0') {
    e.ad_serving_id = '';
    for (const cr of e.creatives) cr.universal_ad_id = { registry: 'unknown', value: 'unknown' };
    if (!inline) {
      e.pricing = null;
      e.impressions = e.impressions.map((i) => ({ ...i, id: '' }));
      e.wrapper = { ...e.wrapper, follow_additional_wrappers: null, allow_multiple_ads: null, fallback_on_no_ad: null };
    }
  }
  return e;
}

describe('VAST builder: render and parse back', () => {
  const cases = [...vastBuilder.examples(), { name: 'defaults', config: vastBuilder.defaults() }];
  for (const { name, config } of cases)
    for (const version of VAST_VERSIONS)
      it(`${name} as VAST ${version} reads back as the same configuration`, () => {
        const c = { ...clone(config), version };
        const out = vastBuilder.render(c);
        expect(out.language).toBe('xml');
        const back = vastBuilder.parse(out.code);
        expect(back.issues).toEqual([]);
        expect(back.config).toEqual(expectedAfterRoundTrip(c));
      });

  it('every example and the defaults break none of the rules in their own version', () => {
    for (const { config } of cases) expect(vastRuleIssues(config)).toEqual([]);
  });

  it('escapes text and attributes, and keeps a CDATA terminator inside a URL or parameters readable', () => {
    const c = clone(inline42);
    c.ad_title = 'Fish & Chips <Friday> "special"';
    c.ad_system = { name: 'Ad & Co', version: '1 "beta" <x>' };
    c.verifications[0]!.parameters = '{"a":"]]>"}';
    const { code } = renderVast(c);
    expect(code).toContain('<AdTitle>Fish &amp; Chips &lt;Friday&gt; "special"</AdTitle>');
    expect(code).toContain('version="1 &quot;beta&quot; &lt;x&gt;"');
    expect(code).toContain('<![CDATA[{"a":"]]]]><![CDATA[>"}]]>');
    expect(parseVast(code).config).toEqual(c);
  });

  it('writes URLs in CDATA and the 4.x namespace, 3.0 without it', () => {
    const code42 = renderVast(inline42).code;
    expect(code42).toMatch(/<VAST version="4.2" xmlns="http:\/\/www.iab.com\/VAST">/);
    expect(code42).toContain('<Impression id="bo"><![CDATA[https://track.adserver-demo.com/v1/impression?ad=2291&ts=[TIMESTAMP]&cb=[CACHEBUSTING]]]></Impression>');
    expect(renderVast(inline30).code).toMatch(/<VAST version="3.0">/);
  });
});

describe('VAST builder: element order from the XSDs', () => {
  it('4.2 InLine: the base sequence (AdSystem, Error, Impression, Pricing) before AdServingId, AdTitle, AdVerifications, Creatives', () => {
    const code = renderVast(inline42).code;
    expect(childOrder(code, 'VAST', 'Ad', 'InLine')).toEqual(['AdSystem', 'Error', 'Impression', 'Impression', 'Pricing', 'AdServingId', 'AdTitle', 'AdVerifications', 'Creatives']);
    expect(childOrder(code, 'VAST', 'Ad', 'InLine', 'Creatives', 'Creative')).toEqual(['Linear', 'UniversalAdId']);
    expect(childOrder(code, 'VAST', 'Ad', 'InLine', 'Creatives', 'Creative', 'Linear')).toEqual(['TrackingEvents', 'Duration', 'MediaFiles', 'VideoClicks']);
    expect(childOrder(code, 'VAST', 'Ad', 'InLine', 'Creatives', 'Creative', 'Linear', 'VideoClicks')).toEqual(['ClickTracking', 'ClickThrough']);
    expect(childOrder(code, 'VAST', 'Ad', 'InLine', 'AdVerifications', 'Verification')).toEqual(['JavaScriptResource', 'TrackingEvents', 'VerificationParameters']);
  });

  it('4.x Wrapper: Creatives before VASTAdTagURI, which comes last', () => {
    const code = renderVast(wrapper42).code;
    expect(childOrder(code, 'VAST', 'Ad', 'Wrapper')).toEqual(['AdSystem', 'Error', 'Impression', 'Pricing', 'Creatives', 'VASTAdTagURI']);
    expect(code).toContain('<Wrapper followAdditionalWrappers="true" allowMultipleAds="false" fallbackOnNoAd="true">');
  });

  it('3.0 InLine: AdTitle after AdSystem, Pricing before Error, Extensions with the verifications last', () => {
    const code = renderVast(inline30).code;
    expect(childOrder(code, 'VAST', 'Ad', 'InLine')).toEqual(['AdSystem', 'AdTitle', 'Pricing', 'Error', 'Impression', 'Creatives', 'Extensions']);
    expect(childOrder(code, 'VAST', 'Ad', 'InLine', 'Creatives', 'Creative', 'Linear')).toEqual(['Duration', 'TrackingEvents', 'VideoClicks', 'MediaFiles']);
    expect(childOrder(code, 'VAST', 'Ad', 'InLine', 'Extensions', 'Extension')).toEqual(['AdVerifications']);
    expect(code).toContain('<Extension type="AdVerifications">');
    expect(code).toContain('<Pricing model="cpm" currency="USD">9.20</Pricing>');
    expect(code).toContain('AdID="NWC-WR-15"');
  });

  it('3.0 Wrapper: VASTAdTagURI right after AdSystem, no Pricing, no impression ids', () => {
    const code = renderVast({ ...clone(wrapper42), version: '3.0' }).code;
    expect(childOrder(code, 'VAST', 'Ad', 'Wrapper')).toEqual(['AdSystem', 'VASTAdTagURI', 'Error', 'Impression', 'Creatives']);
    expect(code).toContain('<Impression><![CDATA[');
    expect(code).toContain('<Wrapper>');
  });

  it('3.0 VideoClicks: ClickThrough before ClickTracking', () => {
    const c = { ...clone(inline42), version: '3.0' as const };
    expect(childOrder(renderVast(c).code, 'VAST', 'Ad', 'InLine', 'Creatives', 'Creative', 'Linear', 'VideoClicks')).toEqual(['ClickThrough', 'ClickTracking']);
  });

  it('maps each configuration path to the line that writes it', () => {
    const { code, lines } = renderVast(inline42);
    const at = (path: string) => [...lines].find(([, p]) => p === path)?.[0];
    const codeLines = code.split('\n');
    expect(codeLines[at('creatives.0.linear.duration')! - 1]).toContain('<Duration>00:00:30</Duration>');
    expect(codeLines[at('creatives.0.linear.media_files.1.url')! - 1]).toContain('winter-roast-30s-720p.webm');
  });
});

describe('VAST builder: rules', () => {
  const keysAt = (c: VastConfig) => vastRuleIssues(c).map((i) => `${i.path} ${i.key}`);

  it('an InLine needs a media file, a duration, an ad serving id (4.x) and a title', () => {
    const c = clone(inline42);
    c.creatives[0]!.linear.media_files = [];
    c.creatives[0]!.linear.duration = '0:30';
    c.ad_serving_id = ' ';
    c.ad_title = '';
    expect(keysAt(c)).toEqual(
      expect.arrayContaining([
        'creatives.0.linear.media_files vast.rule.media_required',
        'creatives.0.linear.duration vast.rule.duration',
        'ad_serving_id vast.rule.required',
        'ad_title vast.rule.required',
      ]),
    );
    c.creatives[0]!.linear.duration = '00:00:00';
    expect(keysAt(c)).toContain('creatives.0.linear.duration vast.rule.duration_zero');
  });

  it('URLs must be http(s) and whole; macros are allowed', () => {
    const c = clone(inline42);
    c.impressions[0]!.url = 'javascript:alert(1)';
    c.creatives[0]!.linear.media_files[0]!.url = 'https://cdn.example.com/a b.mp4';
    c.error_urls = ['https://[DOMAIN]/err?code=[ERRORCODE]'];
    expect(keysAt(c)).toEqual(['impressions.0.url vast.rule.url', 'creatives.0.linear.media_files.0.url vast.rule.url']);
  });

  it('tracking events come from the chosen version’s enumeration; progress needs an offset', () => {
    const c = clone(inline42);
    c.creatives[0]!.linear.tracking.push({ event: 'fullscreen', url: 'https://t.example.com/fs', offset: '' });
    c.creatives[0]!.linear.tracking.push({ event: 'progress', url: 'https://t.example.com/p', offset: '' });
    c.creatives[0]!.linear.tracking.push({ event: 'progress', url: 'https://t.example.com/p', offset: '150%' });
    expect(keysAt(c)).toEqual([
      'creatives.0.linear.tracking.7.event vast.rule.event_unknown',
      'creatives.0.linear.tracking.8.offset vast.rule.offset_required',
      'creatives.0.linear.tracking.9.offset vast.rule.percent_range',
    ]);
    expect(vastRuleIssues({ ...c, version: '3.0' }).map((i) => i.path)).not.toContain('creatives.0.linear.tracking.7.event');
    c.creatives[0]!.linear.tracking[0]!.event = 'loaded';
    expect(vastRuleIssues({ ...c, version: '3.0' }).find((i) => i.path === 'creatives.0.linear.tracking.0.event')).toMatchObject({ key: 'vast.rule.event_unknown', params: { event: 'loaded', version: '3.0' } });
    expect(vastRuleIssues(c).map((i) => i.path)).not.toContain('creatives.0.linear.tracking.0.event');
  });

  it('pricing: an ISO 4217 currency and a decimal string', () => {
    const c = clone(inline42);
    c.pricing = { model: 'CPM', currency: 'EUX', value: '12,5' };
    expect(keysAt(c)).toEqual(['pricing.currency vast.rule.currency', 'pricing.value vast.rule.price']);
    c.pricing = { model: 'CPM', currency: 'eur', value: '1e3' };
    expect(keysAt(c)).toEqual(['pricing.currency vast.rule.currency', 'pricing.value vast.rule.price']);
  });

  it('the skip offset is a time or percentage before the end', () => {
    const c = clone(inline42);
    c.creatives[0]!.linear.skipoffset = '00:00:45';
    expect(keysAt(c)).toEqual(['creatives.0.linear.skipoffset vast.rule.skipoffset_after_end']);
    c.creatives[0]!.linear.skipoffset = '5 seconds';
    expect(keysAt(c)).toEqual(['creatives.0.linear.skipoffset vast.rule.offset']);
  });

  it('3.0 limits: one Error URL; a Wrapper has no Pricing, impression ids or attributes', () => {
    const c = { ...clone(inline30), error_urls: ['https://a.example.com/e', 'https://b.example.com/e'] };
    expect(keysAt(c)).toEqual(['error_urls.1 vast.rule.one_error_30']);
    const w = { ...clone(wrapper42), version: '3.0' as VastVersion };
    expect(vastRuleIssues(w).map((i) => `${i.severity} ${i.path}`)).toEqual([
      'warning impressions.0.id',
      'error pricing',
      'warning wrapper.follow_additional_wrappers',
      'warning wrapper.allow_multiple_ads',
      'warning wrapper.fallback_on_no_ad',
    ]);
  });

  it('a Wrapper needs its VAST tag URL; an InLine a creative', () => {
    expect(keysAt({ ...clone(wrapper42), wrapper: { ...wrapper42.wrapper, tag_uri: '' } })).toEqual(['wrapper.tag_uri vast.rule.required']);
    expect(keysAt({ ...clone(inline42), creatives: [] })).toEqual(['creatives vast.rule.creative_required']);
  });
});

describe('VAST builder: reading documents', () => {
  it('reports a syntax error with its line and column, and no configuration', () => {
    const r = parseVast('<VAST version="4.2">\n  <Ad>\n    <InLine></Ad>\n</VAST>');
    expect(r.config).toBeUndefined();
    expect(r.issues).toHaveLength(1);
    expect(r.issues[0]).toMatchObject({ severity: 'error', source: 'syntax', line: 3 });
    expect(r.issues[0]!.text).toMatch(/InLine/);
  });

  it('refuses what is not a VAST, or a VAST without an ad', () => {
    expect(parseVast('<VMAP/>').issues[0]).toMatchObject({ key: 'vast.parse.not_vast', params: { element: 'VMAP' } });
    const empty = parseVast('<VAST version="4.2"><Error><![CDATA[https://e.example.com]]></Error></VAST>');
    expect(empty.config).toBeUndefined();
    expect(empty.issues).toMatchObject([{ key: 'vast.parse.no_ad' }]);
  });

  it('warns, with the line, about what the form cannot hold instead of dropping it silently', () => {
    const code = [
      '<VAST version="4.0">',
      '  <Ad id="a"><InLine>',
      '    <AdSystem>X</AdSystem>',
      '    <Impression><![CDATA[https://i.example.com]]></Impression>',
      '    <AdServingId>s</AdServingId><AdTitle>T</AdTitle>',
      '    <Category authority="https://iabtechlab.com">IAB1</Category>',
      '    <Creatives><Creative><Linear><Duration>00:00:10</Duration><MediaFiles>',
      '      <MediaFile delivery="progressive" type="video/mp4" width="640" height="360" scalable="true"><![CDATA[https://m.example.com/a.mp4]]></MediaFile>',
      '    </MediaFiles></Linear><UniversalAdId idRegistry="unknown">unknown</UniversalAdId></Creative></Creatives>',
      '  </InLine></Ad>',
      '  <Ad id="b"><Wrapper><AdSystem>Y</AdSystem></Wrapper></Ad>',
      '</VAST>',
    ].join('\n');
    const r = parseVast(code);
    expect(r.config).toMatchObject({ version: '4.1', ad_id: 'a', ad_title: 'T', creatives: [{ linear: { duration: '00:00:10', media_files: [{ width: 640, url: 'https://m.example.com/a.mp4' }] } }] });
    expect(r.issues.map((i) => `${i.line} ${i.key} ${JSON.stringify(i.params)}`)).toEqual([
      '1 vast.parse.version {"found":"4.0","used":"4.1"}',
      '11 vast.parse.extra_ad {"count":2}',
      '8 vast.parse.ignored_attribute {"attribute":"scalable","element":"MediaFile"}',
      '6 vast.parse.ignored_element {"element":"InLine/Category"}',
    ]);
    expect(r.issues.every((i) => i.severity === 'warning')).toBe(true);
  });

  it('says when a number attribute is not a whole number, at the field, instead of losing it silently', () => {
    const code = renderVast(inline42).code.replace('width="1920"', 'width="1920px"').replace('<Creative id="cr-5521" sequence="1"', '<Creative id="cr-5521" sequence="0"');
    const r = parseVast(code);
    expect(r.config?.creatives[0]?.linear.media_files[0]?.width).toBeNull();
    expect(r.config?.creatives[0]?.sequence).toBeNull();
    expect(r.issues.map((i) => `${i.path} ${i.key} ${i.params?.value}`)).toEqual([
      'creatives.0.sequence vast.parse.not_integer 0',
      'creatives.0.linear.media_files.0.width vast.parse.not_integer 1920px',
    ]);
    expect(vastRuleIssues(r.config!).map((i) => `${i.path} ${i.key}`)).toEqual(['creatives.0.linear.media_files.0.width vast.rule.dimension']);
  });

  it('reads verifications from a 3.0 Extension and from 4.x AdVerifications alike', () => {
    expect(parseVast(renderVast(inline30).code).config?.verifications).toEqual(inline30.verifications);
    expect(parseVast(renderVast(inline42).code).config?.verifications).toEqual(inline42.verifications);
  });

  it('keeps an unknown tracking event so the form shows it with the rule’s error', () => {
    const code = renderVast(inline42).code.replace('event="midpoint"', 'event="halfway"');
    const r = parseVast(code);
    expect(r.config?.creatives[0]?.linear.tracking[2]?.event).toBe('halfway');
    expect(vastRuleIssues(r.config!).map((i) => i.path)).toEqual(['creatives.0.linear.tracking.2.event']);
  });
});

describe('vastMacros', () => {
  it('lists the macros used, counts them and flags the ones that are not IAB macros', () => {
    const code = renderVast(inline42).code.replace('ts=[TIMESTAMP]', 'ts=[TIMESTAMP]&x=[MY_MACRO]');
    const macros = vastMacros(code);
    expect(macros.find((m) => m.name === 'CACHEBUSTING')).toMatchObject({ known: true });
    expect(macros.find((m) => m.name === 'CACHEBUSTING')!.count).toBe((code.match(/\[CACHEBUSTING\]/g) ?? []).length);
    expect(macros.find((m) => m.name === 'ERRORCODE')).toMatchObject({ known: true, count: 1, line: 6 });
    expect(macros.find((m) => m.name === 'MY_MACRO')).toMatchObject({ known: false, count: 1, line: 7 });
    expect(macros.map((m) => m.name)).not.toContain('CDATA');
  });
});

describe('vastElementLines', () => {
  it('names each element by its path and starting line', () => {
    const code = renderVast(inline42).code;
    const lines = vastElementLines(code);
    expect(lines).toContainEqual({ line: 2, path: 'VAST' });
    const durationLine = code.split('\n').findIndex((l) => l.includes('<Duration>')) + 1;
    expect(lines.find((l) => l.path.endsWith('/Duration'))).toEqual({ line: durationLine, path: 'VAST/Ad/InLine/Creatives/Creative/Linear/Duration' });
    expect(vastElementLines('<VAST>')).toEqual([]);
  });
});
