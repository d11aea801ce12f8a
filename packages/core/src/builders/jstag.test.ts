import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { JSTAG_LOADER, escapeHtml, jstagBuilder, queryString, type JsTagConfig } from './jstag.ts';

const base = (over: Partial<JsTagConfig> = {}): JsTagConfig => ({ ...jstagBuilder.defaults(), ad_unit: 'home_mpu', ...over });
const keys = (config: JsTagConfig) => jstagBuilder.render(config).issues.map((i) => `${i.path}:${i.key}`);

/** The document a browser builds from the tag, as far as we need it: the root element's attributes. */
function rootOf(code: string): Record<string, string> {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', processEntities: true, htmlEntities: true, stopNodes: ['*.script', '*.noscript'] });
  const doc = parser.parse(`<root>${code.replace(/<!--[\s\S]*?-->/g, '')}</root>`) as { root: { ins: Record<string, string> } };
  return doc.root.ins;
}

describe('jstag builder: render and parse', () => {
  it('reads back every example and the defaults exactly (the code view drives the form)', () => {
    for (const { config } of [...jstagBuilder.examples(), { config: base() }]) {
      const { code } = jstagBuilder.render(config);
      const back = jstagBuilder.parse(code);
      expect(back.issues).toEqual([]);
      expect(back.config).toEqual(config.type === 'async' ? { ...config, cachebuster_macro: '%%CACHEBUSTER%%' } : config);
    }
  });

  it('follows an attribute edited in the code view', () => {
    const { code } = jstagBuilder.render(base({ floor: '0.50', type: 'async', image_fallback: false }));
    const edited = code.replace('data-floor="0.50"', 'data-floor="1.25"');
    const back = jstagBuilder.parse(edited);
    expect(back.config?.floor).toBe('1.25');
    expect(back.issues).toEqual([]);
  });

  it('reports a hand edit the configuration cannot explain, at its line', () => {
    const { code } = jstagBuilder.render(base());
    const lines = code.split('\n');
    const at = lines.findIndex((l) => l.includes("q.set('page'"));
    lines[at] = "  q.set('page', 'https://elsewhere.example/');";
    const back = jstagBuilder.parse(lines.join('\n'));
    expect(back.issues).toEqual([expect.objectContaining({ key: 'jstag.parse.edited', line: at + 1, severity: 'error' })]);
  });

  it('says why code is not a tag of this builder', () => {
    expect(jstagBuilder.parse('<div>hello</div>').issues[0]).toMatchObject({ key: 'jstag.parse.no_root', source: 'syntax' });
    const broken = jstagBuilder.parse('\n<ins class="bo-ad" data-unit="a" data-unit="b"></ins>');
    expect(broken.config).toBeUndefined();
    expect(broken.issues[0]).toMatchObject({ key: 'jstag.parse.attributes', line: 2 });
    expect(jstagBuilder.parse('<ins class="bo-ad" data-bo-tag="flash"></ins>').issues[0]).toMatchObject({ key: 'jstag.parse.type' });
  });

  it('renders the same script text for every configuration (the CSP allows it by its hash)', () => {
    const a = jstagBuilder.render(base({ ad_unit: 'a', sizes: ['728x90'] })).code;
    const b = jstagBuilder.render(base({ ad_unit: 'b', floor: '2', passback_type: 'html', passback: '<b>x</b>' })).code;
    const script = (code: string) => /<script>([\s\S]*?)<\/script>/.exec(code)?.[1];
    expect(script(a)).toBe(JSTAG_LOADER);
    expect(script(b)).toBe(JSTAG_LOADER);
    expect(JSTAG_LOADER).not.toMatch(/document\.write|eval\(|new Function/);
    // It is valid JavaScript (compiled here, never run).
    expect(() => new Function(JSTAG_LOADER)).not.toThrow();
  });
});

describe('jstag builder: escaping', () => {
  it('keeps a passback with </script> and quotes inside its attribute', () => {
    const passback = `<script>alert("x")</script></ins><img src=x onerror='alert(1)'>`;
    const { code } = jstagBuilder.render(base({ passback_type: 'html', passback }));
    // One script element (ours), one <ins>, and the passback only as the attribute's value.
    expect(code.match(/<script>/g)).toHaveLength(1);
    expect(code.match(/<\/ins>/g)).toHaveLength(1);
    expect(code).not.toContain('onerror=\'');
    expect(rootOf(code)['data-passback-html']).toBe(passback);
    expect(jstagBuilder.parse(code).config?.passback).toBe(passback);
  });

  it('encodes what goes into the ad request URLs, but not the ad server macros', () => {
    expect(queryString([['unit', 'a&b=c'], ['gdpr', '${GDPR}'], ['cb', '%%CACHEBUSTER%%']])).toBe('unit=a%26b%3Dc&gdpr=${GDPR}&cb=%%CACHEBUSTER%%');
    const { code } = jstagBuilder.render(base({ type: 'iframe', consent: { tcf: 'macro', gpp: 'macro', us_privacy: 'macro', vendor_id: 755, timeout_ms: 500 } }));
    const src = /<iframe src="([^"]+)"/.exec(code)?.[1] ?? '';
    expect(src).toContain('gdpr=${GDPR}&amp;gdpr_consent=${GDPR_CONSENT_755}&amp;gpp=${GPP_STRING_755}&amp;gpp_sid=${GPP_SID}&amp;us_privacy=${US_PRIVACY}');
    expect(escapeHtml(`"'<>&`)).toBe('&quot;&#39;&lt;&gt;&amp;');
  });
});

describe('jstag builder: rules', () => {
  it('starts valid but for the ad unit, and warns that it uses this server', () => {
    const issues = jstagBuilder.render(jstagBuilder.defaults()).issues;
    expect(issues.filter((i) => i.severity === 'error').map((i) => i.key)).toEqual(['jstag.ad_unit.required']);
    expect(issues.find((i) => i.severity === 'warning')?.key).toBe('jstag.server_url.this_server');
  });

  it('checks sizes, floor, server and macros', () => {
    expect(keys(base({ sizes: [] }))).toContain('sizes:jstag.sizes.required');
    expect(keys(base({ sizes: ['300x250', '300X250', '300x250'] }))).toEqual(
      expect.arrayContaining(['sizes.1:jstag.sizes.invalid', 'sizes.2:jstag.sizes.duplicate']),
    );
    expect(keys(base({ sizes: ['5000x90'] }))).toContain('sizes.0:jstag.sizes.invalid');
    expect(keys(base({ floor: '1,50' }))).toContain('floor:jstag.floor.invalid');
    expect(keys(base({ floor: '-1' }))).toContain('floor:jstag.floor.invalid');
    expect(keys(base({ floor: '0.12345' }))).toContain('floor:jstag.floor.invalid');
    expect(keys(base({ floor: '0.1234' }))).not.toContain('floor:jstag.floor.invalid');
    expect(keys(base({ server_url: 'javascript:alert(1)' }))).toContain('server_url:jstag.server_url.invalid');
    expect(keys(base({ server_url: 'https://ads.example.com/path' }))).toContain('server_url:jstag.server_url.invalid');
    expect(keys(base({ server_url: 'https://ads.example.com/' }))).not.toContain('server_url:jstag.server_url.invalid');
    expect(keys(base({ click_macro: '"><script>' }))).toContain('click_macro:jstag.click_macro.invalid');
    expect(keys(base({ type: 'iframe', cachebuster_macro: 'random' }))).toContain('cachebuster_macro:jstag.cachebuster.invalid');
    expect(keys(base({ ad_unit: 'home mpu' }))).toContain('ad_unit:jstag.ad_unit.invalid');
  });

  it('checks passbacks and consent against the tag type', () => {
    expect(keys(base({ type: 'iframe', passback_type: 'html', passback: '<b>x</b>' }))).toContain('passback_type:jstag.passback.iframe_html');
    expect(keys(base({ passback_type: 'url', passback: 'javascript:alert(1)' }))).toContain('passback:jstag.passback.url_invalid');
    expect(keys(base({ passback_type: 'html', passback: ' ' }))).toContain('passback:jstag.passback.required');
    const cmp = { tcf: 'cmp', gpp: 'off', us_privacy: 'off', vendor_id: null, timeout_ms: 500 } as const;
    expect(keys(base({ type: 'image', consent: cmp }))).toContain('consent.tcf:jstag.consent.cmp_needs_script');
    expect(keys(base({ type: 'async', consent: cmp }))).not.toContain('consent.tcf:jstag.consent.cmp_needs_script');
    expect(keys(base({ consent: { ...cmp, tcf: 'macro' } }))).toContain('consent.vendor_id:jstag.consent.vendor_required');
    expect(keys(base({ consent: { ...cmp, timeout_ms: 60_000 } }))).toContain('consent.timeout_ms:jstag.consent.timeout_invalid');
  });

  it('refuses a configuration of another shape (what the API answers 400 for)', () => {
    expect(jstagBuilder.configSchema.safeParse({ ...base(), type: 'flash' }).success).toBe(false);
    expect(jstagBuilder.configSchema.safeParse({ ...base(), extra: 1 }).success).toBe(false);
    expect(jstagBuilder.configSchema.safeParse(base()).success).toBe(true);
  });
});
