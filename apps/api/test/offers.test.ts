/**
 * Premium offers on the resource layer, through the HTTP API: each rule with its message key (the
 * spec's URL rule with macros, amounts, caps, targeting lists, a performance-side advertiser), a
 * payout above the revenue saved with a warning in the answer, a stale edit answered 409 with the
 * current row, the history of an edit, a delete refused while a campaign runs the offer, the
 * advertisers' picker, and the ACL (read, write, none).
 */
import type { HistoryEntry } from '@backoffice/core/resources/define';
import { translate } from '@backoffice/core/i18n/catalogues';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaigns } from '../src/db/schema-offers.ts';
import { demandPartners } from '../src/db/schema-reports.ts';
import { dbOf, userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, type TestApp } from './helpers.ts';

interface Offer {
  id: number;
  name: string;
  advertiser_id: number;
  advertiser_id_label: string;
  status: string;
  tracking_url: string;
  preview_url: string | null;
  payout: string;
  revenue: string;
  currency: string;
  countries: string[];
  platforms: string[];
  cap_type: string;
  daily_cap: string | null;
  total_cap: string | null;
  version: number;
  warnings: Record<string, string>;
}

describe('premium offers (resource layer)', () => {
  let t: TestApp;
  let head: Record<string, string>;
  let perf: number;
  let ssp: number;

  beforeAll(async () => {
    t = await createTestApp();
    head = (await userWithAcl(t.app, 'offers.lead@adtech.example', { '/v1/offers': ['read', 'write'] }))
      .headers;
    const rows = await dbOf(t.app)
      .insert(demandPartners)
      .values([
        {
          name: 'Offers Test Performance',
          side: 'performance',
          endpointUrl: 'https://perf.offers-test.example/rtb',
        },
        { name: 'Offers Test SSP', side: 'ssp', endpointUrl: 'https://ssp.offers-test.example/rtb' },
      ])
      .returning({ id: demandPartners.id });
    perf = rows[0]!.id;
    ssp = rows[1]!.id;
  });
  afterAll(async () => t?.close());

  const valid = (over: Record<string, unknown> = {}) => ({
    name: 'Costa Brava summer stays',
    advertiser_id: perf,
    status: 'active',
    tracking_url: 'https://go.hotels-adv.example/click?cid={click_id}&aff={sub1}',
    preview_url: 'https://hotels-adv.example/costa-brava',
    payout: '4.50',
    revenue: '6.2000',
    currency: 'EUR',
    countries: ['ES', 'FR'],
    platforms: ['ios', 'android'],
    cap_type: 'conversions',
    daily_cap: '50',
    total_cap: 1000,
    ...over,
  });
  const create = (payload: object, headers = head) =>
    t.app.inject({ method: 'POST', url: '/v1/offers', payload, headers });
  const put = (id: number, payload: object, headers = head) =>
    t.app.inject({ method: 'PUT', url: `/v1/offers/${id}`, payload, headers });

  it('creates an offer: exact decimals, the advertiser’s name, no warning', async () => {
    const res = await create(valid());
    expect(res.statusCode).toBe(201);
    const offer = body<Offer>(res).data;
    expect(offer).toMatchObject({
      name: 'Costa Brava summer stays',
      advertiser_id: perf,
      advertiser_id_label: 'Offers Test Performance',
      payout: '4.5000',
      revenue: '6.2000',
      countries: ['ES', 'FR'],
      platforms: ['ios', 'android'],
      cap_type: 'conversions',
      daily_cap: '50.00',
      total_cap: '1000.00',
      version: 1,
      warnings: {},
    });
    const one = body<Offer>(await t.app.inject({ url: `/v1/offers/${offer.id}`, headers: head })).data;
    expect(one.warnings).toEqual({});
  });

  it('saves a payout above the revenue, and says so in every answer (a warning, not an error)', async () => {
    const res = await create(valid({ name: 'Loss leader', payout: '7.0001', revenue: '7' }));
    expect(res.statusCode).toBe(201);
    const made = body<Offer>(res).data;
    expect(made.warnings).toEqual({ payout: 'offer.payout_above_revenue' });
    expect(translate('en', 'offer.payout_above_revenue')).toMatch(/payout is above the revenue/);
    expect(translate('es', 'offer.payout_above_revenue')).toMatch(/El pago supera el ingreso/);
    expect(
      body<Offer>(await t.app.inject({ url: `/v1/offers/${made.id}`, headers: head })).data.warnings,
    ).toEqual({ payout: 'offer.payout_above_revenue' });
    const list = body<{ items: Offer[] }>(
      await t.app.inject({ url: '/v1/offers?f[name]=Loss%20leader', headers: head }),
    ).data;
    expect(list.items.map((o) => o.warnings)).toEqual([{ payout: 'offer.payout_above_revenue' }]);
    // Fixing it clears the warning.
    const fixed = await put(made.id, {
      ...valid({ name: 'Loss leader', payout: '7', revenue: '7' }),
      version: made.version,
    });
    expect(fixed.statusCode).toBe(200);
    expect(body<Offer>(fixed).data.warnings).toEqual({});
  });

  it('refuses each broken rule with its key, next to its field, and keeps nothing', async () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ name: '  ' }, { name: 'error.required' }],
      [{ advertiser_id: null }, { advertiser_id: 'offer.advertiser_required' }],
      [{ tracking_url: 'go.hotels-adv.example/click' }, { tracking_url: 'inputs.url.invalid' }],
      [
        { tracking_url: 'https://go.hotels-adv.example/click?cid={clickid}' },
        { tracking_url: 'campaign.postback.unknown_macro' },
      ],
      [{ tracking_url: '' }, { tracking_url: 'error.required' }],
      [{ preview_url: 'hotels-adv.example' }, { preview_url: 'inputs.url.invalid' }],
      [{ payout: '4.12345' }, { payout: 'offer.payout_invalid' }],
      [{ revenue: -1 }, { revenue: 'offer.revenue_invalid' }],
      [{ countries: ['ES', 'ZZ'] }, { countries: 'offer.countries_invalid' }],
      [{ platforms: ['ios', 'ios'] }, { platforms: 'offer.list_repeated' }],
      [{ cap_type: 'none', daily_cap: '10', total_cap: null }, { daily_cap: 'offer.cap_without_type' }],
      [{ cap_type: 'budget', daily_cap: null, total_cap: null }, { daily_cap: 'offer.cap_required' }],
      [{ cap_type: 'conversions', daily_cap: '10.5' }, { daily_cap: 'offer.cap_whole' }],
      [{ daily_cap: '2000' }, { daily_cap: 'offer.cap_daily_above_total' }],
      [{ status: 'live' }, { status: 'error.invalid_value' }],
    ];
    for (const [over, errors] of cases) {
      const res = await create(valid({ name: 'Refused', ...over }));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(body(res).errors, JSON.stringify(over)).toEqual(errors);
    }
    // An SSP-side partner is not an advertiser; an unknown one is not a partner at all.
    expect(body(await create(valid({ name: 'Refused', advertiser_id: ssp }))).errors).toEqual({
      advertiser_id: 'offer.advertiser_not_performance',
    });
    expect(body(await create(valid({ name: 'Refused', advertiser_id: 999_999 }))).errors).toEqual({
      advertiser_id: 'resource.ref_unknown',
    });
    const none = body<{ total: number }>(
      await t.app.inject({ url: '/v1/offers?f[name]=Refused', headers: head }),
    ).data;
    expect(none.total).toBe(0);
  });

  it('answers a stale edit with 409 and the row as it is now, and keeps the history of edits', async () => {
    const made = body<Offer>(await create(valid({ name: 'Two editors' }))).data;
    const first = await put(made.id, { ...valid({ name: 'Two editors', payout: '5' }), version: 1 });
    expect(first.statusCode).toBe(200);
    expect(body<Offer>(first).data).toMatchObject({ payout: '5.0000', version: 2 });
    const stale = await put(made.id, { ...valid({ name: 'Two editors', payout: '3' }), version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      message: 'resource.conflict',
      data: { current: { id: made.id, payout: '5.0000', version: 2 } },
    });
    const history = body<HistoryEntry[]>(
      await t.app.inject({ url: `/v1/offers/${made.id}/history`, headers: head }),
    ).data;
    expect(history.map((h) => h.action)).toEqual(['offer.update', 'offer.create']);
    expect(history[0]!.changes).toEqual({ payout: ['4.5000', '5.0000'] });
    expect(history[0]!.actor.name).toBe('offers.lead');
  });

  it('refuses to delete an offer a campaign runs, and deletes an unused one', async () => {
    const used = body<Offer>(await create(valid({ name: 'Running offer' }))).data;
    await dbOf(t.app)
      .insert(campaigns)
      .values({
        name: 'Uses it',
        advertiserId: perf,
        offerId: used.id,
        startDate: '2026-01-01',
        endDate: '2026-01-31',
        totalBudget: '1000',
        model: 'CPA',
        rate: '6',
      });
    const refused = await t.app.inject({ method: 'DELETE', url: `/v1/offers/${used.id}`, headers: head });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      message: 'resource.in_use',
      data: { used_by: [{ resource: 'campaigns', count: 1 }] },
    });
    const unused = body<Offer>(await create(valid({ name: 'Never ran' }))).data;
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/offers/${unused.id}`, headers: head })).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ url: `/v1/offers/${unused.id}`, headers: head })).statusCode).toBe(404);
  });

  it('offers the performance side’s partners in the advertiser picker, by name or ids', async () => {
    const found = body<{ id: number; value: string }[]>(
      await t.app.inject({ url: '/v1/offers/advertisers?name=offers%20test', headers: head }),
    ).data;
    expect(found).toEqual([{ id: perf, value: 'Offers Test Performance' }]);
    const byIds = body<{ id: number }[]>(
      await t.app.inject({ url: `/v1/offers/advertisers?ids=${ssp},${perf}`, headers: head }),
    ).data;
    expect(byIds.map((r) => r.id)).toEqual([perf]);
    expect((await t.app.inject({ url: '/v1/offers/advertisers?ids=0x1', headers: head })).statusCode).toBe(
      400,
    );
  });

  it('enforces the ACL: read lists and opens, write changes, nothing answers 403', async () => {
    const made = body<Offer>(await create(valid({ name: 'ACL offer' }))).data;
    const reader = (await userWithAcl(t.app, 'offers.reader@adtech.example', { '/v1/offers': ['read'] }))
      .headers;
    const stranger = (
      await userWithAcl(t.app, 'offers.stranger@adtech.example', { '/v1/campaigns': ['read', 'write'] })
    ).headers;
    expect((await t.app.inject({ url: '/v1/offers', headers: reader })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/v1/offers/${made.id}`, headers: reader })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/offers/advertisers', headers: reader })).statusCode).toBe(200);
    expect((await create(valid({ name: 'By a reader' }), reader)).statusCode).toBe(403);
    expect((await put(made.id, { ...valid(), version: 1 }, reader)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/offers/${made.id}`, headers: reader })).statusCode,
    ).toBe(403);
    for (const url of [
      '/v1/offers',
      `/v1/offers/${made.id}`,
      `/v1/offers/${made.id}/history`,
      '/v1/offers/export',
      '/v1/offers/advertisers',
    ]) {
      expect((await t.app.inject({ url, headers: stranger })).statusCode, url).toBe(403);
    }
  });
});
