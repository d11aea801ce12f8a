import { describe, expect, it } from 'vitest';
import { playOnVastUrl, playonBuilder, type PlayOnConfig } from './playon.ts';

const base = (over: Partial<PlayOnConfig> = {}): PlayOnConfig => ({ ...playonBuilder.defaults(), ad_unit: 'article_video', ...over });
const keys = (config: PlayOnConfig) => playonBuilder.render(config).issues.map((i) => `${i.path}:${i.key}`);

describe('playon builder', () => {
  it('reads back every example and the defaults exactly', () => {
    for (const { config } of [...playonBuilder.examples(), { config: base() }]) {
      const { code } = playonBuilder.render(config);
      const back = playonBuilder.parse(code);
      expect(back.issues).toEqual([]);
      // Fields the chosen placement does not use come back as the defaults.
      const expected = { ...config };
      if (config.placement !== 'in_article') expected.paragraph = playonBuilder.defaults().paragraph;
      if (config.placement !== 'sticky') expected.corner = playonBuilder.defaults().corner;
      if (!config.skippable) expected.skip_after_sec = playonBuilder.defaults().skip_after_sec;
      expect(back.config).toEqual(expected);
    }
  });

  it('embeds a div and the async player script of the ad server, nothing inline', () => {
    const { code } = playonBuilder.render(base({ server_url: 'https://ads.example.com/' }));
    expect(code).toContain('<script async src="https://ads.example.com/v1/public/serve/playon.js"></script>');
    expect(code).not.toMatch(/<script>/);
    expect(playOnVastUrl(base())).toBe('/v1/public/serve/vast-demo.xml');
    expect(playOnVastUrl(base({ server_url: 'https://ads.example.com' }))).toBe('https://ads.example.com/v1/public/serve/vast-demo.xml');
  });

  it('escapes a VAST URL with quotes and markup', () => {
    const vast = 'https://vast.example.com/tag?a="><script>alert(1)</script>';
    const { code } = playonBuilder.render(base({ vast_url: vast }));
    expect(code).not.toContain('<script>alert');
    expect(playonBuilder.parse(code).config?.vast_url).toBe(vast);
  });

  it('checks sizes, colours, the VAST URL and the placement', () => {
    expect(keys(base({ width: 100 }))).toContain('width:playon.range');
    expect(keys(base({ height: 5000 }))).toContain('height:playon.range');
    expect(keys(base({ accent_color: 'red' }))).toContain('accent_color:playon.color.invalid');
    expect(keys(base({ vast_url: 'ftp://x.example/vast.xml' }))).toContain('vast_url:playon.vast_url.invalid');
    expect(keys(base({ placement: 'in_article', paragraph: 0 }))).toContain('paragraph:playon.range');
    expect(keys(base({ placement: 'sticky', paragraph: 0 }))).not.toContain('paragraph:playon.range');
    expect(keys(base({ placement: 'sticky', close_after_sec: null }))).toContain('close_after_sec:playon.close.sticky_needs_close');
    expect(keys(base({ frequency_cap: 0 }))).toContain('frequency_cap:playon.range');
    expect(keys(base({ consent: { tcf: 'macro', gpp: 'off', us_privacy: 'off', vendor_id: null, timeout_ms: 500 } }))).toContain(
      'consent.vendor_id:jstag.consent.vendor_required',
    );
  });

  it('reports a hand edit and a foreign snippet', () => {
    const { code } = playonBuilder.render(base());
    const line = code.split('\n').findIndex((l) => l.includes('async src')) + 1;
    expect(playonBuilder.parse(code.replace('async src', 'defer src')).issues[0]).toMatchObject({ key: 'playon.parse.edited', line });
    expect(playonBuilder.parse('<div class="other"></div>').issues[0]).toMatchObject({ key: 'playon.parse.no_root' });
  });
});
