/**
 * Deals (issue 20): the OpenRTB 2.6 `pmp` object a deal puts in a bid request, the floor check of
 * a deal against the floor rules of its inventory, and the shape of its delivery. Pure functions,
 * shared by the API (which answers them) and the web app (which shows them);
 * docs/decisions/019-deals.md.
 */
import { FLOOR_KEYS, FLOOR_WILDCARD, type FloorKey, type FloorRequest, type FloorType } from './floors.ts';
import type { AuctionType, DealType } from './resources/deals.ts';

// ---------------------------------------------------------------------------------------------
// The OpenRTB 2.6 pmp object (section 3.2.11 Pmp, 3.2.12 Deal)

/** OpenRTB 2.6 Deal, as this exchange fills it (numbers as JSON numbers, as the standard has them). */
export interface OpenRtbDeal {
  id: string;
  bidfloor: number;
  bidfloorcur: string;
  at: number;
  /** Omitted when empty: omission means no seat restriction. */
  wseat?: string[];
  /** Omitted when empty: omission means no advertiser restriction. */
  wadomain?: string[];
  /** 1 for a programmatic guaranteed deal (OpenRTB 2.6); omitted otherwise (default 0). */
  guar?: 0 | 1;
}

/** OpenRTB 2.6 Pmp. */
export interface OpenRtbPmp {
  /** 1: only the deals' buyers may bid (PMP, PG); 0: the open auction too (a preferred deal). */
  private_auction: 0 | 1;
  deals: OpenRtbDeal[];
}

export interface DealPmpSource {
  code: string;
  type: DealType;
  /** Exact decimal text (numeric(12,4): "2.5000"). */
  bidfloor: string;
  bidfloorcur: string;
  auction_type: AuctionType | number;
  wseat: readonly string[];
  wadomain: readonly string[];
}

/**
 * The `pmp` object of a bid request that carries this deal. A preferred deal gives its buyer a
 * first look at a fixed price, and the impression goes to the open auction when the buyer passes,
 * so its `private_auction` is 0; a private marketplace deal and a programmatic guaranteed deal are
 * for their buyers only (1). The floor becomes a JSON number: at most four decimals, which a double
 * prints back exactly as written.
 */
export function dealPmp(d: DealPmpSource): OpenRtbPmp {
  const deal: OpenRtbDeal = {
    id: d.code,
    bidfloor: Number(d.bidfloor),
    bidfloorcur: d.bidfloorcur,
    at: Number(d.auction_type),
  };
  if (d.wseat.length > 0) deal.wseat = [...d.wseat];
  if (d.wadomain.length > 0) deal.wadomain = [...d.wadomain];
  if (d.type === 'pg') deal.guar = 1;
  return { private_auction: d.type === 'preferred' ? 0 : 1, deals: [deal] };
}

// ---------------------------------------------------------------------------------------------
// The floor check

/** One piece of a deal's inventory: a targeted ad unit, a targeted publisher, or the partner alone. */
export interface DealInventoryItem {
  publisher_id: number | null;
  publisher: string | null;
  ad_unit_id: number | null;
  /** The ad unit's name (the floor rules' `ad_unit` key). */
  ad_unit: string | null;
  /** The ad unit's site or app bundle (the rules' `site` key). */
  site: string | null;
  media_type: string | null;
  size: string | null;
}

/**
 * The floor request of one piece of inventory: the deal's partner and code, and what the ad unit
 * fixes (publisher, site, ad unit, media type, size). Country and device are the impression's and
 * stay unknown, so a rule that names one does not apply here.
 */
export function inventoryRequest(partnerId: number, code: string, item: DealInventoryItem): FloorRequest {
  const request: FloorRequest = { demand_partner: String(partnerId), deal: code };
  if (item.publisher_id !== null) request.publisher = String(item.publisher_id);
  if (item.site) request.site = item.site;
  if (item.ad_unit) request.ad_unit = item.ad_unit;
  if (item.media_type) request.media_type = item.media_type;
  if (item.size) request.size = item.size;
  return request;
}

/**
 * The pieces of inventory a deal targets: each targeted ad unit, each targeted publisher none of
 * whose ad units is targeted, or (nothing targeted) the partner's whole inventory as one piece.
 */
export function dealInventory(
  publishers: readonly { id: number; name: string }[],
  adUnits: readonly {
    id: number;
    name: string;
    publisher_id: number;
    publisher: string;
    site: string;
    media_type: string | null;
    size: string | null;
  }[],
): DealInventoryItem[] {
  const items: DealInventoryItem[] = adUnits.map((u) => ({
    publisher_id: u.publisher_id,
    publisher: u.publisher,
    ad_unit_id: u.id,
    ad_unit: u.name,
    site: u.site,
    media_type: u.media_type,
    size: u.size,
  }));
  const covered = new Set(adUnits.map((u) => u.publisher_id));
  for (const p of publishers) {
    if (!covered.has(p.id))
      items.push({
        publisher_id: p.id,
        publisher: p.name,
        ad_unit_id: null,
        ad_unit: null,
        site: null,
        media_type: null,
        size: null,
      });
  }
  if (items.length === 0)
    items.push({
      publisher_id: null,
      publisher: null,
      ad_unit_id: null,
      ad_unit: null,
      site: null,
      media_type: null,
      size: null,
    });
  return items;
}

/** ok: at or above the rule; below: under it; not_comparable: another currency; no_rule: none applies. */
export type FloorVerdict = 'ok' | 'below' | 'not_comparable' | 'no_rule';

export interface AppliedRule {
  id: number | null;
  /** The rule's named keys (its `*` keys left out). */
  keys: Partial<Record<FloorKey, string>>;
  cpm: string;
  currency: string;
  type: FloorType;
}

export interface DealFloorCheck {
  item: DealInventoryItem;
  rule: AppliedRule | null;
  verdict: FloorVerdict;
}

/** The answer of the floor check: each piece of inventory, and the rule version it was made against. */
export interface DealFloorReport {
  /** The floor rules' version (0: no rule was ever saved). */
  version: number;
  checks: DealFloorCheck[];
  /** Whether any piece's rule is above the deal's floor. */
  below: boolean;
}

/** a compared with b, two non-negative decimal texts (any number of decimals): -1, 0 or 1. */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const [ai = '0', af = ''] = a.trim().split('.');
  const [bi = '0', bf = ''] = b.trim().split('.');
  const scale = Math.max(af.length, bf.length);
  const x = BigInt(ai + af.padEnd(scale, '0'));
  const y = BigInt(bi + bf.padEnd(scale, '0'));
  return x < y ? -1 : x > y ? 1 : 0;
}

/** How a deal's floor stands against the rule that applies. */
export function floorVerdict(
  bidfloor: string,
  currency: string,
  rule: Pick<AppliedRule, 'cpm' | 'currency'> | null,
): FloorVerdict {
  if (!rule) return 'no_rule';
  if (rule.currency.toUpperCase() !== currency.toUpperCase()) return 'not_comparable';
  return compareDecimals(bidfloor, rule.cpm) < 0 ? 'below' : 'ok';
}

/** A rule's named keys only. */
export function namedKeys(keys: Record<FloorKey, string>): Partial<Record<FloorKey, string>> {
  const out: Partial<Record<FloorKey, string>> = {};
  for (const k of FLOOR_KEYS) {
    const v = keys[k]?.trim();
    if (v && v !== FLOOR_WILDCARD) out[k] = v;
  }
  return out;
}

/** A rule's keys as the floors' CSV names them: `publisher=12, demand_partner=3`; `*` when none. */
export function ruleKeysText(keys: Partial<Record<FloorKey, string>>): string {
  const parts = FLOOR_KEYS.filter((k) => keys[k] !== undefined).map((k) => `${k}=${keys[k]}`);
  return parts.length > 0 ? parts.join(', ') : FLOOR_WILDCARD;
}

/**
 * The check that decides a save: of the rules above the deal's floor, the highest (the floor the
 * deal must reach); null when none is.
 */
export function blockingRule(checks: readonly DealFloorCheck[]): AppliedRule | null {
  let worst: AppliedRule | null = null;
  for (const c of checks) {
    if (c.verdict === 'below' && c.rule && (!worst || compareDecimals(c.rule.cpm, worst.cpm) > 0))
      worst = c.rule;
  }
  return worst;
}

// ---------------------------------------------------------------------------------------------
// Delivery

/** The delivery range when none is asked for: the last 30 UTC days of loaded data. */
export const DELIVERY_DEFAULT_DAYS = 30;
/** The longest delivery range (UTC days). */
export const DELIVERY_MAX_DAYS = 366;
/** The warehouse counts money in US dollars. */
export const DELIVERY_CURRENCY = 'USD';

export interface DeliveryFigures {
  impressions: number;
  bid_requests: number;
  bids: number;
  wins: number;
  /** Decimal text in USD (two decimals); null for people who may not see money. */
  revenue: string | null;
  /** wins / bids in percent (two decimals, as the reports compute it); null without bids. */
  win_rate: number | null;
}

export interface DeliveryDay extends DeliveryFigures {
  /** YYYY-MM-DD (UTC). */
  day: string;
}

export interface DealDelivery {
  from: string;
  to: string;
  currency: typeof DELIVERY_CURRENCY;
  money_visible: boolean;
  /** Every UTC day of the range, days without delivery as zeros. */
  days: DeliveryDay[];
  totals: DeliveryFigures;
}

/** wins / bids as a percentage with two decimals; null without bids. */
export function winRate(wins: number, bids: number): number | null {
  if (bids <= 0) return null;
  return Math.round((wins / bids) * 10_000) / 100;
}
