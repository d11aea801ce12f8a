/**
 * One simulated auction for one demand partner, as the ad server would log it: the OpenRTB 2.6
 * BidRequest the exchange sent, the partner's BidResponse (null on no bid, timeout or error), the
 * latency and the outcome (docs/decisions/035-ssp-logs.md). Pure and seeded: the same inventory,
 * time and seed give the same auction. Used by the demo seed and by the sampler job, which stands
 * in for the ad server's log shipping; the tests validate every shape against the IAB Tech Lab's
 * OpenRTB 2.6 JSON Schemas (standards/openrtb-2.6/).
 *
 * Prices are CPMs in micro-units (integers) until they become the JSON numbers OpenRTB carries
 * (at most 4 decimals, which a double prints back as written) and the decimal text we store.
 */
import type { SspLogOutcome } from './ssp-logs.ts';

/** Our exchange's domain: the `asi` of the first supply chain node. */
export const EXCHANGE_DOMAIN = 'adtech.example';

export interface AuctionInventory {
  publisher: { id: number; name: string; domain: string | null; seller_id: string | null };
  /** A site (domain) or an app (bundle). */
  site: { id: number; name: string; environment: 'site' | 'app' };
  ad_unit: { id: number; name: string; media_type: 'banner' | 'video' | 'native'; w: number; h: number };
  partner: { id: number; name: string; timeout_ms: number };
  endpoint: { name: string; region: string };
  /** A deal of this partner that targets the inventory. */
  deal: { code: string; type: string; bidfloor: string; bidfloorcur: string; auction_type: number } | null;
  /** The floor the request carries (CPM decimal text) and its currency. */
  floor: string;
  floor_currency: string;
}

export interface SimulatedAuction {
  request_id: string;
  imp_id: string;
  bid_request: Record<string, unknown>;
  bid_response: Record<string, unknown> | null;
  latency_ms: number;
  outcome: SspLogOutcome;
  bid_price: string | null;
  bid_currency: string | null;
  clearing_price: string | null;
  floor: string;
}

/** mulberry32: a small seeded generator (uniform in [0, 1)). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length) % list.length]!;
const hex = (rnd: () => number, n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');
/** A v4-shaped UUID from the generator (request and transaction ids). */
export const uuidFrom = (rnd: () => number) => `${hex(rnd, 8)}-${hex(rnd, 4)}-4${hex(rnd, 3)}-${pick(rnd, ['8', '9', 'a', 'b'])}${hex(rnd, 3)}-${hex(rnd, 12)}`;

/** CPM decimal text to micro-units, and back (4 decimals). */
export function cpmToMicros(text: string): number {
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!m) return 0;
  return Number(m[1]) * 1_000_000 + Number((m[2] ?? '').padEnd(6, '0'));
}
export const microsToCpm = (micros: number) => `${Math.floor(micros / 1_000_000)}.${String(Math.floor((micros % 1_000_000) / 100)).padStart(4, '0')}`;
/** The JSON number OpenRTB carries for a CPM (4 decimals at most). */
const cpmNumber = (micros: number) => Number(microsToCpm(micros));
/** Micro-units rounded down to a tenth of a cent (prices are quoted with 4 decimals). */
const round4 = (micros: number) => Math.floor(micros / 100) * 100;

interface Viewer {
  country: string;
  gdpr: boolean;
  ip: string;
  language: string;
  lat: number;
  lon: number;
}
const VIEWERS: readonly Viewer[] = [
  { country: 'ESP', gdpr: true, ip: '83.44.121.0', language: 'es', lat: 40.4168, lon: -3.7038 },
  { country: 'ESP', gdpr: true, ip: '88.12.76.0', language: 'ca', lat: 41.3874, lon: 2.1686 },
  { country: 'DEU', gdpr: true, ip: '91.64.20.0', language: 'de', lat: 52.52, lon: 13.405 },
  { country: 'FRA', gdpr: true, ip: '90.85.33.0', language: 'fr', lat: 48.8566, lon: 2.3522 },
  { country: 'ITA', gdpr: true, ip: '93.44.187.0', language: 'it', lat: 45.4642, lon: 9.19 },
  { country: 'GBR', gdpr: false, ip: '86.150.4.0', language: 'en', lat: 51.5072, lon: -0.1276 },
  { country: 'USA', gdpr: false, ip: '73.162.9.0', language: 'en', lat: 40.7128, lon: -74.006 },
  { country: 'MEX', gdpr: false, ip: '189.203.10.0', language: 'es', lat: 19.4326, lon: -99.1332 },
];

interface DeviceKind {
  devicetype: number;
  os: string;
  osv: string;
  make: string;
  model: string;
  ua: string;
  w: number;
  h: number;
  app: boolean;
}
const WEB_DEVICES: readonly DeviceKind[] = [
  { devicetype: 2, os: 'Windows', osv: '10', make: 'Microsoft', model: 'PC', ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', w: 1920, h: 1080, app: false },
  { devicetype: 2, os: 'macOS', osv: '14.6', make: 'Apple', model: 'Macintosh', ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15', w: 1440, h: 900, app: false },
  { devicetype: 4, os: 'iOS', osv: '18.1', make: 'Apple', model: 'iPhone', ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1', w: 393, h: 852, app: false },
  { devicetype: 4, os: 'Android', osv: '14', make: 'Samsung', model: 'SM-S921B', ua: 'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', w: 412, h: 915, app: false },
];
const APP_DEVICES: readonly DeviceKind[] = [
  { devicetype: 4, os: 'Android', osv: '14', make: 'Google', model: 'Pixel 8', ua: 'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.0.0 Mobile Safari/537.36', w: 412, h: 915, app: true },
  { devicetype: 4, os: 'iOS', osv: '17.6', make: 'Apple', model: 'iPhone15,3', ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148', w: 430, h: 932, app: true },
  { devicetype: 5, os: 'Android', osv: '13', make: 'Samsung', model: 'SM-X710', ua: 'Mozilla/5.0 (Linux; Android 13; SM-X710 Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.0.0 Safari/537.36', w: 1600, h: 2560, app: true },
];
const ADVERTISERS = ['iberiaexpress.com', 'zalando.es', 'decathlon.es', 'bbva.es', 'seat.es', 'lidl.de', 'booking.com', 'renfe.com', 'vodafone.es', 'carrefour.fr'] as const;
const IAB_CATEGORIES = ['IAB1', 'IAB12', 'IAB17', 'IAB19', 'IAB9', 'IAB20'] as const;
/** A TCF v2 consent string (shape only: the demo's users never consented to anything real). */
const TCF_CONSENT = 'CQHdMAAQHdMAAAKA1AENBQFsAP_gAEPgAAwIKiNV_G__bXlr8X736ftkeY1f9_h77sQxBhfJs-4FzLvW_JwX32EzNE36tqYKmRIAu3bBIQNlHJDUTVCgaogVryDMakWcoTNKJ6BkiFMRO2dYCF5vmwtj-QKY5vr993dx2D-t_dv83dzyz4VHn3a5_2e0WJCdA58tDfv9bROb-9IPd_58v4v0_F_rE2_eT1l_tevp7D9-cts7_XW-9_fff79Ll_-mBwUcALMNCogDLIkJCDQMIIEAKgrCAigQAAAAkDRAQAmDAp2BgEusJEAIAUAAwQAgABRkACAAASABCIAIAAgQAAQCBQABAAQDAAQEAAAAAQBAQMAAwEAAAAAIAQSAAAAEgAAAQgCAIAAAAAAAAAAAAAA';

/**
 * One auction for one partner. `seed` decides everything random (the sampler and the demo derive
 * it from the minute and the position, so a retried run writes the same rows).
 */
export function simulateAuction(inv: AuctionInventory, at: number, seed: number): SimulatedAuction {
  const rnd = seededRandom(seed);
  const requestId = uuidFrom(rnd);
  const impId = '1';
  const viewer = pick(rnd, VIEWERS);
  const isApp = inv.site.environment === 'app';
  const device = pick(rnd, isApp ? APP_DEVICES : WEB_DEVICES);
  const tmax = Math.max(100, Math.min(1500, inv.partner.timeout_ms));
  const floorMicros = round4(cpmToMicros(inv.floor));
  const dealFloorMicros = inv.deal ? round4(cpmToMicros(inv.deal.bidfloor)) : 0;
  const effectiveFloor = Math.max(floorMicros, dealFloorMicros);
  const gpid = `/${inv.publisher.id}/${inv.ad_unit.name}`;

  const imp: Record<string, unknown> = {
    id: impId,
    tagid: inv.ad_unit.name,
    bidfloor: cpmNumber(floorMicros),
    bidfloorcur: inv.floor_currency,
    secure: 1,
    ext: { gpid, data: { adserver: { name: 'gam', adslot: gpid } } },
  };
  if (inv.ad_unit.media_type === 'banner') {
    imp.banner = { w: inv.ad_unit.w, h: inv.ad_unit.h, format: [{ w: inv.ad_unit.w, h: inv.ad_unit.h }], pos: pick(rnd, [1, 3]), api: [3, 5], topframe: isApp ? 0 : 1 };
  } else if (inv.ad_unit.media_type === 'video') {
    imp.video = {
      mimes: ['video/mp4', 'video/webm', 'application/javascript'],
      minduration: 5,
      maxduration: 30,
      protocols: [2, 3, 5, 6, 7, 8],
      w: inv.ad_unit.w,
      h: inv.ad_unit.h,
      startdelay: 0,
      plcmt: isApp ? 1 : pick(rnd, [1, 2]),
      linearity: 1,
      skip: 1,
      skipafter: 5,
      playbackmethod: [isApp ? 1 : 6],
      api: [2, 7],
      pos: 1,
    };
  } else {
    imp.native = {
      ver: '1.2',
      request: JSON.stringify({
        ver: '1.2',
        context: 2,
        plcmttype: 1,
        plcmtcnt: 1,
        assets: [
          { id: 1, required: 1, title: { len: 90 } },
          { id: 2, required: 1, img: { type: 3, wmin: 300, hmin: 157 } },
          { id: 3, required: 0, data: { type: 2, len: 140 } },
          { id: 4, required: 0, data: { type: 1 } },
        ],
        eventtrackers: [{ event: 1, methods: [1] }],
      }),
      api: [3],
    };
  }
  if (isApp) imp.displaymanager = 'Google Mobile Ads SDK';
  if (isApp) imp.displaymanagerver = '23.6.0';
  if (inv.deal) {
    imp.pmp = {
      private_auction: inv.deal.type === 'preferred' ? 0 : 1,
      deals: [{ id: inv.deal.code, bidfloor: cpmNumber(dealFloorMicros), bidfloorcur: inv.deal.bidfloorcur, at: inv.deal.auction_type }],
    };
  }

  const publisher: Record<string, unknown> = { id: String(inv.publisher.id), name: inv.publisher.name };
  if (inv.publisher.domain) publisher.domain = inv.publisher.domain;
  const request: Record<string, unknown> = {
    id: requestId,
    imp: [imp],
  };
  if (isApp) {
    const bundle = inv.site.name;
    const ios = device.os === 'iOS';
    request.app = {
      id: String(inv.site.id),
      name: bundle.split('.').slice(-1)[0] ?? bundle,
      bundle: ios ? String(100_000_000 + inv.site.id * 7919) : bundle,
      storeurl: ios ? `https://apps.apple.com/app/id${100_000_000 + inv.site.id * 7919}` : `https://play.google.com/store/apps/details?id=${bundle}`,
      cat: [pick(rnd, IAB_CATEGORIES)],
      ver: `${1 + (inv.site.id % 9)}.${inv.site.id % 20}.0`,
      privacypolicy: 1,
      publisher,
    };
  } else {
    const domain = inv.site.name;
    request.site = {
      id: String(inv.site.id),
      domain,
      page: `https://${domain}/${pick(rnd, ['noticias', 'deportes', 'economia', 'tecnologia', 'cultura', 'viajes'])}/${hex(rnd, 6)}.html`,
      ref: pick(rnd, ['https://www.google.com/', 'https://www.bing.com/', `https://${domain}/`]),
      cat: [pick(rnd, IAB_CATEGORIES)],
      mobile: device.devicetype === 4 ? 1 : 0,
      privacypolicy: 1,
      publisher,
    };
  }
  request.device = {
    ua: device.ua,
    sua: { source: 2, platform: { brand: device.os }, mobile: device.devicetype === 4 ? 1 : 0 },
    ip: viewer.ip,
    geo: { country: viewer.country, lat: viewer.lat, lon: viewer.lon, type: 2 },
    devicetype: device.devicetype,
    make: device.make,
    model: device.model,
    os: device.os,
    osv: device.osv,
    w: device.w,
    h: device.h,
    js: 1,
    language: viewer.language,
    connectiontype: pick(rnd, [2, 6, 7]),
    ...(isApp ? { ifa: uuidFrom(rnd), lmt: 0 } : {}),
  };
  request.user = {
    id: hex(rnd, 32),
    buyeruid: `${inv.partner.id}-${hex(rnd, 16)}`,
    ...(viewer.gdpr ? { consent: TCF_CONSENT } : {}),
    eids: [{ source: 'id5-sync.com', uids: [{ id: `ID5*${hex(rnd, 40)}`, atype: 1 }] }],
  };
  request.at = inv.deal ? inv.deal.auction_type : 1;
  request.tmax = tmax;
  request.cur = ['USD'];
  request.bcat = ['IAB25', 'IAB26'];
  request.badv = ['competitor-ssp.example'];
  request.source = {
    fd: 0,
    tid: uuidFrom(rnd),
    schain: {
      complete: 1,
      ver: '1.0',
      nodes: [{ asi: EXCHANGE_DOMAIN, sid: inv.publisher.seller_id ?? `pub-${inv.publisher.id}`, hp: 1, rid: requestId }],
    },
  };
  request.regs = viewer.gdpr
    ? { gdpr: 1, gpp: 'DBABMA~' + TCF_CONSENT.slice(0, 60), gpp_sid: [2] }
    : viewer.country === 'USA'
      ? { gdpr: 0, us_privacy: '1YNN', gpp: 'DBABzw~1YNN', gpp_sid: [7] }
      : { gdpr: 0 };
  request.ext = {
    prebid: { channel: { name: 'pbjs', version: '9.27.0' }, targeting: { pricegranularity: 'dense' } },
    exchange: { endpoint: inv.endpoint.name, region: inv.endpoint.region },
  };

  // The outcome and the partner's answer.
  const roll = rnd();
  const outcome: SspLogOutcome =
    roll < 0.36 ? 'no_bid' : roll < 0.43 ? 'timeout' : roll < 0.45 ? 'error' : roll < 0.55 ? 'below_floor' : roll < 0.82 ? 'lost' : 'won';
  const latency =
    outcome === 'timeout'
      ? tmax + Math.floor(rnd() * 120)
      : outcome === 'error'
        ? 5 + Math.floor(rnd() * 40)
        : Math.max(18, Math.min(tmax - 5, Math.round(tmax * (0.2 + rnd() * 0.6))));
  const base: Omit<SimulatedAuction, 'bid_response' | 'outcome' | 'bid_price' | 'bid_currency' | 'clearing_price'> = {
    request_id: requestId,
    imp_id: impId,
    bid_request: request,
    latency_ms: latency,
    floor: microsToCpm(effectiveFloor),
  };
  if (outcome === 'no_bid' || outcome === 'timeout' || outcome === 'error')
    return { ...base, outcome, bid_response: null, bid_price: null, bid_currency: null, clearing_price: null };

  const floorOr = Math.max(effectiveFloor, 100_000);
  const price = round4(
    outcome === 'below_floor' ? Math.max(10_000, Math.floor(floorOr * (0.4 + rnd() * 0.5))) : Math.floor(floorOr * (1.05 + rnd() * 2.2)),
  );
  const clearing =
    outcome === 'won' ? (request.at === 1 ? price : round4(Math.max(floorOr, Math.floor(price * (0.7 + rnd() * 0.25))))) : outcome === 'lost' ? round4(Math.floor(price * (1.02 + rnd() * 0.6))) : null;
  const adomain = pick(rnd, ADVERTISERS);
  const crid = `cr-${inv.partner.id}-${hex(rnd, 6)}`;
  const bid: Record<string, unknown> = {
    id: hex(rnd, 16),
    impid: impId,
    price: cpmNumber(price),
    adomain: [adomain],
    cid: `cmp-${hex(rnd, 5)}`,
    crid,
    cat: [pick(rnd, IAB_CATEGORIES)],
    w: inv.ad_unit.w,
    h: inv.ad_unit.h,
    mtype: inv.ad_unit.media_type === 'banner' ? 1 : inv.ad_unit.media_type === 'video' ? 2 : 4,
    burl: `https://track.${slugOf(inv.partner.name)}.example/billing?price=\${AUCTION_PRICE}&crid=${crid}`,
    lurl: `https://track.${slugOf(inv.partner.name)}.example/loss?reason=\${AUCTION_LOSS}&crid=${crid}`,
  };
  if (inv.ad_unit.media_type === 'video') {
    // Half of the video buyers send the VAST inline, the others a win notice that returns it.
    if (rnd() < 0.5) bid.adm = `<VAST version="4.2"><Ad id="${crid}"><InLine><AdSystem>${inv.partner.name}</AdSystem><AdTitle>${adomain}</AdTitle><Impression><![CDATA[https://track.${slugOf(inv.partner.name)}.example/imp?crid=${crid}]]></Impression><Creatives><Creative><Linear><Duration>00:00:15</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="${inv.ad_unit.w}" height="${inv.ad_unit.h}"><![CDATA[https://cdn.${slugOf(inv.partner.name)}.example/${crid}.mp4]]></MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>`;
    else bid.nurl = `https://win.${slugOf(inv.partner.name)}.example/vast?price=\${AUCTION_PRICE}&crid=${crid}`;
    bid.protocol = 7;
    bid.dur = 15;
  } else if (inv.ad_unit.media_type === 'native') {
    bid.adm = JSON.stringify({
      ver: '1.2',
      assets: [
        { id: 1, title: { text: `Ofertas en ${adomain}` } },
        { id: 2, img: { url: `https://cdn.${slugOf(inv.partner.name)}.example/${crid}.jpg`, w: 1200, h: 628 } },
        { id: 3, data: { value: 'Descubre la nueva temporada.' } },
        { id: 4, data: { value: adomain } },
      ],
      link: { url: `https://${adomain}/?utm_source=${slugOf(inv.partner.name)}` },
      eventtrackers: [{ event: 1, method: 1, url: `https://track.${slugOf(inv.partner.name)}.example/imp?crid=${crid}` }],
    });
  } else {
    bid.adm = `<div class="ad"><a href="https://${adomain}/" target="_blank"><img src="https://cdn.${slugOf(inv.partner.name)}.example/${crid}.png" width="${inv.ad_unit.w}" height="${inv.ad_unit.h}" alt=""></a><img src="https://track.${slugOf(inv.partner.name)}.example/imp?crid=${crid}" width="1" height="1" alt=""></div>`;
  }
  if (inv.deal) bid.dealid = inv.deal.code;
  const response: Record<string, unknown> = {
    id: requestId,
    bidid: hex(rnd, 12),
    cur: 'USD',
    seatbid: [{ seat: `seat-${inv.partner.id}-${1 + Math.floor(rnd() * 4)}`, bid: [bid] }],
  };
  return {
    ...base,
    outcome,
    bid_response: response,
    bid_price: microsToCpm(price),
    bid_currency: 'USD',
    clearing_price: clearing === null ? null : microsToCpm(clearing),
  };
}

function slugOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '') || 'partner';
}

/** A 32-bit seed from a minute, a partner and a position (deterministic, well spread). */
export function auctionSeed(minute: number, partnerId: number, index: number): number {
  let h = 2166136261 ^ Math.floor(minute / 60_000);
  h = Math.imul(h ^ partnerId, 16777619);
  h = Math.imul(h ^ index, 16777619);
  h ^= h >>> 13;
  return Math.imul(h, 0x5bd1e995) >>> 0;
}
