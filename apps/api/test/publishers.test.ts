/**
 * Publishers on the resource layer and the public sellers.json: a publisher's sellers.json entry
 * follows IAB sellers.json 1.0 (checked against a JSON Schema of the IAB fields, not against our
 * builder), the seller id is unique, a publisher that is not confidential needs its domain, a
 * confidential one is listed without name and domain, an archived one is not listed; the file is
 * public, cached with an ETag (304 on If-None-Match) and gzip, and changes when a publisher does.
 * Also the publisher's ads.txt lines, which parse back as ads.txt 1.1.
 */
import { parseAdsTxt } from '@backoffice/core/standards/ads-txt';
import Ajv from 'ajv';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import schema from '../../../packages/core/src/standards/sellers-json.schema.json' with { type: 'json' };
import { sites } from '../src/db/schema-reports.ts';
import { dbOf, userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

interface Publisher {
  id: number;
  name: string;
  seller_id: string;
  version: number;
}
interface SellersJson {
  version: string;
  contact_email: string;
  sellers: { seller_id: string; name?: string; domain?: string; seller_type: string; is_confidential: number }[];
}

describe('publishers and sellers.json', () => {
  let t: TestApp;
  let head: Record<string, string>;
  let reader: Record<string, string>;
  const validate = new Ajv({ allErrors: true }).compile(schema);
  beforeAll(async () => {
    t = await createTestApp();
    head = (await signIn(t.app, 'admin@adtech.example')).headers;
    reader = (await userWithAcl(t.app, 'pub.reader@adtech.example', { '/v1/partners/publishers': ['read'] })).headers;
  });
  afterAll(async () => t?.close());

  const valid = (over: Record<string, unknown> = {}) => ({
    name: 'Diario Levante Digital',
    side: 'ssp',
    company_id: null,
    manager: 'Marco Bianchi',
    status: 'live',
    revenue_share_pct: '70',
    payment_terms: 'net60',
    min_payout: '100',
    currency: 'EUR',
    billing_email: 'pagos@diariolevante.example',
    seller_id: 'pub-levante-01',
    seller_type: 'PUBLISHER',
    seller_domain: 'DiarioLevante.example',
    is_confidential: false,
    ...over,
  });
  const create = (payload: object, headers = head) => t.app.inject({ method: 'POST', url: '/v1/partners/publishers', payload, headers });
  const sellers = async () => {
    const res = await t.app.inject({ url: '/sellers.json' });
    expect(res.statusCode).toBe(200);
    return { res, doc: res.json() as SellersJson };
  };

  it('checks the sellers.json entry with the shared schema: unique seller id, a domain unless confidential', async () => {
    const first = await create(valid());
    expect(first.statusCode).toBe(201);
    expect(body<Publisher & { seller_domain: string }>(first).data.seller_domain).toBe('diariolevante.example');
    const again = await create(valid({ name: 'Otro' }));
    expect(again.statusCode).toBe(400);
    expect(body(again).errors).toEqual({ seller_id: 'publisher.seller_id_taken' });
    const noDomain = await create(valid({ seller_id: 'pub-x', seller_domain: '' }));
    expect(body(noDomain).errors).toEqual({ seller_domain: 'publisher.domain_required' });
    const badId = await create(valid({ seller_id: 'pub, 1#' }));
    expect(body(badId).errors).toEqual({ seller_id: 'publisher.seller_id_invalid' });
    expect((await create(valid({ seller_id: 'pub-y' }), reader)).statusCode).toBe(403);
  });

  it('serves a public sellers.json valid against the IAB fields, confidential sellers without name and domain, archived ones left out', async () => {
    const conf = body<Publisher>(await create(valid({ name: 'Grupo Confidencial', seller_id: 'pub-conf-02', is_confidential: true, seller_domain: null }))).data;
    const inter = body<Publisher>(await create(valid({ name: 'Reseller Hub', seller_id: 'pub-inter-03', seller_type: 'INTERMEDIARY', seller_domain: null }))).data;
    const gone = body<Publisher>(await create(valid({ name: 'Old Blog', seller_id: 'pub-old-04', status: 'archived', seller_domain: 'oldblog.example' }))).data;

    const { res, doc } = await sellers();
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.version).toBe('1.0');
    expect(doc.contact_email).toMatch(/^adops@/);
    const byId = new Map(doc.sellers.map((s) => [s.seller_id, s]));
    expect(byId.get('pub-levante-01')).toEqual({ seller_id: 'pub-levante-01', name: 'Diario Levante Digital', domain: 'diariolevante.example', seller_type: 'PUBLISHER', is_confidential: 0 });
    expect(byId.get(conf.seller_id)).toEqual({ seller_id: 'pub-conf-02', seller_type: 'PUBLISHER', is_confidential: 1 });
    expect(byId.get(inter.seller_id)).toMatchObject({ name: 'Reseller Hub', seller_type: 'INTERMEDIARY' });
    expect(byId.has(gone.seller_id)).toBe(false);
    expect(new Set(doc.sellers.map((s) => s.seller_id)).size).toBe(doc.sellers.length);
  });

  it('answers 304 to its ETag, gzip when asked, and a new ETag once a publisher changes', async () => {
    const { res } = await sellers();
    const etag = res.headers.etag as string;
    expect(etag).toBeTruthy();
    expect((await t.app.inject({ url: '/sellers.json', headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    const zipped = await t.app.inject({ url: '/sellers.json', headers: { 'accept-encoding': 'gzip, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'))).toEqual(res.json());

    const list = body<{ items: Publisher[] }>(await t.app.inject({ url: '/v1/partners/publishers?f[name]=Diario Levante', headers: head })).data.items;
    const pub = list[0]!;
    const put = await t.app.inject({ method: 'PUT', url: `/v1/partners/publishers/${pub.id}`, headers: head, payload: { ...valid({ name: 'Diario Levante' }), version: pub.version } });
    expect(put.statusCode).toBe(200);
    const after = await sellers();
    expect(after.res.headers.etag).not.toBe(etag);
    expect(after.doc.sellers.find((s) => s.seller_id === 'pub-levante-01')?.name).toBe('Diario Levante');
  });

  it("gives a publisher's ads.txt lines, which read back as ads.txt 1.1", async () => {
    const pub = body<Publisher>(await create(valid({ name: 'Radio Norte', seller_id: 'pub-norte-05', seller_domain: 'radionorte.example' }))).data;
    const res = await t.app.inject({ url: `/v1/partners/publishers/${pub.id}/ads-txt`, headers: reader });
    expect(res.statusCode).toBe(200);
    const { lines, in_sellers_json } = body<{ lines: string[]; in_sellers_json: boolean }>(res).data;
    expect(in_sellers_json).toBe(true);
    const parsed = parseAdsTxt(lines.join('\n'));
    expect(parsed.errors).toEqual([]);
    expect(parsed.records).toEqual([expect.objectContaining({ accountId: 'pub-norte-05', relationship: 'DIRECT', domain: 'adtech.example' })]);
  });

  it("checks each property's ads.txt or app-ads.txt through the fetcher: verified, missing line, unreachable", async () => {
    const pub = body<Publisher>(await create(valid({ name: 'Grupo Meseta', seller_id: 'pub-meseta-06', seller_domain: 'grupomeseta.example' }))).data;
    const db = dbOf(t.app);
    const added = await db
      .insert(sites)
      .values([
        { publisherId: pub.id, name: 'mesetadiario.example', environmentId: 1 },
        { publisherId: pub.id, name: 'mesetadeportes.example', environmentId: 1 },
        { publisherId: pub.id, name: 'com.meseta.news', environmentId: 2 },
        { publisherId: pub.id, name: 'mesetaoffline.example', environmentId: 1 },
      ])
      .returning({ id: sites.id, name: sites.name });
    const files: Record<string, { status: number; body: string } | Error> = {
      // Real-world shape: a byte order mark, comments, other exchanges, our line in another case.
      'https://mesetadiario.example/ads.txt': { status: 200, body: '\uFEFF# ads.txt for mesetadiario\r\ngoogle.com, pub-123, DIRECT, f08c47fec0942fa0\r\nADTECH.example, pub-meseta-06, direct # us\r\nthis line is broken\r\n' },
      'https://mesetadeportes.example/ads.txt': { status: 200, body: 'google.com, pub-123, DIRECT\nadtech.example, pub-someone-else, DIRECT\n' },
      // An app's file is app-ads.txt on the publisher's domain.
      'https://grupomeseta.example/app-ads.txt': { status: 200, body: 'adtech.example, pub-meseta-06, DIRECT\n' },
      'https://mesetaoffline.example/ads.txt': new Error('connect ECONNREFUSED'),
    };
    const asked: string[] = [];
    t.app.ctx.adsTxtFetcher = async (url) => {
      asked.push(url);
      const f = files[url];
      if (f instanceof Error) throw f;
      return f ?? { status: 404, body: 'Not found' };
    };
    const res = await t.app.inject({ method: 'POST', url: `/v1/partners/publishers/${pub.id}/actions/check-ads-txt`, headers: head });
    expect(res.statusCode).toBe(200);
    const { result, properties } = body<{ result: Record<string, number>; properties: { name: string; ads_txt_status: string; ads_txt_checked_at: string | null; ads_txt_detail: { malformed?: unknown[]; error?: string } }[] }>(res).data;
    expect(result).toEqual({ checked: 4, verified: 2, missing_line: 1, unreachable: 1 });
    expect(asked.sort()).toEqual(Object.keys(files).sort());
    const status = Object.fromEntries(properties.map((p) => [p.name, p.ads_txt_status]));
    expect(status).toEqual({ 'mesetadiario.example': 'verified', 'mesetadeportes.example': 'missing_line', 'com.meseta.news': 'verified', 'mesetaoffline.example': 'unreachable' });
    const diario = properties.find((p) => p.name === 'mesetadiario.example')!;
    expect(diario.ads_txt_detail.malformed).toEqual([{ line: 4, reason: 'too_few_fields' }]);
    expect(Date.now() - Date.parse(diario.ads_txt_checked_at!)).toBeLessThan(60_000);
    expect(properties.find((p) => p.name === 'mesetaoffline.example')!.ads_txt_detail.error).toMatch(/ECONNREFUSED/);
    expect(added).toHaveLength(4);
    // Reading is for anyone who reads publishers; checking changes their state.
    expect((await t.app.inject({ method: 'POST', url: `/v1/partners/publishers/${pub.id}/actions/check-ads-txt`, headers: reader })).statusCode).toBe(403);
    expect(body<unknown[]>(await t.app.inject({ url: `/v1/partners/publishers/${pub.id}/properties`, headers: reader })).data).toHaveLength(4);
  });
});
