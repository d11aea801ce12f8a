/**
 * Generated companies in bulk (issue 18): realistic EU ad-tech companies for the list benchmarks
 * and for trying the list screens at scale. `npm run data:generate -- --companies N` and the
 * benches (bench/resources/run.ts, bench/web.ts) all use `generateCompanies` below.
 *
 * Each company is a pure function of its index and a seed (same options, same rows on every
 * machine): a legal name with its country's legal form, a trade name for two thirds of them, an
 * address, city and postal code in the country's format, a billing mail, an IBAN for most and the
 * tax id. Tax ids and IBANs get their check characters the way the demo data's do (`completeTaxId`,
 * `completeIban`), and every tax id is checked by `isValidTaxId` of `@backoffice/core/tax-ids`, the
 * rule the form and the API apply: every generated row passes the companies schema.
 */
import { EU_COUNTRIES, isValidIban, isValidTaxId } from '@backoffice/core/tax-ids';
import { composeIBAN, countrySpecs } from 'ibantools';
import { checkVAT, countries as vatCountries } from 'jsvat';
import { createRng, hashSeed, type Rng } from '../reports-data/prng.ts';
import { query } from '../reports-data/sql.ts';
import type { Database } from './client.ts';
import { completeTaxId, DEMO_COMPANIES } from './demo-companies.ts';

export interface GeneratedCompany {
  legal_name: string;
  trade_name: string | null;
  country: string;
  tax_id: string;
  address: string;
  city: string;
  postal_code: string;
  billing_email: string;
  iban: string | null;
  currency: 'EUR' | 'USD';
  /** ISO date-time within the four years before the generation's reference time. */
  created_at: string;
}

interface CountryProfile {
  /** Share of the generated companies (relative). */
  weight: number;
  /** Legal forms and their share. */
  forms: readonly (readonly [form: string, weight: number])[];
  /** Tax id without its check character(s), from a number unique to the company (< 10,000,000). */
  stem: (n: number, form: string) => string;
  places: readonly string[];
  sectors: readonly string[];
  surnames: readonly string[];
  /** City and its postal code pattern: '#' a digit, '@' a capital letter. */
  cities: readonly (readonly [city: string, postal: string])[];
  streets: readonly string[];
  /** '{n} {street}' or '{street} {n}'. */
  numberFirst?: boolean;
  tld: string;
  mailboxes: readonly string[];
  /** Share billed in USD (the others in EUR). */
  usd: number;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/**
 * n spread over 0…m-1 (one to one for n < m: the multiplier shares no factor with the moduli
 * used, all of the form 2^a 3^b 5^c), so consecutive companies do not get consecutive numbers.
 */
const spread = (n: number, m: number) => (n * 4_871_423 + 2_718_281) % m;

/** Sector words every market uses as they are. */
const COMMON_SECTORS = [
  'Media',
  'Digital',
  'Ad Network',
  'Programmatic',
  'Audience',
  'Video',
  'Mobile Performance',
  'Retail Media',
  'Native Ads',
  'Data Exchange',
  'Media Exchange',
  'AdTech',
  'Publishing',
  'Streaming Networks',
  'Connected TV',
  'Demand Platform',
  'Media Sales',
  'Ad Systems',
  'Monetization',
  'Performance',
  'Interactive',
] as const;

const COUNTRIES: Record<string, CountryProfile> = {
  ES: {
    weight: 24,
    forms: [
      ['S.L.', 3],
      ['S.A.', 1],
    ],
    stem: (n, form) => `${form === 'S.A.' ? 'A' : 'B'}${pad(spread(n, 10_000_000), 7)}`,
    places: ['Iberia', 'Levante', 'Cantábrico', 'Andalucía', 'Galicia', 'Meseta', 'Ebro', 'Tajo', 'Guadalquivir', 'Mediterránea', 'Castilla', 'Aragón', 'Navarra', 'Asturias', 'Canarias', 'Baleares'],
    sectors: ['Publicidad Digital', 'Medios', 'Comunicación', 'de Publicidad', 'Medios Digitales'],
    surnames: ['García', 'Fernández', 'Martín', 'Ortega', 'Vidal', 'Prieto', 'Navarro', 'Romero', 'Sanz', 'Castro', 'Iglesias', 'Morales'],
    cities: [
      ['Madrid', '280##'],
      ['Barcelona', '080##'],
      ['Valencia', '460##'],
      ['Sevilla', '410##'],
      ['Bilbao', '480##'],
      ['Zaragoza', '500##'],
      ['Málaga', '290##'],
      ['Santander', '390##'],
    ],
    streets: [
      'Calle de Alcalá',
      'Gran Vía',
      'Paseo de la Castellana',
      'Calle Mayor',
      'Avinguda Diagonal',
      'Calle Colón',
      'Rambla de Catalunya',
      'Calle de Serrano',
      'Avenida de América',
      'Calle de Velázquez',
    ],
    tld: 'es',
    mailboxes: ['facturacion', 'billing', 'contabilidad', 'facturas', 'administracion'],
    usd: 0.03,
  },
  DE: {
    weight: 15,
    forms: [
      ['GmbH', 6],
      ['AG', 1],
      ['GmbH & Co. KG', 1],
    ],
    stem: (n) => String(10_000_000 + spread(n, 90_000_000)),
    places: ['Rheinland', 'Spree', 'Isar', 'Hanse', 'Elbe', 'Main', 'Neckar', 'Schwarzwald', 'Ruhr', 'Alster', 'Weser', 'Bodensee'],
    sectors: ['Werbung', 'Medien', 'Mediaagentur', 'Digitalmedien', 'Vermarktung'],
    surnames: ['Müller', 'Schmidt', 'Weber', 'Wagner', 'Becker', 'Hoffmann', 'Richter', 'Koch', 'Klein', 'Wolf'],
    cities: [
      ['Berlin', '10###'],
      ['Hamburg', '20###'],
      ['München', '80###'],
      ['Köln', '50###'],
      ['Frankfurt am Main', '60###'],
      ['Düsseldorf', '40###'],
      ['Stuttgart', '70###'],
      ['Leipzig', '04###'],
    ],
    streets: ['Friedrichstraße', 'Hohenzollernring', 'Leopoldstraße', 'Große Elbstraße', 'Königsallee', 'Zeil', 'Kurfürstendamm', 'Schillerstraße', 'Bahnhofstraße', 'Torstraße'],
    tld: 'de',
    mailboxes: ['rechnung', 'buchhaltung', 'billing', 'finance'],
    usd: 0.03,
  },
  FR: {
    weight: 12,
    forms: [
      ['SAS', 4],
      ['SARL', 2],
      ['SA', 1],
    ],
    stem: (n) => String(300_000_000 + spread(n, 600_000_000)),
    places: ['Lumière', 'Garonne', 'Rhône', 'Loire', 'Seine', 'Provence', 'Bretagne', 'Alsace', 'Atlantique', 'Côte d’Azur', 'Normandie', 'Montmartre'],
    sectors: ['Régie Numérique', 'Publicité', 'Médias', 'Régie', 'Communication'],
    surnames: ['Martin', 'Bernard', 'Dubois', 'Laurent', 'Roux', 'Lefèvre', 'Garnier', 'Moreau', 'Fournier', 'Girard'],
    cities: [
      ['Paris', '750##'],
      ['Lyon', '6900#'],
      ['Marseille', '130##'],
      ['Bordeaux', '330##'],
      ['Lille', '590##'],
      ['Toulouse', '310##'],
      ['Nantes', '440##'],
    ],
    streets: ['rue de la Paix', 'quai de la Douane', 'place Bellecour', 'rue de Rivoli', 'boulevard Haussmann', 'avenue de l’Opéra', 'rue Sainte-Catherine', 'cours Lafayette'],
    numberFirst: true,
    tld: 'fr',
    mailboxes: ['facturation', 'compta', 'billing', 'comptabilite'],
    usd: 0.04,
  },
  IT: {
    weight: 10,
    forms: [
      ['S.r.l.', 4],
      ['S.p.A.', 1],
    ],
    // Seven digits, then the issuing office (001–201).
    stem: (n) => `${pad(1_000_000 + spread(n, 9_000_000), 7)}${pad(1 + ((n * 37) % 200), 3)}`,
    places: ['Navigli', 'Tevere', 'Arno', 'Adriatica', 'Brera', 'Dolomiti', 'Laguna', 'Vesuvio', 'Po', 'Tirreno', 'Lombarda', 'Etna'],
    sectors: ['Pubblicità Digitale', 'Comunicazione', 'Media', 'Concessionaria'],
    surnames: ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Ferri', 'Greco'],
    cities: [
      ['Milano', '201##'],
      ['Roma', '001##'],
      ['Torino', '101##'],
      ['Bologna', '401##'],
      ['Napoli', '801##'],
      ['Firenze', '501##'],
    ],
    streets: ['Via Tortona', 'Via del Corso', 'Corso Buenos Aires', 'Via Roma', 'Via Garibaldi', 'Corso Vittorio Emanuele II', 'Via Dante', 'Via Nazionale'],
    tld: 'it',
    mailboxes: ['amministrazione', 'fatture', 'contabilita', 'billing'],
    usd: 0.03,
  },
  NL: {
    weight: 7,
    forms: [
      ['B.V.', 5],
      ['N.V.', 1],
    ],
    stem: (n) => String(10_000_000 + spread(n, 90_000_000)),
    places: ['Grachten', 'Maas', 'Amstel', 'Zuidas', 'Noordzee', 'Delta', 'Polder', 'Vecht', 'IJssel', 'Waal'],
    sectors: ['Reclame', 'Media', 'Mediabureau'],
    surnames: ['de Vries', 'Jansen', 'van Dijk', 'Bakker', 'Visser', 'Smit', 'Meijer', 'de Boer'],
    cities: [
      ['Amsterdam', '10## @@'],
      ['Rotterdam', '30## @@'],
      ['Utrecht', '35## @@'],
      ['Den Haag', '25## @@'],
      ['Eindhoven', '56## @@'],
    ],
    streets: ['Herengracht', 'Wilhelminakade', 'Keizersgracht', 'Stationsplein', 'Coolsingel', 'Oudegracht', 'Prinsengracht', 'Strawinskylaan'],
    tld: 'nl',
    mailboxes: ['facturen', 'finance', 'billing', 'administratie'],
    usd: 0.04,
  },
  PT: {
    weight: 5,
    forms: [
      ['Lda.', 3],
      ['S.A.', 1],
    ],
    stem: (n) => `5${pad(spread(n, 10_000_000), 7)}`,
    places: ['Tejo', 'Douro', 'Atlântico', 'Alfama', 'Minho', 'Algarve', 'Ribeira', 'Mondego'],
    sectors: ['Publicidade', 'Media', 'Comunicação Digital'],
    surnames: ['Silva', 'Santos', 'Ferreira', 'Pereira', 'Costa', 'Oliveira', 'Rodrigues', 'Martins'],
    cities: [
      ['Lisboa', '1###-###'],
      ['Porto', '4###-###'],
      ['Braga', '47##-###'],
      ['Coimbra', '30##-###'],
    ],
    streets: ['Avenida da Liberdade', 'Rua Augusta', 'Avenida dos Aliados', 'Rua de Santa Catarina', 'Avenida da República', 'Rua do Ouro'],
    tld: 'pt',
    mailboxes: ['faturacao', 'contabilidade', 'billing'],
    usd: 0.03,
  },
  BE: {
    weight: 4,
    forms: [
      ['NV', 2],
      ['BV', 2],
      ['SRL', 1],
    ],
    stem: (n) => `0${pad(spread(n, 10_000_000), 7)}`,
    places: ['Scheldt', 'Meuse', 'Brabant', 'Flanders', 'Ardennes', 'Sablon', 'Zoute', 'Leie'],
    sectors: ['Media Sales', 'Régie', 'Reclame'],
    surnames: ['Peeters', 'Janssens', 'Maes', 'Jacobs', 'Dupont', 'Lambert', 'Dubois', 'Claes'],
    cities: [
      ['Bruxelles', '10##'],
      ['Antwerpen', '20##'],
      ['Gent', '90##'],
      ['Liège', '40##'],
    ],
    streets: ['Meir', 'Rue Neuve', 'Avenue Louise', 'Korenmarkt', 'Boulevard d’Avroy', 'Veldstraat'],
    tld: 'be',
    mailboxes: ['facturatie', 'facturation', 'billing'],
    usd: 0.03,
  },
  IE: {
    weight: 4,
    forms: [
      ['Ltd', 4],
      ['DAC', 1],
    ],
    stem: (n) => pad(spread(n, 10_000_000), 7),
    places: ['Liffey', 'Shannon', 'Emerald', 'Atlantic', 'Wicklow', 'Docklands', 'Connacht', 'Boyne'],
    sectors: [],
    surnames: ['Murphy', 'Kelly', 'O’Sullivan', 'Walsh', 'Byrne', 'Ryan', 'O’Brien', 'Doyle'],
    cities: [
      ['Dublin', 'D0# @#@#'],
      ['Cork', 'T12 @#@#'],
      ['Galway', 'H91 @#@#'],
      ['Limerick', 'V94 @#@#'],
    ],
    streets: ['Grand Canal Square', "St Stephen's Green", 'Sir John Rogerson’s Quay', 'Harcourt Street', 'Patrick Street', 'Shop Street'],
    numberFirst: true,
    tld: 'ie',
    mailboxes: ['ap', 'accounts', 'billing', 'finance'],
    usd: 0.08,
  },
  AT: {
    weight: 4,
    forms: [
      ['GmbH', 4],
      ['AG', 1],
    ],
    stem: (n) => `U${pad(spread(n, 10_000_000), 7)}`,
    places: ['Donau', 'Alpen', 'Tirol', 'Wienerwald', 'Salzach', 'Kärnten', 'Inn', 'Prater'],
    sectors: ['Werbung', 'Medien', 'Digital Werbung'],
    surnames: ['Gruber', 'Huber', 'Bauer', 'Wagner', 'Pichler', 'Steiner', 'Moser', 'Mayer'],
    cities: [
      ['Wien', '1#@0'],
      ['Graz', '80##'],
      ['Linz', '40##'],
      ['Salzburg', '50##'],
      ['Innsbruck', '60##'],
    ],
    streets: ['Mariahilfer Straße', 'Kärntner Straße', 'Landstraße', 'Getreidegasse', 'Herrengasse', 'Maria-Theresien-Straße'],
    tld: 'at',
    mailboxes: ['buchhaltung', 'rechnung', 'billing'],
    usd: 0.03,
  },
  SE: {
    weight: 3,
    forms: [['AB', 1]],
    stem: (n) => `55${pad(spread(n, 10_000_000), 7)}`,
    places: ['Öresund', 'Norrland', 'Skåne', 'Mälaren', 'Gotland', 'Vasa', 'Lappland', 'Kattegatt'],
    sectors: ['Reklam', 'Media'],
    surnames: ['Andersson', 'Johansson', 'Karlsson', 'Nilsson', 'Eriksson', 'Larsson', 'Olsson', 'Persson'],
    cities: [
      ['Stockholm', '11# ##'],
      ['Göteborg', '41# ##'],
      ['Malmö', '21# ##'],
      ['Uppsala', '75# ##'],
    ],
    streets: ['Sveavägen', 'Drottninggatan', 'Kungsgatan', 'Götgatan', 'Avenyn', 'Stortorget'],
    tld: 'se',
    mailboxes: ['faktura', 'ekonomi', 'billing'],
    usd: 0.05,
  },
  PL: {
    weight: 4,
    forms: [
      ['Sp. z o.o.', 4],
      ['S.A.', 1],
    ],
    stem: (n) => String(100_000_000 + spread(n, 900_000_000)),
    places: ['Wisła', 'Bałtyk', 'Mazowsze', 'Tatry', 'Odra', 'Warta', 'Pomorze', 'Śląsk'],
    sectors: ['Reklama', 'Media', 'Reklama Cyfrowa'],
    surnames: ['Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik', 'Kamiński', 'Lewandowski', 'Zieliński', 'Szymański'],
    cities: [
      ['Warszawa', '00-###'],
      ['Kraków', '30-###'],
      ['Wrocław', '50-###'],
      ['Poznań', '60-###'],
      ['Gdańsk', '80-###'],
    ],
    streets: ['ul. Marszałkowska', 'ul. Floriańska', 'ul. Piotrkowska', 'ul. Świdnicka', 'ul. Długa', 'al. Jerozolimskie'],
    tld: 'pl',
    mailboxes: ['faktury', 'ksiegowosc', 'billing'],
    usd: 0.03,
  },
  GB: {
    weight: 5,
    forms: [
      ['Ltd', 5],
      ['PLC', 1],
    ],
    stem: (n) => String(100_000_000 + spread(n, 900_000_000)),
    places: ['Thames', 'Shoreditch', 'Pennine', 'Mersey', 'Clyde', 'Soho', 'Cotswold', 'Highland'],
    sectors: ['Advertising', 'Marketing'],
    surnames: ['Smith', 'Jones', 'Taylor', 'Brown', 'Wilson', 'Evans', 'Thomas', 'Roberts'],
    cities: [
      ['London', 'EC#@ #@@'],
      ['Manchester', 'M# #@@'],
      ['Edinburgh', 'EH# #@@'],
      ['Bristol', 'BS# #@@'],
    ],
    streets: ['Old Street', 'Great Portland Street', 'Deansgate', 'George Street', 'Victoria Street', 'Shoreditch High Street'],
    numberFirst: true,
    tld: 'co.uk',
    mailboxes: ['accounts', 'ap', 'billing', 'finance'],
    usd: 0.3,
  },
  US: {
    weight: 3,
    forms: [
      ['Inc.', 3],
      ['LLC', 2],
    ],
    stem: (n) => `47${pad(spread(n, 10_000_000), 7)}`,
    places: ['Atlantic', 'Pacific', 'Hudson', 'Golden Gate', 'Lakeshore', 'Empire', 'Bayview', 'Lone Star'],
    sectors: ['Advertising', 'Marketing', 'Demand Partners'],
    surnames: ['Miller', 'Davis', 'Johnson', 'Walker', 'Harris', 'Clark', 'Lewis', 'Young'],
    cities: [
      ['New York', '100##'],
      ['San Francisco', '941##'],
      ['Chicago', '606##'],
      ['Los Angeles', '900##'],
      ['Austin', '787##'],
    ],
    streets: ['Greenwich Street', 'Market Street', 'Wacker Drive', 'Sunset Boulevard', 'Congress Avenue', 'Broadway'],
    numberFirst: true,
    tld: 'com',
    mailboxes: ['ar', 'billing', 'accounts'],
    usd: 1,
  },
};

const COUNTRY_CODES = Object.keys(COUNTRIES);
const COUNTRY_WEIGHTS = COUNTRY_CODES.map((c) => COUNTRIES[c]!.weight);

const BRAND_HEADS = [
  'Ad',
  'Click',
  'Nova',
  'Vex',
  'Lum',
  'Quant',
  'Pix',
  'Zen',
  'Brio',
  'Kite',
  'Orbi',
  'Sol',
  'Mar',
  'Alto',
  'Fluo',
  'Tera',
  'Opti',
  'Velo',
  'Medi',
  'Aura',
  'Neo',
  'Pulse',
  'Spark',
  'Blue',
  'Bright',
  'Clear',
  'Swift',
  'True',
  'Prime',
  'Hexa',
];
const BRAND_TAILS = [
  'ia',
  'ora',
  'io',
  'ix',
  'ly',
  'era',
  'ant',
  'ova',
  'um',
  'ex',
  'on',
  'ara',
  'eo',
  'ify',
  'wave',
  'lane',
  'point',
  'bridge',
  'field',
  'stone',
  'works',
  'line',
  'path',
  'mark',
  'cast',
  'reach',
  'view',
  'loop',
  'nest',
  'hub',
];

/** Bank details of the demo company of each country: the IBAN layout generated ones follow. */
const BANK_LAYOUTS = new Map<string, string>([['GB', 'NWBK60161331926819']]);
for (const c of DEMO_COMPANIES) if (c.bank && !BANK_LAYOUTS.has(c.country)) BANK_LAYOUTS.set(c.country, c.bank);

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

function pickWeighted<T>(rng: Rng, items: readonly T[], weights: readonly number[]): T {
  let r = rng() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < items.length; i++) {
    r -= weights[i]!;
    if (r < 0) return items[i]!;
  }
  return items[items.length - 1]!;
}

/** A pattern's '#' become digits and '@' capital letters. */
function fillPattern(rng: Rng, pattern: string): string {
  return pattern.replace(/[#@]/g, (ch) => (ch === '#' ? String(Math.floor(rng() * 10)) : 'ABCDEFGHJKLMNPRSTVWXY'[Math.floor(rng() * 21)]!));
}

/** Lower-case ASCII for mail domains: accents dropped, words joined by '-'. */
function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ł/g, 'l')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const CHECK_CHARS = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/** Each EU country's jsvat rule alone (Greece, whose prefix is EL, goes the slow way). */
const VAT_RULES = new Map(EU_COUNTRIES.filter((c) => c !== 'GR').map((c) => [c as string, vatCountries.filter((v) => v.codes[0] === c)]));

/**
 * `completeTaxId`'s search (the same candidates in the same order) with the country's own jsvat
 * rule, about 20 times faster than `isValidTaxId`, which looks the rule up among every country's
 * on each call (0.5 against 10 µs: 100,000 Spanish ids took a minute). The id found is then
 * checked by `isValidTaxId` itself.
 */
function completeTaxIdQuickly(country: string, stem: string): string {
  const rule = VAT_RULES.get(country);
  if (!rule || rule.length === 0) return completeTaxId(country, stem);
  const valid = (id: string) => checkVAT(`${country}${id}`, rule).isValid;
  const found = (() => {
    for (const a of CHECK_CHARS) for (const suffix of ['', 'B01', '01']) if (valid(`${stem}${a}${suffix}`)) return `${stem}${a}${suffix}`;
    for (const a of '0123456789') for (const b of '0123456789') if (valid(`${stem}${a}${b}`)) return `${stem}${a}${b}`;
    for (const a of '0123456789') for (const b of '0123456789') if (valid(`${a}${b}${stem}`)) return `${a}${b}${stem}`;
    return null;
  })();
  if (found === null || !isValidTaxId(country, found)) throw new Error(`No valid tax id for ${country} ${stem}`);
  return found;
}

/** Index numbers to try for a tax id stem: each company has eight of its own, never another's. */
const STEM_TRIES = 8;

function taxIdFor(country: string, form: string, index: number): string {
  const profile = COUNTRIES[country]!;
  for (let attempt = 0; attempt < STEM_TRIES; attempt++) {
    // Some stems have no valid completion (an Irish check letter I or O, a Polish remainder of 10).
    try {
      return completeTaxIdQuickly(country, profile.stem(index * STEM_TRIES + attempt, form));
    } catch {
      // the next stem of this company
    }
  }
  throw new Error(`No valid tax id for generated company ${index} (${country})`);
}

function ibanFor(rng: Rng, country: string): string | null {
  const layout = BANK_LAYOUTS.get(country);
  if (!layout) return null;
  // The bank's code (the first letters or digits) is kept; the account digits are new.
  const keep = Math.min(8, Math.floor(layout.length / 2));
  const bban = `${layout.slice(0, keep)}${layout.slice(keep).replace(/\d/g, () => String(Math.floor(rng() * 10)))}`;
  // National check digits, where ibantools knows the country's rule: Spain's two after the
  // branch (as completeIban finds them), France's, Belgium's and Portugal's at the end. Searched
  // with that rule alone (no exception per miss: completeIban took a millisecond per IBAN).
  const national = countrySpecs[country]?.bban_validation_func;
  const candidate = (i: number) => {
    const ii = pad(i, 2);
    if (!national || i < 0) return bban;
    return country === 'ES' ? `${bban.slice(0, 8)}${ii}${bban.slice(-10)}` : `${bban.slice(0, -2)}${ii}`;
  };
  for (let i = national ? 0 : -1; i < 100; i++) {
    const b = candidate(i);
    if (national && !national(b)) continue;
    const iban = composeIBAN({ countryCode: country, bban: b });
    if (iban && isValidIban(iban)) return iban;
    if (!national) break;
  }
  return null;
}

const FOUR_YEARS_MS = 4 * 365 * 24 * 3600 * 1000;

/** The generated company number `index` (0, 1, 2, …): the same for the same seed and reference time. */
export function generatedCompany(index: number, seed = 18, nowMs = Date.UTC(2026, 10, 25)): GeneratedCompany {
  const rng = createRng(hashSeed('company', seed, index));
  const country = pickWeighted(rng, COUNTRY_CODES, COUNTRY_WEIGHTS);
  const p = COUNTRIES[country]!;
  const form = pickWeighted(
    rng,
    p.forms.map((f) => f[0]),
    p.forms.map((f) => f[1]),
  );
  const brand = `${pick(rng, BRAND_HEADS)}${pick(rng, BRAND_TAILS)}`;
  const sectors = p.sectors.length > 0 && rng() < 0.35 ? p.sectors : COMMON_SECTORS;
  const sector = pick(rng, sectors);
  const place = pick(rng, p.places);
  const style = rng();
  let core: string;
  let trade: string | null;
  if (style < 0.35) {
    core = `${place} ${sector}`;
    trade = `${place} ${sector.split(' ')[0]}`;
  } else if (style < 0.7) {
    core = `${brand} ${sector}`;
    trade = brand;
  } else if (style < 0.85) {
    const a = pick(rng, p.surnames);
    let b = pick(rng, p.surnames);
    if (b === a) b = p.surnames[(p.surnames.indexOf(a) + 1) % p.surnames.length]!;
    core = `${a} & ${b} ${sector}`;
    trade = `${a.split(' ').pop()} ${b.split(' ').pop()}`;
  } else {
    core = `${brand} ${place} ${sector}`;
    trade = `${brand} ${place}`;
  }
  const legalName = country === 'PT' && form === 'Lda.' ? `${core}, ${form}` : `${core} ${form}`;
  if (rng() < 1 / 3) trade = null;
  const [city, postal] = pick(rng, p.cities);
  const street = pick(rng, p.streets);
  const number = 1 + Math.floor(rng() * 240);
  const domain = `${slug(trade ?? core).slice(0, 40)}.${p.tld}`;
  const mailbox = pick(rng, p.mailboxes);
  const iban = rng() < 0.92 ? ibanFor(rng, country) : null;
  const currency = rng() < p.usd ? 'USD' : 'EUR';
  const createdAt = new Date(nowMs - Math.floor(rng() * FOUR_YEARS_MS)).toISOString();
  return {
    legal_name: legalName,
    trade_name: trade,
    country,
    tax_id: taxIdFor(country, form, index),
    address: p.numberFirst ? `${number} ${street}` : `${street} ${number}`,
    city,
    postal_code: fillPattern(rng, postal),
    billing_email: `${mailbox}@${domain}`,
    iban,
    currency,
    created_at: createdAt,
  };
}

export interface GenerateCompaniesOptions {
  /** How many companies the table should hold in the end (existing ones included). */
  target: number;
  /** Rows per INSERT (default 2,000). */
  batchSize?: number;
  seed?: number;
}

export interface CompaniesProgress {
  /** Companies there before. */
  existing: number;
  /** Added so far. */
  inserted: number;
  /** To add in all. */
  toAdd: number;
}

export interface CompaniesResult {
  existing: number;
  inserted: number;
  /** Companies in the table at the end. */
  total: number;
  ms: number;
}

/** At most this many companies (tax id stems are unique up to here). */
export const MAX_GENERATED_COMPANIES = 1_000_000;

const COLUMNS = ['legal_name', 'trade_name', 'country', 'tax_id', 'address', 'city', 'postal_code', 'billing_email', 'iban', 'currency', 'created_at'] as const;

/**
 * Adds generated companies until the table holds `target` (none when it already holds as many;
 * existing rows are never changed or removed). Rows go in batches of one multi-row INSERT
 * (`unnest` of column arrays: a statement of 11 parameters whatever the batch size), on PGlite and
 * on PostgreSQL alike. New companies are numbered from the table's count, so a second run that
 * raises the target continues where the first stopped; a generated tax id that is already there
 * (a company added by hand meanwhile) is skipped and the next number used. Ends with VACUUM ANALYZE: fresh statistics,
 * and the trigram indexes' pending lists merged (PGlite runs no autovacuum to do it).
 */
export async function generateCompanies(database: Database, opts: GenerateCompaniesOptions, onProgress?: (p: CompaniesProgress) => void): Promise<CompaniesResult> {
  const started = performance.now();
  const target = Math.floor(opts.target);
  if (!(target >= 0 && target <= MAX_GENERATED_COMPANIES)) throw new Error(`target must be between 0 and ${MAX_GENERATED_COMPANIES}`);
  const batchSize = opts.batchSize ?? 2000;
  const seed = opts.seed ?? 18;
  const nowMs = Date.now();
  const [have] = await query<{ n: number }>(database, 'select count(*)::int as n from companies');
  const existing = Number(have!.n);
  const toAdd = Math.max(0, target - existing);
  let inserted = 0;
  let next = existing;
  const sql =
    `with added as (insert into companies (${COLUMNS.join(', ')}, updated_at) ` +
    `select ${COLUMNS.join(', ')}, created_at from unnest(${COLUMNS.map((c, i) => `$${i + 1}::${c === 'created_at' ? 'timestamptz' : 'text'}[]`).join(', ')}) as t(${COLUMNS.join(', ')}) ` +
    'on conflict (country, tax_id) do nothing returning 1) select count(*)::int as n from added';
  onProgress?.({ existing, inserted, toAdd });
  while (inserted < toAdd) {
    if (next >= MAX_GENERATED_COMPANIES + existing) throw new Error('ran out of generated tax ids');
    const size = Math.min(batchSize, toAdd - inserted);
    const arrays: (string | null)[][] = COLUMNS.map(() => new Array<string | null>(size));
    for (let i = 0; i < size; i++) {
      const c = generatedCompany(next + i, seed, nowMs);
      for (let k = 0; k < COLUMNS.length; k++) arrays[k]![i] = c[COLUMNS[k]!];
    }
    next += size;
    const [res] = await query<{ n: number }>(database, sql, arrays);
    inserted += Number(res!.n);
    onProgress?.({ existing, inserted, toAdd });
  }
  if (inserted > 0) await query(database, 'vacuum analyze companies');
  return { existing, inserted, total: existing + inserted, ms: performance.now() - started };
}
