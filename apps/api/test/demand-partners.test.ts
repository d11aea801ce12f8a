/**
 * Demand partners on the resource layer: registration refuses a network already registered (the
 * same name in any case, the same endpoint URL however it is typed), the shared schema's rules
 * (timeout, floor, geo lists), read-only roles, no delete (archived instead), filters by side, and
 * a QPS cap change that shows in the partner's history and on the QPS graph as an annotation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

interface Partner {
  id: number;
  name: string;
  side: string;
  endpoint_url: string;
  qps_cap: number;
  default_floor: string;
  version: number;
  company_id_label?: string;
}
interface PageOf<T> {
  items: T[];
  total: number;
}

describe('demand partners (resource layer)', () => {
  let t: TestApp;
  let lead: Record<string, string>;
  let reader: Record<string, string>;
  let companyId: number;
  beforeAll(async () => {
    t = await createTestApp();
    lead = (await signIn(t.app, 'demand.lead@adtech.example')).headers;
    reader = (await userWithAcl(t.app, 'dp.reader@adtech.example', { '/v1/partners/demand': ['read'], '/v1/companies': ['read'] })).headers;
    const companies = body<PageOf<{ id: number }>>(await t.app.inject({ url: '/v1/companies?page_size=1', headers: lead })).data;
    companyId = companies.items[0]!.id;
  });
  afterAll(async () => t?.close());

  let n = 0;
  const valid = (over: Record<string, unknown> = {}) => {
    n += 1;
    return {
      name: `Kestrel Bidder ${n}`,
      side: 'ssp',
      company_id: companyId,
      type: 'DSP',
      account_manager: 'Lucía Romero',
      status: 'testing',
      endpoint_url: `https://bid${n}.kestrel.example/openrtb2`,
      openrtb_version: '2.6',
      gzip: true,
      timeout_ms: 250,
      media_types: ['banner', 'video'],
      environments: ['site', 'app'],
      sizes: ['300x250', '728x90'],
      consent_frameworks: ['tcf_v2'],
      qps_cap: 20000,
      simulate_only: false,
      geo_allow: ['ES', 'FR'],
      geo_deny: [],
      default_floor: '0.35',
      floor_currency: 'USD',
      revenue_share_pct: '12.5',
      payment_terms: 'net45',
      invoice_currency: 'EUR',
      min_amount: '500',
      vat_id: 'ESB12345674',
      billing_email: 'billing@kestrel.example',
      seller_id_at_partner: 'ks-8841',
      partner_domain: 'Kestrel.example',
      certification_authority_id: 'f08c47fec0942fa0',
      ...over,
    };
  };
  const create = (payload: object, headers = lead) => t.app.inject({ method: 'POST', url: '/v1/partners/demand', payload, headers });

  it('registers a network once: the same name in any case or the same endpoint URL however typed is refused', async () => {
    const first = valid();
    const res = await create(first);
    expect(res.statusCode).toBe(201);
    const made = body<Partner>(res).data;
    expect(made).toMatchObject({ name: first.name, side: 'ssp', default_floor: '0.3500', qps_cap: 20000, company_id_label: expect.any(String) });
    expect(made).toMatchObject({ partner_domain: 'kestrel.example' });

    const sameName = await create(valid({ name: first.name.toUpperCase() }));
    expect(sameName.statusCode).toBe(400);
    expect(body(sameName).errors).toEqual({ name: 'demand_partner.name_taken' });

    const sameUrl = await create(valid({ endpoint_url: `${first.endpoint_url.replace('https://bid', 'HTTPS://BID').replace('.example', '.EXAMPLE')}/` }));
    expect(sameUrl.statusCode).toBe(400);
    expect(body(sameUrl).errors).toEqual({ endpoint_url: 'demand_partner.url_taken' });

    const es = await create(valid({ name: first.name }), { ...lead, 'accept-language': 'es' });
    expect(body(es).errors).toEqual({ name: 'demand_partner.name_taken' });
  });

  it('checks the fields with the shared schema and its message keys', async () => {
    const res = await create(valid({ timeout_ms: 20, default_floor: '0.123456', geo_deny: ['ES'], partner_domain: 'not a domain', media_types: [], endpoint_url: 'javascript:alert(1)' }));
    expect(res.statusCode).toBe(400);
    expect(body(res).errors).toMatchObject({
      timeout_ms: 'demand_partner.timeout_invalid',
      default_floor: 'demand_partner.floor_invalid',
      partner_domain: 'demand_partner.domain_invalid',
      media_types: 'demand_partner.media_types_required',
    });
    expect(body(res).errors!.endpoint_url).toBeTruthy();
    const overlap = await create(valid({ geo_deny: ['ES'] }));
    expect(overlap.statusCode).toBe(400);
    expect(body(overlap).errors).toEqual({ geo_deny: 'demand_partner.geo_overlap' });
  });

  it('lets a read-only role list and open partners but not change them, and deletes nothing', async () => {
    const made = body<Partner>(await create(valid({ side: 'performance' }))).data;
    expect((await create(valid(), reader)).statusCode).toBe(403);
    const put = await t.app.inject({ method: 'PUT', url: `/v1/partners/demand/${made.id}`, headers: reader, payload: { ...valid(), version: made.version } });
    expect(put.statusCode).toBe(403);
    expect((await t.app.inject({ url: `/v1/partners/demand/${made.id}`, headers: reader })).statusCode).toBe(200);
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/partners/demand/${made.id}`, headers: lead });
    expect(del.statusCode).toBe(404);

    const perf = body<PageOf<Partner>>(await t.app.inject({ url: '/v1/partners/demand?f[side]=performance&page_size=200', headers: reader })).data;
    expect(perf.items.map((p) => p.id)).toContain(made.id);
    expect(perf.items.every((p) => p.side === 'performance')).toBe(true);
  });

  it('records a QPS cap change in the history and shows it on the QPS graph', async () => {
    const made = body<Partner>(await create(valid())).data;
    const res = await t.app.inject({ method: 'PUT', url: `/v1/partners/demand/${made.id}`, headers: lead, payload: { ...valid({ name: made.name, endpoint_url: made.endpoint_url }), qps_cap: 35000, version: made.version } });
    expect(res.statusCode).toBe(200);

    const history = body<{ action: string; changes: Record<string, [unknown, unknown]> }[]>(
      await t.app.inject({ url: `/v1/partners/demand/${made.id}/history`, headers: lead }),
    ).data;
    expect(history[0]).toMatchObject({ action: 'demand_partner.update', changes: { qps_cap: [20000, 35000] } });

    const admin = (await signIn(t.app, 'admin@adtech.example')).headers;
    const fmt = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
    const now = Date.now();
    const graph = await t.app.inject({
      url: `/v1/graphs/qps/demand?start=${fmt(now - 3 * 3600_000)}&end=${fmt(now + 60_000)}&timezone=UTC&interval=15&metrics=qps&ids=${made.id}`,
      headers: admin,
    });
    expect(graph.statusCode).toBe(200);
    const annotations = body<{ annotations: { entity_id: number; message: string; params: { from: number; to: number }; actor: { name: string } | null }[] }>(graph).data.annotations;
    expect(annotations).toContainEqual(
      expect.objectContaining({ entity_id: made.id, message: 'qps.annotation.cap_change', params: { from: 20000, to: 35000 }, actor: expect.objectContaining({ name: expect.any(String) }) }),
    );
  });
});
