/**
 * The Prebid.js floors export through the HTTP API (docs/decisions/020-prebid-floors-export.md):
 * the bare Prebid object of a publisher (what core prebidFloorExport makes of the version's rules),
 * its download, the enveloped report, currency and version choices, 404 for an unknown publisher or
 * version, bad input, and the ACL. Rules are written with SQL, as versions of the rule set.
 * (Whether Prebid reads the object as we do is checked in packages/core/src/floors-prebid.test.ts
 * with Prebid's own code.)
 */
import { floorKeys, ruleKeyString, ruleSpecificity, type FloorKey, type FloorRule } from '@backoffice/core/floors';
import { prebidFloorExport } from '@backoffice/core/floors-prebid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishers } from '../src/db/schema-reports.ts';
import { query } from '../src/reports-data/sql.ts';
import { expectErrorEnvelope } from './auth-support.ts';
import { dbOf, userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, type TestApp } from './helpers.ts';

interface Report {
  publisher: { id: number; name: string };
  report: ReturnType<typeof prebidFloorExport>['report'];
  preview: string;
  preview_lines: number;
  lines: number;
  path: string;
}

describe('floors: the Prebid.js export', () => {
  let t: TestApp;
  let reader: Record<string, string>;
  let outsider: Record<string, string>;
  let pub: number;
  let other: number;
  let v1: number;
  let v2: number;
  let rulesV1: FloorRule[];
  let rulesV2: FloorRule[];

  const run = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => query<T>(t.app.ctx.database, text, params);

  async function newVersion(): Promise<number> {
    const [row] = await run<{ id: number }>("INSERT INTO floor_versions (source, comment) VALUES ('edit', 't') RETURNING id");
    return Number(row!.id);
  }

  async function addRule(version: number, keys: Partial<Record<FloorKey, string>>, cpm: string, currency = 'USD', type: 'hard' | 'soft' = 'hard'): Promise<FloorRule> {
    const k = floorKeys(keys);
    const [row] = await run<{ id: number }>(
      `INSERT INTO floor_rules (publisher, site, ad_unit, country, device, media_type, size, demand_partner, deal, key_string, specificity, cpm, currency, type, from_version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
      [k.publisher, k.site, k.ad_unit, k.country, k.device, k.media_type, k.size, k.demand_partner, k.deal, ruleKeyString(k), ruleSpecificity(k), cpm, currency, type, version],
    );
    return { id: Number(row!.id), keys: k, cpm, currency, type };
  }

  beforeAll(async () => {
    t = await createTestApp();
    const db = dbOf(t.app);
    reader = (await userWithAcl(t.app, 'prebid.reader@adtech.example', { '/v1/floors': ['read'] })).headers;
    outsider = (await userWithAcl(t.app, 'prebid.outsider@adtech.example', { '/v1/deals': ['read'] })).headers;
    const [p] = await db.insert(publishers).values({ name: 'Prebid Test Media', sellerId: 'prebid-test-1' }).returning({ id: publishers.id });
    const [q] = await db.insert(publishers).values({ name: 'Prebid Other Media', sellerId: 'prebid-test-2' }).returning({ id: publishers.id });
    pub = p!.id;
    other = q!.id;
    const P = String(pub);
    v1 = await newVersion();
    rulesV1 = [
      await addRule(v1, {}, '0.1'),
      await addRule(v1, { site: 'news.example' }, '0.8'),
      await addRule(v1, { publisher: P, size: '300x250' }, '1.25'),
      await addRule(v1, { publisher: P, media_type: 'video' }, '4.0000', 'USD', 'soft'),
      await addRule(v1, { publisher: P, size: '728x90' }, '2', 'EUR'),
      await addRule(v1, { publisher: P, country: 'ES' }, '0.2'),
      await addRule(v1, { publisher: String(other), site: 'other.example' }, '9'),
    ];
    // Version 2 changes the catch-all (the old row ends, a new one starts).
    v2 = await newVersion();
    await run('UPDATE floor_rules SET to_version = $1 WHERE id = $2', [v2, rulesV1[0]!.id]);
    rulesV2 = [await addRule(v2, {}, '0.15'), ...rulesV1.slice(1)];
  });
  afterAll(async () => t?.close());

  // Stored CPMs come back as numeric text without trailing zeros (store.ts trimAmount).
  const asStored = (rules: FloorRule[]) => rules.map((r) => ({ ...r, cpm: r.cpm.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '') }));

  it('answers the bare Prebid object of the current version, as core makes it', async () => {
    const res = await t.app.inject({ url: `/v1/floors/prebid/${pub}`, headers: reader });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBeUndefined();
    const data = res.json();
    expect(data).not.toHaveProperty('status');
    expect(data).toEqual(prebidFloorExport(asStored(rulesV2), { publisher: String(pub), version: v2 }).data);
    expect(data).toMatchObject({ currency: 'USD', modelVersion: `backoffice-v${v2}`, schema: { fields: ['domain', 'mediaType', 'size'], delimiter: '|' }, default: 0.15 });
    // Publisher and size (2 keys) beat the site (1) on news.example: the join carries it.
    expect(data.values['news.example|*|300x250']).toBe(1.25);
    expect(data.values['news.example|*|*']).toBe(0.8);
    // Soft: no floor in Prebid; EUR in a USD file: no floor either.
    expect(data.values['*|video|*']).toBe(0);
    expect(data.values['*|*|728x90']).toBe(0);
    // Another publisher's rule is not there.
    expect(JSON.stringify(data)).not.toContain('other.example');
  });

  it('downloads the same object as a named file', async () => {
    const res = await t.app.inject({ url: `/v1/floors/prebid/${pub}?download=1&timezone=Europe/Madrid`, headers: reader });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="prebid-floors_${pub}_\\d{4}-\\d{2}-\\d{2}_\\d{6}\\.json"$`));
    const plain = await t.app.inject({ url: `/v1/floors/prebid/${pub}`, headers: reader });
    expect(res.json()).toEqual(plain.json());
  });

  it('reports what the file holds and what it leaves out, with its first lines', async () => {
    const res = await t.app.inject({ url: `/v1/floors/prebid/${pub}/report`, headers: reader });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = body<Report>(res);
    expect(data.publisher).toEqual({ id: pub, name: 'Prebid Test Media' });
    expect(data.report).toMatchObject({ publisher: String(pub), version: v2, currency: 'USD', included: 5, truncated: false, empty: false });
    expect(data.report.serverOnly).toMatchObject({ count: 1, examples: [{ cpm: '0.2', keys: { country: 'ES' } }] });
    // video|* and news.example|video|* (publisher and video beat the site): soft, so 0.
    expect(data.report.softAsZero.count).toBe(2);
    // *|*|728x90 and news.example|*|728x90 (publisher and size beat the site): EUR in a USD file, so 0.
    expect(data.report.otherCurrency.count).toBe(2);
    expect(data.report.currencies).toEqual([
      { currency: 'USD', rules: 4 },
      { currency: 'EUR', rules: 1 },
    ]);
    expect(data.preview.startsWith('{\n  "currency": "USD"')).toBe(true);
    expect(data.preview_lines).toBeLessThanOrEqual(data.lines);
    expect(data.path).toBe(`/v1/floors/prebid/${pub}`);
  });

  it('takes another currency and a past version', async () => {
    const eur = (await t.app.inject({ url: `/v1/floors/prebid/${pub}?currency=eur`, headers: reader })).json();
    // In EUR only the 728x90 rule is a floor; every other key is 0 as the catch-all, and left out,
    // but video|728x90 (video comes before size: the soft rule wins there).
    expect(eur).toEqual({
      currency: 'EUR',
      schema: { fields: ['mediaType', 'size'], delimiter: '|' },
      values: { 'video|728x90': 0, '*|728x90': 2, '*|*': 0 },
      default: 0,
      modelVersion: `backoffice-v${v2}`,
    });
    const old = await t.app.inject({ url: `/v1/floors/prebid/${pub}?version=${v1}`, headers: reader });
    expect(old.statusCode, old.body).toBe(200);
    expect(old.json()).toEqual(prebidFloorExport(asStored(rulesV1), { publisher: String(pub), version: v1 }).data);
    expect(old.json()).toMatchObject({ modelVersion: `backoffice-v${v1}`, default: 0.1 });
    const report = body<Report>(await t.app.inject({ url: `/v1/floors/prebid/${pub}/report?version=${v1}&currency=EUR`, headers: reader })).data;
    expect(report.path).toBe(`/v1/floors/prebid/${pub}?currency=EUR&version=${v1}`);
    expectErrorEnvelope(await t.app.inject({ url: `/v1/floors/prebid/${pub}?version=${v2 + 50}`, headers: reader }), 404, 'floors.error.version_unknown');
  });

  it('answers an empty file for a publisher no rule is for but the server-only ones', async () => {
    const res = await t.app.inject({ url: `/v1/floors/prebid/${other}/report`, headers: reader });
    const { report } = body<Report>(res).data;
    // The catch-all and the site rule (publisher `*`) apply to every publisher.
    expect(report.included).toBe(3);
    expect(report.serverOnly.count).toBe(0);
  });

  it('refuses an unknown publisher, bad input, no token and a user without floors', async () => {
    expectErrorEnvelope(await t.app.inject({ url: '/v1/floors/prebid/99999999', headers: reader }), 404, 'floors.prebid.publisher_unknown');
    expectErrorEnvelope(await t.app.inject({ url: '/v1/floors/prebid/99999999/report', headers: reader }), 404, 'floors.prebid.publisher_unknown');
    expectErrorEnvelope(await t.app.inject({ url: '/v1/floors/prebid/abc', headers: reader }), 400, 'error.validation');
    expectErrorEnvelope(await t.app.inject({ url: `/v1/floors/prebid/${pub}?currency=EURO`, headers: reader }), 400, 'error.validation', { currency: 'error.invalid_value' });
    expectErrorEnvelope(await t.app.inject({ url: `/v1/floors/prebid/${pub}?download=yes`, headers: reader }), 400, 'error.validation');
    expectErrorEnvelope(await t.app.inject({ url: `/v1/floors/prebid/${pub}?timezone=Mars/Base`, headers: reader }), 400, 'error.validation');
    expectErrorEnvelope(await t.app.inject({ url: `/v1/floors/prebid/${pub}?other=1`, headers: reader }), 400, 'error.validation');
    expectErrorEnvelope(await t.app.inject({ url: `/v1/floors/prebid/${pub}` }), 401, 'auth.token_missing');
    expectErrorEnvelope(await t.app.inject({ url: `/v1/floors/prebid/${pub}`, headers: outsider }), 403, 'auth.forbidden');
    expectErrorEnvelope(await t.app.inject({ url: `/v1/floors/prebid/${pub}/report`, headers: outsider }), 403, 'auth.forbidden');
  });
});
