/**
 * Campaigns and their events through the HTTP API: each rule with its key (dates, budgets, the
 * advertiser of the performance side, an offer of that advertiser), events (a code unique within
 * its campaign, the postback URL's rule, the payout-above-revenue warning, 409 on a stale edit),
 * the spend and pacing read from the warehouse's partner × country × device rollup and checked
 * against a query written here, the postback test against a local stub server (the resolved URL
 * it received, the recorded answer, redirects, the in-flight guard, a retried request, the refusal
 * of a private address when private fetches are off), and the ACL.
 */
import { translate } from '@backoffice/core/i18n/catalogues';
import { COUNTRIES, DEVICES } from '@backoffice/core/reports';
import type { HistoryEntry } from '@backoffice/core/resources/define';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offers } from '../src/db/schema-offers.ts';
import { demandPartners, statsRPartnerCountryDevice } from '../src/db/schema-reports.ts';
import { query } from '../src/reports-data/sql.ts';
import { countAudit, dbOf, userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, type TestApp } from './helpers.ts';

interface Campaign {
  id: number;
  name: string;
  advertiser_id: number;
  offer_id: number;
  offer_id_label: string;
  version: number;
  spent: string;
  phase: string;
}
interface CampaignEvent {
  id: number;
  campaign_id: number;
  code: string;
  payout: string;
  revenue: string;
  postback_url: string;
  version: number;
  warnings: Record<string, string>;
}
interface PostbackTest {
  id: number;
  status: string;
  url: string;
  values: Record<string, string>;
  http_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  redirects: string[];
  error_key: string | null;
  already?: boolean;
}
interface Pacing {
  phase: string;
  total: {
    budget: string;
    spent: string;
    expected: string;
    elapsed_pct: number;
    usage_pct: number | null;
    status: string | null;
    alert: boolean;
  };
  today: { day: string; spent: string; budget: string | null } | null;
  days: { day: string; spent: string; over_daily_budget: boolean }[];
  scope: { countries: string[]; devices: string[]; platforms_applied: boolean };
}

const metrics = {
  adRequests: 10,
  bidRequests: 10,
  bids: 5,
  wins: 2,
  impressions: 2,
  clicks: 0,
  timeouts: 0,
  errors: 0,
  costMicros: 0n,
};
const countryId = (c: string) => COUNTRIES.indexOf(c as (typeof COUNTRIES)[number]) + 1;
const deviceId = (d: string) => DEVICES.indexOf(d as (typeof DEVICES)[number]) + 1;

/** A stub postback receiver on loopback: records what it is asked, answers by path. */
function stubServer() {
  const received: string[] = [];
  let release: (() => void) | null = null;
  const server = http.createServer((req, res) => {
    received.push(req.url ?? '');
    const path = (req.url ?? '').split('?')[0];
    if (path === '/hop') return void res.writeHead(302, { location: '/pb' }).end();
    if (path === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (path === '/slow') {
      release = () => res.writeHead(200).end('late');
      return;
    }
    if (path === '/missing')
      return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such click');
    res.writeHead(202, { 'content-type': 'text/plain; charset=utf-8', 'x-received': 'yes' });
    // 3,000 bytes: the test keeps the first 2,048.
    res.end(`ok ${'é'.repeat(500)}${'x'.repeat(1998)}`);
  });
  return {
    received,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
        ),
      ),
    releaseSlow: () => release?.(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('campaigns and events (resource layer)', () => {
  let t: TestApp;
  let head: Record<string, string>;
  let perf: number;
  let otherPerf: number;
  let ssp: number;
  let offer: number;
  let otherOffer: number;
  const stub = stubServer();
  let stubUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    stubUrl = await stub.start();
    head = (
      await userWithAcl(t.app, 'campaigns.lead@adtech.example', {
        '/v1/campaigns': ['read', 'write'],
        '/v1/offers': ['read'],
      })
    ).headers;
    const db = dbOf(t.app);
    const partners = await db
      .insert(demandPartners)
      .values([
        {
          name: 'Campaigns Test Performance',
          side: 'performance',
          endpointUrl: 'https://perf.campaigns-test.example/rtb',
        },
        {
          name: 'Campaigns Other Performance',
          side: 'performance',
          endpointUrl: 'https://perf2.campaigns-test.example/rtb',
        },
        { name: 'Campaigns Test SSP', side: 'ssp', endpointUrl: 'https://ssp.campaigns-test.example/rtb' },
      ])
      .returning({ id: demandPartners.id });
    [perf, otherPerf, ssp] = partners.map((p) => p.id) as [number, number, number];
    const made = await db
      .insert(offers)
      .values([
        {
          name: 'Fintech sign-ups',
          advertiserId: perf,
          trackingUrl: 'https://go.fin.example/c?id={click_id}',
          payout: '8',
          revenue: '11',
          status: 'active',
        },
        {
          name: 'Other advertiser’s offer',
          advertiserId: otherPerf,
          trackingUrl: 'https://go.other.example/c?id={click_id}',
          payout: '1',
          revenue: '2',
          status: 'active',
        },
      ])
      .returning({ id: offers.id });
    [offer, otherOffer] = made.map((o) => o.id) as [number, number];
  });
  afterAll(async () => {
    await stub.close();
    await t?.close();
  });

  const valid = (over: Record<string, unknown> = {}) => ({
    name: 'Fintech ES spring',
    advertiser_id: perf,
    offer_id: offer,
    status: 'active',
    start_date: '2025-03-01',
    end_date: '2025-03-10',
    currency: 'USD',
    total_budget: '5000',
    daily_budget: '600',
    model: 'CPA',
    rate: '11',
    countries: ['ES', 'PT'],
    devices: ['phone', 'tablet'],
    platforms: ['ios'],
    ...over,
  });
  const create = (payload: object, headers = head) =>
    t.app.inject({ method: 'POST', url: '/v1/campaigns', payload, headers });
  const event = (campaignId: number, over: Record<string, unknown> = {}) => ({
    campaign_id: campaignId,
    name: 'Account opened',
    code: 'account_opened',
    payout: '8',
    revenue: '11',
    postback_url: `${stubUrl}/pb?click={click_id}&amount={payout}&ev={event}&cur={currency}&s4={sub4}`,
    click_window_days: 30,
    view_window_hours: 0,
    ...over,
  });
  const createEvent = (payload: object, headers = head) =>
    t.app.inject({ method: 'POST', url: '/v1/campaign-events', payload, headers });
  const fire = (campaignId: number, eventId: number, payload: object = {}, headers = head) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/campaigns/${campaignId}/events/${eventId}/postback-test`,
      payload,
      headers,
    });

  it('creates a campaign and refuses each broken rule with its key', async () => {
    const res = await create(valid());
    expect(res.statusCode).toBe(201);
    expect(body<Campaign>(res).data).toMatchObject({
      advertiser_id: perf,
      offer_id: offer,
      offer_id_label: 'Fintech sign-ups',
      version: 1,
    });
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ start_date: '' }, { start_date: 'campaign.date_required' }],
      [{ end_date: '2025-02-30' }, { end_date: 'campaign.date_invalid' }],
      [{ end_date: '2025-02-28' }, { end_date: 'campaign.end_before_start' }],
      [{ total_budget: '0' }, { total_budget: 'campaign.budget_invalid' }],
      [{ daily_budget: '5000.01' }, { daily_budget: 'campaign.daily_above_total' }],
      [{ model: 'CPV' }, { model: 'campaign.model_required' }],
      [{ rate: '1.23456' }, { rate: 'campaign.rate_invalid' }],
      [{ devices: ['watch'] }, { devices: 'campaign.devices_invalid' }],
      [{ offer_id: null }, { offer_id: 'campaign.offer_required' }],
      [
        { cap_type: 'conversions', daily_cap: '10', total_cap: '5' },
        { daily_cap: 'offer.cap_daily_above_total' },
      ],
      // Rules that need the database.
      [{ offer_id: otherOffer }, { offer_id: 'campaign.offer_other_advertiser' }],
      [
        { advertiser_id: ssp, offer_id: otherOffer },
        { advertiser_id: 'offer.advertiser_not_performance', offer_id: 'campaign.offer_other_advertiser' },
      ],
      [{ offer_id: 999_999 }, { offer_id: 'resource.ref_unknown' }],
    ];
    for (const [over, errors] of cases) {
      const refused = await create(valid({ name: 'Refused', ...over }));
      expect(refused.statusCode, JSON.stringify(over)).toBe(400);
      expect(body(refused).errors, JSON.stringify(over)).toEqual(errors);
    }
    expect(translate('es', 'campaign.offer_other_advertiser')).toBe(
      'Esta oferta es de otro anunciante: elige una oferta de este anunciante',
    );
    // The form's offer picker narrows to the advertiser's offers (archived ones only by id).
    const picked = body<{ id: number }[]>(
      await t.app.inject({ url: `/v1/campaigns/offers?advertiser_id=${perf}`, headers: head }),
    ).data;
    expect(picked.map((o) => o.id)).toEqual([offer]);
  });

  it('keeps events per campaign: a unique code, the postback URL rule, the payout warning, 409 on a stale edit', async () => {
    const a = body<Campaign>(await create(valid({ name: 'Events A' }))).data;
    const b = body<Campaign>(await create(valid({ name: 'Events B' }))).data;
    const first = await createEvent(event(a.id));
    expect(first.statusCode).toBe(201);
    expect(body<CampaignEvent>(first).data).toMatchObject({
      payout: '8.0000',
      revenue: '11.0000',
      warnings: {},
    });
    // The same code in the same campaign is refused; in another campaign it is another event.
    expect(body(await createEvent(event(a.id, { name: 'Again' }))).errors).toEqual({
      code: 'campaign.event.code_taken',
    });
    expect((await createEvent(event(b.id))).statusCode).toBe(201);
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ postback_url: 'ftp://pb.fin.example/conv' }, { postback_url: 'campaign.postback.http_only' }],
      [
        { postback_url: 'https://pb.fin.example/conv?c={transaction_id}' },
        { postback_url: 'campaign.postback.unknown_macro' },
      ],
      [{ postback_url: 'pb.fin.example/conv' }, { postback_url: 'inputs.url.invalid' }],
      [{ code: 'Account Opened' }, { code: 'campaign.event.code_invalid' }],
      [{ click_window_days: 91 }, { click_window_days: 'campaign.event.click_window_invalid' }],
      [{ view_window_hours: -1 }, { view_window_hours: 'campaign.event.view_window_invalid' }],
      [{ campaign_id: 999_999 }, { campaign_id: 'resource.ref_unknown' }],
    ];
    for (const [over, errors] of cases) {
      const refused = await createEvent(event(a.id, { code: 'refused', ...over }));
      expect(refused.statusCode, JSON.stringify(over)).toBe(400);
      expect(body(refused).errors, JSON.stringify(over)).toEqual(errors);
    }
    const loss = await createEvent(
      event(a.id, { code: 'deposit', name: 'First deposit', payout: '12.5', revenue: '12.4999' }),
    );
    expect(loss.statusCode).toBe(201);
    const lossEvent = body<CampaignEvent>(loss).data;
    expect(lossEvent.warnings).toEqual({ payout: 'offer.payout_above_revenue' });
    const put = (version: number, over: Record<string, unknown>) =>
      t.app.inject({
        method: 'PUT',
        url: `/v1/campaign-events/${lossEvent.id}`,
        payload: { ...event(a.id, { code: 'deposit', name: 'First deposit', ...over }), version },
        headers: head,
      });
    const edited = await put(1, { revenue: '15' });
    expect(edited.statusCode).toBe(200);
    expect(body<CampaignEvent>(edited).data).toMatchObject({ revenue: '15.0000', version: 2, warnings: {} });
    const stale = await put(1, { revenue: '16' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      message: 'resource.conflict',
      data: { current: { revenue: '15.0000', version: 2 } },
    });
    // The events tab lists a campaign's events only.
    const list = body<{ items: CampaignEvent[] }>(
      await t.app.inject({ url: `/v1/campaign-events?f[campaign_id]=${a.id}&sort=code`, headers: head }),
    ).data;
    expect(list.items.map((e) => e.code)).toEqual(['account_opened', 'deposit']);
    // A campaign with events is not deleted (its events would be orphans).
    const refused = await t.app.inject({ method: 'DELETE', url: `/v1/campaigns/${a.id}`, headers: head });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      message: 'resource.in_use',
      data: { used_by: [{ resource: 'campaign_events', count: 2 }] },
    });
  });

  it('reads the spend from the warehouse: the advertiser, the campaign’s days, countries and devices, exactly', async () => {
    const c = body<Campaign>(await create(valid({ name: 'Pacing past' }))).data;
    const row = (
      partner: number,
      iso: string,
      country: string,
      device: string,
      revenueMicros: bigint,
      lvl = 1,
    ) => ({
      lvl,
      ts: new Date(iso),
      demandPartnerId: partner,
      countryId: countryId(country),
      deviceId: deviceId(device),
      revenueMicros,
      ...metrics,
    });
    await dbOf(t.app)
      .insert(statsRPartnerCountryDevice)
      .values([
        // Counted: the first and the last day, both countries, both devices.
        row(perf, '2025-03-01T00:00:00Z', 'ES', 'phone', 700_000_001n),
        row(perf, '2025-03-01T00:00:00Z', 'PT', 'tablet', 12_345_678n),
        row(perf, '2025-03-05T00:00:00Z', 'ES', 'tablet', 250_500_000n),
        row(perf, '2025-03-10T00:00:00Z', 'PT', 'phone', 99_999_999n),
        // Not counted: another country, another device, the days around it, another partner, the hour level.
        row(perf, '2025-03-02T00:00:00Z', 'FR', 'phone', 5_000_000_000n),
        row(perf, '2025-03-02T00:00:00Z', 'ES', 'desktop', 5_000_000_000n),
        row(perf, '2025-02-28T00:00:00Z', 'ES', 'phone', 5_000_000_000n),
        row(perf, '2025-03-11T00:00:00Z', 'ES', 'phone', 5_000_000_000n),
        row(otherPerf, '2025-03-03T00:00:00Z', 'ES', 'phone', 5_000_000_000n),
        row(perf, '2025-03-03T05:00:00Z', 'ES', 'phone', 5_000_000_000n, 0),
      ]);
    // The same figure, asked of the rollup here.
    const [expected] = await query<{ micros: string }>(
      t.app.ctx.database,
      `SELECT sum(revenue_micros)::text AS micros FROM stats_r_partner_country_device
        WHERE lvl = 1 AND demand_partner_id = $1 AND ts >= '2025-03-01' AND ts < '2025-03-11'
          AND country_id = ANY($2::int[]) AND device_id = ANY($3::int[])`,
      [perf, [countryId('ES'), countryId('PT')], [deviceId('phone'), deviceId('tablet')]],
    );
    // 700.000001 + 12.345678 + 250.5 + 99.999999 = 1,062.845678
    expect(expected!.micros).toBe('1062845678');
    const pacing = body<Pacing>(
      await t.app.inject({ url: `/v1/campaigns/${c.id}/pacing`, headers: head }),
    ).data;
    expect(pacing.phase).toBe('ended');
    expect(pacing.total).toEqual({
      budget: '5000.00',
      spent: '1062.85',
      elapsed_pct: 100,
      expected: '5000.00',
      pace_pct: 21.3,
      usage_pct: 21.3,
      status: 'behind',
      alert: false,
    });
    expect(pacing.today).toBeNull();
    expect(pacing.days).toHaveLength(10);
    expect(pacing.days[0]).toEqual({ day: '2025-03-01', spent: '712.35', over_daily_budget: true });
    expect(pacing.days.find((d) => d.day === '2025-03-02')).toEqual({
      day: '2025-03-02',
      spent: '0.00',
      over_daily_budget: false,
    });
    expect(pacing.scope).toEqual({
      countries: ['ES', 'PT'],
      devices: ['phone', 'tablet'],
      platforms_applied: false,
    });
    // With no targeting, every country and device of the advertiser counts (still not the other days).
    const wide = body<Campaign>(
      await create(valid({ name: 'Pacing wide', countries: [], devices: [] })),
    ).data;
    const [all] = await query<{ micros: string }>(
      t.app.ctx.database,
      `SELECT sum(revenue_micros)::text AS micros FROM stats_r_partner_country_device WHERE lvl = 1 AND demand_partner_id = $1 AND ts >= '2025-03-01' AND ts < '2025-03-11'`,
      [perf],
    );
    expect(all!.micros).toBe('11062845678');
    expect(
      body<Pacing>(await t.app.inject({ url: `/v1/campaigns/${wide.id}/pacing`, headers: head })).data.total
        .spent,
    ).toBe('11062.85');
    // The list carries each row's spend too.
    const list = body<{ items: Campaign[] }>(
      await t.app.inject({ url: '/v1/campaigns?f[name]=Pacing', headers: head }),
    ).data;
    expect(Object.fromEntries(list.items.map((r) => [r.name, [r.spent, r.phase]]))).toEqual({
      'Pacing past': ['1062.85', 'ended'],
      'Pacing wide': ['11062.85', 'ended'],
    });
  });

  it('paces a running campaign against its days gone by, with today against the daily budget', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const dayMs = 86_400_000;
    const start = new Date(Date.now() - 4 * dayMs).toISOString().slice(0, 10);
    const end = new Date(Date.now() + 5 * dayMs).toISOString().slice(0, 10);
    const c = body<Campaign>(
      await create(
        valid({
          name: 'Pacing now',
          start_date: start,
          end_date: end,
          total_budget: '1000',
          daily_budget: '100',
        }),
      ),
    ).data;
    await dbOf(t.app)
      .insert(statsRPartnerCountryDevice)
      .values([
        {
          lvl: 1,
          ts: new Date(`${start}T00:00:00Z`),
          demandPartnerId: perf,
          countryId: countryId('ES'),
          deviceId: deviceId('phone'),
          revenueMicros: 90_000_000n,
          ...metrics,
        },
        {
          lvl: 1,
          ts: new Date(`${today}T00:00:00Z`),
          demandPartnerId: perf,
          countryId: countryId('ES'),
          deviceId: deviceId('phone'),
          revenueMicros: 120_000_000n,
          ...metrics,
        },
      ]);
    const pacing = body<Pacing>(
      await t.app.inject({ url: `/v1/campaigns/${c.id}/pacing`, headers: head }),
    ).data;
    expect(pacing.phase).toBe('running');
    // In the first hour of a UTC day nothing of it is loaded yet (the pacing instant is the hour's start).
    const todayCounts = new Date().getUTCHours() > 0;
    expect(pacing.total.spent).toBe(todayCounts ? '210.00' : '90.00');
    expect(pacing.today).toMatchObject({
      day: today,
      budget: '100.00',
      spent: todayCounts ? '120.00' : '0.00',
      alert: todayCounts,
    });
    expect(pacing.total.elapsed_pct).toBeGreaterThanOrEqual(40);
    expect(pacing.total.elapsed_pct).toBeLessThan(50);
  });

  it('fires a test conversion: the URL resolved and encoded, the stub’s answer recorded, audited', async () => {
    const c = body<Campaign>(await create(valid({ name: 'Postback', currency: 'EUR' }))).data;
    const e = body<CampaignEvent>(await createEvent(event(c.id))).data;
    const res = await fire(c.id, e.id, {
      values: { sub4: 'spring & summer', click_id: 'abc/123' },
      idempotency_key: 'click-0001',
    });
    expect(res.statusCode).toBe(200);
    const test = body<PostbackTest>(res).data;
    const sent = `/pb?click=abc%2F123&amount=8.0000&ev=account_opened&cur=EUR&s4=spring%20%26%20summer`;
    expect(test).toMatchObject({
      status: 'done',
      url: `${stubUrl}${sent}`,
      http_status: 202,
      redirects: [],
      error_key: null,
    });
    expect(stub.received.at(-1)).toBe(sent);
    expect(test.response_headers).toMatchObject({
      'x-received': 'yes',
      'content-type': 'text/plain; charset=utf-8',
    });
    expect(Buffer.byteLength(test.response_body!, 'utf8')).toBeLessThanOrEqual(2048);
    expect(test.response_body!.startsWith('ok éé')).toBe(true);
    expect(test.values).toMatchObject({
      sub4: 'spring & summer',
      payout: '8.0000',
      currency: 'EUR',
      event: 'account_opened',
      event_id: String(e.id),
      campaign_id: String(c.id),
      offer_id: String(offer),
    });

    // A retried request (same key) answers the same test and sends nothing again.
    const count = stub.received.length;
    const again = body<PostbackTest>(
      await fire(c.id, e.id, { values: { sub4: 'other' }, idempotency_key: 'click-0001' }),
    ).data;
    expect(again).toMatchObject({ id: test.id, already: true, url: test.url });
    expect(stub.received.length).toBe(count);

    // Recorded (newest first) and audited on the event's history.
    const tests = body<PostbackTest[]>(
      await t.app.inject({ url: `/v1/campaigns/${c.id}/events/${e.id}/postback-tests`, headers: head }),
    ).data;
    expect(tests.map((x) => x.id)).toEqual([test.id]);
    expect(await countAudit(t.app, 'campaign_event.postback_test', e.id)).toBe(1);
    const history = body<HistoryEntry[]>(
      await t.app.inject({ url: `/v1/campaign-events/${e.id}/history`, headers: head }),
    ).data;
    expect(history[0]!.action).toBe('campaign_event.postback_test');

    // An event of another campaign is not found under this one.
    expect((await fire(c.id + 1000, e.id)).statusCode).toBe(404);
  });

  it('records what the receiving server answers: an error status, redirects, too many redirects', async () => {
    const c = body<Campaign>(await create(valid({ name: 'Postback answers' }))).data;
    const make = async (code: string, path: string) =>
      body<CampaignEvent>(
        await createEvent(event(c.id, { code, postback_url: `${stubUrl}${path}?c={click_id}` })),
      ).data;
    const missing = await make('missing', '/missing');
    expect(body<PostbackTest>(await fire(c.id, missing.id)).data).toMatchObject({
      status: 'done',
      http_status: 404,
      response_body: 'no such click',
    });
    const hop = await make('hop', '/hop');
    const hopped = body<PostbackTest>(await fire(c.id, hop.id)).data;
    expect(hopped).toMatchObject({ status: 'done', http_status: 202, redirects: [`${stubUrl}/pb`] });
    const loop = await make('loop', '/loop');
    const before = stub.received.length;
    const looped = body<PostbackTest>(await fire(c.id, loop.id)).data;
    expect(looped).toMatchObject({
      status: 'error',
      error_key: 'campaign.postback.too_many_redirects',
      http_status: null,
    });
    expect(looped.redirects).toHaveLength(3);
    // The first call and three redirects: no fifth request.
    expect(stub.received.length - before).toBe(4);
  });

  it('sends one test at a time per event: a second one while the first waits is refused with 409', async () => {
    const c = body<Campaign>(await create(valid({ name: 'Postback in flight' }))).data;
    const e = body<CampaignEvent>(
      await createEvent(event(c.id, { code: 'slow', postback_url: `${stubUrl}/slow?c={click_id}` })),
    ).data;
    /** Waits until the stub holds `n` requests of the slow path. */
    const held = async (n: number) => {
      for (let i = 0; i < 200 && stub.received.filter((u) => u.startsWith('/slow')).length < n; i++)
        await new Promise((r) => setTimeout(r, 20));
    };
    const first = fire(c.id, e.id);
    await held(1);
    const second = await fire(c.id, e.id);
    expect(second.statusCode).toBe(409);
    expect(body(second).message).toBe('campaign.postback.in_flight');
    stub.releaseSlow();
    expect(body<PostbackTest>(await first).data).toMatchObject({
      status: 'done',
      http_status: 200,
      response_body: 'late',
    });
    // Once answered, the next test goes.
    const third = fire(c.id, e.id);
    await held(2);
    stub.releaseSlow();
    expect(body<PostbackTest>(await third).data).toMatchObject({ status: 'done', http_status: 200 });
  });

  it('refuses a private or loopback address when private fetches are off, without calling it', async () => {
    const c = body<Campaign>(await create(valid({ name: 'Postback private' }))).data;
    const e = body<CampaignEvent>(await createEvent(event(c.id, { code: 'private' }))).data;
    const localhost = body<CampaignEvent>(
      await createEvent(
        event(c.id, {
          code: 'by_name',
          postback_url: stubUrl.replace('127.0.0.1', 'localhost') + '/pb?c={click_id}',
        }),
      ),
    ).data;
    const before = stub.received.length;
    t.app.ctx.config.allowPrivateFetches = false;
    try {
      const refused = body<PostbackTest>(await fire(c.id, e.id)).data;
      expect(refused).toMatchObject({
        status: 'refused',
        error_key: 'campaign.postback.private_address',
        http_status: null,
      });
      // A name that resolves to loopback is refused at connection time too.
      expect(body<PostbackTest>(await fire(c.id, localhost.id)).data).toMatchObject({
        status: 'refused',
        error_key: 'campaign.postback.private_address',
      });
    } finally {
      t.app.ctx.config.allowPrivateFetches = true;
    }
    expect(stub.received.length).toBe(before);
    expect(translate('en', 'campaign.postback.private_address')).toMatch(/private or local address/);
  });

  it('enforces the ACL on the campaigns, their events, the pacing and the postback test', async () => {
    const c = body<Campaign>(await create(valid({ name: 'ACL campaign' }))).data;
    const e = body<CampaignEvent>(await createEvent(event(c.id, { code: 'acl' }))).data;
    const reader = (
      await userWithAcl(t.app, 'campaigns.reader@adtech.example', { '/v1/campaigns': ['read'] })
    ).headers;
    const stranger = (
      await userWithAcl(t.app, 'campaigns.stranger@adtech.example', { '/v1/offers': ['read', 'write'] })
    ).headers;
    for (const url of [
      '/v1/campaigns',
      `/v1/campaigns/${c.id}`,
      `/v1/campaigns/${c.id}/pacing`,
      `/v1/campaign-events?f[campaign_id]=${c.id}`,
      `/v1/campaigns/${c.id}/events/${e.id}/postback-tests`,
      '/v1/campaigns/advertisers',
      '/v1/campaigns/offers',
    ]) {
      expect((await t.app.inject({ url, headers: reader })).statusCode, url).toBe(200);
      expect((await t.app.inject({ url, headers: stranger })).statusCode, url).toBe(403);
    }
    expect((await create(valid({ name: 'By a reader' }), reader)).statusCode).toBe(403);
    expect((await createEvent(event(c.id, { code: 'by_reader' }), reader)).statusCode).toBe(403);
    const sent = stub.received.length;
    expect((await fire(c.id, e.id, {}, reader)).statusCode).toBe(403);
    expect((await fire(c.id, e.id, {}, stranger)).statusCode).toBe(403);
    expect(stub.received.length).toBe(sent);
    // A bad body is a 400 with the field, not a call.
    const bad = await fire(c.id, e.id, { values: { clickid: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(stub.received.length).toBe(sent);
  });
});
