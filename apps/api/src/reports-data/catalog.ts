/**
 * The entities the generated facts point to: demand partners, supply endpoints, publishers with
 * their sites and ad units, and deals. Deterministic from the seed; ids are positions + 1 (the
 * loader inserts them with these ids).
 */
import { COUNTRIES, DEVICES, ENVIRONMENTS, FORMATS, OPERATING_SYSTEMS, SIZES } from '@backoffice/core/reports';
import { createRng, hashSeed, zipfWeights } from './prng.ts';

export interface PartnerDef {
  id: number;
  name: string;
  type: string;
  /** Share of the exchange's bid traffic. */
  share: number;
  /** Cap as a multiple of the partner's typical daily peak demand (near 1 = hits the cap at peaks). */
  capRatio: number;
  bidRate: number;
  winRate: number;
  /** eCPM multiplier */
  price: number;
  timeoutRate: number;
  errorRate: number;
  /** Environment preference (web, app, ctv). */
  envAffinity: [number, number, number];
}

export interface EndpointDef {
  id: number;
  name: string;
  region: 'eu' | 'us' | 'apac' | 'latam';
  env: 'web' | 'app' | 'ctv';
}

export interface PublisherDef {
  id: number;
  name: string;
  sellerId: string;
  weight: number;
  homeCountry: number;
  /** Share of the publisher's revenue kept by the exchange (cost = revenue x (1 - take)). */
  take: number;
}

export interface SiteDef {
  id: number;
  publisherId: number;
  name: string;
  environmentId: number;
  weight: number;
}

export interface AdUnitDef {
  id: number;
  siteId: number;
  publisherId: number;
  name: string;
  formatId: number;
  sizeId: number;
  environmentId: number;
  /** Absolute sampling weight (publisher x site x unit). */
  weight: number;
}

export interface DealDef {
  id: number;
  partnerId: number;
  code: string;
  name: string;
  type: 'pmp' | 'preferred' | 'pg';
  /** Price multiplier of the deal. */
  price: number;
}

export interface Catalog {
  partners: PartnerDef[];
  endpoints: EndpointDef[];
  publishers: PublisherDef[];
  sites: SiteDef[];
  adUnits: AdUnitDef[];
  deals: DealDef[];
}

export const PARTNER_NAMES = [
  'Nimbus Exchange', 'BlueOrbit DSP', 'Kappa Media', 'Vertex Ads', 'Helios Bidder', 'Quanta DSP', 'Aurora Demand',
  'Polar Trade Desk', 'Cobalt Network', 'Lumen Exchange', 'Zenith Ads', 'Mosaic DSP', 'Atlas Bidder', 'Ember Media',
  'Orion Network', 'Amazon TAM',
] as const;

/** The partner of the demo story: its revenue drops at 14:00 (Europe/Madrid) on the data's last full day. */
export const STORY_PARTNER_ID = 1;
/** Partners whose cap sits just above their usual peak: flat tops at the busiest hours. */
export const NEAR_CAP_PARTNER_IDS = [2, 5] as const;

const ENDPOINTS: Omit<EndpointDef, 'id'>[] = [
  { name: 'eu-west prebid', region: 'eu', env: 'web' },
  { name: 'eu-west openrtb', region: 'eu', env: 'web' },
  { name: 'us-east prebid', region: 'us', env: 'web' },
  { name: 'us-east openrtb', region: 'us', env: 'web' },
  { name: 'apac openrtb', region: 'apac', env: 'web' },
  { name: 'latam openrtb', region: 'latam', env: 'web' },
  { name: 'app sdk', region: 'eu', env: 'app' },
  { name: 'ctv vast', region: 'us', env: 'ctv' },
];

const WORDS_A = ['Daily', 'Global', 'Urban', 'Bright', 'Pixel', 'Green', 'Metro', 'Nova', 'Silver', 'Rapid', 'Happy', 'Blue', 'Sunny', 'Prime', 'Smart', 'Wild', 'Golden', 'Cosmic', 'Tiny', 'Grand'];
const WORDS_B = ['Planet', 'Sports', 'Recipes', 'Travel', 'Games', 'News', 'Tech', 'Motors', 'Music', 'Finance', 'Health', 'Weather', 'Movies', 'Fashion', 'Garden', 'Puzzles', 'Kids', 'Science', 'Homes', 'Pets'];
const WORDS_C = ['Media', 'Group', 'Network', 'Studios', 'Digital', 'Publishing', 'Labs', 'Co'];

/** Country weights of the traffic (rough internet ad-traffic shape). */
export const COUNTRY_WEIGHTS: readonly number[] = COUNTRIES.map((c) => {
  const w: Record<string, number> = { US: 30, GB: 7, DE: 7, FR: 6, ES: 6, IT: 4, BR: 5, MX: 3, CA: 3, JP: 4, IN: 4, AU: 2 };
  return w[c] ?? 1;
});

/** Approximate UTC offset (hours) of each country's main population, for local seasonality. */
export const COUNTRY_UTC_OFFSET: readonly number[] = COUNTRIES.map((c) => {
  const o: Record<string, number> = {
    US: -5, CA: -5, MX: -6, BR: -3, AR: -3, CO: -5, CL: -4, PE: -5, GB: 0, IE: 0, PT: 0, JP: 9, KR: 9, IN: 5.5, ID: 7,
    TH: 7, VN: 7, PH: 8, AU: 10, NZ: 12, ZA: 2, TR: 3, AE: 4, SA: 3, RO: 2, GR: 2, FI: 2,
  };
  return o[c] ?? 1;
});

/** eCPM (USD) base by country. */
export const COUNTRY_ECPM: readonly number[] = COUNTRIES.map((c) => {
  const tier1 = ['US', 'GB', 'DE', 'CA', 'AU', 'NO', 'CH', 'SE', 'DK', 'JP'];
  const tier2 = ['FR', 'ES', 'IT', 'NL', 'BE', 'AT', 'IE', 'FI', 'NZ', 'KR', 'AE'];
  if (tier1.includes(c)) return 2.6;
  if (tier2.includes(c)) return 1.6;
  return 0.7;
});

export const COUNTRY_REGION: readonly EndpointDef['region'][] = COUNTRIES.map((c) => {
  if (['US', 'CA'].includes(c)) return 'us';
  if (['MX', 'BR', 'AR', 'CO', 'CL', 'PE'].includes(c)) return 'latam';
  if (['JP', 'KR', 'IN', 'ID', 'TH', 'VN', 'PH', 'AU', 'NZ'].includes(c)) return 'apac';
  return 'eu';
});

const idOf = (list: readonly string[], value: string) => list.indexOf(value) + 1;
export const ENV = { web: idOf(ENVIRONMENTS, 'web'), app: idOf(ENVIRONMENTS, 'app'), ctv: idOf(ENVIRONMENTS, 'ctv') };
export const DEVICE = { desktop: idOf(DEVICES, 'desktop'), phone: idOf(DEVICES, 'phone'), tablet: idOf(DEVICES, 'tablet'), ctv: idOf(DEVICES, 'ctv') };
export const OS = Object.fromEntries(OPERATING_SYSTEMS.map((o, i) => [o, i + 1])) as Record<(typeof OPERATING_SYSTEMS)[number], number>;
export const FORMAT = Object.fromEntries(FORMATS.map((f, i) => [f, i + 1])) as Record<(typeof FORMATS)[number], number>;
export const SIZE = Object.fromEntries(SIZES.map((s, i) => [s, i + 1])) as Record<(typeof SIZES)[number], number>;

export interface CatalogOptions {
  seed: number;
  publishers?: number;
}

export function buildCatalog({ seed, publishers: publisherCount = 300 }: CatalogOptions): Catalog {
  const rng = createRng(hashSeed(seed, 'catalog'));
  const shares = zipfWeights(PARTNER_NAMES.length, 0.9);
  const shareSum = shares.reduce((a, b) => a + b, 0);
  const partners: PartnerDef[] = PARTNER_NAMES.map((name, i) => {
    const id = i + 1;
    const ctvSpecialist = name === 'Orion Network';
    const appSpecialist = name === 'Ember Media';
    return {
      id,
      name,
      type: name === 'Amazon TAM' ? 'amazon' : name.includes('Network') ? 'network' : name.includes('Exchange') ? 'SSP' : 'DSP',
      share: shares[i]! / shareSum,
      capRatio: (NEAR_CAP_PARTNER_IDS as readonly number[]).includes(id) ? 0.93 : id === STORY_PARTNER_ID ? 1.35 : 1.3 + rng() * 1.2,
      bidRate: 0.08 + rng() * 0.3,
      winRate: 0.12 + rng() * 0.35,
      price: 0.75 + rng() * 0.6,
      timeoutRate: 0.003 + rng() * 0.02,
      errorRate: 0.0005 + rng() * 0.003,
      envAffinity: ctvSpecialist ? [0.2, 0.3, 6] : appSpecialist ? [0.3, 4, 0.2] : [1, 0.6 + rng() * 0.6, 0.2 + rng() * 0.8],
    };
  });

  const endpoints: EndpointDef[] = ENDPOINTS.map((e, i) => ({ ...e, id: i + 1 }));

  const pubWeights = zipfWeights(publisherCount, 1.1);
  const countrySampler = (r: number) => {
    const total = COUNTRY_WEIGHTS.reduce((a, b) => a + b, 0);
    let x = r * total;
    for (let i = 0; i < COUNTRY_WEIGHTS.length; i++) {
      x -= COUNTRY_WEIGHTS[i]!;
      if (x <= 0) return i + 1;
    }
    return 1;
  };
  const usedNames = new Set<string>();
  const publishers: PublisherDef[] = [];
  const sites: SiteDef[] = [];
  const adUnits: AdUnitDef[] = [];
  for (let p = 0; p < publisherCount; p++) {
    let name = '';
    for (let attempt = 0; attempt < 50; attempt++) {
      name = `${rng.pick(WORDS_A)} ${rng.pick(WORDS_B)} ${rng.pick(WORDS_C)}`;
      if (!usedNames.has(name)) break;
    }
    if (usedNames.has(name)) name = `${name} ${p + 1}`;
    usedNames.add(name);
    const id = p + 1;
    publishers.push({ id, name, sellerId: `pub-${String(id).padStart(5, '0')}`, weight: pubWeights[p]!, homeCountry: countrySampler(rng()), take: 0.15 + rng() * 0.15 });
    const slug = name.toLowerCase().replace(/[^a-z]+/g, '');
    const siteCount = Math.max(1, Math.min(6, Math.round(1 + rng() * (p < 30 ? 5 : 2))));
    const siteWeights = zipfWeights(siteCount, 1);
    for (let s = 0; s < siteCount; s++) {
      const r = rng();
      const env = s === 0 ? ENV.web : r < 0.55 ? ENV.web : r < 0.88 ? ENV.app : ENV.ctv;
      const siteName =
        env === ENV.web ? (s === 0 ? `${slug}.com` : `${slug}${s + 1}.com`) : env === ENV.app ? `com.${slug}.app${s > 1 ? s : ''}` : `${slug}.tv`;
      const siteId = sites.length + 1;
      sites.push({ id: siteId, publisherId: id, name: siteName, environmentId: env, weight: siteWeights[s]! });
      const units = unitLayout(env, rng);
      const unitWeights = zipfWeights(units.length, 0.8);
      const unitSum = unitWeights.reduce((a, b) => a + b, 0);
      const siteSum = siteWeights.reduce((a, b) => a + b, 0);
      units.forEach(([format, size], u) => {
        adUnits.push({
          id: adUnits.length + 1,
          siteId,
          publisherId: id,
          name: `${siteName}/${format}_${size}${u > 0 ? `_${u + 1}` : ''}`,
          formatId: FORMAT[format],
          sizeId: SIZE[size],
          environmentId: env,
          weight: (pubWeights[p]! * (siteWeights[s]! / siteSum) * unitWeights[u]!) / unitSum,
        });
      });
    }
  }

  const deals: DealDef[] = [];
  for (let i = 0; i < 40; i++) {
    const partnerId = 1 + (Math.floor(rng() * rng() * PARTNER_NAMES.length) % PARTNER_NAMES.length);
    const type = rng.pick(['pmp', 'pmp', 'preferred', 'pg'] as const);
    const partner = PARTNER_NAMES[partnerId - 1]!;
    deals.push({
      id: i + 1,
      partnerId,
      code: `D-${partner.slice(0, 3).toUpperCase()}-${String(1000 + i)}`,
      name: `${partner} ${type.toUpperCase()} ${rng.pick(['Premium', 'Sports', 'Auto', 'Finance', 'Video', 'CTV', 'Travel', 'Retail'])} ${i + 1}`,
      type,
      price: type === 'pg' ? 2.2 : type === 'preferred' ? 1.6 : 1.3,
    });
  }
  return { partners, endpoints, publishers, sites, adUnits, deals };
}

type Unit = [keyof typeof FORMAT, keyof typeof SIZE];
function unitLayout(env: number, rng: () => number): Unit[] {
  if (env === ENV.ctv) return [['video', '1920x1080']];
  if (env === ENV.app) {
    const units: Unit[] = [['banner', '320x50'], ['banner', '300x250']];
    if (rng() < 0.6) units.push(['native', 'fluid']);
    if (rng() < 0.5) units.push(['video', '1280x720']);
    if (rng() < 0.3) units.push(['banner', '320x100']);
    return units;
  }
  const units: Unit[] = [['banner', '300x250'], ['banner', '728x90']];
  if (rng() < 0.7) units.push(['banner', '320x50']);
  if (rng() < 0.5) units.push(['banner', '300x600']);
  if (rng() < 0.4) units.push(['video', '640x360']);
  if (rng() < 0.3) units.push(['native', 'fluid']);
  if (rng() < 0.2) units.push(['banner', '970x250']);
  if (rng() < 0.15) units.push(['banner', '160x600']);
  if (rng() < 0.1) units.push(['audio', 'fluid']);
  if (rng() < 0.1) units.push(['banner', '336x280']);
  return units;
}

/** Devices and operating systems of an environment, with weights. */
export const DEVICE_MIX: Record<number, { device: number; os: number; w: number }[]> = {
  [ENV.web]: [
    { device: DEVICE.desktop, os: OS.windows, w: 30 },
    { device: DEVICE.desktop, os: OS.macos, w: 12 },
    { device: DEVICE.desktop, os: OS.linux, w: 2 },
    { device: DEVICE.phone, os: OS.android, w: 26 },
    { device: DEVICE.phone, os: OS.ios, w: 18 },
    { device: DEVICE.tablet, os: OS.ios, w: 6 },
    { device: DEVICE.tablet, os: OS.android, w: 4 },
    { device: DEVICE.desktop, os: OS.other, w: 2 },
  ],
  [ENV.app]: [
    { device: DEVICE.phone, os: OS.android, w: 45 },
    { device: DEVICE.phone, os: OS.ios, w: 35 },
    { device: DEVICE.tablet, os: OS.ios, w: 12 },
    { device: DEVICE.tablet, os: OS.android, w: 8 },
  ],
  [ENV.ctv]: [
    { device: DEVICE.ctv, os: OS.roku, w: 40 },
    { device: DEVICE.ctv, os: OS.tizen, w: 25 },
    { device: DEVICE.ctv, os: OS.tvos, w: 15 },
    { device: DEVICE.ctv, os: OS.android, w: 15 },
    { device: DEVICE.ctv, os: OS.other, w: 5 },
  ],
};
