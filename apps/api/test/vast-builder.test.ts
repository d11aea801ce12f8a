/**
 * The VAST builder through the HTTP API (docs/decisions/038-vast-builder.md): every example in every
 * version renders to a document the IAB XSD of that version accepts — checked by the API and, apart
 * from the app's code, by xmllint-wasm directly with the XSD files of ../shared/standards/vast;
 * invalid documents are refused with the element named; XSD findings land on the form field that
 * wrote the line; the URL loader (a stub HTTP server) with its limits and refusals; the ACL.
 */
import type { BuilderRenderAnswer } from '@backoffice/core/builders/common';
import { VAST_MACROS, VAST_VERSIONS, renderVast, vastBuilder, type VastConfig, type VastVersion } from '@backoffice/core/builders/vast';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { validateVastDocument } from '../src/modules/builders/vast-xsd.ts';
import { isBlockedAddress } from '../src/lib/outbound-fetch.ts';
import { loadVastFromUrl, type VastLoadAnswer } from '../src/modules/builders/vast-routes.ts';
import { userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

const STANDARDS = '/work/shared/standards/vast';
const XSD: Record<VastVersion, string> = { '4.2': 'vast_4.2.xsd', '4.1': 'vast_4.1.xsd', '3.0': 'vast3_draft.xsd' };
const RENDER = '/v1/builders/vast/render';
const LOAD = '/v1/builders/vast/load';

/**
 * The XSD check written apart from the app's: the IAB macros replaced by their names (a player
 * substitutes them before requesting; xs:anyURI allows no brackets), then libxml2 with the XSD file.
 */
async function xsdErrors(code: string, version: VastVersion): Promise<string[]> {
  const substituted = code.replace(new RegExp(`\\[(${VAST_MACROS.join('|')})\\]`, 'g'), '$1');
  const res = await validateXML({ xml: [{ fileName: 'doc.xml', contents: substituted }], schema: [{ fileName: XSD[version], contents: fs.readFileSync(`${STANDARDS}/${XSD[version]}`, 'utf8') }] });
  return res.errors.map((e) => e.rawMessage);
}

const examples = vastBuilder.examples();
const example = (i: number): VastConfig => structuredClone(examples[i]!.config);

describe('VAST builder API', () => {
  let t: TestApp;
  let tech: Record<string, string>;
  let outsider: Record<string, string>;
  let stub: http.Server;
  let base = '';

  beforeAll(async () => {
    t = await createTestApp();
    tech = (await signIn(t.app, 'tech@adtech.example')).headers;
    outsider = (await userWithAcl(t.app, 'vast.outsider@adtech.example', { '/v1/impressions-log': ['read'] })).headers;
    const vast = renderVast(example(0)).code;
    stub = http.createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://stub');
      const hops = Number(u.searchParams.get('hops') ?? 0);
      if (u.pathname === '/redirect') {
        res.writeHead(302, { location: hops > 1 ? `/redirect?hops=${hops - 1}` : '/vast.xml' });
        return res.end();
      }
      if (u.pathname === '/vast.xml') {
        res.writeHead(200, { 'content-type': 'application/xml' });
        return res.end(vast);
      }
      if (u.pathname === '/huge-declared') {
        res.writeHead(200, { 'content-type': 'application/xml', 'content-length': String(2 * 1024 * 1024) });
        return res.end();
      }
      if (u.pathname === '/huge-chunked') {
        res.writeHead(200, { 'content-type': 'application/xml' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const push = () => {
          while (sent < 40 && res.write(chunk)) sent++;
          if (sent >= 40) res.end();
          else res.once('drain', push);
        };
        return push();
      }
      if (u.pathname === '/slow') return; // never answers
      res.writeHead(404);
      res.end('not here');
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    stub?.closeAllConnections();
    await new Promise((resolve) => stub?.close(resolve));
    await t?.close();
  });

  const render = async (payload: { config: unknown } | { code: string }, headers = tech) => {
    const res = await t.app.inject({ method: 'POST', url: RENDER, headers, payload });
    expect(res.statusCode, res.body).toBe(200);
    return body<BuilderRenderAnswer>(res).data;
  };

  describe('every example in every version validates against the XSD of its version', () => {
    for (const [i, ex] of examples.entries())
      for (const version of VAST_VERSIONS)
        it(`${ex.name} as VAST ${version}`, async () => {
          const config = { ...example(i), version };
          const answer = await render({ config });
          expect(answer.output?.code).toContain(`<VAST version="${version}"`);
          expect(answer.issues.filter((x) => x.source === 'schema')).toEqual([]);
          expect(await xsdErrors(answer.output!.code, version)).toEqual([]);
          // In its own version, an example breaks no rule either: the screen shows it as valid.
          if (version === ex.config.version) expect(answer.valid, JSON.stringify(answer.issues)).toBe(true);
        });

    it('the defaults (a new ad) validate too', async () => {
      const answer = await render({ config: vastBuilder.defaults() });
      expect(answer.valid).toBe(true);
      expect(await xsdErrors(answer.output!.code, '4.2')).toEqual([]);
    });
  });

  describe('invalid documents are refused with the element named', () => {
    const valid42 = renderVast(example(0)).code;
    const wrapper42 = renderVast(example(1)).code;
    const valid30 = renderVast(example(2)).code;
    const cases: { name: string; code: string; version: VastVersion; element: string }[] = [
      { name: 'missing AdSystem', code: valid42.replace(/\s*<AdSystem[^\n]*<\/AdSystem>/, ''), version: '4.2', element: 'AdSystem' },
      {
        name: 'AdTitle before AdServingId (wrong order)',
        code: valid42.replace(/(\s*<AdServingId>[^<]*<\/AdServingId>)(\s*<AdTitle>[^<]*<\/AdTitle>)/, '$2$1'),
        version: '4.2',
        element: 'AdTitle',
      },
      { name: 'a Duration that is not a time', code: valid42.replace('<Duration>00:00:30</Duration>', '<Duration>00:00:3x</Duration>'), version: '4.2', element: 'Duration' },
      { name: 'a MediaFile without type', code: valid42.replace(' type="video/webm"', ''), version: '4.2', element: 'MediaFile' },
      { name: 'an unknown tracking event', code: valid42.replace('event="midpoint"', 'event="halfway"'), version: '4.2', element: 'Tracking' },
      { name: 'a Wrapper without VASTAdTagURI', code: wrapper42.replace(/\s*<VASTAdTagURI>.*<\/VASTAdTagURI>/, ''), version: '4.2', element: 'Wrapper' },
      { name: 'a 4.2 Creative without UniversalAdId', code: valid42.replace(/\s*<UniversalAdId[^\n]*<\/UniversalAdId>/, ''), version: '4.2', element: 'Creative' },
      { name: 'a Pricing model outside the enumeration', code: valid42.replace('model="CPM"', 'model="CPA"'), version: '4.2', element: 'Pricing' },
      { name: 'two Error URLs in VAST 3.0', code: valid30.replace(/(\s*<Error>.*<\/Error>)/, '$1$1'), version: '3.0', element: 'Error' },
      { name: 'an unknown element', code: valid42.replace('<AdTitle>', '<Category>news</Category><AdTitle>'), version: '4.2', element: 'Category' },
    ];
    for (const c of cases)
      it(c.name, async () => {
        expect(c.code).not.toBe(c.version === '3.0' ? valid30 : c.name.includes('Wrapper') ? wrapper42 : valid42);
        // The standard itself refuses it…
        const direct = await xsdErrors(c.code, c.version);
        expect(direct.join('\n')).toContain(c.element);
        // …and so does the API, naming the element, with the line in the code view.
        const answer = await render({ code: c.code });
        expect(answer.valid).toBe(false);
        const schema = answer.issues.filter((x) => x.source === 'schema' && x.severity === 'error');
        expect(schema.length, JSON.stringify(answer.issues)).toBeGreaterThan(0);
        expect(schema.some((x) => x.params?.element === c.element || x.text?.includes(c.element)), JSON.stringify(schema)).toBe(true);
        expect(schema.every((x) => typeof x.line === 'number' && x.line > 1)).toBe(true);
        expect(schema.every((x) => !x.text?.includes('{http://www.iab.com/VAST}'))).toBe(true);
      });

    it('names the element’s path in a typed document, and the form field in the builder’s own output', async () => {
      const broken = valid42.replace('<Duration>00:00:30</Duration>', '<Duration>00:00:3x</Duration>');
      // Typed in the code view of the builder's output: the document is still line for line the rendering of what it holds.
      const edited = await render({ code: broken });
      expect(edited.issues.find((x) => x.source === 'schema')).toMatchObject({ path: 'creatives.0.linear.duration', params: { element: 'Duration' }, line: 33 });
      // Pasted in another layout: the element's path.
      const pasted = await render({ code: broken.replace(/\n\s+/g, '\n') });
      expect(pasted.issues.find((x) => x.source === 'schema')).toMatchObject({ path: 'VAST/Ad/InLine/Creatives/Creative/Linear/Duration', params: { element: 'Duration' }, line: 33 });
      // The rule says the same at the form's field, so the form shows it either way.
      expect(pasted.issues.find((x) => x.source === 'rules')).toMatchObject({ path: 'creatives.0.linear.duration', key: 'vast.rule.duration' });
      // An empty registry is left out of the output, which the XSD refuses: at the field that wrote the line.
      const config = example(0);
      config.creatives[0]!.universal_ad_id.registry = '';
      const built = await render({ config });
      expect(built.issues.find((x) => x.source === 'schema')).toMatchObject({ path: 'creatives.0.universal_ad_id.value', params: { element: 'UniversalAdId' } });
      expect(built.issues.find((x) => x.source === 'rules')).toMatchObject({ path: 'creatives.0.universal_ad_id.registry', key: 'vast.rule.required' });
    });

    it('checks a 4.x document without the namespace as if it had it, and says so', async () => {
      const bare = valid42.replace(' xmlns="http://www.iab.com/VAST"', '');
      const issues = await validateVastDocument(bare);
      expect(issues).toEqual([expect.objectContaining({ severity: 'warning', key: 'vast.xsd.no_namespace', line: 2 })]);
      const broken = await validateVastDocument(bare.replace('<Duration>00:00:30</Duration>', '<Duration>soon</Duration>'));
      expect(broken.map((i) => i.params?.element)).toContain('Duration');
    });

    it('the rules refuse bad input with the same keys as the form, at their fields', async () => {
      const config = example(0);
      config.creatives[0]!.linear.media_files = [];
      config.impressions[0]!.url = 'ftp://track.example.com/i';
      config.pricing = { model: 'CPM', currency: 'EURO', value: '12.5.0' };
      const answer = await render({ config });
      expect(answer.valid).toBe(false);
      expect(answer.issues.filter((x) => x.source === 'rules').map((x) => `${x.path} ${x.key}`)).toEqual([
        'impressions.0.url vast.rule.url',
        'pricing.currency vast.rule.currency',
        'pricing.value vast.rule.price',
        'creatives.0.linear.media_files vast.rule.media_required',
      ]);
    });

    it('a configuration of the wrong shape is a 400 at its path; unreadable code is syntax issues with line and column', async () => {
      const res = await t.app.inject({ method: 'POST', url: RENDER, headers: tech, payload: { config: { ...example(0), version: '5.0' } } });
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(body(res).errors)).toContain('version');
      const unreadable = await render({ code: '<VAST version="4.2">\n<Ad>\n</VAST>' });
      expect(unreadable).toMatchObject({ output: null, valid: false, issues: [{ source: 'syntax', line: 3 }] });
    });
  });

  describe('loading a VAST from a URL', () => {
    const load = (url: string, headers = tech) => t.app.inject({ method: 'POST', url: LOAD, headers, payload: { url } });

    it('answers the document, following redirects (at most 3)', async () => {
      const res = await load(`${base}/redirect?hops=3`);
      expect(res.statusCode, res.body).toBe(200);
      const data = body<VastLoadAnswer>(res).data;
      expect(data).toMatchObject({ url: `${base}/vast.xml`, content_type: 'application/xml' });
      expect(data.code).toBe(renderVast(example(0)).code);
      expect(data.bytes).toBe(Buffer.byteLength(data.code));
      // What the screen does next: the code view reads it and the API checks it.
      expect((await render({ code: data.code })).valid).toBe(true);
    });

    it('refuses a fourth redirect, a body over 1 MB, an HTTP error, another scheme and a non-URL', async () => {
      const refused = async (url: string, key: string, status = 422) => {
        const res = await load(url);
        expect(res.statusCode, res.body).toBe(status);
        expect(body(res).message).toBe(key);
        return body(res);
      };
      await refused(`${base}/redirect?hops=4`, 'vast.load.too_many_redirects');
      await refused(`${base}/huge-declared`, 'vast.load.too_large');
      await refused(`${base}/huge-chunked`, 'vast.load.too_large');
      expect((await refused(`${base}/missing`, 'vast.load.http_status')).text).toContain('404');
      await refused('file:///etc/passwd', 'vast.load.refused_scheme');
      await refused('ftp://ftp.example.com/vast.xml', 'vast.load.refused_scheme');
      await refused('not a url', 'vast.rule.url');
      const empty = await t.app.inject({ method: 'POST', url: LOAD, headers: tech, payload: {} });
      expect(empty.statusCode).toBe(400);
    });

    it('gives up after the timeout', async () => {
      await expect(loadVastFromUrl(`${base}/slow`, { allowPrivate: true, timeoutMs: 300 })).rejects.toMatchObject({ statusCode: 422, key: 'vast.load.timeout' });
    });

    it('refuses loopback, private and reserved addresses outside tests', async () => {
      for (const url of [`${base}/vast.xml`, `http://localhost:${new URL(base).port}/vast.xml`, 'http://[::1]/vast.xml', 'http://169.254.169.254/latest/meta-data/', 'http://10.1.2.3/vast.xml'])
        await expect(loadVastFromUrl(url, { allowPrivate: false }), url).rejects.toMatchObject({ statusCode: 422, key: 'vast.load.refused_address' });
      for (const a of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd12:3456::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:192.168.0.1'])
        expect(isBlockedAddress(a), a).toBe(true);
      for (const a of ['8.8.8.8', '151.101.1.69', '2a00:1450:4003:80f::200e']) expect(isBlockedAddress(a), a).toBe(false);
    });

    it('refuses them through the API when the config flag is off', async () => {
      t.app.ctx.config.allowPrivateFetches = false;
      try {
        const res = await load(`${base}/vast.xml`);
        expect(res.statusCode).toBe(422);
        expect(body(res)).toMatchObject({ message: 'vast.load.refused_address', errors: { url: 'vast.load.refused_address' } });
      } finally {
        t.app.ctx.config.allowPrivateFetches = true;
      }
    });
  });

  it('a role without /v1/builders gets 403 on render and load', async () => {
    for (const [url, payload] of [
      [RENDER, { config: example(0) }],
      [LOAD, { url: `${base}/vast.xml` }],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url, headers: outsider, payload });
      expect(res.statusCode, url).toBe(403);
    }
  });
});
