/**
 * Deals' rules and figures that need the database (docs/decisions/019-deals.md):
 * - the targeting check (publishers and ad units exist; an ad unit belongs to a targeted publisher);
 * - the floor check: each piece of the deal's inventory resolved against the current floor rules
 *   (`currentFloorIndex`, cached per rule version), and the rule a save must reach;
 * - the delivery by UTC day from the warehouse's partner × supply × deal rollup (level 1).
 * The floor check reads outside any transaction (the rule index is shared and cached); the
 * targeting check runs in the save's transaction.
 */
import { addDays } from '@backoffice/core/dates';
import { microsToDecimal } from '@backoffice/core/budgets';
import {
  DELIVERY_CURRENCY,
  DELIVERY_DEFAULT_DAYS,
  dealInventory,
  floorVerdict,
  inventoryRequest,
  namedKeys,
  winRate,
  type DealDelivery,
  type DealFloorReport,
  type DeliveryDay,
} from '@backoffice/core/deals';
import { FORMATS, SIZES } from '@backoffice/core/reports';
import { eq, inArray } from 'drizzle-orm';
import type { Db, Database } from '../../db/client.ts';
import { adUnits, publishers, sites } from '../../db/schema-reports.ts';
import { query } from '../../reports-data/sql.ts';
import { datasetRange } from '../reports/service.ts';
import { currentFloorIndex } from '../floors/store.ts';

type Row = Record<string, unknown>;

/** What the floor check needs of a deal. */
export interface DealFloorSource {
  demand_partner_id: number;
  code: string;
  bidfloor: string;
  bidfloorcur: string;
  publisher_ids: readonly number[];
  ad_unit_ids: readonly number[];
}

interface AdUnitRow {
  id: number;
  name: string;
  publisher_id: number;
  publisher: string;
  site: string;
  format_id: number;
  size_id: number;
}

const ids = (v: unknown): number[] =>
  Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x)) : [];

/** The floor check of several deals (a list page): two queries for their inventory, then the index. */
export async function floorReports(
  database: Database,
  deals: readonly DealFloorSource[],
): Promise<DealFloorReport[]> {
  const publisherIds = [...new Set(deals.flatMap((d) => ids(d.publisher_ids)))];
  const unitIds = [...new Set(deals.flatMap((d) => ids(d.ad_unit_ids)))];
  const [pubs, units, floors] = await Promise.all([
    publisherIds.length > 0
      ? query<{ id: number; name: string }>(
          database,
          'SELECT id, name FROM publishers WHERE id = ANY($1::int4[])',
          [publisherIds],
        )
      : [],
    unitIds.length > 0
      ? query<AdUnitRow>(
          database,
          `SELECT u.id, u.name, s.publisher_id, p.name AS publisher, s.name AS site, u.format_id, u.size_id
             FROM ad_units u JOIN sites s ON s.id = u.site_id JOIN publishers p ON p.id = s.publisher_id
            WHERE u.id = ANY($1::int4[])`,
          [unitIds],
        )
      : [],
    currentFloorIndex(database),
  ]);
  const pubById = new Map(pubs.map((p) => [Number(p.id), { id: Number(p.id), name: p.name }]));
  const unitById = new Map(
    units.map((u) => [
      Number(u.id),
      {
        id: Number(u.id),
        name: u.name,
        publisher_id: Number(u.publisher_id),
        publisher: u.publisher,
        site: u.site,
        media_type: FORMATS[Number(u.format_id) - 1] ?? null,
        size: SIZES[Number(u.size_id) - 1] ?? null,
      },
    ]),
  );
  return deals.map((d) => {
    const items = dealInventory(
      ids(d.publisher_ids).flatMap((id) => pubById.get(id) ?? []),
      ids(d.ad_unit_ids).flatMap((id) => unitById.get(id) ?? []),
    );
    const checks = items.map((item) => {
      const winner = floors.index.resolve(
        inventoryRequest(d.demand_partner_id, d.code, item),
        null,
        0,
      ).winner;
      const rule = winner
        ? {
            id: winner.rule.id ?? null,
            keys: namedKeys(winner.rule.keys),
            cpm: winner.rule.cpm,
            currency: winner.rule.currency,
            type: winner.rule.type,
          }
        : null;
      return { item, rule, verdict: floorVerdict(d.bidfloor, d.bidfloorcur, rule) };
    });
    return { version: floors.version, checks, below: checks.some((c) => c.verdict === 'below') };
  });
}

/** The targeting's own rules, in the save's transaction: field errors, or none. */
export async function targetingErrors(d: Db, data: Row): Promise<Record<string, string> | undefined> {
  const publisherIds = ids(data.publisher_ids);
  const unitIds = ids(data.ad_unit_ids);
  const errors: Record<string, string> = {};
  if (publisherIds.length > 0) {
    const found = await d
      .select({ id: publishers.id })
      .from(publishers)
      .where(inArray(publishers.id, publisherIds));
    if (found.length !== publisherIds.length) errors.publisher_ids = 'resource.ref_unknown';
  }
  if (unitIds.length > 0) {
    const found = await d
      .select({ id: adUnits.id, publisherId: sites.publisherId })
      .from(adUnits)
      .innerJoin(sites, eq(sites.id, adUnits.siteId))
      .where(inArray(adUnits.id, unitIds));
    if (found.length !== unitIds.length) errors.ad_unit_ids = 'resource.ref_unknown';
    else if (publisherIds.length > 0 && found.some((u) => !publisherIds.includes(u.publisherId)))
      errors.ad_unit_ids = 'deal.ad_unit_outside_publishers';
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}

const todayUtc = () => new Date().toISOString().slice(0, 10);

/** The default delivery range: the last 30 UTC days up to today, or to the last day of loaded data when earlier. */
export async function defaultDeliveryRange(database: Database): Promise<{ from: string; to: string }> {
  const range = await datasetRange(database);
  const lastLoaded = range ? new Date(range.endMs - 1).toISOString().slice(0, 10) : null;
  const to = lastLoaded && lastLoaded < todayUtc() ? lastLoaded : todayUtc();
  return { from: addDays(to, -(DELIVERY_DEFAULT_DAYS - 1)), to };
}

/**
 * A deal's delivery per UTC day of [from, to]: impressions, bid requests, bids, wins, revenue (exact
 * micro-units, shown with two decimals; null without `money`) and the win rate (wins / bids). One
 * query on the rollup's day level; days without a row are zeros.
 */
export async function dealDelivery(
  database: Database,
  dealId: number,
  from: string,
  to: string,
  money: boolean,
): Promise<DealDelivery> {
  const rows = await query<{
    day: string;
    impressions: string;
    bid_requests: string;
    bids: string;
    wins: string;
    revenue: string;
  }>(
    database,
    `SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, sum(impressions)::text AS impressions, sum(bid_requests)::text AS bid_requests,
            sum(bids)::text AS bids, sum(wins)::text AS wins, sum(revenue_micros)::text AS revenue
       FROM stats_r_partner_supply
      WHERE lvl = 1 AND deal_id = $1 AND ts >= $2::timestamptz AND ts < $3::timestamptz
      GROUP BY ts ORDER BY ts`,
    [dealId, `${from}T00:00:00Z`, `${addDays(to, 1)}T00:00:00Z`],
  );
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const days: DeliveryDay[] = [];
  const total = { impressions: 0, bid_requests: 0, bids: 0, wins: 0, revenue: 0n };
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const r = byDay.get(day);
    const figures = {
      impressions: Number(r?.impressions ?? 0),
      bid_requests: Number(r?.bid_requests ?? 0),
      bids: Number(r?.bids ?? 0),
      wins: Number(r?.wins ?? 0),
    };
    const revenue = BigInt(r?.revenue ?? '0');
    total.impressions += figures.impressions;
    total.bid_requests += figures.bid_requests;
    total.bids += figures.bids;
    total.wins += figures.wins;
    total.revenue += revenue;
    days.push({
      day,
      ...figures,
      revenue: money ? microsToDecimal(revenue) : null,
      win_rate: winRate(figures.wins, figures.bids),
    });
  }
  return {
    from,
    to,
    currency: DELIVERY_CURRENCY,
    money_visible: money,
    days,
    totals: {
      impressions: total.impressions,
      bid_requests: total.bid_requests,
      bids: total.bids,
      wins: total.wins,
      revenue: money ? microsToDecimal(total.revenue) : null,
      win_rate: winRate(total.wins, total.bids),
    },
  };
}
