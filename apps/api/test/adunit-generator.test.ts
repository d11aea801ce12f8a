/**
 * The ad unit generator through the HTTP API (decision 039): every example renders to code whose
 * adUnits array passes the JSON Schema of Prebid's documented ad unit shape (checked here apart
 * from the API's own check, with the schema file and Ajv) and whose bidders carry the parameters
 * their adapters require; each rule refused at its field and line; pasted code read back (its
 * lines, Prebid's shape problems at the typed lines); the start from one of our ad units with its
 * floor (only for who may read floors); bad input; the ACL.
 */
import { adunitBuilder, readAdUnitsArray, type AdUnitFacts, type AdUnitGenConfig } from '@backoffice/core/builders/adunit';
import type { BuilderRenderAnswer } from '@backoffice/core/builders/common';
import { PREBID_ADUNITS_SCHEMA } from '@backoffice/core/standards/prebid/adunits-schema';
import Ajv from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { query } from '../src/reports-data/sql.ts';
import { userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

const RENDER = '/v1/builders/adunit/render';
const { $schema: _, ...schema } = PREBID_ADUNITS_SCHEMA;
const validatePrebid = new Ajv({ allErrors: true }).compile(schema);
const example = (i: number): AdUnitGenConfig => structuredClone(adunitBuilder.examples()[i]!.config);

describe('ad unit generator API', () => {
  let t: TestApp;
  let tech: Record<string, string>;
  let builderOnly: Record<string, string>;
  let withFloors: Record<string, string>;
  let outsider: Record<string, string>;
  let unitId = 0;
  const db = () => t.app.ctx.database;

  beforeAll(async () => {
    t = await createTestApp();
    tech = (await signIn(t.app, 'tech@adtech.example')).headers;
    builderOnly = (await userWithAcl(t.app, 'adunit.builder@adtech.example', { '/v1/builders': ['read'] })).headers;
    withFloors = (await userWithAcl(t.app, 'adunit.floors@adtech.example', { '/v1/builders': ['read'], '/v1/floors': ['read'] })).headers;
    outsider = (await userWithAcl(t.app, 'adunit.outsider@adtech.example', { '/v1/impressions-log': ['read'] })).headers;
    const [pub] = await query<{ id: number }>(db(), `INSERT INTO publishers (name, side, seller_id) VALUES ('Diario Levante Digital', 'ssp', 'pub-adunit-1') RETURNING id`);
    const [site] = await query<{ id: number }>(db(), `INSERT INTO sites (publisher_id, name, environment_id) VALUES ($1, 'www.diariolevante.example', 1) RETURNING id`, [pub!.id]);
    const [unit] = await query<{ id: number }>(db(), `INSERT INTO ad_units (site_id, name, format_id, size_id) VALUES ($1, 'dl_home_halfpage', 1, 4) RETURNING id`, [site!.id]);
    unitId = unit!.id;
    // A floor rule for that unit, through the floors API (a new version of the rule set).
    const floorsLead = (await userWithAcl(t.app, 'adunit.floorslead@adtech.example', { '/v1/floors': ['read', 'write'] })).headers;
    const rule = await t.app.inject({
      method: 'POST',
      url: '/v1/floors/rules',
      headers: floorsLead,
      payload: { keys: { publisher: String(pub!.id), ad_unit: 'dl_home_halfpage' }, cpm: '1.2500', currency: 'USD', type: 'hard' },
    });
    expect(rule.statusCode, rule.body).toBe(201);
  });

  const render = async (payload: unknown, headers = tech) => {
    const res = await t.app.inject({ method: 'POST', url: RENDER, headers, payload: payload as object });
    return { status: res.statusCode, answer: body<BuilderRenderAnswer>(res).data, raw: body(res) };
  };

  it('renders every example to Prebid’s documented shape, valid', async () => {
    for (const e of adunitBuilder.examples()) {
      const { status, answer } = await render({ config: e.config });
      expect(status).toBe(200);
      expect(answer.issues, e.name).toEqual([]);
      expect(answer.valid).toBe(true);
      expect(answer.output!.language).toBe('javascript');
      const units = readAdUnitsArray(answer.output!.code).value as { code: string; bids: { bidder: string; params: Record<string, unknown> }[] }[];
      expect(validatePrebid(units), JSON.stringify(validatePrebid.errors)).toBe(true);
      expect(units[0]!.code).toBe(e.config.code);
      expect(units[0]!.bids.length).toBeGreaterThanOrEqual(2);
      expect(answer.output!.code).toContain('pbjs.que.push(function () {');
      expect(answer.output!.code).toContain('pbjs.addAdUnits(adUnits);');
    }
  });

  it('refuses each rule at its field, on its line, and Prebid’s shape check agrees', async () => {
    const c = example(0);
    c.code = '';
    c.mediaTypes.banner!.sizes = [[300, 250], [300, -600]];
    c.bids = [{ bidder: 'rubicon', params: { accountId: 14062, siteId: 70608 } }, { bidder: 'ix', params: { siteId: 715964 } }];
    const { status, answer } = await render({ config: c });
    expect(status).toBe(200);
    expect(answer.valid).toBe(false);
    const lines = answer.output!.code.split('\n');
    const rule = (path: string, key: string) => {
      const i = answer.output!.issues.find((x) => x.path === path && x.key === key);
      expect(i, `${path} ${key}`).toBeDefined();
      return lines[i!.line! - 1]!.trim();
    };
    expect(rule('code', 'adunit.code.required')).toBe('"code": "",');
    expect(rule('mediaTypes.banner.sizes.1', 'adunit.size.invalid')).toBe('[');
    expect(rule('bids.0.params.zoneId', 'adunit.param.required')).toBe('"params": {');
    expect(rule('bids.1.params.siteId', 'adunit.param.type_string')).toBe('"siteId": 715964');
    // The standard's check (source schema) finds the empty code and the negative size too, at the same lines.
    const standard = answer.issues.filter((i) => i.source === 'schema');
    expect(standard.find((i) => i.path === 'code')).toMatchObject({ key: 'json_builder.error.minLength' });
    expect(lines[standard.find((i) => i.path === 'mediaTypes.banner.sizes.1.1')!.line! - 1]!.trim()).toBe('-600');
  });

  it('requires a player size for outstream video, and a media type', async () => {
    const video = example(1);
    delete video.mediaTypes.video!.playerSize;
    const { answer } = await render({ config: video });
    expect(answer.issues).toEqual([expect.objectContaining({ path: 'mediaTypes.video.playerSize', key: 'adunit.video.player_size_required', severity: 'error' })]);
    const none = await render({ config: { ...example(0), mediaTypes: {} } });
    expect(none.answer.issues.map((i) => [i.source, i.path, i.key])).toEqual([
      ['rules', 'mediaTypes', 'adunit.media_types.required'],
      ['schema', 'mediaTypes', 'json_builder.error.minProperties'],
    ]);
  });

  it('reads pasted code back: the configuration, and problems at the typed lines', async () => {
    const pasted = [
      'var adUnits = [{',
      '  "code": "div-sidebar",',
      '  "mediaTypes": { "banner": { "sizes": [300, 600] } },',
      '  "bids": [',
      '    { "bidder": "pubmatic", "params": { "adSlot": "sidebar@300x600" } }',
      '  ]',
      '}];',
    ].join('\n');
    const { status, answer } = await render({ code: pasted });
    expect(status).toBe(200);
    expect((answer.config as AdUnitGenConfig).mediaTypes.banner!.sizes).toEqual([[300, 600]]);
    expect(answer.issues).toEqual([expect.objectContaining({ path: 'bids.0.params.publisherId', key: 'adunit.param.required', line: 5, column: 29 })]);
    const js = await render({ code: "var adUnits = [{ code: 'div-1' }];" });
    expect(js.answer.output).toBeNull();
    expect(js.answer.issues).toEqual([expect.objectContaining({ source: 'syntax', line: 1, column: 18 })]);
  });

  it('starts from one of our ad units, with its floor only for who may read floors', async () => {
    const get = (headers: Record<string, string>, id = unitId) => t.app.inject({ method: 'GET', url: `/v1/builders/adunit/ad-units/${id}`, headers });
    const withFloor = body<AdUnitFacts>(await get(withFloors)).data;
    expect(withFloor).toMatchObject({ id: unitId, name: 'dl_home_halfpage', site: 'www.diariolevante.example', media_type: 'banner', size: '300x600' });
    expect(withFloor.floor).toEqual({ cpm: '1.25', currency: 'USD', type: 'hard' });
    expect(body<AdUnitFacts>(await get(builderOnly)).data.floor).toBeNull();
    expect((await get(withFloors, 999_999)).statusCode).toBe(404);
    expect((await get(outsider)).statusCode).toBe(403);
  });

  it('refuses a configuration of the wrong shape with the field named', async () => {
    const wrong = await render({ config: { ...example(0), mediaTypes: { banner: { sizes: [[300, '250']] } } } });
    expect(wrong.status).toBe(400);
    expect(wrong.raw.errors).toHaveProperty(['config.mediaTypes.banner.sizes.0.1']);
    const extra = await render({ config: { ...example(0), labelAny: ['desktop'] } });
    expect(extra.status).toBe(400);
    expect(extra.raw.errors).toHaveProperty(['config.labelAny'], 'error.unknown_field');
  });

  it('lets a reader render, and no one without the builders’ permission', async () => {
    expect((await render({ config: example(2) }, builderOnly)).status).toBe(200);
    expect((await render({ config: example(2) }, outsider)).status).toBe(403);
  });
});
