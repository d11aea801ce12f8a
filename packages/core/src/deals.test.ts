import { describe, expect, it } from 'vitest';
import {
  blockingRule,
  compareDecimals,
  dealInventory,
  dealPmp,
  floorVerdict,
  inventoryRequest,
  ruleKeysText,
  winRate,
  type DealFloorCheck,
  type DealPmpSource,
} from './deals.ts';
import { dealInputSchema, type DealInput } from './resources/deals.ts';
import { pmpProblems } from './standards/openrtb-pmp-schema.ts';
import { issuesToErrors } from './validation-errors.ts';

const source = (over: Partial<DealPmpSource> = {}): DealPmpSource => ({
  code: 'D-NIM-1001',
  type: 'pmp',
  bidfloor: '2.5000',
  bidfloorcur: 'USD',
  auction_type: 1,
  wseat: [],
  wadomain: [],
  ...over,
});

describe('dealPmp (OpenRTB 2.6 pmp)', () => {
  it('makes a private auction of a PMP deal, numbers as numbers, empty lists left out', () => {
    const pmp = dealPmp(source());
    expect(pmp).toEqual({
      private_auction: 1,
      deals: [{ id: 'D-NIM-1001', bidfloor: 2.5, bidfloorcur: 'USD', at: 1 }],
    });
    expect(pmpProblems(pmp)).toEqual([]);
    expect(JSON.stringify(pmp)).toBe(
      '{"private_auction":1,"deals":[{"id":"D-NIM-1001","bidfloor":2.5,"bidfloorcur":"USD","at":1}]}',
    );
  });

  it('opens the auction for a preferred deal, marks a PG deal guaranteed, and keeps seats and domains', () => {
    const preferred = dealPmp(
      source({
        type: 'preferred',
        auction_type: 3,
        bidfloor: '12.3456',
        bidfloorcur: 'EUR',
        wseat: ['seat-9', '77'],
        wadomain: ['brand.com'],
      }),
    );
    expect(preferred).toEqual({
      private_auction: 0,
      deals: [
        {
          id: 'D-NIM-1001',
          bidfloor: 12.3456,
          bidfloorcur: 'EUR',
          at: 3,
          wseat: ['seat-9', '77'],
          wadomain: ['brand.com'],
        },
      ],
    });
    expect(JSON.stringify(preferred)).toContain('"bidfloor":12.3456');
    const pg = dealPmp(source({ type: 'pg', auction_type: 3 }));
    expect(pg.private_auction).toBe(1);
    expect(pg.deals[0]!.guar).toBe(1);
    for (const pmp of [preferred, pg]) expect(pmpProblems(pmp)).toEqual([]);
  });

  it('is checked against the schema: a text floor, a negative floor or an unknown field fail', () => {
    expect(pmpProblems({ private_auction: 1, deals: [{ id: 'x', bidfloor: '2.5' }] }).join()).toMatch(
      /bidfloor/,
    );
    expect(pmpProblems({ private_auction: 1, deals: [{ id: 'x', bidfloor: -1 }] }).join()).toMatch(
      /bidfloor/,
    );
    expect(pmpProblems({ private_auction: 2, deals: [] }).join()).toMatch(/private_auction/);
    expect(pmpProblems({ private_auction: 1, deals: [{ bidfloor: 1 }] }).join()).toMatch(/id/);
    expect(pmpProblems({ private_auction: 1, deals: [{ id: 'x', floor: 1 }] })).toEqual([
      'unknown deal field floor',
    ]);
  });
});

const valid = (over: Partial<DealInput> = {}): DealInput => ({
  code: 'D-TEST-1',
  name: 'Sports premium',
  demand_partner_id: 3,
  type: 'pmp',
  status: 'active',
  bidfloor: '2.50',
  bidfloorcur: 'USD',
  auction_type: 1,
  guaranteed_impressions: null,
  start_date: null,
  end_date: null,
  publisher_ids: [],
  ad_unit_ids: [],
  wseat: [],
  wadomain: [],
  notes: null,
  ...over,
});
const errorsOf = (input: unknown) => {
  const r = dealInputSchema.safeParse(input);
  return r.success ? {} : issuesToErrors(r.error.issues);
};

describe('deal input rules', () => {
  it('takes a valid deal and normalises lists and empty dates', () => {
    const r = dealInputSchema.parse(
      valid({ wadomain: [' Brand.COM '], wseat: [' seat-1 '], start_date: '', notes: '  ' }),
    );
    expect(r).toMatchObject({ wadomain: ['brand.com'], wseat: ['seat-1'], start_date: null, notes: null });
  });

  it('refuses an unsafe deal id, a bad floor and bad lists', () => {
    expect(errorsOf(valid({ code: 'has space' }))).toEqual({ code: 'deal.code_invalid' });
    expect(errorsOf(valid({ code: 'x'.repeat(65) }))).toEqual({ code: 'deal.code_invalid' });
    expect(errorsOf(valid({ code: '' }))).toEqual({ code: 'error.required' });
    for (const bidfloor of ['-1', '1.23456', 'abc', '1000.01'])
      expect(errorsOf(valid({ bidfloor })), bidfloor).toEqual({ bidfloor: 'deal.bidfloor_invalid' });
    expect(errorsOf(valid({ bidfloor: '0' }))).toEqual({});
    expect(errorsOf(valid({ wadomain: ['not a domain'] }))).toEqual({ wadomain: 'deal.wadomain_invalid' });
    expect(errorsOf(valid({ wseat: ['a b'] }))).toEqual({ wseat: 'deal.wseat_invalid' });
    expect(errorsOf(valid({ wseat: ['a', 'a'] }))).toEqual({ wseat: 'deal.list_repeated' });
    expect(errorsOf(valid({ auction_type: 4 }))).toEqual({ auction_type: 'deal.at_invalid' });
    expect(errorsOf(valid({ demand_partner_id: null }))).toEqual({
      demand_partner_id: 'deal.partner_required',
    });
  });

  it('keeps dates in order', () => {
    expect(errorsOf(valid({ start_date: '2026-03-10', end_date: '2026-03-09' }))).toEqual({
      end_date: 'deal.end_before_start',
    });
    expect(errorsOf(valid({ start_date: '2026-03-10', end_date: '2026-03-10' }))).toEqual({});
    expect(errorsOf(valid({ start_date: '2026-02-30' }))).toEqual({ start_date: 'deal.date_invalid' });
  });

  it('asks a PG deal for impressions, both dates and a fixed price; only PG promises impressions', () => {
    expect(errorsOf(valid({ type: 'pg' }))).toEqual({
      guaranteed_impressions: 'deal.pg_impressions_required',
      start_date: 'deal.pg_dates_required',
      end_date: 'deal.pg_dates_required',
      auction_type: 'deal.pg_fixed_price',
    });
    expect(
      errorsOf(
        valid({
          type: 'pg',
          auction_type: 3,
          guaranteed_impressions: 1_000_000,
          start_date: '2026-01-01',
          end_date: '2026-01-31',
        }),
      ),
    ).toEqual({});
    expect(
      errorsOf(
        valid({
          type: 'pg',
          auction_type: 3,
          guaranteed_impressions: 0,
          start_date: '2026-01-01',
          end_date: '2026-01-31',
        }),
      ),
    ).toEqual({ guaranteed_impressions: 'deal.impressions_invalid' });
    expect(errorsOf(valid({ guaranteed_impressions: 5000 }))).toEqual({
      guaranteed_impressions: 'deal.impressions_pg_only',
    });
  });
});

describe('the floor check', () => {
  it('compares exact decimals whatever their scale', () => {
    expect(compareDecimals('2.5000', '2.5')).toBe(0);
    expect(compareDecimals('2.4999', '2.5')).toBe(-1);
    expect(compareDecimals('10', '9.9999')).toBe(1);
    expect(floorVerdict('2.4999', 'USD', { cpm: '2.5', currency: 'USD' })).toBe('below');
    expect(floorVerdict('2.5', 'usd', { cpm: '2.5', currency: 'USD' })).toBe('ok');
    expect(floorVerdict('1', 'EUR', { cpm: '2.5', currency: 'USD' })).toBe('not_comparable');
    expect(floorVerdict('1', 'EUR', null)).toBe('no_rule');
  });

  it('splits a deal into ad units, publishers without a targeted unit, or the whole inventory', () => {
    const unit = {
      id: 7,
      name: 'news.example/banner_300x250',
      publisher_id: 2,
      publisher: 'News',
      site: 'news.example',
      media_type: 'banner',
      size: '300x250',
    };
    const items = dealInventory(
      [
        { id: 2, name: 'News' },
        { id: 5, name: 'Games' },
      ],
      [unit],
    );
    expect(items.map((i) => [i.publisher_id, i.ad_unit_id])).toEqual([
      [2, 7],
      [5, null],
    ]);
    expect(inventoryRequest(3, 'D-1', items[0]!)).toEqual({
      demand_partner: '3',
      deal: 'D-1',
      publisher: '2',
      site: 'news.example',
      ad_unit: 'news.example/banner_300x250',
      media_type: 'banner',
      size: '300x250',
    });
    expect(inventoryRequest(3, 'D-1', items[1]!)).toEqual({
      demand_partner: '3',
      deal: 'D-1',
      publisher: '5',
    });
    expect(dealInventory([], []).map((i) => inventoryRequest(3, 'D-1', i))).toEqual([
      { demand_partner: '3', deal: 'D-1' },
    ]);
  });

  it('blocks a save on the highest rule above the floor', () => {
    const item = dealInventory([], [])[0]!;
    const rule = (id: number, cpm: string) => ({
      id,
      keys: { publisher: String(id) },
      cpm,
      currency: 'USD',
      type: 'hard' as const,
    });
    const checks: DealFloorCheck[] = [
      { item, rule: rule(1, '3'), verdict: 'below' },
      { item, rule: rule(2, '4.5'), verdict: 'below' },
      { item, rule: rule(3, '9'), verdict: 'not_comparable' },
      { item, rule: null, verdict: 'no_rule' },
    ];
    expect(blockingRule(checks)?.id).toBe(2);
    expect(blockingRule(checks.slice(2))).toBeNull();
    expect(ruleKeysText({ publisher: '12', demand_partner: '3' })).toBe('publisher=12, demand_partner=3');
    expect(ruleKeysText({})).toBe('*');
  });

  it('rates wins over bids', () => {
    expect(winRate(1, 3)).toBe(33.33);
    expect(winRate(0, 0)).toBeNull();
  });
});
