/**
 * Deterministic generator of the ad-stats warehouse: hourly fact rows and 1-minute QPS series.
 *
 * Shapes: daily seasonality in each country's local time, weekly seasonality (weekends lower),
 * long-tail publishers (Zipf), country, device and partner mixes per environment, a few partners
 * whose QPS cap sits just above their usual peak (flat tops), occasional timeout spikes, and the
 * demo story: the cap of partner 1 (Nimbus Exchange) is cut at 13:58 Europe/Madrid on the last full
 * day, so its bid requests and revenue drop from 14:00 (the QPS graph shows the cap change as an
 * annotation and outgoing QPS flat on the new cap).
 *
 * The exchange's traffic volume does not depend on `scale`: scale only sets how many fact rows the
 * same traffic is split into (about scale x 1000 rows per day), so figures look alike at any size.
 * Same options, same rows (seeded PRNG per hour).
 */
import { wallTimeOf, zonedTimeToEpoch } from '@backoffice/core/reports';
import {
  buildCatalog,
  COUNTRY_ECPM,
  COUNTRY_REGION,
  COUNTRY_UTC_OFFSET,
  COUNTRY_WEIGHTS,
  DEVICE,
  DEVICE_MIX,
  ENV,
  FORMAT,
  NEAR_CAP_PARTNER_IDS,
  STORY_PARTNER_ID,
  type Catalog,
  type PartnerDef,
} from './catalog.ts';
import { createRng, hashSeed, WeightedSampler, type Rng } from './prng.ts';

/** Marks the audit records the generator writes (so a reload replaces them). */
export const DEMO_STORY_SOURCE = 'demo-data';
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** Ad requests per second of the whole exchange at its typical daily peak. */
export const PEAK_AD_RPS = 60_000;
/** Share of ad requests sent to the partner the row belongs to (before any QPS cap). */
const REACH = 0.95;

export interface GenerateOptions {
  seed: number;
  days: number;
  /** About scale x 1000 fact rows per day. */
  scale: number;
  /** Exclusive end of the data, aligned to the hour (UTC). */
  endMs: number;
  /** Days (ending at endMs) that get the 1-minute QPS series. */
  qpsDays: number;
  publishers?: number;
  /** Zone of the story's "14:00" (default Europe/Madrid). */
  storyTimeZone?: string;
}

/** Column order of a fact row (also the COPY column list). */
export const FACT_COLUMNS = [
  'ts', 'publisher_id', 'site_id', 'ad_unit_id', 'supply_endpoint_id', 'demand_partner_id', 'deal_id', 'country_id',
  'device_id', 'os_id', 'format_id', 'size_id', 'environment_id', 'ad_requests', 'bid_requests', 'bids', 'wins',
  'impressions', 'clicks', 'timeouts', 'errors', 'revenue_micros', 'cost_micros',
] as const;
/** A fact row: [tsMs, ...ids, ...metrics] in FACT_COLUMNS order (money in integer micro-units). */
export type FactRow = number[];

export const QPS_COLUMNS = ['ts', 'kind', 'entity_id', 'requests', 'cap_qps', 'bids', 'timeouts', 'errors', 'latency_p95_ms'] as const;
/** [tsMs, kind (1 partner, 2 endpoint), entityId, requests, capQps, bids, timeouts, errors, latencyP95Ms] */
export type QpsRow = number[];
export const QPS_KIND = { demand: 1, supply: 2 } as const;

export interface CapChange {
  kind: 'demand' | 'supply';
  entityId: number;
  atMs: number;
  from: number;
  to: number;
  /** Mail (local part) of the demo user who made the change. */
  actor: string;
}

export interface HourBatch {
  tsMs: number;
  rows: FactRow[];
  qps: QpsRow[];
}

// ---------------------------------------------------------------------------------------------
// Seasonality

function diurnal(localHour: number): number {
  const x = ((localHour % 24) + 24) % 24;
  const base = Math.pow(0.5 - 0.5 * Math.cos((2 * Math.PI * (x - 3.5)) / 24), 1.2);
  return 0.22 + 0.78 * base + 0.18 * Math.exp(-((x - 21) ** 2) / 4);
}

function weekly(dow: number): number {
  // 0 = Sunday
  return dow === 0 ? 0.84 : dow === 6 ? 0.88 : dow === 1 ? 1.02 : 1;
}

const COUNTRY_SUM = COUNTRY_WEIGHTS.reduce((a, b) => a + b, 0);

/** Relative traffic of each country at an instant (local diurnal x weekly shape). */
function countryTraffic(tMs: number, out: Float64Array): number {
  let total = 0;
  for (let c = 0; c < COUNTRY_WEIGHTS.length; c++) {
    const local = tMs + COUNTRY_UTC_OFFSET[c]! * HOUR_MS;
    const d = new Date(local);
    const hour = d.getUTCHours() + d.getUTCMinutes() / 60;
    const v = (COUNTRY_WEIGHTS[c]! / COUNTRY_SUM) * diurnal(hour) * weekly(d.getUTCDay());
    out[c] = v;
    total += v;
  }
  return total;
}

/** Slow multi-week swell so that 90 days are not flat. */
function trend(tMs: number): number {
  const day = tMs / DAY_MS;
  return 1 + 0.06 * Math.sin((2 * Math.PI * day) / 41) + 0.03 * Math.sin((2 * Math.PI * day) / 13);
}

const scratch = new Float64Array(64);
const indexCache = new Map<number, number>();
/** Traffic index of the exchange at an instant (about 1 at the usual daily peak). Memoised per instant. */
export function trafficIndex(tMs: number): number {
  let v = indexCache.get(tMs);
  if (v === undefined) {
    if (indexCache.size > 200_000) indexCache.clear();
    v = (countryTraffic(tMs, scratch) * trend(tMs)) / PEAK_INDEX;
    indexCache.set(tMs, v);
  }
  return v;
}

const PEAK_INDEX = (() => {
  // Peak of the reference week (2024-01-01 is a Monday).
  let max = 0;
  const buf = new Float64Array(64);
  for (let h = 0; h < 168; h++) max = Math.max(max, countryTraffic(Date.UTC(2024, 0, 1) + h * HOUR_MS, buf));
  return max;
})();

// ---------------------------------------------------------------------------------------------
// Scenario: partner demand, caps and their changes, timeout spikes

export class Scenario {
  readonly catalog: Catalog;
  readonly opts: Required<Omit<GenerateOptions, 'publishers'>> & { publishers: number };
  readonly startMs: number;
  /** Effective share of ad requests per partner (after the environment mix). */
  readonly partnerShare: number[];
  readonly capChanges: CapChange[];
  /** Initial caps (before any change) per partner and endpoint. */
  readonly partnerCap0: number[];
  readonly endpointCap0: number[];
  /** The instant of the story's cap cut. */
  readonly storyMs: number;

  constructor(opts: GenerateOptions) {
    this.opts = { storyTimeZone: 'Europe/Madrid', publishers: 300, ...opts };
    this.startMs = opts.endMs - opts.days * DAY_MS;
    this.catalog = buildCatalog({ seed: opts.seed, publishers: this.opts.publishers });
    const envWeight = [0, 0, 0];
    for (const u of this.catalog.adUnits) envWeight[u.environmentId - 1]! += u.weight;
    const envTotal = envWeight.reduce((a, b) => a + b, 0);
    this.partnerShare = this.catalog.partners.map(() => 0);
    for (let e = 0; e < 3; e++) {
      const weights = this.catalog.partners.map((p) => p.share * p.envAffinity[e]!);
      const sum = weights.reduce((a, b) => a + b, 0);
      weights.forEach((w, i) => (this.partnerShare[i]! += (envWeight[e]! / envTotal) * (w / sum)));
    }
    this.partnerCap0 = this.catalog.partners.map((p, i) => roundCap(this.partnerShare[i]! * PEAK_AD_RPS * REACH * p.capRatio));
    this.endpointCap0 = this.catalog.endpoints.map(() => 0);

    // Story: the cut at 13:58 local on the last full local day of the data.
    const tz = this.opts.storyTimeZone;
    const lastLocal = wallTimeOf(opts.endMs - 1, tz);
    const dayBefore = new Date(Date.UTC(lastLocal.year, lastLocal.month - 1, lastLocal.day - 1));
    this.storyMs = zonedTimeToEpoch(
      { year: dayBefore.getUTCFullYear(), month: dayBefore.getUTCMonth() + 1, day: dayBefore.getUTCDate(), hour: 13, minute: 58, second: 0 },
      tz,
    );
    const storyIdx = STORY_PARTNER_ID - 1;
    const storyFrom = this.partnerCap0[storyIdx]!;
    const storyTo = roundCap(this.partnerShare[storyIdx]! * PEAK_AD_RPS * REACH * trafficIndex(this.storyMs + 2 * 60_000) * 0.3);
    const nearCap = NEAR_CAP_PARTNER_IDS[1] - 1;
    const changes: CapChange[] = [
      // An earlier, harmless raise on the story partner (shows history on the graph).
      { kind: 'demand', entityId: STORY_PARTNER_ID, atMs: this.storyMs - 6 * DAY_MS + 3 * HOUR_MS, from: roundCap(storyFrom * 0.8), to: storyFrom, actor: 'demand.lead' },
      { kind: 'demand', entityId: STORY_PARTNER_ID, atMs: this.storyMs, from: storyFrom, to: storyTo, actor: 'tech' },
      // A near-cap partner whose cap was lowered ten days ago.
      { kind: 'demand', entityId: nearCap + 1, atMs: opts.endMs - 10 * DAY_MS + 9 * HOUR_MS, from: roundCap(this.partnerCap0[nearCap]! * 1.4), to: this.partnerCap0[nearCap]!, actor: 'demand.lead' },
    ];
    this.capChanges = changes.filter((c) => c.atMs >= this.startMs - 30 * DAY_MS && c.atMs < opts.endMs).sort((a, b) => a.atMs - b.atMs);
    // Before the near-cap partner's change its cap was the higher one.
    for (const c of this.capChanges) {
      if (c.kind === 'demand' && c.entityId === nearCap + 1) this.partnerCap0[nearCap] = c.from;
      if (c.kind === 'demand' && c.entityId === STORY_PARTNER_ID && c.to === storyFrom) this.partnerCap0[storyIdx] = c.from;
    }
  }

  /** The partner's cap (QPS) in force at an instant. */
  partnerCap(partnerId: number, tMs: number): number {
    let cap = this.partnerCap0[partnerId - 1]!;
    for (const c of this.capChanges) if (c.kind === 'demand' && c.entityId === partnerId && c.atMs <= tMs) cap = c.to;
    return cap;
  }

  /** Current caps (what the entity tables hold). */
  currentPartnerCap(partnerId: number): number {
    return this.partnerCap(partnerId, this.opts.endMs);
  }

  /** Bid-request demand of a partner (QPS) at an instant, before its cap. */
  partnerDemand(partnerId: number, tMs: number): number {
    return this.partnerShare[partnerId - 1]! * PEAK_AD_RPS * REACH * trafficIndex(tMs);
  }

  /** Share of the partner's demand that got through its cap during an hour (mean over minutes). */
  partnerThrottle(partnerId: number, hourMs: number): number {
    let sent = 0;
    let demand = 0;
    for (let m = 0; m < 60; m += 2) {
      const t = hourMs + m * 60_000 + 30_000;
      const d = this.partnerDemand(partnerId, t);
      sent += Math.min(d, this.partnerCap(partnerId, t));
      demand += d;
    }
    return demand > 0 ? sent / demand : 1;
  }

  /** Timeout multiplier of a partner at an instant (1 outside spikes). */
  timeoutSpike(partnerId: number, tMs: number): number {
    const day = Math.floor(tMs / DAY_MS);
    for (const d of [day, day - 1]) {
      const spike = this.spikeOf(partnerId, d);
      if (spike && tMs >= spike.start && tMs < spike.end) return spike.factor;
    }
    return 1;
  }

  private readonly spikes = new Map<string, { start: number; end: number; factor: number } | null>();
  /** The timeout spike that starts on a UTC day for a partner, if any (about one day in eight). */
  private spikeOf(partnerId: number, day: number) {
    const key = `${partnerId}:${day}`;
    let spike = this.spikes.get(key);
    if (spike === undefined) {
      const rng = createRng(hashSeed(this.opts.seed, 'spike', partnerId, day));
      if (rng() > 0.12) spike = null;
      else {
        const start = day * DAY_MS + Math.floor(rng() * 24) * HOUR_MS;
        spike = { start, end: start + (1 + Math.floor(rng() * 3)) * HOUR_MS, factor: 8 + rng() * 10 };
      }
      this.spikes.set(key, spike);
    }
    return spike;
  }
}

function roundCap(qps: number): number {
  return Math.max(100, Math.round(qps / 50) * 50);
}

// ---------------------------------------------------------------------------------------------
// Facts

const FORMAT_ECPM: Record<number, number> = { [FORMAT.banner]: 1, [FORMAT.video]: 4.5, [FORMAT.native]: 1.4, [FORMAT.audio]: 2 };
const FORMAT_RENDER: Record<number, number> = { [FORMAT.banner]: 0.93, [FORMAT.video]: 0.84, [FORMAT.native]: 0.95, [FORMAT.audio]: 0.9 };
const FORMAT_CTR: Record<number, number> = { [FORMAT.banner]: 0.0016, [FORMAT.video]: 0.004, [FORMAT.native]: 0.006, [FORMAT.audio]: 0.0008 };
const FORMAT_BID: Record<number, number> = { [FORMAT.banner]: 1, [FORMAT.video]: 0.8, [FORMAT.native]: 0.9, [FORMAT.audio]: 0.5 };
const DEVICE_ECPM: Record<number, number> = { [DEVICE.desktop]: 1.1, [DEVICE.phone]: 0.9, [DEVICE.tablet]: 1, [DEVICE.ctv]: 1.8 };

/** Generates the data hour by hour (oldest first). */
export function* generateHours(opts: GenerateOptions, scenario = new Scenario(opts)): Generator<HourBatch> {
  const { catalog } = scenario;
  const hours = opts.days * 24;
  const unitSampler = new WeightedSampler(catalog.adUnits, catalog.adUnits.map((u) => u.weight));
  const partnerByEnv = [ENV.web, ENV.app, ENV.ctv].map(
    (env) => new WeightedSampler(catalog.partners, catalog.partners.map((p) => p.share * p.envAffinity[env - 1]!)),
  );
  const mixByEnv: Record<number, WeightedSampler<number>> = {};
  for (const env of [ENV.web, ENV.app, ENV.ctv]) {
    const mix = DEVICE_MIX[env]!;
    mixByEnv[env] = new WeightedSampler(mix.map((_, i) => i), mix.map((m) => m.w));
  }
  const dealsByPartner = catalog.partners.map((p) => catalog.deals.filter((d) => d.partnerId === p.id));
  const endpointsBy = (region: string, env: 'web' | 'app' | 'ctv') =>
    catalog.endpoints.filter((e) => e.env === env && (env !== 'web' || e.region === region)).map((e) => e.id);
  const webEndpoints: Record<string, number[]> = {};
  for (const r of ['eu', 'us', 'apac', 'latam']) webEndpoints[r] = endpointsBy(r, 'web');
  const appEndpoint = endpointsBy('eu', 'app')[0]!;
  const ctvEndpoint = endpointsBy('us', 'ctv')[0]!;
  const countries = Array.from({ length: COUNTRY_WEIGHTS.length }, (_, i) => i + 1);
  const countryW = new Float64Array(64);
  const rowsPerHour = (opts.scale * 1000) / 24;
  const qpsStart = opts.endMs - opts.qpsDays * DAY_MS;

  for (let h = 0; h < hours; h++) {
    const tsMs = scenario.startMs + h * HOUR_MS;
    const rng = createRng(hashSeed(opts.seed, 'hour', tsMs / HOUR_MS));
    const mid = tsMs + HOUR_MS / 2;
    const index = trafficIndex(mid);
    const hourAdRequests = PEAK_AD_RPS * 3600 * index;
    countryTraffic(mid, countryW);
    const countrySampler = new WeightedSampler(countries, Array.from(countryW.subarray(0, countries.length)));
    const target = Math.max(1, Math.round(rowsPerHour * (0.45 + 0.55 * Math.min(index, 1.3)) * 1.24));

    // Draw slices of traffic until the hour has `target` distinct rows.
    const counts = new Map<number, number>();
    let draws = 0;
    const maxDraws = target * 30;
    while (counts.size < target && draws < maxDraws) {
      draws++;
      const unit = unitSampler.sample(rng);
      const pub = catalog.publishers[unit.publisherId - 1]!;
      const country = rng() < 0.55 ? pub.homeCountry : countrySampler.sample(rng);
      const partner = partnerByEnv[unit.environmentId - 1]!.sample(rng);
      const mix = mixByEnv[unit.environmentId]!.sample(rng);
      const deals = dealsByPartner[partner.id - 1]!;
      const deal = deals.length > 0 && rng() < 0.12 ? rng.pick(deals).id : 0;
      let endpoint: number;
      if (unit.environmentId === ENV.app) endpoint = appEndpoint;
      else if (unit.environmentId === ENV.ctv) endpoint = ctvEndpoint;
      else {
        const list = webEndpoints[COUNTRY_REGION[country - 1]!]!;
        endpoint = list[rng() < 0.6 ? 0 : list.length - 1]!;
      }
      const key = ((((unit.id * 64 + country) * 32 + partner.id) * 16 + mix) * 64 + deal) * 16 + endpoint;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }

    const perDraw = hourAdRequests / draws;
    const throttle = catalog.partners.map((p) => scenario.partnerThrottle(p.id, tsMs));
    const spikes = catalog.partners.map((p) => scenario.timeoutSpike(p.id, mid));
    const rows: FactRow[] = [];
    const keys = [...counts.keys()].sort((a, b) => a - b);
    for (const key of keys) {
      const n = counts.get(key)!;
      let k = key;
      const endpoint = k % 16;
      k = Math.floor(k / 16);
      const deal = k % 64;
      k = Math.floor(k / 64);
      const mixIdx = k % 16;
      k = Math.floor(k / 16);
      const partnerId = k % 32;
      k = Math.floor(k / 32);
      const country = k % 64;
      const unitId = Math.floor(k / 64);
      const unit = catalog.adUnits[unitId - 1]!;
      const pub = catalog.publishers[unit.publisherId - 1]!;
      const partner = catalog.partners[partnerId - 1]!;
      const mix = DEVICE_MIX[unit.environmentId]![mixIdx]!;
      rows.push(
        factRow(rng, {
          tsMs, unit, pubTake: pub.take, partner, country, device: mix.device, os: mix.os, deal,
          dealPrice: deal ? catalog.deals[deal - 1]!.price : 1, endpoint,
          adRequests: n * perDraw * rng.noise(0.25), throttle: throttle[partnerId - 1]!, spike: spikes[partnerId - 1]!,
        }),
      );
    }

    const qps: QpsRow[] = tsMs >= qpsStart ? qpsRows(scenario, tsMs, rows) : [];
    yield { tsMs, rows, qps };
  }
}

interface SliceInput {
  tsMs: number;
  unit: Catalog['adUnits'][number];
  pubTake: number;
  partner: PartnerDef;
  country: number;
  device: number;
  os: number;
  deal: number;
  dealPrice: number;
  endpoint: number;
  adRequests: number;
  throttle: number;
  spike: number;
}

function factRow(rng: Rng, s: SliceInput): FactRow {
  const p = s.partner;
  const adRequests = Math.max(1, Math.round(s.adRequests));
  const bidRequests = Math.round(adRequests * REACH * s.throttle);
  const timeouts = Math.min(bidRequests, Math.round(bidRequests * Math.min(0.6, p.timeoutRate * s.spike) * rng.noise(0.2)));
  const errors = Math.min(bidRequests - timeouts, Math.round(bidRequests * p.errorRate * rng.noise(0.3)));
  const responded = bidRequests - timeouts - errors;
  const bids = Math.min(responded, Math.round(responded * p.bidRate * FORMAT_BID[s.unit.formatId]! * (s.deal ? 1.6 : 1) * rng.noise(0.2)));
  const wins = Math.min(bids, Math.round(bids * Math.min(0.95, p.winRate * (s.deal ? 1.5 : 1)) * rng.noise(0.15)));
  const impressions = Math.min(wins, Math.round(wins * FORMAT_RENDER[s.unit.formatId]! * rng.noise(0.03)));
  const clicks = Math.min(impressions, Math.round(impressions * FORMAT_CTR[s.unit.formatId]! * rng.noise(0.4)));
  const ecpm = COUNTRY_ECPM[s.country - 1]! * FORMAT_ECPM[s.unit.formatId]! * DEVICE_ECPM[s.device]! * p.price * s.dealPrice * rng.noise(0.2);
  // eCPM is per 1000 impressions: micro-units per impression = ecpm x 1e6 / 1000.
  const revenue = Math.round(impressions * ecpm * 1000);
  const cost = Math.round(revenue * (1 - s.pubTake));
  return [
    s.tsMs, s.unit.publisherId, s.unit.siteId, s.unit.id, s.endpoint, p.id, s.deal, s.country, s.device, s.os,
    s.unit.formatId, s.unit.sizeId, s.unit.environmentId, adRequests, bidRequests, bids, wins, impressions, clicks,
    timeouts, errors, revenue, cost,
  ];
}

// ---------------------------------------------------------------------------------------------
// QPS series (1-minute grain)

function qpsRows(scenario: Scenario, hourMs: number, rows: FactRow[]): QpsRow[] {
  const out: QpsRow[] = [];
  const { catalog } = scenario;
  const seed = scenario.opts.seed;
  for (const p of catalog.partners) {
    const rng = createRng(hashSeed(seed, 'qps-p', p.id, hourMs / HOUR_MS));
    const baseLatency = 60 + (p.id * 37) % 140;
    for (let m = 0; m < 60; m++) {
      const t = hourMs + m * 60_000;
      const cap = scenario.partnerCap(p.id, t);
      const demand = scenario.partnerDemand(p.id, t + 30_000) * rng.noise(0.04);
      const qps = Math.min(demand, cap);
      const requests = Math.round(qps * 60);
      const spike = scenario.timeoutSpike(p.id, t);
      const timeouts = Math.round(requests * Math.min(0.6, p.timeoutRate * spike) * rng.noise(0.2));
      const errors = Math.round(requests * p.errorRate * rng.noise(0.3));
      const bids = Math.round((requests - timeouts - errors) * p.bidRate * rng.noise(0.1));
      const load = demand / cap;
      const latency = Math.round(baseLatency * (1 + 0.6 * Math.max(0, load - 0.8)) * (spike > 1 ? 4 + rng() : 1) * rng.noise(0.08));
      out.push([t, QPS_KIND.demand, p.id, requests, cap, bids, timeouts, errors, Math.min(latency, 30_000)]);
    }
  }
  // Supply endpoints: the hour's ad requests of each endpoint, spread over minutes with the traffic shape.
  const perEndpoint = new Map<number, { requests: number; bids: number; timeouts: number; errors: number }>();
  for (const r of rows) {
    const e = perEndpoint.get(r[4]!) ?? { requests: 0, bids: 0, timeouts: 0, errors: 0 };
    e.requests += r[13]!;
    e.bids += r[15]!;
    e.timeouts += r[19]!;
    e.errors += r[20]!;
    perEndpoint.set(r[4]!, e);
  }
  const shape = Array.from({ length: 60 }, (_, m) => trafficIndex(hourMs + m * 60_000 + 30_000));
  const shapeSum = shape.reduce((a, b) => a + b, 0);
  for (const e of catalog.endpoints) {
    const totals = perEndpoint.get(e.id) ?? { requests: 0, bids: 0, timeouts: 0, errors: 0 };
    const rng = createRng(hashSeed(seed, 'qps-e', e.id, hourMs / HOUR_MS));
    const cap = endpointCap(scenario, e.id);
    for (let m = 0; m < 60; m++) {
      const w = (shape[m]! / shapeSum) * rng.noise(0.03);
      out.push([
        hourMs + m * 60_000, QPS_KIND.supply, e.id, Math.round(totals.requests * w), cap, Math.round(totals.bids * w),
        Math.round(totals.timeouts * w), Math.round(totals.errors * w), Math.round((35 + e.id * 4) * rng.noise(0.1)),
      ]);
    }
  }
  return out;
}

/** An endpoint's cap: 1.6x its expected peak share of the exchange's traffic. */
export function endpointCap(scenario: Scenario, endpointId: number): number {
  const e = scenario.catalog.endpoints[endpointId - 1]!;
  const share = e.env === 'ctv' ? 0.08 : e.env === 'app' ? 0.28 : e.region === 'us' ? 0.16 : e.region === 'eu' ? 0.13 : 0.05;
  return roundCap(PEAK_AD_RPS * share * 1.6);
}
