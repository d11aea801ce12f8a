/**
 * The JSON builder through the HTTP API (decision 039): the schema list; documents checked against
 * the IAB's OpenRTB 2.6 BidRequest, Imp and Pmp schemas and our partner and ad unit configuration
 * schemas, each error at its JSON pointer AND on the line of the code where that pointer is (in the
 * rendered output, and in code typed in another layout); a field OpenRTB does not define as a
 * warning; syntax errors with line and column; bad input; the ACL.
 */
import type { BuilderIssue, BuilderRenderAnswer } from '@backoffice/core/builders/common';
import type { JsonSchemaEntry, JsonSchemaName } from '@backoffice/core/builders/json';
import { beforeAll, describe, expect, it } from 'vitest';
import { userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

const RENDER = '/v1/builders/json/render';
const SCHEMAS = '/v1/builders/json/schemas';

describe('JSON builder API', () => {
  let t: TestApp;
  let tech: Record<string, string>;
  let reader: Record<string, string>;
  let outsider: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    tech = (await signIn(t.app, 'tech@adtech.example')).headers;
    reader = (await userWithAcl(t.app, 'json.reader@adtech.example', { '/v1/builders': ['read'] })).headers;
    outsider = (await userWithAcl(t.app, 'json.outsider@adtech.example', { '/v1/impressions-log': ['read'] })).headers;
  });

  const render = async (payload: unknown, headers = tech) => {
    const res = await t.app.inject({ method: 'POST', url: RENDER, headers, payload: payload as object });
    return { status: res.statusCode, answer: body<BuilderRenderAnswer>(res).data, raw: body(res) };
  };
  /** Checks a document; answers each schema issue with the text of the line it points at. */
  const check = async (schema: JsonSchemaName, document: unknown) => {
    const { status, answer } = await render({ config: { schema, document } });
    expect(status).toBe(200);
    const lines = answer.output!.code.split('\n');
    return {
      answer,
      at: (path: string, key?: string) => {
        const found = answer.issues.filter((i) => i.path === path && (!key || i.key === key));
        expect(found, `${path} ${key ?? ''} in ${JSON.stringify(answer.issues.map((i) => [i.path, i.key]))}`).toHaveLength(1);
        const issue = found[0]!;
        expect(issue.source).toBe('schema');
        return { issue, line: lines[issue.line! - 1]!.trim() };
      },
    };
  };

  it('lists the schemas by name with translated titles and the schema itself', async () => {
    const res = await t.app.inject({ method: 'GET', url: SCHEMAS, headers: { ...reader, 'accept-language': 'es-ES' } });
    expect(res.statusCode).toBe(200);
    const { schemas } = body<{ schemas: JsonSchemaEntry[] }>(res).data;
    expect(schemas.map((s) => s.name)).toEqual(['openrtb-2.6/BidRequest', 'openrtb-2.6/Imp', 'openrtb-2.6/Pmp', 'backoffice/partner-config', 'backoffice/ad-unit-config']);
    expect(schemas[3]!.title).toBe('Configuración de demand partner');
    expect((schemas[1]!.schema as { required: string[] }).required).toEqual(['id']);
    expect((schemas[1]!.schema as { properties: Record<string, unknown> }).properties).toHaveProperty('banner', { $ref: 'Banner.json' });
    expect((await t.app.inject({ method: 'GET', url: SCHEMAS, headers: outsider })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: SCHEMAS })).statusCode).toBe(401);
  });

  it('accepts every example: valid, no issue', async () => {
    const { jsonBuilder } = await import('@backoffice/core/builders/json');
    for (const e of jsonBuilder.examples()) {
      const { answer } = await render({ config: e.config });
      expect(answer.issues, e.name).toEqual([]);
      expect(answer.valid).toBe(true);
    }
  });

  it('BidRequest: errors at their path and line', async () => {
    const { answer, at } = await check('openrtb-2.6/BidRequest', {
      id: 'req-1',
      imp: [{ id: '1', banner: { format: [{ w: 300, h: 250 }, { w: '728', h: 90 }] } }, { banner: {} }],
      regs: { gdpr: 2 },
      device: { devicetyp: 2, ua: 'Mozilla/5.0' },
      tmax: 250.5,
    });
    expect(answer.valid).toBe(false);
    expect(at('/imp/0/banner/format/1/w', 'json_builder.error.type').line).toBe('"w": "728",');
    expect(at('/imp/1/id', 'json_builder.error.required').line).toBe('{');
    expect(at('/imp/1/id').issue.params).toMatchObject({ field: 'id', path: '/imp/1/id' });
    expect(at('/regs/gdpr', 'json_builder.error.enum').line).toBe('"gdpr": 2');
    expect(at('/tmax', 'json_builder.error.type').line).toBe('"tmax": 250.5');
    const unknown = at('/device/devicetyp', 'json_builder.error.undefined_field');
    expect(unknown.issue.severity).toBe('warning');
    expect(unknown.line).toBe('"devicetyp": 2,');
    // A request without imp: the missing field is reported on the object that lacks it.
    const bare = await check('openrtb-2.6/BidRequest', { id: 'x' });
    expect(bare.at('/imp', 'json_builder.error.required').issue.line).toBe(1);
  });

  it('Imp: errors at their path and line', async () => {
    const { at } = await check('openrtb-2.6/Imp', { id: 7, video: { w: 640, h: 360, protocols: [2, 'x'] }, bidfloor: -1, secure: 1, ext: { anything: { goes: true } } });
    expect(at('/id', 'json_builder.error.type').line).toBe('"id": 7,');
    expect(at('/video/mimes', 'json_builder.error.required').line).toBe('"video": {');
    expect(at('/video/protocols/1', 'json_builder.error.type').line).toBe('"x"');
    expect(at('/bidfloor', 'json_builder.error.minimum').issue.params).toMatchObject({ limit: 0 });
    expect(at('/bidfloor').line).toBe('"bidfloor": -1,');
  });

  it('Pmp: errors at their path and line', async () => {
    const { at } = await check('openrtb-2.6/Pmp', { private_auction: 3, deals: [{ id: 'NMB-1', bidfloor: '2.5' }, { bidfloor: 1 }] });
    expect(at('/private_auction', 'json_builder.error.enum').line).toBe('"private_auction": 3,');
    expect(at('/deals/0/bidfloor', 'json_builder.error.type').line).toBe('"bidfloor": "2.5"');
    expect(at('/deals/1/id', 'json_builder.error.required').line).toBe('{');
  });

  it('partner configuration: errors at their path and line; unknown fields are errors', async () => {
    const { at, answer } = await check('backoffice/partner-config', {
      name: 'Helios DSP',
      type: 'DSP',
      endpoint_url: 'ftp://rtb.helios.example',
      openrtb_version: '2.6',
      timeout_ms: 20,
      media_types: [],
      environments: ['site'],
      default_floor: 0.45,
      qps: 100,
    });
    expect(at('/endpoint_url', 'json_builder.error.pattern').line).toBe('"endpoint_url": "ftp://rtb.helios.example",');
    expect(at('/timeout_ms', 'json_builder.error.minimum').line).toBe('"timeout_ms": 20,');
    expect(at('/media_types', 'json_builder.error.minItems').line).toBe('"media_types": [],');
    expect(at('/default_floor', 'json_builder.error.type').line).toBe('"default_floor": 0.45,');
    const extra = at('/qps', 'json_builder.error.additionalProperties');
    expect(extra.issue.severity).toBe('error');
    expect(extra.line).toBe('"qps": 100');
    expect(answer.issues.every((i: BuilderIssue) => i.source === 'schema')).toBe(true);
  });

  it('ad unit configuration: errors at their path and line', async () => {
    const { at } = await check('backoffice/ad-unit-config', {
      name: 'dl_home_top',
      site: 'diariolevante.es',
      environment: 'web',
      media_type: 'banner',
      sizes: ['970x250', '301x250'],
      floor: { cpm: 0.85, currency: 'EUR' },
      refresh: { enabled: true, interval_s: 10 },
    });
    expect(at('/sizes/1', 'json_builder.error.enum').line).toBe('"301x250"');
    expect(at('/floor/cpm', 'json_builder.error.type').line).toBe('"cpm": 0.85,');
    expect(at('/refresh/interval_s', 'json_builder.error.minimum').line).toBe('"interval_s": 10');
  });

  it('places errors on the lines of code typed in its own layout', async () => {
    const code = '{ "id": "1", "banner": { "format": [ { "w": 300, "h": 250 } ] },\n  "secure": 5,\n\n  "bidfloor": "high" }';
    const { status, answer } = await render({ code });
    expect(status).toBe(200);
    expect(answer.config).toMatchObject({ schema: 'openrtb-2.6/Imp' });
    const secure = answer.issues.find((i) => i.path === '/secure')!;
    expect(secure).toMatchObject({ line: 2, column: 3, key: 'json_builder.error.enum' });
    expect(answer.issues.find((i) => i.path === '/bidfloor')).toMatchObject({ line: 4, column: 3, key: 'json_builder.error.type' });
  });

  it('checks typed code against the schema the screen has chosen, not one guessed from the code', async () => {
    // A Pmp typed while the schema chosen is the partner configuration: it is checked as that (the
    // partner's required fields are missing), and the answer keeps the schema.
    const code = '{ "private_auction": 1, "deals": [ { "id": "NMB-1" } ] }';
    const guessed = await render({ code });
    expect(guessed.answer.config).toMatchObject({ schema: 'openrtb-2.6/Pmp' });
    expect(guessed.answer.valid).toBe(true);
    const chosen = await render({ code, config: { schema: 'backoffice/partner-config', document: {} } });
    expect(chosen.status).toBe(200);
    expect(chosen.answer.config).toMatchObject({ schema: 'backoffice/partner-config' });
    expect(chosen.answer.valid).toBe(false);
    expect(chosen.answer.issues.some((i) => i.source === 'schema')).toBe(true);
  });

  it('reports a syntax error with its line and column, and no output', async () => {
    const { status, answer } = await render({ code: '{\n  "id": "1",\n  "tagid": "home"\n  "secure": 1\n}' });
    expect(status).toBe(200);
    expect(answer.output).toBeNull();
    expect(answer.valid).toBe(false);
    expect(answer.issues).toEqual([expect.objectContaining({ source: 'syntax', key: 'json_builder.syntax.comma_expected', line: 4, column: 3 })]);
    const trailing = await render({ code: '{"id": "1",}' });
    expect(trailing.answer.issues[0]).toMatchObject({ key: 'json_builder.syntax.property_name_expected', line: 1, column: 12 });
  });

  it('refuses bad input with the field named', async () => {
    const unknownSchema = await render({ config: { schema: 'openrtb-2.5/Imp', document: {} } });
    expect(unknownSchema.status).toBe(400);
    expect(unknownSchema.raw.errors).toHaveProperty(['config.schema']);
    const noDocument = await render({ config: { schema: 'openrtb-2.6/Imp' } });
    expect(noDocument.status).toBe(400);
    expect(noDocument.raw.errors).toHaveProperty(['config.document']);
    expect((await render({ code: 42 })).status).toBe(400);
    expect((await render({ code: '{}', extra: 1 })).status).toBe(400);
  });

  it('lets a reader check documents, and no one without the builders’ permission', async () => {
    expect((await render({ config: { schema: 'openrtb-2.6/Pmp', document: {} } }, reader)).status).toBe(200);
    expect((await render({ config: { schema: 'openrtb-2.6/Pmp', document: {} } }, outsider)).status).toBe(403);
    const save = await t.app.inject({
      method: 'POST',
      url: '/v1/builders/json/versions',
      headers: reader,
      payload: { subject_type: 'none', subject_id: null, name: 'Pmp', config: { schema: 'openrtb-2.6/Pmp', document: {} } },
    });
    expect(save.statusCode).toBe(403);
  });

  it('saves a checked document as a version (write permission), and refuses one with schema errors', async () => {
    const ok = await t.app.inject({
      method: 'POST',
      url: '/v1/builders/json/versions',
      headers: tech,
      payload: { subject_type: 'none', subject_id: null, name: 'Video imp', config: { schema: 'openrtb-2.6/Imp', document: { id: '1', video: { mimes: ['video/mp4'] } } } },
    });
    expect(ok.statusCode).toBe(200);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/builders/json/versions',
      headers: tech,
      payload: { subject_type: 'none', subject_id: null, name: 'Broken imp', config: { schema: 'openrtb-2.6/Imp', document: { video: {} } } },
    });
    expect(bad.statusCode).toBe(400);
  });
});
