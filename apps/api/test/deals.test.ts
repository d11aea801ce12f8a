/**
 * Deals on the resource layer, through the HTTP API: a unique OpenRTB deal id (a field error), the
 * shared schema's rules (dates in order, what a programmatic guaranteed deal needs, safe ids and
 * domains), the targeting (existing publishers and ad units, an ad unit of a targeted publisher),
 * the floor against the floor rule of the deal's inventory (refused with the rule in the message,
 * and flagged on the row when rules change after a save), the delivery by UTC day read from the
 * warehouse rollup and checked against raw SQL, the OpenRTB 2.6 pmp object against the IAB's JSON
 * Schema, the history, and the ACL.
 */
import type { DealDelivery, DealFloorReport, OpenRtbPmp } from '@backoffice/core/deals';
import {
  FLOOR_KEYS,
  floorKeys,
  ruleKeyString,
  ruleSpecificity,
  type FloorKey,
} from '@backoffice/core/floors';
import { translate } from '@backoffice/core/i18n/catalogues';
import { dealInputSchema } from '@backoffice/core/resources/deals';
import { pmpProblems } from '@backoffice/core/standards/openrtb-pmp-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adUnits, demandPartners, publishers, sites, statsRPartnerSupply } from '../src/db/schema-reports.ts';
import { buildCatalog } from '../src/reports-data/catalog.ts';
import { demoDealTerms } from '../src/reports-data/deal-terms.ts';
import { query } from '../src/reports-data/sql.ts';
import { dbOf, userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, type TestApp } from './helpers.ts';

interface Deal {
  id: number;
  code: string;
  name: string;
  demand_partner_id: number;
  demand_partner_id_label: string;
  type: string;
  status: string;
  bidfloor: string;
  bidfloorcur: string;
  auction_type: number;
  guaranteed_impressions: number | null;
  start_date: string | null;
  end_date: string | null;
  publisher_ids: number[];
  ad_unit_ids: number[];
  wseat: string[];
  wadomain: string[];
  version: number;
  floor_below: boolean;
  floor_check?: DealFloorReport;
}

const metrics = { adRequests: 0, clicks: 0, timeouts: 0, errors: 0, costMicros: 0n };

describe('deals (resource layer)', () => {
  let t: TestApp;
  let head: Record<string, string>;
  let partner: number;
  let otherPartner: number;
  let pubA: number;
  let pubB: number;
  let unitA: number;
  let unitB: number;
  const unitAName = 'deals-news.example/banner_300x250';

  beforeAll(async () => {
    t = await createTestApp();
    const db = dbOf(t.app);
    // Reports (a money area) too: the delivery's revenue is shown.
    head = (
      await userWithAcl(t.app, 'deals.lead@adtech.example', {
        '/v1/deals': ['read', 'write'],
        '/v1/reports': ['read'],
      })
    ).headers;
    const partners = await db
      .insert(demandPartners)
      .values([
        { name: 'Deals Test DSP', endpointUrl: 'https://dsp.deals-test.example/rtb' },
        { name: 'Deals Other DSP', endpointUrl: 'https://other.deals-test.example/rtb' },
      ])
      .returning({ id: demandPartners.id });
    partner = partners[0]!.id;
    otherPartner = partners[1]!.id;
    const pubs = await db
      .insert(publishers)
      .values([
        { name: 'Deals News Media', sellerId: 'deals-news' },
        { name: 'Deals Games Studio', sellerId: 'deals-games' },
      ])
      .returning({ id: publishers.id });
    pubA = pubs[0]!.id;
    pubB = pubs[1]!.id;
    const [siteA, siteB] = await db
      .insert(sites)
      .values([
        { publisherId: pubA, name: 'deals-news.example', environmentId: 1 },
        { publisherId: pubB, name: 'deals-games.example', environmentId: 1 },
      ])
      .returning({ id: sites.id });
    // format 1 banner, size 1 300x250 (core FORMATS, SIZES); format 2 video, size 9 640x360.
    const units = await db
      .insert(adUnits)
      .values([
        { siteId: siteA!.id, name: unitAName, formatId: 1, sizeId: 1 },
        { siteId: siteB!.id, name: 'deals-games.example/video_640x360', formatId: 2, sizeId: 9 },
      ])
      .returning({ id: adUnits.id });
    unitA = units[0]!.id;
    unitB = units[1]!.id;
  });
  afterAll(async () => t?.close());

  const create = (payload: object, headers = head) =>
    t.app.inject({ method: 'POST', url: '/v1/deals', payload, headers });
  const put = (id: number, payload: object, headers = head) =>
    t.app.inject({ method: 'PUT', url: `/v1/deals/${id}`, payload, headers });
  const get = <T = Deal>(url: string, headers = head) =>
    t.app.inject({ url, headers }).then((r) => ({ ...body<T>(r), http: r.statusCode }));
  let codes = 0;
  const valid = (over: Record<string, unknown> = {}) => ({
    code: `T-DEAL-${++codes}`,
    name: 'Sports premium',
    demand_partner_id: partner,
    type: 'pmp',
    status: 'active',
    bidfloor: '2.50',
    bidfloorcur: 'USD',
    auction_type: 1,
    guaranteed_impressions: null,
    start_date: '2026-03-01',
    end_date: '2026-03-31',
    publisher_ids: [],
    ad_unit_ids: [],
    wseat: [],
    wadomain: [],
    notes: null,
    ...over,
  });
  const update = (deal: Deal, over: Record<string, unknown>) => {
    const {
      code,
      name,
      demand_partner_id,
      type,
      status,
      bidfloor,
      bidfloorcur,
      auction_type,
      guaranteed_impressions,
      start_date,
      end_date,
      publisher_ids,
      ad_unit_ids,
      wseat,
      wadomain,
    } = deal;
    return put(deal.id, {
      code,
      name,
      demand_partner_id,
      type,
      status,
      bidfloor,
      bidfloorcur,
      auction_type,
      guaranteed_impressions,
      start_date,
      end_date,
      publisher_ids,
      ad_unit_ids,
      wseat,
      wadomain,
      notes: null,
      ...over,
      version: deal.version,
    });
  };

  /** Replaces the current floor rules with these, as a new version (what the floors screen's save writes). */
  async function setFloorRules(
    rules: { keys: Partial<Record<FloorKey, string>>; cpm: string; currency?: string }[],
  ): Promise<number> {
    const [v] = await query<{ id: number }>(
      t.app.ctx.database,
      `INSERT INTO floor_versions (source, comment, rule_count) VALUES ('edit', 'deals test', $1) RETURNING id`,
      [rules.length],
    );
    const version = Number(v!.id);
    await query(t.app.ctx.database, 'UPDATE floor_rules SET to_version = $1 WHERE to_version IS NULL', [
      version,
    ]);
    for (const r of rules) {
      const keys = floorKeys(r.keys);
      await query(
        t.app.ctx.database,
        `INSERT INTO floor_rules (${FLOOR_KEYS.join(', ')}, key_string, specificity, cpm, currency, type, from_version)
         VALUES (${FLOOR_KEYS.map((_, i) => `$${i + 1}`).join(', ')}, $10, $11, $12, $13, 'hard', $14)`,
        [
          ...FLOOR_KEYS.map((k) => keys[k]),
          ruleKeyString(keys),
          ruleSpecificity(keys),
          r.cpm,
          r.currency ?? 'USD',
          version,
        ],
      );
    }
    return version;
  }

  it('creates a deal, and refuses a second one with the same deal id with a translated field error', async () => {
    const res = await create(valid({ code: 'D-UNIQ-1', wadomain: [' Brand.COM '], wseat: ['seat-9'] }));
    expect(res.statusCode).toBe(201);
    expect(body<Deal>(res).data).toMatchObject({
      code: 'D-UNIQ-1',
      demand_partner_id: partner,
      demand_partner_id_label: 'Deals Test DSP',
      bidfloor: '2.5000',
      bidfloorcur: 'USD',
      auction_type: 1,
      wadomain: ['brand.com'],
      wseat: ['seat-9'],
      start_date: '2026-03-01',
      end_date: '2026-03-31',
      version: 1,
    });

    const again = await create(valid({ code: 'D-UNIQ-1', demand_partner_id: otherPartner }), {
      ...head,
      'accept-language': 'es',
    });
    expect(again.statusCode).toBe(400);
    expect(body(again).errors).toEqual({ code: 'deal.code_taken' });
    expect(translate('en', 'deal.code_taken')).toBe('Another deal already has this deal ID');
    expect(translate('es', 'deal.code_taken')).toBe('Otro deal ya tiene este deal ID');
  });

  it('refuses unsafe ids, bad floors, dates out of order, and a missing or unknown partner', async () => {
    const errors = async (over: Record<string, unknown>) => body(await create(valid(over))).errors;
    expect(await errors({ code: 'has space' })).toEqual({ code: 'deal.code_invalid' });
    expect(await errors({ code: 'x'.repeat(65) })).toEqual({ code: 'deal.code_invalid' });
    for (const bidfloor of ['-1', '1.23456', 'ten', '1000.5'])
      expect(await errors({ bidfloor }), bidfloor).toEqual({ bidfloor: 'deal.bidfloor_invalid' });
    expect(await errors({ bidfloorcur: 'GBP' })).toEqual({ bidfloorcur: 'error.invalid_value' });
    expect(await errors({ auction_type: 4 })).toEqual({ auction_type: 'deal.at_invalid' });
    expect(await errors({ start_date: '2026-04-01', end_date: '2026-03-31' })).toEqual({
      end_date: 'deal.end_before_start',
    });
    expect(await errors({ start_date: '2026-02-30' })).toEqual({ start_date: 'deal.date_invalid' });
    expect(await errors({ wadomain: ['not a domain'] })).toEqual({ wadomain: 'deal.wadomain_invalid' });
    expect(await errors({ demand_partner_id: null })).toEqual({ demand_partner_id: 'deal.partner_required' });
    expect(await errors({ demand_partner_id: 999_999 })).toEqual({
      demand_partner_id: 'resource.ref_unknown',
    });
    // Same-day start and end, no dates at all, and a zero floor are fine.
    expect((await create(valid({ start_date: '2026-03-10', end_date: '2026-03-10' }))).statusCode).toBe(201);
    expect((await create(valid({ start_date: null, end_date: null, bidfloor: '0' }))).statusCode).toBe(201);
  });

  it('asks a programmatic guaranteed deal for impressions, both dates and a fixed price; only PG promises impressions', async () => {
    const pg = await create(valid({ type: 'pg', start_date: null, end_date: null }));
    expect(pg.statusCode).toBe(400);
    expect(body(pg).errors).toEqual({
      guaranteed_impressions: 'deal.pg_impressions_required',
      start_date: 'deal.pg_dates_required',
      end_date: 'deal.pg_dates_required',
      auction_type: 'deal.pg_fixed_price',
    });
    expect(
      body(await create(valid({ type: 'pg', auction_type: 3, guaranteed_impressions: 0 }))).errors,
    ).toEqual({ guaranteed_impressions: 'deal.impressions_invalid' });
    expect(body(await create(valid({ type: 'preferred', guaranteed_impressions: 10_000 }))).errors).toEqual({
      guaranteed_impressions: 'deal.impressions_pg_only',
    });
    const ok = await create(valid({ type: 'pg', auction_type: 3, guaranteed_impressions: 1_500_000 }));
    expect(ok.statusCode).toBe(201);
    expect(body<Deal>(ok).data).toMatchObject({
      type: 'pg',
      auction_type: 3,
      guaranteed_impressions: 1_500_000,
    });
  });

  it('checks the targeting: publishers and ad units exist, and each ad unit is of a targeted publisher', async () => {
    const errors = async (over: Record<string, unknown>) => body(await create(valid(over))).errors;
    expect(await errors({ publisher_ids: [pubA, 999_999] })).toEqual({
      publisher_ids: 'resource.ref_unknown',
    });
    expect(await errors({ ad_unit_ids: [999_999] })).toEqual({ ad_unit_ids: 'resource.ref_unknown' });
    expect(await errors({ publisher_ids: [pubA], ad_unit_ids: [unitB] })).toEqual({
      ad_unit_ids: 'deal.ad_unit_outside_publishers',
    });
    expect(await errors({ publisher_ids: [pubA, pubA] })).toEqual({ publisher_ids: 'deal.list_repeated' });
    // Ad units alone target their publishers.
    expect((await create(valid({ ad_unit_ids: [unitA, unitB] }))).statusCode).toBe(201);
    // The form's pickers: ad units of the chosen publishers, names by id.
    const units = await get<{ id: number; value: string; publisher_id: number }[]>(
      `/v1/deals/ad-units?q=deals-&publisher_ids=${pubB}`,
    );
    expect(units.data).toEqual([
      {
        id: unitB,
        value: 'deals-games.example/video_640x360',
        publisher_id: pubB,
        publisher: 'Deals Games Studio',
      },
    ]);
    expect(
      (await get<{ id: number }[]>(`/v1/deals/publishers?ids=${pubB},${pubA}`)).data.map((p) => p.id).sort(),
    ).toEqual([pubA, pubB].sort());
    expect((await get<{ value: string }[]>('/v1/deals/partners?q=deals%20other')).data).toEqual([
      { id: otherPartner, value: 'Deals Other DSP', side: 'ssp' },
    ]);
    expect((await get('/v1/deals/publishers?ids=1x')).http).toBe(400);
  });

  it("refuses a floor below the rule of the deal's inventory, naming the rule; another currency is not compared", async () => {
    const version = await setFloorRules([
      { keys: { demand_partner: String(partner) }, cpm: '2.00' },
      { keys: { publisher: String(pubA), ad_unit: unitAName }, cpm: '4.2500' },
      { keys: { site: 'deals-games.example', media_type: 'video' }, cpm: '6' },
      // Country depends on the impression: never the rule of a deal's inventory.
      { keys: { demand_partner: String(partner), country: 'US' }, cpm: '50' },
    ]);
    const [ruleIds] = await Promise.all([
      query<{ id: number; cpm: string }>(
        t.app.ctx.database,
        'SELECT id, cpm::text FROM floor_rules WHERE to_version IS NULL ORDER BY id',
      ),
    ]);
    const partnerRule = ruleIds[0]!.id;
    const unitRule = ruleIds[1]!.id;

    // Untargeted: the partner's rule (2.00). Below it is refused, in the field, with the rule.
    const low = await create(valid({ bidfloor: '1.99' }), { ...head, 'accept-language': 'es' });
    expect(low.statusCode).toBe(400);
    expect(body(low).errors).toEqual({ bidfloor: 'deal.floor_below_rule' });
    const params = (low.json() as { params: Record<string, string | number> }).params;
    expect(params).toEqual({
      cpm: '2',
      currency: 'USD',
      rule: partnerRule,
      keys: `demand_partner=${partner}`,
    });
    expect(translate('en', 'deal.floor_below_rule', params)).toBe(
      `Below the floor rule of this inventory: 2 USD (rule #${partnerRule}: demand_partner=${partner}). The deal floor must be at least that.`,
    );
    const equal = await create(valid({ bidfloor: '2.0000' }));
    expect(equal.statusCode).toBe(201);
    expect(body<Deal>(equal).data.bidfloor).toBe('2.0000');

    // Targeted at an ad unit: its publisher and ad unit rule (4.25) is the more specific one.
    const unit = await create(valid({ publisher_ids: [pubA], ad_unit_ids: [unitA], bidfloor: '3' }));
    expect(body(unit).errors).toEqual({ bidfloor: 'deal.floor_below_rule' });
    expect((unit.json() as { params: Record<string, unknown> }).params).toMatchObject({
      cpm: '4.25',
      rule: unitRule,
      keys: `publisher=${pubA}, ad_unit=${unitAName}`,
    });
    // Two pieces of inventory below two rules: the message gives the higher one (what the floor must reach).
    const both = await create(valid({ ad_unit_ids: [unitA, unitB], bidfloor: '3' }));
    expect((both.json() as { params: Record<string, unknown> }).params).toMatchObject({
      cpm: '6',
      keys: 'site=deals-games.example, media_type=video',
    });

    // A floor in euros is not compared with a rule in dollars: saved, and the check says why.
    const euros = body<Deal>(await create(valid({ bidfloor: '0.50', bidfloorcur: 'EUR' }))).data;
    const opened = (await get(`/v1/deals/${euros.id}`)).data;
    expect(opened.floor_below).toBe(false);
    expect(opened.floor_check).toEqual({
      version,
      below: false,
      checks: [
        {
          item: {
            publisher_id: null,
            publisher: null,
            ad_unit_id: null,
            ad_unit: null,
            site: null,
            media_type: null,
            size: null,
          },
          rule: {
            id: partnerRule,
            keys: { demand_partner: String(partner) },
            cpm: '2',
            currency: 'USD',
            type: 'hard',
          },
          verdict: 'not_comparable',
        },
      ],
    });
  });

  it('flags a deal whose floor a later rule change left below, and refuses its next save unless it is paused or archived', async () => {
    await setFloorRules([]);
    const made = body<Deal>(
      await create(
        valid({ code: 'D-LATER-1', bidfloor: '1.50', publisher_ids: [pubA, pubB], ad_unit_ids: [unitA] }),
      ),
    ).data;
    expect(made.floor_below).toBeUndefined();
    const none = (await get(`/v1/deals/${made.id}`)).data;
    expect(none.floor_below).toBe(false);
    expect(none.floor_check!.checks.map((c) => [c.item.ad_unit_id, c.item.publisher_id, c.verdict])).toEqual([
      [unitA, pubA, 'no_rule'],
      [null, pubB, 'no_rule'],
    ]);

    await setFloorRules([{ keys: { publisher: String(pubB) }, cpm: '1.75' }]);
    const now = (await get(`/v1/deals/${made.id}`)).data;
    expect(now.floor_below).toBe(true);
    expect(now.floor_check!.checks.map((c) => [c.item.publisher_id, c.verdict, c.rule?.cpm ?? null])).toEqual(
      [
        [pubA, 'no_rule', null],
        [pubB, 'below', '1.75'],
      ],
    );
    const listed = (await get<{ items: Deal[] }>('/v1/deals?f[code]=D-LATER-1')).data.items;
    expect(listed.map((d) => [d.code, d.floor_below])).toEqual([['D-LATER-1', true]]);

    expect(body(await update(now, { notes: 'a note' })).errors).toEqual({
      bidfloor: 'deal.floor_below_rule',
    });
    const paused = await update(now, { status: 'paused' });
    expect(paused.statusCode).toBe(200);
    const raised = await update(body<Deal>(paused).data, { status: 'active', bidfloor: '1.75' });
    expect(raised.statusCode).toBe(200);
    expect(body<Deal>(raised).data).toMatchObject({ status: 'active', bidfloor: '1.7500', version: 3 });

    // Audited, and a stale version is a conflict.
    const history = (
      await get<{ action: string; changes: Record<string, [unknown, unknown]> }[]>(
        `/v1/deals/${made.id}/history`,
      )
    ).data;
    expect(history[0]).toMatchObject({
      action: 'deal.update',
      changes: { status: ['paused', 'active'], bidfloor: ['1.5000', '1.7500'] },
    });
    expect((await update(now, { status: 'archived' })).statusCode).toBe(409);
    await setFloorRules([]);
  });

  it("gives a deal's delivery by UTC day from the warehouse, exact, with the win rate; money only for a money permission", async () => {
    const deal = body<Deal>(await create(valid({ code: 'D-DELIVERY-1' }))).data;
    const other = body<Deal>(await create(valid({ code: 'D-DELIVERY-2' }))).data;
    const row = (
      dealId: number,
      iso: string,
      impressions: number,
      bids: number,
      wins: number,
      revenueMicros: bigint,
      endpoint = 1,
      lvl = 1,
    ) => ({
      lvl,
      ts: new Date(iso),
      demandPartnerId: partner,
      supplyEndpointId: endpoint,
      dealId,
      bidRequests: bids * 4,
      bids,
      wins,
      impressions,
      revenueMicros,
      ...metrics,
    });
    await dbOf(t.app)
      .insert(statsRPartnerSupply)
      .values([
        // 2 March on two endpoints, 4 March on one; 3 March has nothing.
        row(deal.id, '2026-03-02T00:00:00Z', 1000, 300, 120, 2_500_000_001n, 1),
        row(deal.id, '2026-03-02T00:00:00Z', 500, 100, 30, 1_250_000_000n, 2),
        row(deal.id, '2026-03-04T00:00:00Z', 10, 3, 1, 999_999n, 1),
        // Outside the range, another deal, and the hour level: not counted.
        row(deal.id, '2026-03-05T00:00:00Z', 7777, 7, 7, 7_000_000n),
        row(other.id, '2026-03-02T00:00:00Z', 8888, 8, 8, 8_000_000n),
        row(deal.id, '2026-03-02T05:00:00Z', 9999, 9, 9, 9_000_000n, 1, 0),
      ]);
    const got = await get<DealDelivery>(`/v1/deals/${deal.id}/delivery?from=2026-03-02&to=2026-03-04`);
    expect(got.http).toBe(200);
    const raw = await query<{
      day: string;
      impressions: string;
      bids: string;
      wins: string;
      revenue: string;
    }>(
      t.app.ctx.database,
      `SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, sum(impressions)::text AS impressions, sum(bids)::text AS bids, sum(wins)::text AS wins, sum(revenue_micros)::text AS revenue
         FROM stats_r_partner_supply WHERE lvl = 1 AND deal_id = $1 AND ts >= '2026-03-02T00:00:00Z' AND ts < '2026-03-05T00:00:00Z' GROUP BY 1 ORDER BY 1`,
      [deal.id],
    );
    expect(raw.map((r) => [r.day, r.impressions, r.bids, r.wins, r.revenue])).toEqual([
      ['2026-03-02', '1500', '400', '150', '3750000001'],
      ['2026-03-04', '10', '3', '1', '999999'],
    ]);
    expect(got.data).toEqual({
      from: '2026-03-02',
      to: '2026-03-04',
      currency: 'USD',
      money_visible: true,
      days: [
        {
          day: '2026-03-02',
          impressions: 1500,
          bid_requests: 1600,
          bids: 400,
          wins: 150,
          revenue: '3750.00',
          win_rate: 37.5,
        },
        {
          day: '2026-03-03',
          impressions: 0,
          bid_requests: 0,
          bids: 0,
          wins: 0,
          revenue: '0.00',
          win_rate: null,
        },
        {
          day: '2026-03-04',
          impressions: 10,
          bid_requests: 12,
          bids: 3,
          wins: 1,
          revenue: '1.00',
          win_rate: 33.33,
        },
      ],
      // 3,750.000001 + 0.999999 = 3,751.000000 exactly (each day rounds on its own).
      totals: {
        impressions: 1510,
        bid_requests: 1612,
        bids: 403,
        wins: 151,
        revenue: '3751.00',
        win_rate: 37.47,
      },
    });

    // Without a money permission the revenue is withheld.
    const noMoney = (await userWithAcl(t.app, 'deals.nomoney@adtech.example', { '/v1/deals': ['read'] }))
      .headers;
    const hidden = (
      await get<DealDelivery>(`/v1/deals/${deal.id}/delivery?from=2026-03-02&to=2026-03-04`, noMoney)
    ).data;
    expect(hidden.money_visible).toBe(false);
    expect(hidden.days[0]).toEqual({
      day: '2026-03-02',
      impressions: 1500,
      bid_requests: 1600,
      bids: 400,
      wins: 150,
      revenue: null,
      win_rate: 37.5,
    });
    expect(hidden.totals.revenue).toBeNull();

    // The default range: 30 days to today (no warehouse load in the test database).
    const fallback = (await get<DealDelivery>(`/v1/deals/${deal.id}/delivery`)).data;
    expect(fallback.days).toHaveLength(30);
    expect(fallback.to).toBe(new Date().toISOString().slice(0, 10));
    for (const bad of [
      'from=2026-02-30&to=2026-03-01',
      'from=2026-03-05&to=2026-03-01',
      'from=2025-01-01&to=2026-03-01',
      'sort=day',
    ]) {
      expect((await get(`/v1/deals/${deal.id}/delivery?${bad}`)).http, bad).toBe(400);
    }
    expect((await get('/v1/deals/999999/delivery')).http).toBe(404);
  });

  it('gives the OpenRTB 2.6 pmp object, valid against the IAB schema', async () => {
    const pmpOf = async (over: Record<string, unknown>) => {
      const deal = body<Deal>(await create(valid(over))).data;
      const res = await get<OpenRtbPmp>(`/v1/deals/${deal.id}/pmp`);
      expect(res.http).toBe(200);
      expect(pmpProblems(res.data)).toEqual([]);
      return { code: deal.code, pmp: res.data };
    };
    const pmp = await pmpOf({ bidfloor: '2.75', wseat: ['seat-1', 'seat-2'], wadomain: ['brand.com'] });
    expect(pmp.pmp).toEqual({
      private_auction: 1,
      deals: [
        {
          id: pmp.code,
          bidfloor: 2.75,
          bidfloorcur: 'USD',
          at: 1,
          wseat: ['seat-1', 'seat-2'],
          wadomain: ['brand.com'],
        },
      ],
    });
    const preferred = await pmpOf({
      type: 'preferred',
      auction_type: 3,
      bidfloor: '12.3456',
      bidfloorcur: 'EUR',
    });
    expect(preferred.pmp).toEqual({
      private_auction: 0,
      deals: [{ id: preferred.code, bidfloor: 12.3456, bidfloorcur: 'EUR', at: 3 }],
    });
    const pg = await pmpOf({ type: 'pg', auction_type: 3, guaranteed_impressions: 100_000 });
    expect(pg.pmp).toEqual({
      private_auction: 1,
      deals: [{ id: pg.code, bidfloor: 2.5, bidfloorcur: 'USD', at: 3, guar: 1 }],
    });
    expect((await get('/v1/deals/999999/pmp')).http).toBe(404);
  });

  it('gives the demo deals terms that the deal rules take, each status, and a floor raise in some histories', () => {
    const catalog = buildCatalog({ seed: 7, publishers: 60 });
    const endMs = Date.UTC(2026, 10, 1);
    const { terms, edits } = demoDealTerms(catalog, endMs - 30 * 86_400_000, endMs);
    expect(terms).toHaveLength(catalog.deals.length);
    for (const [i, t] of terms.entries()) {
      const d = catalog.deals[i]!;
      const parsed = dealInputSchema.safeParse({
        code: d.code,
        name: d.name,
        demand_partner_id: d.partnerId,
        type: d.type,
        status: t.status,
        bidfloor: t.bidfloor,
        bidfloorcur: t.bidfloorcur,
        auction_type: t.auctionType,
        guaranteed_impressions: t.guaranteedImpressions,
        start_date: t.startDate,
        end_date: t.endDate,
        publisher_ids: t.publisherIds,
        ad_unit_ids: t.adUnitIds,
        wseat: t.wseat,
        wadomain: t.wadomain,
        notes: t.notes,
      });
      expect(parsed.error?.issues ?? [], d.code).toEqual([]);
    }
    expect(new Set(terms.map((t) => t.status))).toEqual(new Set(['draft', 'active', 'paused', 'archived']));
    expect(edits.length).toBeGreaterThan(3);
    expect(demoDealTerms(catalog, endMs - 30 * 86_400_000, endMs)).toEqual({ terms, edits });
  });

  it('lets a reader read but not write, refuses a role without /v1/deals, and offers no delete', async () => {
    const deal = body<Deal>(await create(valid())).data;
    const reader = (await userWithAcl(t.app, 'deals.reader@adtech.example', { '/v1/deals': ['read'] }))
      .headers;
    const none = (await userWithAcl(t.app, 'deals.none@adtech.example', { '/v1/companies': ['read'] }))
      .headers;
    expect((await get('/v1/deals', reader)).http).toBe(200);
    expect((await create(valid(), reader)).statusCode).toBe(403);
    expect(
      (
        await update(deal, { name: 'Renamed' }).then(() =>
          put(deal.id, { ...valid(), version: deal.version + 1 }, reader),
        )
      ).statusCode,
    ).toBe(403);
    for (const url of [
      '/v1/deals',
      `/v1/deals/${deal.id}`,
      `/v1/deals/${deal.id}/pmp`,
      `/v1/deals/${deal.id}/delivery`,
      `/v1/deals/${deal.id}/history`,
      '/v1/deals/ad-units',
      '/v1/deals/partners',
      '/v1/deals/publishers',
      '/v1/deals/export?format=csv',
    ]) {
      expect((await get(url, none)).http, url).toBe(403);
    }
    expect((await create(valid(), none)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/deals/${deal.id}`, headers: head })).statusCode,
    ).toBe(404);
  });
});
