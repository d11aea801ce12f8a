/**
 * The stand-in for the ad server's log shipping (docs/decisions/035-ssp-logs.md): simulated
 * auctions (core's simulateAuction) over the inventory we have — the publishers' sites, apps and
 * ad units, the live and testing SSP demand partners with their timeouts and media types, their
 * active deals and the floors (the current rules that name only a publisher and/or a partner, else
 * the partner's default floor) — written in batches with one INSERT … SELECT FROM
 * jsonb_to_recordset per batch. Deterministic: the same minutes, partners and rate give the same rows.
 */
import { auctionSeed, seededRandom, simulateAuction, type AuctionInventory } from '@backoffice/core/ssp-logs-auction';
import { SIZES } from '@backoffice/core/reports';
import type { Database } from '../../db/client.ts';
import { query, type QueryFn } from '../../reports-data/sql.ts';

interface AdUnitRow {
  ad_unit_id: number;
  ad_unit: string;
  format_id: number;
  size_id: number;
  site_id: number;
  site: string;
  environment_id: number;
  publisher_id: number;
  publisher: string;
  seller_id: string | null;
  seller_domain: string | null;
}
interface PartnerRow {
  id: number;
  name: string;
  timeout_ms: number;
  media_types: string[];
  default_floor: string;
  floor_currency: string;
}
interface DealRow {
  partner_id: number;
  code: string;
  type: string;
  bidfloor: string;
  bidfloorcur: string;
  auction_type: number;
  publisher_ids: number[];
}

export interface Inventory {
  units: AdUnitRow[];
  partners: PartnerRow[];
  deals: Map<number, DealRow[]>;
  floors: Map<string, string>;
  endpoints: { name: string; region: string }[];
}

const MEDIA = ['banner', 'video', 'native'] as const;
/** How many ad units one generation draws from (a sample keeps it cheap on a large catalogue). */
const UNIT_SAMPLE = 400;

/** The partners a sampling scope covers: the live and testing SSP partners (all, or those named). */
export async function scopePartners(q: QueryFn, partnerIds: readonly number[] | null): Promise<PartnerRow[]> {
  return q<PartnerRow>(
    `SELECT id, name, timeout_ms, media_types, default_floor::text AS default_floor, floor_currency
       FROM demand_partners
      WHERE side = 'ssp' AND status IN ('live', 'testing') AND ($1::int[] IS NULL OR id = ANY($1::int[]))
      ORDER BY id`,
    [partnerIds === null ? null : [...partnerIds]],
  );
}

export async function loadInventory(q: QueryFn, partnerIds: readonly number[] | null): Promise<Inventory> {
  const units = await q<AdUnitRow>(
    `SELECT u.id AS ad_unit_id, u.name AS ad_unit, u.format_id, u.size_id, s.id AS site_id, s.name AS site, s.environment_id,
            p.id AS publisher_id, p.name AS publisher, p.seller_id, p.seller_domain
       FROM ad_units u JOIN sites s ON s.id = u.site_id JOIN publishers p ON p.id = s.publisher_id
      WHERE p.side = 'ssp' AND p.status IN ('live', 'testing') AND u.format_id BETWEEN 1 AND 3
      ORDER BY (u.id * 2654435761) % 4294967296
      LIMIT ${UNIT_SAMPLE}`,
  );
  const partners = await scopePartners(q, partnerIds);
  const dealRows = await q<DealRow>(
    `SELECT demand_partner_id AS partner_id, code, type, bidfloor::text AS bidfloor, bidfloorcur, auction_type, publisher_ids
       FROM deals WHERE status = 'active' AND (end_date IS NULL OR end_date >= current_date)`,
  );
  const deals = new Map<number, DealRow[]>();
  for (const d of dealRows) deals.set(d.partner_id, [...(deals.get(d.partner_id) ?? []), d]);
  const floorRows = await q<{ publisher: string; demand_partner: string; cpm: string }>(
    `SELECT publisher, demand_partner, cpm::text AS cpm FROM floor_rules
      WHERE to_version IS NULL AND site = '*' AND ad_unit = '*' AND country = '*' AND device = '*' AND media_type = '*'
        AND size = '*' AND deal = '*' AND currency = 'USD'`,
  );
  const floors = new Map(floorRows.map((f) => [`${f.publisher}|${f.demand_partner}`, f.cpm]));
  const endpointRows = await q<{ name: string; region: string }>('SELECT name, region FROM supply_endpoints ORDER BY id');
  const endpoints = endpointRows.length > 0 ? endpointRows : [{ name: 'rtb-eu-west', region: 'eu' }];
  return { units, partners, deals, floors, endpoints };
}

/** The floor of a publisher and partner: the most specific current rule, else the partner's default. */
function floorOf(inv: Inventory, publisherId: number, partner: PartnerRow): string {
  return (
    inv.floors.get(`${publisherId}|${partner.id}`) ??
    inv.floors.get(`${publisherId}|*`) ??
    inv.floors.get(`*|${partner.id}`) ??
    partner.default_floor
  );
}

function sizeOf(sizeId: number, media: string): { w: number; h: number } {
  const m = /^(\d+)x(\d+)$/.exec(SIZES[sizeId - 1] ?? '');
  if (m) return { w: Number(m[1]), h: Number(m[2]) };
  return media === 'video' ? { w: 640, h: 360 } : { w: 300, h: 250 };
}

/** The inventory of one auction for a partner, drawn with `rnd` (an ad unit of a media type the partner buys when there is one). */
export function auctionInventory(inv: Inventory, partner: PartnerRow, rnd: () => number): AuctionInventory | null {
  if (inv.units.length === 0) return null;
  const buys = inv.units.filter((u) => partner.media_types.includes(MEDIA[u.format_id - 1] ?? ''));
  const pool = buys.length > 0 ? buys : inv.units;
  const u = pool[Math.floor(rnd() * pool.length) % pool.length]!;
  const media = MEDIA[u.format_id - 1] ?? 'banner';
  const { w, h } = sizeOf(u.size_id, media);
  const partnerDeals = (inv.deals.get(partner.id) ?? []).filter((d) => d.publisher_ids.length === 0 || d.publisher_ids.includes(u.publisher_id));
  const deal = partnerDeals.length > 0 && rnd() < 0.3 ? partnerDeals[Math.floor(rnd() * partnerDeals.length) % partnerDeals.length]! : null;
  const endpoint = inv.endpoints[Math.floor(rnd() * inv.endpoints.length) % inv.endpoints.length]!;
  return {
    publisher: { id: u.publisher_id, name: u.publisher, domain: u.seller_domain, seller_id: u.seller_id },
    site: { id: u.site_id, name: u.site, environment: u.environment_id === 1 ? 'site' : 'app' },
    ad_unit: { id: u.ad_unit_id, name: u.ad_unit, media_type: media, w, h },
    partner: { id: partner.id, name: partner.name, timeout_ms: partner.timeout_ms },
    endpoint,
    deal: deal ? { code: deal.code, type: deal.type, bidfloor: deal.bidfloor, bidfloorcur: deal.bidfloorcur, auction_type: deal.auction_type } : null,
    floor: floorOf(inv, u.publisher_id, partner),
    floor_currency: partner.floor_currency === 'EUR' ? 'EUR' : 'USD',
  };
}

/** A log row ready to insert. */
export interface LogRow {
  logged_at: string;
  request_id: string;
  imp_id: string;
  publisher_id: number;
  site_id: number;
  inventory: string;
  environment: string;
  media_type: string;
  partner_id: number;
  endpoint: string;
  region: string;
  deal_id: string | null;
  bid_request: unknown;
  bid_response: unknown;
  latency_ms: number;
  outcome: string;
  bid_price: string | null;
  bid_currency: string | null;
  clearing_price: string | null;
  floor: string;
  source: string;
}

/** One auction as a log row, or null when there is no inventory. */
export function auctionRow(inv: Inventory, partner: PartnerRow, at: number, seed: number, source: string): LogRow | null {
  const rnd = seededRandom(seed ^ 0x9e3779b9);
  const inventory = auctionInventory(inv, partner, rnd);
  if (!inventory) return null;
  const a = simulateAuction(inventory, at, seed);
  return {
    logged_at: new Date(at).toISOString(),
    request_id: a.request_id,
    imp_id: a.imp_id,
    publisher_id: inventory.publisher.id,
    site_id: inventory.site.id,
    inventory: inventory.site.name,
    environment: inventory.site.environment,
    media_type: inventory.ad_unit.media_type,
    partner_id: partner.id,
    endpoint: inventory.endpoint.name,
    region: inventory.endpoint.region,
    deal_id: inventory.deal?.code ?? null,
    bid_request: a.bid_request,
    bid_response: a.bid_response,
    latency_ms: a.latency_ms,
    outcome: a.outcome,
    bid_price: a.bid_price,
    bid_currency: a.bid_currency,
    clearing_price: a.clearing_price,
    floor: a.floor,
    source,
  };
}

const INSERT_BATCH = 250;

/** Writes log rows in batches (one statement per batch). */
export async function insertLogRows(q: QueryFn, rows: readonly LogRow[]): Promise<number> {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    await q(
      `INSERT INTO ssp_auction_logs (logged_at, request_id, imp_id, publisher_id, site_id, inventory, environment, media_type, partner_id, endpoint, region,
                                     deal_id, bid_request, bid_response, latency_ms, outcome, bid_price, bid_currency, clearing_price, floor, source)
       SELECT logged_at, request_id, imp_id, publisher_id, site_id, inventory, environment, media_type, partner_id, endpoint, region,
              deal_id, bid_request, CASE WHEN jsonb_typeof(bid_response) = 'null' THEN NULL ELSE bid_response END, latency_ms, outcome, bid_price, bid_currency, clearing_price, floor, source
         FROM jsonb_to_recordset($1::jsonb) AS r(logged_at timestamptz, request_id text, imp_id text, publisher_id int, site_id int, inventory text, environment text,
              media_type text, partner_id int, endpoint text, region text, deal_id text, bid_request jsonb, bid_response jsonb, latency_ms int, outcome text,
              bid_price numeric, bid_currency text, clearing_price numeric, floor numeric, source text)`,
      [JSON.stringify(rows.slice(i, i + INSERT_BATCH))],
    );
  }
  return rows.length;
}

/**
 * The sampled auctions of one minute: each in-scope partner is offered `perPartner` bid requests
 * spread over the minute, and each is logged with probability `ratePct` %. Only times inside
 * [from, to) are kept (a run's first and last minutes are partial).
 */
export function sampledMinute(inv: Inventory, minute: number, ratePct: number, perPartner: number, window: { from: number; to: number }, source: string): LogRow[] {
  const rows: LogRow[] = [];
  for (const partner of inv.partners) {
    for (let i = 0; i < perPartner; i++) {
      const seed = auctionSeed(minute, partner.id, i);
      const rnd = seededRandom(seed);
      if (rnd() * 100 >= ratePct) continue;
      const at = minute + Math.floor(((i + rnd()) * 60_000) / perPartner);
      if (at < window.from || at >= window.to) continue;
      const row = auctionRow(inv, partner, at, seed, source);
      if (row) rows.push(row);
    }
  }
  return rows;
}

/** Convenience for one-off callers outside a transaction. */
export async function loadInventoryFrom(database: Database, partnerIds: readonly number[] | null): Promise<Inventory> {
  return loadInventory((text, params) => query(database, text, params), partnerIds);
}
