/**
 * The simulated auctions of the SSP logs against the IAB Tech Lab's OpenRTB 2.6 JSON Schemas:
 * every media type, environment, deal or none, and outcome the generator makes; and the check
 * itself catches a broken request, a broken response and a field 2.6 does not define.
 */
import { describe, expect, it } from 'vitest';
import { simulateAuction, type AuctionInventory } from '../ssp-logs-auction.ts';
import { openRtbProblems } from './openrtb-auction-schema.ts';

const inventory = (media: 'banner' | 'video' | 'native', env: 'site' | 'app', deal: boolean): AuctionInventory => ({
  publisher: { id: 7, name: 'Diario Levante Digital', domain: 'diariolevante.example', seller_id: 'pub-1007' },
  site: { id: 31, name: env === 'site' ? 'www.diariolevante.example' : 'com.diariolevante.news', environment: env },
  ad_unit: { id: 310, name: `dl_${media}_top`, media_type: media, w: media === 'video' ? 640 : 300, h: media === 'video' ? 360 : 250 },
  partner: { id: 4, name: 'Nimbus Exchange', timeout_ms: 250 },
  endpoint: { name: 'eu-west-rtb', region: 'eu' },
  deal: deal ? { code: 'NMB-PMP-0042', type: 'pmp', bidfloor: '2.5000', bidfloorcur: 'USD', auction_type: 1 } : null,
  floor: '0.4500',
  floor_currency: 'USD',
});

describe('simulated auctions against the OpenRTB 2.6 schemas', () => {
  it('every shape the generator makes is a valid 2.6 BidRequest and BidResponse, with no field 2.6 does not define', () => {
    const outcomes = new Set<string>();
    let responses = 0;
    for (const media of ['banner', 'video', 'native'] as const)
      for (const env of ['site', 'app'] as const)
        for (const deal of [false, true])
          for (let seed = 1; seed <= 40; seed++) {
            const a = simulateAuction(inventory(media, env, deal), Date.UTC(2026, 0, 5, 10), seed * 7919 + (deal ? 1 : 0));
            outcomes.add(a.outcome);
            expect(openRtbProblems('request', a.bid_request), `${media}/${env}/${deal}/${seed}`).toEqual([]);
            expect((a.bid_request as { id: string }).id).toBe(a.request_id);
            if (a.bid_response) {
              responses++;
              expect(openRtbProblems('response', a.bid_response), `${media}/${env}/${deal}/${seed} response`).toEqual([]);
              const bid = (a.bid_response as { seatbid: { bid: { price: number; dealid?: string; impid: string }[] }[] }).seatbid[0]!.bid[0]!;
              expect(bid.impid).toBe(a.imp_id);
              expect(bid.price.toFixed(4)).toBe(a.bid_price);
              expect(bid.dealid).toBe(deal ? 'NMB-PMP-0042' : undefined);
            } else expect(['no_bid', 'timeout', 'error']).toContain(a.outcome);
          }
    expect([...outcomes].sort()).toEqual(['below_floor', 'error', 'lost', 'no_bid', 'timeout', 'won']);
    expect(responses).toBeGreaterThan(100);
  });

  it('is deterministic: the same seed gives the same auction', () => {
    const inv = inventory('banner', 'site', false);
    expect(simulateAuction(inv, 0, 42)).toEqual(simulateAuction(inv, 0, 42));
    expect(simulateAuction(inv, 0, 42).request_id).not.toBe(simulateAuction(inv, 0, 43).request_id);
  });

  it('the check fails on what the standard refuses', () => {
    const a = simulateAuction(inventory('video', 'site', false), 0, 5);
    const req = structuredClone(a.bid_request) as { imp: { video?: { mimes?: unknown } }[]; device: Record<string, unknown> };
    delete req.imp[0]!.video!.mimes;
    expect(openRtbProblems('request', req).join()).toMatch(/mimes/);
    expect(openRtbProblems('request', { id: 'x', imp: [] }).join()).toMatch(/fewer than 1/);
    expect(openRtbProblems('request', { id: 'x', imp: [{ id: '1' }], device: { devicetyp: 4 } })).toEqual(['unknown field request.device.devicetyp']);
    expect(openRtbProblems('request', { id: 'x', imp: [{ id: '1', ext: { anything: 1 } }] })).toEqual([]);
    expect(openRtbProblems('response', { id: 'x', seatbid: [{ bid: [{ id: 'b', impid: '1' }] }] }).join()).toMatch(/price/);
    expect(openRtbProblems('response', { id: 'x', seatbid: [{ bid: [{ id: 'b', impid: '1', price: -1 }] }] }).join()).toMatch(/>= 0/);
    expect(openRtbProblems('request', { id: 'x', imp: [{ id: '1' }], source: { schain: { complete: 1, ver: '1.0', nodes: [{ asi: 'a.example' }] } } }).join()).toMatch(/sid/);
  });
});
