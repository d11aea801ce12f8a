/**
 * The commercial terms of the demo deals (`/partners/deals`): floor and currency, auction type,
 * dates, status, guaranteed impressions, targeting, seats and advertiser domains. Derived from each
 * catalogued deal's id, type and price multiplier and from the loaded range, without the random
 * generator (the catalogue's draws stay as they are), so a reload writes the same terms.
 * Programmatic guaranteed deals follow the rules of packages/core/src/resources/deals.ts (fixed
 * price, both dates, impressions); every deal is active over the loaded range except a few paused,
 * archived or still draft, so the list shows each status.
 */
import type { Catalog, DealDef } from './catalog.ts';
import { DAY_MS } from './rollups.ts';

export interface DealTerms {
  id: number;
  bidfloor: string;
  bidfloorcur: 'USD' | 'EUR';
  auctionType: 1 | 2 | 3;
  startDate: string;
  endDate: string | null;
  status: 'draft' | 'active' | 'paused' | 'archived';
  guaranteedImpressions: number | null;
  publisherIds: number[];
  adUnitIds: number[];
  wseat: string[];
  wadomain: string[];
  notes: string | null;
}

/** An earlier floor of a deal, as an edit in its history. */
export interface DealFloorEdit {
  dealId: number;
  atMs: number;
  before: string;
  after: string;
}

const ADVERTISER_DOMAINS = [
  'velocar.es',
  'solmarhotels.com',
  'bancoaurora.es',
  'fitlab.eu',
  'nordicshoes.com',
  'casaverde.it',
  'lumiphone.com',
  'travelia.fr',
];
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A CPM from cents, as a numeric(12,4) column reads back ("1.9500"). */
const cpm = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}00`;

function termsOf(deal: DealDef, catalog: Catalog, startMs: number, endMs: number): DealTerms {
  const i = deal.id;
  // About 1.20 to 3.80: the type's price multiplier, plus a step by deal.
  const cents = Math.round(150 * deal.price) + (i % 5) * 25;
  const pg = deal.type === 'pg';
  const start = startMs - (i % 20) * DAY_MS;
  const status: DealTerms['status'] =
    i % 13 === 0 ? 'archived' : i % 10 === 9 ? 'paused' : i % 17 === 5 ? 'draft' : 'active';
  const end =
    status === 'archived'
      ? endMs - (i % 7) * DAY_MS
      : pg
        ? endMs + (30 + (i % 3) * 30) * DAY_MS
        : i % 4 === 0
          ? null
          : endMs + (60 + i) * DAY_MS;
  // Every PG deal and every third other one targets publishers: PG deals a few of a publisher's ad units.
  const publisherIds: number[] = [];
  const adUnitIds: number[] = [];
  if (pg || i % 3 === 0) {
    const n = catalog.publishers.length;
    const first = catalog.publishers[(i * 7) % n]!.id;
    publisherIds.push(first);
    if (!pg) publisherIds.push(catalog.publishers[(i * 7 + 3) % n]!.id);
    if (pg) {
      const sites = new Set(catalog.sites.filter((s) => s.publisherId === first).map((s) => s.id));
      for (const u of catalog.adUnits) if (sites.has(u.siteId) && adUnitIds.length < 2) adUnitIds.push(u.id);
    }
  }
  return {
    id: i,
    bidfloor: cpm(cents),
    bidfloorcur: i % 7 === 3 ? 'EUR' : 'USD',
    // PG and preferred deals at a fixed price; PMP auctions first price, some second price.
    auctionType: deal.type === 'pmp' ? (i % 3 === 1 ? 2 : 1) : 3,
    startDate: day(start),
    endDate: end === null ? null : day(end),
    status,
    guaranteedImpressions: pg ? 250_000 * (2 + (i % 4)) : null,
    publisherIds,
    adUnitIds,
    wseat: i % 2 === 0 ? [`${deal.code.slice(2, 5).toLowerCase()}-seat-${100 + i}`] : [],
    wadomain:
      i % 4 === 1
        ? [
            ADVERTISER_DOMAINS[i % ADVERTISER_DOMAINS.length]!,
            ADVERTISER_DOMAINS[(i + 3) % ADVERTISER_DOMAINS.length]!,
          ]
        : [],
    notes: pg ? 'Guaranteed volume agreed in the insertion order; pacing reviewed weekly.' : null,
  };
}

/** The demo deals' terms, and a floor raise in the history of every fifth deal. */
export function demoDealTerms(
  catalog: Catalog,
  startMs: number,
  endMs: number,
): { terms: DealTerms[]; edits: DealFloorEdit[] } {
  const terms = catalog.deals.map((d) => termsOf(d, catalog, startMs, endMs));
  const edits = terms
    .filter((t) => t.id % 5 === 2)
    .map((t) => {
      const before = Math.max(0, Math.round(Number(t.bidfloor) * 100) - 30);
      return {
        dealId: t.id,
        atMs: startMs + (t.id % 10) * DAY_MS + 10 * 3_600_000,
        before: cpm(before),
        after: t.bidfloor,
      };
    });
  return { terms, edits };
}
