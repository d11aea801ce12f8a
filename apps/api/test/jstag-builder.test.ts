/**
 * The JS tag and PlayOn builders through the HTTP API (decision 040): the render route answers
 * exactly core's render (from a configuration and from code), the rules with the same keys (and a
 * save with an error refused), the ACL (render, save, the test server's request log), bad input;
 * the public test ad server: what it prints is escaped, its headers let any page frame the
 * creative and allow exactly its one script, the floor decides fill, the iframe tag's passback
 * redirects only a frame to an http(s) URL, the ring records what arrived, the demo VAST is valid
 * against the IAB VAST 4.2 XSD, the demo video is an MP4 answered by ranges, the player script
 * compiles, a burst from one address is limited; and the app's CSP allows the async tag's script.
 */
import { jstagBuilder, JSTAG_LOADER, type JsTagConfig } from '@backoffice/core/builders/jstag';
import { playonBuilder, type PlayOnConfig } from '@backoffice/core/builders/playon';
import type { BuilderRenderAnswer, BuilderVersionDto } from '@backoffice/core/builders/common';
import fs from 'node:fs';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as XmlLint from 'xmllint-wasm';
import { SERVE_RATE_LIMIT, type ServeLogEntry } from '../src/modules/builders/serve-routes.ts';
import { query } from '../src/reports-data/sql.ts';
import { userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

const xmllint = createRequire(import.meta.url)('xmllint-wasm') as typeof XmlLint;
// The shared standards, as the other standards tests read them (vast-builder, einvoice, payouts).
const VAST_XSD = '/work/shared/standards/vast/vast_4.2.xsd';

const sha256 = (text: string) => `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('JS tag and PlayOn builders', () => {
  let t: TestApp;
  let tech: Record<string, string>;
  let reader: Record<string, string>;
  let none: Record<string, string>;
  let adUnitId = 0;

  beforeAll(async () => {
    t = await createTestApp();
    tech = (await signIn(t.app, 'tech@adtech.example')).headers;
    reader = (await userWithAcl(t.app, 'tags.reader@adtech.example', { '/v1/builders': ['read'] })).headers;
    none = (await userWithAcl(t.app, 'tags.none@adtech.example', { '/v1/ssp-logs': ['read'] })).headers;
    const db = t.app.ctx.database;
    const [pub] = await query<{ id: number }>(db, `INSERT INTO publishers (name, side, seller_id, seller_domain) VALUES ('Diario Levante Tags', 'ssp', 'pub-tags-1', 'diariolevante-tags.example') RETURNING id`);
    const [site] = await query<{ id: number }>(db, `INSERT INTO sites (publisher_id, name, environment_id) VALUES ($1, 'www.diariolevante-tags.example', 1) RETURNING id`, [pub!.id]);
    const [unit] = await query<{ id: number }>(db, `INSERT INTO ad_units (site_id, name, format_id, size_id) VALUES ($1, 'dl_tags_home_mpu', 1, 1) RETURNING id`, [site!.id]);
    adUnitId = unit!.id;
  });
  afterAll(async () => t?.close());

  const render = async (kind: string, payload: unknown, headers = tech) =>
    t.app.inject({ method: 'POST', url: `/v1/builders/${kind}/render`, headers, payload: payload as Record<string, unknown> });
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  describe('render through the API', () => {
    it('answers exactly what core renders, from a configuration and from its code', async () => {
      for (const [kind, def] of [['jstag', jstagBuilder], ['playon', playonBuilder]] as const) {
        for (const { config } of def.examples()) {
          const out = core(def, config);
          const res = await render(kind, { config });
          expect(res.statusCode, res.body).toBe(200);
          const answer = body<BuilderRenderAnswer>(res).data;
          expect(answer.output?.code).toBe(out.code);
          expect(answer.valid).toBe(true);
          const back = body<BuilderRenderAnswer>(await render(kind, { code: out.code })).data;
          expect(back.config).toEqual(def.parse(out.code).config);
          expect(back.output?.code).toBe(out.code);
        }
      }
    });

    it('reports the rules with core’s keys and refuses to save a tag with an error', async () => {
      const bad: JsTagConfig = { ...jstagBuilder.defaults(), ad_unit: 'home mpu', sizes: ['300x250', '12x'], floor: '1,5' };
      const answer = body<BuilderRenderAnswer>(await render('jstag', { config: bad })).data;
      expect(answer.valid).toBe(false);
      const keys = answer.issues.map((i) => `${i.path}:${i.key}`);
      expect(keys).toEqual(expect.arrayContaining(['ad_unit:jstag.ad_unit.invalid', 'sizes.1:jstag.sizes.invalid', 'floor:jstag.floor.invalid']));
      expect(keys).toEqual(jstagBuilder.render(bad).issues.map((i) => `${i.path}:${i.key}`));

      const save = await t.app.inject({
        method: 'POST',
        url: '/v1/builders/jstag/versions',
        headers: tech,
        payload: { subject_type: 'ad_unit', subject_id: adUnitId, name: 'Broken MPU', config: bad },
      });
      expect(save.statusCode, save.body).toBe(400);
      expect(body(save).errors?.['config.floor']).toBe('jstag.floor.invalid');

      const good = { ...bad, ad_unit: 'dl_tags_home_mpu', sizes: ['300x250'], floor: '0.85' };
      const saved = await t.app.inject({ method: 'POST', url: '/v1/builders/jstag/versions', headers: tech, payload: { subject_type: 'ad_unit', subject_id: adUnitId, name: 'Home MPU', config: good } });
      expect(saved.statusCode, saved.body).toBe(200);
      const version = body<BuilderVersionDto>(saved).data;
      const full = body<BuilderVersionDto>(await get(`/v1/builders/jstag/versions/${version.id}`, tech)).data;
      expect(full.code).toBe(jstagBuilder.render(good).code);
    });

    it('reports a hand-edited tag at its line, and an unreadable one without output', async () => {
      const { code } = jstagBuilder.render({ ...jstagBuilder.defaults(), ad_unit: 'dl_tags_home_mpu' });
      const edited = code.replace("q.set('page', location.href);", "q.set('page', 'https://elsewhere.example/');");
      const answer = body<BuilderRenderAnswer>(await render('jstag', { code: edited })).data;
      const line = edited.split('\n').findIndex((l) => l.includes('elsewhere.example')) + 1;
      expect(answer.valid).toBe(false);
      expect(answer.issues).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'jstag.parse.edited', line })]));
      const unreadable = body<BuilderRenderAnswer>(await render('playon', { code: '<p>not a player</p>' })).data;
      expect(unreadable.output).toBeNull();
      expect(unreadable.issues[0]).toMatchObject({ key: 'playon.parse.no_root' });
    });

    it('refuses a configuration of another shape at its path', async () => {
      const res = await render('playon', { config: { ...playonBuilder.defaults(), width: '640', placement: 'popup' } });
      expect(res.statusCode).toBe(400);
      expect(body(res).errors).toMatchObject({ 'config.width': 'error.invalid_type', 'config.placement': 'error.invalid_value' });
    });

    it('needs read on /v1/builders to render, write to save; the request log needs read', async () => {
      const config: PlayOnConfig = { ...playonBuilder.defaults(), ad_unit: 'dl_tags_video' };
      expect((await render('playon', { config }, none)).statusCode).toBe(403);
      expect((await render('playon', { config }, reader)).statusCode).toBe(200);
      const save = await t.app.inject({ method: 'POST', url: '/v1/builders/playon/versions', headers: reader, payload: { subject_type: 'ad_unit', subject_id: adUnitId, name: 'Video', config } });
      expect(save.statusCode).toBe(403);
      expect((await get('/v1/builders/test-server/requests', none)).statusCode).toBe(403);
      expect((await get('/v1/builders/test-server/requests')).statusCode).toBe(401);
      expect((await get('/v1/builders/test-server/requests', reader)).statusCode).toBe(200);
    });
  });

  describe('the test ad server', () => {
    const inlineScripts = (html: string) => [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);

    it('prints what it received, escaped, in a creative any page may frame', async () => {
      const unit = '<script>alert(1)</script>"\'';
      const res = await get(`/v1/public/serve/ad?unit=${encodeURIComponent(unit)}&sizes=728x90,300x250&floor=0.85&cur=USD&gdpr=1&gdpr_consent=CPtest&gpp=DBABMA~test&gpp_sid=2,6&us_privacy=1YNN`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).not.toContain('<script>alert(1)');
      expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;');
      expect(res.body).toContain('width="728" height="90"');
      for (const printed of ['gdpr=1', 'gdpr_consent=CPtest', 'gpp=DBABMA~test', 'gpp_sid=2,6', 'us_privacy=1YNN', '0.85 USD']) expect(res.body).toContain(printed);
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).not.toContain('frame-ancestors');
      // Its only script is allowed by its hash, and nothing else may run.
      const scripts = inlineScripts(res.body);
      expect(scripts).toHaveLength(1);
      expect(csp).toContain(`script-src ${sha256(scripts[0]!)}`);
      expect(csp).toContain("default-src 'none'");
    });

    it('has no ad above the test bid, and sends only a frame to the iframe tag’s passback', async () => {
      const noFill = await get('/v1/public/serve/ad?unit=u1&sizes=300x250&floor=5.0001&cur=EUR');
      expect(noFill.body).toContain('data-fill="0"');
      expect((await get('/v1/public/serve/ad?unit=u1&sizes=300x250&floor=5.00&cur=EUR')).body).toContain('data-fill="1"');
      const passback = encodeURIComponent('https://ads.example.com/passback.html');
      const framed = await get(`/v1/public/serve/ad?unit=u1&floor=9&passback=${passback}`, { 'sec-fetch-dest': 'iframe' });
      expect(framed.statusCode).toBe(302);
      expect(framed.headers.location).toBe('https://ads.example.com/passback.html');
      expect((await get(`/v1/public/serve/ad?unit=u1&floor=9&passback=${passback}`, { 'sec-fetch-dest': 'document' })).statusCode).toBe(200);
      expect((await get(`/v1/public/serve/ad?unit=u1&floor=9&passback=${encodeURIComponent('javascript:alert(1)')}`, { 'sec-fetch-dest': 'iframe' })).statusCode).toBe(200);
      expect((await get(`/v1/public/serve/ad?unit=u1&floor=1&passback=${passback}`, { 'sec-fetch-dest': 'iframe' })).statusCode).toBe(200);
    });

    it('answers the image and the landing page escaped, and records every request', async () => {
      const svg = await get('/v1/public/serve/ad.svg?unit=%3Cb%3Ex%3C%2Fb%3E&sizes=320x50&gdpr=0');
      expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(svg.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(svg.body).toContain('width="320" height="50"');
      expect(svg.body).not.toContain('<b>x</b>');
      const landing = await get('/v1/public/serve/click?unit=%3Cimg%20src%3Dx%3E', { 'accept-language': 'es' });
      expect(landing.body).not.toContain('<img src=x>');
      expect(landing.body).toContain('Página de destino de prueba');
      const log = body<{ items: ServeLogEntry[] }>(await get('/v1/builders/test-server/requests?limit=5', reader)).data.items;
      expect(log[0]).toMatchObject({ route: 'click', params: { unit: '<img src=x>' } });
      expect(log[1]).toMatchObject({ route: 'ad.svg', params: { unit: '<b>x</b>', sizes: '320x50', gdpr: '0' } });
      expect((await get('/v1/builders/test-server/requests?limit=0', reader)).statusCode).toBe(400);
    });

    it('serves a demo VAST valid against the IAB VAST 4.2 XSD, its video and its trackers', async () => {
      const res = await get('/v1/public/serve/vast-demo.xml?gdpr=1&gdpr_consent=CPtest', { origin: 'null', host: 'ads.test.example:8080' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const xml = res.body;
      // A player replaces the IAB macros ([ERRORCODE]) before it requests a URL; xs:anyURI has no brackets.
      const result = await xmllint.validateXML({
        xml: [{ fileName: 'vast.xml', contents: xml.replace(/\[ERRORCODE\]/g, 'ERRORCODE') }],
        schema: [{ fileName: 'vast_4.2.xsd', contents: fs.readFileSync(VAST_XSD, 'utf8') }],
      });
      expect(result.errors, result.rawOutput).toEqual([]);
      expect(result.valid).toBe(true);
      const media = /<MediaFile[^>]*><!\[CDATA\[([^\]]+)\]\]>/.exec(xml)?.[1] ?? '';
      expect(media).toBe('http://ads.test.example:8080/v1/public/serve/media/demo.mp4');
      // A forged Host cannot write markup into the VAST.
      const forged = await get('/v1/public/serve/vast-demo.xml', { host: 'x"><Ad>' });
      expect(forged.body).toContain('http://localhost/v1/public/serve/media/demo.mp4');
      expect(forged.body).not.toContain('x"><Ad>');

      const video = await get('/v1/public/serve/media/demo.mp4');
      expect(video.headers['content-type']).toBe('video/mp4');
      expect(video.rawPayload.subarray(4, 8).toString('ascii')).toBe('ftyp');
      const part = await get('/v1/public/serve/media/demo.mp4', { range: 'bytes=0-99' });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 0-99/${video.rawPayload.length}`);
      expect(part.rawPayload.length).toBe(100);

      const pixel = await get('/v1/public/serve/track?e=impression&ad=bo-demo-1');
      expect(pixel.headers['content-type']).toBe('image/gif');
      const log = body<{ items: ServeLogEntry[] }>(await get('/v1/builders/test-server/requests?limit=2', reader)).data.items;
      expect(log[0]).toMatchObject({ route: 'track', params: { e: 'impression' } });
    });

    it('serves the player script, which compiles, in both languages', async () => {
      const res = await get('/v1/public/serve/playon.js');
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
      expect(() => new vm.Script(res.body)).not.toThrow();
      expect(res.body).toContain('Saltar anuncio');
      expect(res.body).toContain('Skip ad');
      expect(res.body).not.toMatch(/\beval\(|new Function|document\.write/);
    });

    it('limits a burst from one address', async () => {
      let status = 0;
      for (let i = 0; i <= SERVE_RATE_LIMIT; i++) status = (await t.app.inject({ method: 'GET', url: '/v1/public/serve/track?e=burst', remoteAddress: '10.77.0.1' })).statusCode;
      expect(status).toBe(429);
      expect((await t.app.inject({ method: 'GET', url: '/v1/public/serve/track?e=other', remoteAddress: '10.77.0.2' })).statusCode).toBe(200);
    });
  });

  it('lets the app’s pages run the async tag’s script (the preview), and nothing else inline', async () => {
    const res = await get('/en/utils/jstagbuilder');
    const csp = String(res.headers['content-security-policy']);
    const script = /<script>([\s\S]*?)<\/script>/.exec(jstagBuilder.render(jstagBuilder.defaults()).code)?.[1];
    expect(script).toBe(JSTAG_LOADER);
    expect(csp).toContain(`script-src 'self' ${sha256(JSTAG_LOADER)};`);
    expect(csp).not.toContain('unsafe-inline\' ;');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});

function core<C>(def: { render(c: C): { code: string } }, config: C) {
  return def.render(config);
}
