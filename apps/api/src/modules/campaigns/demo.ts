/**
 * Demo premium offers and campaigns (issue 26): a dozen offers of the performance side's four
 * advertisers (demo-partners.ts), ten campaigns with their events and postback URLs, placed around
 * the warehouse's last loaded hour so the list shows each phase (running, ended, not started), and
 * the running ones' budgets sized from the spend the demo budgets wrote for those advertisers
 * (demo-budgets.ts: Spanish traffic), so the Pacing panel shows on track, ahead (with a day over
 * its daily budget), behind and a campaign in EUR that is not compared. Some rows have edits in
 * their history (a payout raised, a budget raised, a status changed) and a few events a postback
 * test already sent. Runs once, after seedDemoBudgets.
 */
import { decimalToMicros, microsToDecimal } from '@backoffice/core/budgets';
import { campaignBounds, DAY_MS } from '@backoffice/core/campaign-pacing';
import { resolveMacros } from '@backoffice/core/postback';
import { COUNTRIES } from '@backoffice/core/reports';
import type { Database } from '../../db/client.ts';
import { datasetState, HOUR_MS } from '../../reports-data/rollups.ts';
import { transaction, type QueryFn } from '../../reports-data/sql.ts';

interface DemoOffer {
  key: string;
  name: string;
  advertiser: string;
  status: 'draft' | 'active' | 'paused' | 'archived';
  tracking: string;
  preview: string | null;
  payout: string;
  revenue: string;
  currency: 'USD' | 'EUR';
  countries: string[];
  platforms: string[];
  caps?: { type: 'conversions' | 'budget'; daily: string | null; total: string | null };
  /** An earlier payout: the offer then has an edit in its history. */
  payoutBefore?: string;
}

const OFFERS: DemoOffer[] = [
  {
    key: 'riviera',
    name: 'Hôtels Riviera – summer bookings',
    advertiser: 'Tramuntana Performance',
    status: 'active',
    tracking: 'https://track.hotels-riviera.example/click?aff=bo&cid={click_id}&s1={sub1}&s2={sub2}',
    preview: 'https://www.hotels-riviera.example/ete',
    payout: '6.50',
    revenue: '9.00',
    currency: 'EUR',
    countries: ['FR', 'ES', 'IT'],
    platforms: ['ios', 'android'],
    caps: { type: 'conversions', daily: '80', total: '2000' },
    payoutBefore: '6.00',
  },
  {
    key: 'fantasy',
    name: 'Ligue Fantasy – free sign-ups',
    advertiser: 'Tramuntana Performance',
    status: 'active',
    tracking: 'https://go.liguefantasy.example/r?click={click_id}&pub={sub1}',
    preview: 'https://liguefantasy.example',
    payout: '2.20',
    revenue: '3.10',
    currency: 'USD',
    countries: ['FR', 'BE', 'CH', 'ES'],
    platforms: ['android', 'ios'],
    caps: { type: 'budget', daily: '400.00', total: '9000.00' },
  },
  {
    key: 'bank',
    name: 'Banque Azur – account opening',
    advertiser: 'Tramuntana Performance',
    status: 'active',
    tracking: 'https://partners.banqueazur.example/aff?tid={click_id}&country={country}',
    preview: 'https://www.banqueazur.example/ouvrir-un-compte',
    payout: '45.00',
    revenue: '60.00',
    currency: 'EUR',
    countries: ['FR', 'ES'],
    platforms: [],
  },
  {
    key: 'mealkit',
    name: 'Petit Panier meal kit – first box',
    advertiser: 'Tramuntana Performance',
    status: 'paused',
    tracking: 'https://t.petitpanier.example/c?c={click_id}',
    preview: 'https://petitpanier.example/essai',
    payout: '14.00',
    revenue: '13.50',
    currency: 'USD',
    countries: ['FR', 'BE'],
    platforms: ['ios', 'android', 'windows', 'macos'],
  },
  {
    key: 'insurance',
    name: 'Seguros Hogar Sur – quote request',
    advertiser: 'Garbí Affiliates',
    status: 'active',
    tracking: 'https://afiliados.seguroshogarsur.example/lead?id={click_id}&sub={sub1}',
    preview: 'https://seguroshogarsur.example/presupuesto',
    payout: '9.00',
    revenue: '12.50',
    currency: 'EUR',
    countries: ['ES', 'PT'],
    platforms: ['windows', 'macos', 'ios', 'android'],
    caps: { type: 'conversions', daily: '40', total: null },
  },
  {
    key: 'energy',
    name: 'Energía Verde Solar – contract signed',
    advertiser: 'Garbí Affiliates',
    status: 'active',
    tracking: 'https://go.energiaverdesolar.example/c?clickid={click_id}&s1={sub1}&s2={sub2}&s3={sub3}',
    preview: 'https://energiaverdesolar.example/tarifas',
    payout: '35.00',
    revenue: '48.00',
    currency: 'EUR',
    countries: ['ES'],
    platforms: [],
    caps: { type: 'conversions', daily: '25', total: '600' },
    payoutBefore: '32.00',
  },
  {
    key: 'english',
    name: 'Inglés Online Pro – free lesson',
    advertiser: 'Garbí Affiliates',
    status: 'active',
    tracking: 'https://track.inglesonlinepro.example/?cid={click_id}&geo={country}',
    preview: 'https://inglesonlinepro.example/clase-gratis',
    payout: '3.40',
    revenue: '4.80',
    currency: 'USD',
    countries: ['ES', 'PT', 'MX', 'AR', 'CO'],
    platforms: [],
  },
  {
    key: 'grocery',
    name: 'Súper a Casa – first order',
    advertiser: 'Garbí Affiliates',
    status: 'draft',
    tracking: 'https://t.superacasa.example/aff?c={click_id}',
    preview: null,
    payout: '7.00',
    revenue: '9.50',
    currency: 'EUR',
    countries: ['ES'],
    platforms: ['ios', 'android'],
  },
  {
    key: 'streaming',
    name: 'Deportes Play – 7-day free trial',
    advertiser: 'Levante Leads',
    status: 'active',
    tracking: 'https://trk.deportesplay.example/click?cid={click_id}&src={sub1}',
    preview: 'https://deportesplay.example/prueba',
    payout: '4.80',
    revenue: '6.00',
    currency: 'USD',
    countries: ['ES', 'MX', 'AR', 'CO'],
    platforms: ['ios', 'android', 'tvos', 'roku'],
    caps: { type: 'budget', daily: '250.00', total: '6000.00' },
  },
  {
    key: 'music',
    name: 'Ritmo Premium – 3-month subscription',
    advertiser: 'Levante Leads',
    status: 'archived',
    tracking: 'https://go.ritmopremium.example/r?c={click_id}',
    preview: 'https://ritmopremium.example',
    payout: '5.50',
    revenue: '7.25',
    currency: 'USD',
    countries: ['ES'],
    platforms: ['ios', 'android'],
  },
  {
    key: 'game',
    name: 'Reinos de Cierzo – install and tutorial',
    advertiser: 'Cierzo Installs',
    status: 'active',
    tracking: 'https://app.adjust.example/abc123?campaign=bo&click_id={click_id}&sub1={sub1}',
    preview: 'https://reinosdecierzo.example',
    payout: '1.10',
    revenue: '1.45',
    currency: 'USD',
    countries: ['ES', 'PT', 'IT'],
    platforms: ['android', 'ios'],
    caps: { type: 'conversions', daily: '1500', total: null },
  },
  {
    key: 'dating',
    name: 'Citas Cerca – registration',
    advertiser: 'Cierzo Installs',
    status: 'draft',
    tracking: 'https://track.citascerca.example/i?c={click_id}',
    preview: null,
    payout: '0.90',
    revenue: '1.30',
    currency: 'USD',
    countries: ['ES'],
    platforms: ['android', 'ios'],
  },
];

interface DemoEvent {
  name: string;
  code: string;
  payout: string;
  revenue: string;
  postback: string;
  click: number;
  view: number;
  status?: 'active' | 'paused';
}

type BudgetTarget = { pace: number } | { amount: string };

interface DemoCampaign {
  name: string;
  offer: string;
  status: 'draft' | 'active' | 'paused' | 'archived';
  /** Days from the last loaded day (UTC) to the start and to the end (inclusive). */
  from: number;
  to: number;
  currency: 'USD' | 'EUR';
  model: 'CPM' | 'CPC' | 'CPA';
  rate: string;
  /** The total budget: sized for a pace (spent / expected) from the warehouse's spend, or given. */
  budget: BudgetTarget;
  /** The daily budget as a share of the total per day (1: an even split), or none. */
  daily?: number;
  countries: string[];
  devices: string[];
  platforms: string[];
  caps?: { type: 'conversions' | 'budget'; daily: string | null; total: string | null };
  events: DemoEvent[];
  /** The total budget was raised from this share of it: an edit in the history. */
  raisedFrom?: number;
}

const pb = (host: string, query: string) => `https://${host}/postback?${query}`;

const CAMPAIGNS: DemoCampaign[] = [
  {
    name: 'Riviera summer – ES mobile',
    offer: 'riviera',
    status: 'active',
    from: -18,
    to: 12,
    currency: 'USD',
    model: 'CPA',
    rate: '9.00',
    budget: { pace: 1.02 },
    daily: 1.6,
    countries: ['ES'],
    devices: [],
    platforms: ['ios', 'android'],
    caps: { type: 'conversions', daily: '80', total: '2000' },
    raisedFrom: 0.8,
    events: [
      {
        name: 'Booking confirmed',
        code: 'booking',
        payout: '6.50',
        revenue: '9.00',
        postback: pb(
          'pb.hotels-riviera.example',
          'clickid={click_id}&goal={event}&amount={revenue}&cur={currency}&ts={timestamp}',
        ),
        click: 30,
        view: 24,
      },
      {
        name: 'Newsletter sign-up',
        code: 'newsletter',
        payout: '0.40',
        revenue: '0.60',
        postback: pb('pb.hotels-riviera.example', 'clickid={click_id}&goal={event}'),
        click: 7,
        view: 0,
        status: 'paused',
      },
    ],
  },
  {
    name: 'Ligue Fantasy – season launch',
    offer: 'fantasy',
    status: 'active',
    from: -9,
    to: 20,
    currency: 'USD',
    model: 'CPC',
    rate: '0.3500',
    budget: { pace: 1.32 },
    daily: 0.9,
    countries: ['ES', 'FR'],
    devices: [],
    platforms: ['android', 'ios'],
    events: [
      {
        name: 'Team created',
        code: 'team_created',
        payout: '2.20',
        revenue: '3.10',
        postback: pb(
          's2s.liguefantasy.example',
          'click={click_id}&event={event}&payout={payout}&sub1={sub1}',
        ),
        click: 14,
        view: 0,
      },
      {
        name: 'First paid league',
        code: 'paid_league',
        payout: '8.00',
        revenue: '7.50',
        postback: pb(
          's2s.liguefantasy.example',
          'click={click_id}&event={event}&payout={payout}&rev={revenue}',
        ),
        click: 30,
        view: 0,
      },
    ],
  },
  {
    name: 'Banque Azur – autumn accounts',
    offer: 'bank',
    status: 'active',
    from: -27,
    to: -2,
    currency: 'EUR',
    model: 'CPA',
    rate: '60.00',
    budget: { amount: '18000.00' },
    countries: ['ES'],
    devices: [],
    platforms: [],
    events: [
      {
        name: 'Account opened',
        code: 'account_opened',
        payout: '45.00',
        revenue: '60.00',
        postback: pb(
          'affiliates.banqueazur.example',
          'tid={click_id}&status=approved&amount={payout}&currency={currency}',
        ),
        click: 45,
        view: 0,
      },
    ],
  },
  {
    name: 'Seguros Hogar – native ES',
    offer: 'insurance',
    status: 'active',
    from: -14,
    to: 16,
    currency: 'USD',
    model: 'CPA',
    rate: '12.50',
    budget: { pace: 0.68 },
    daily: 1.2,
    countries: ['ES', 'PT'],
    devices: [],
    platforms: [],
    events: [
      {
        name: 'Quote requested',
        code: 'lead',
        payout: '9.00',
        revenue: '12.50',
        postback: pb(
          'leads.seguroshogarsur.example',
          'id={click_id}&evento={event}&importe={payout}&pais={country}',
        ),
        click: 30,
        view: 24,
      },
    ],
  },
  {
    name: 'Energía Verde – otoño',
    offer: 'energy',
    status: 'active',
    from: -6,
    to: 24,
    currency: 'USD',
    model: 'CPA',
    rate: '48.00',
    budget: { pace: 0.97 },
    daily: 1.5,
    countries: ['ES'],
    devices: [],
    platforms: [],
    caps: { type: 'conversions', daily: '25', total: '600' },
    events: [
      {
        name: 'Contract signed',
        code: 'contract',
        payout: '35.00',
        revenue: '48.00',
        postback: pb(
          'api.energiaverdesolar.example',
          'clickid={click_id}&event={event}&payout={payout}&s1={sub1}&s2={sub2}&s3={sub3}',
        ),
        click: 60,
        view: 0,
      },
      {
        name: 'Quote viewed',
        code: 'quote',
        payout: '0.80',
        revenue: '1.20',
        postback: pb('api.energiaverdesolar.example', 'clickid={click_id}&event={event}'),
        click: 7,
        view: 24,
      },
    ],
  },
  {
    name: 'Inglés Online – LATAM test',
    offer: 'english',
    status: 'paused',
    from: -10,
    to: 10,
    currency: 'USD',
    model: 'CPC',
    rate: '0.1200',
    budget: { amount: '1500.00' },
    daily: 1,
    countries: ['MX', 'AR', 'CO'],
    devices: ['phone'],
    platforms: [],
    events: [
      {
        name: 'Free lesson booked',
        code: 'lesson',
        payout: '3.40',
        revenue: '4.80',
        postback: pb('track.inglesonlinepro.example', 'cid={click_id}&e={event}&geo={country}'),
        click: 14,
        view: 0,
      },
    ],
  },
  {
    name: 'Deportes Play – Liga trial',
    offer: 'streaming',
    status: 'active',
    from: -21,
    to: 8,
    currency: 'USD',
    model: 'CPM',
    rate: '4.2000',
    budget: { pace: 1.05 },
    countries: [],
    devices: [],
    platforms: ['ios', 'android', 'tvos'],
    caps: { type: 'budget', daily: '250.00', total: '6000.00' },
    events: [
      {
        name: 'Trial started',
        code: 'trial',
        payout: '4.80',
        revenue: '6.00',
        postback: pb('trk.deportesplay.example', 'cid={click_id}&event={event}&p={payout}&ts={timestamp}'),
        click: 30,
        view: 24,
      },
      {
        name: 'Subscribed after trial',
        code: 'subscribed',
        payout: '12.00',
        revenue: '15.00',
        postback: pb('trk.deportesplay.example', 'cid={click_id}&event={event}&p={payout}&ts={timestamp}'),
        click: 30,
        view: 0,
      },
    ],
  },
  {
    name: 'Ritmo Premium – relaunch',
    offer: 'music',
    status: 'draft',
    from: 6,
    to: 35,
    currency: 'USD',
    model: 'CPA',
    rate: '7.25',
    budget: { amount: '4000.00' },
    daily: 1.2,
    countries: ['ES'],
    devices: ['phone', 'tablet'],
    platforms: ['ios', 'android'],
    events: [
      {
        name: 'Subscription',
        code: 'subscription',
        payout: '5.50',
        revenue: '7.25',
        postback: pb('go.ritmopremium.example', 'c={click_id}&ev={event}&val={revenue}&cur={currency}'),
        click: 30,
        view: 0,
      },
    ],
  },
  {
    name: 'Reinos de Cierzo – soft launch',
    offer: 'game',
    status: 'active',
    from: -4,
    to: 25,
    currency: 'USD',
    model: 'CPA',
    rate: '1.45',
    budget: { amount: '12000.00' },
    daily: 1,
    countries: ['ES', 'PT', 'IT'],
    devices: ['phone', 'tablet'],
    platforms: ['android', 'ios'],
    caps: { type: 'conversions', daily: '1500', total: null },
    events: [
      {
        name: 'Install',
        code: 'install',
        payout: '1.10',
        revenue: '1.45',
        postback: pb(
          's2s.adjust.example',
          'click_id={click_id}&event={event}&revenue={revenue}&currency={currency}&sub1={sub1}',
        ),
        click: 7,
        view: 24,
      },
      {
        name: 'Tutorial completed',
        code: 'tutorial',
        payout: '0.35',
        revenue: '0.50',
        postback: pb('s2s.adjust.example', 'click_id={click_id}&event={event}'),
        click: 7,
        view: 0,
      },
      {
        name: 'First purchase',
        code: 'first_purchase',
        payout: '3.00',
        revenue: '4.20',
        postback: pb(
          's2s.adjust.example',
          'click_id={click_id}&event={event}&revenue={revenue}&currency={currency}',
        ),
        click: 14,
        view: 0,
      },
    ],
  },
  {
    name: 'Petit Panier – FR test',
    offer: 'mealkit',
    status: 'paused',
    from: -30,
    to: -16,
    currency: 'EUR',
    model: 'CPA',
    rate: '13.50',
    budget: { amount: '2500.00' },
    countries: ['FR', 'BE'],
    devices: [],
    platforms: [],
    events: [
      {
        name: 'First box ordered',
        code: 'first_box',
        payout: '14.00',
        revenue: '13.50',
        postback: pb('t.petitpanier.example', 'c={click_id}&e={event}&amount={payout}'),
        click: 30,
        view: 0,
      },
    ],
  },
];

/** A past answer of a test (what the demo's receivers said). */
const DEMO_TESTS: {
  campaign: string;
  code: string;
  status: number;
  body: string;
  contentType: string;
  ageHours: number;
}[] = [
  // Oldest first (ids follow the order): a refused click id, then the fixed URL accepted.
  {
    campaign: 'Riviera summer – ES mobile',
    code: 'booking',
    status: 400,
    body: '{"status":"error","message":"unknown clickid"}',
    contentType: 'application/json',
    ageHours: 52,
  },
  {
    campaign: 'Riviera summer – ES mobile',
    code: 'booking',
    status: 200,
    body: '{"status":"ok","conversion_id":"rv-8813452"}',
    contentType: 'application/json',
    ageHours: 50,
  },
  {
    campaign: 'Reinos de Cierzo – soft launch',
    code: 'install',
    status: 200,
    body: 'OK',
    contentType: 'text/plain',
    ageHours: 20,
  },
];

const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const countryIds = (list: string[]) =>
  list.map((c) => COUNTRIES.indexOf(c as (typeof COUNTRIES)[number]) + 1).filter((id) => id > 0);

/** An amount to the ten (at least 100) near `micros`. */
function roundAmount(micros: bigint): string {
  const ten = 10_000_000n;
  const n = (micros + ten / 2n) / ten;
  return microsToDecimal((n < 10n ? 10n : n) * ten);
}

/** What the advertiser spent on the campaign's days up to asOf, in its countries (the pacing's figure). */
async function spentOf(
  q: QueryFn,
  partner: number,
  start: string,
  end: string,
  countries: string[],
  asOfMs: number,
): Promise<bigint> {
  const { startMs, endMs } = campaignBounds(start, end);
  const [row] = await q<{ micros: string }>(
    `SELECT COALESCE(sum(revenue_micros), 0)::text AS micros FROM stats_r_partner_country_device
      WHERE lvl = 1 AND demand_partner_id = $1 AND ts >= $2 AND ts < $3 AND (cardinality($4::int4[]) = 0 OR country_id = ANY($4::int4[]))`,
    [
      partner,
      new Date(startMs).toISOString(),
      new Date(Math.max(startMs, Math.min(endMs, asOfMs))).toISOString(),
      countryIds(countries),
    ],
  );
  return BigInt(row?.micros ?? '0');
}

export async function seedOffersCampaignsDemo(database: Database): Promise<void> {
  const state = (await datasetState(database)) as { endMs?: number } | null;
  const asOfMs = state?.endMs ?? Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
  const today = Math.floor(asOfMs / DAY_MS) * DAY_MS;
  await transaction(database, async (q) => {
    const marker = await q(
      `INSERT INTO settings (key, value) VALUES ('demo_offers_seeded', $1) ON CONFLICT DO NOTHING RETURNING key`,
      [new Date().toISOString()],
    );
    if (marker.length === 0) return;
    const partners = new Map(
      (
        await q<{ id: number; name: string }>(
          `SELECT id, name FROM demand_partners WHERE side = 'performance'`,
        )
      ).map((p) => [p.name, Number(p.id)]),
    );
    if (partners.size === 0) return;
    const [admin] = await q<{ id: number }>(
      `SELECT id FROM users WHERE mail LIKE 'admin@%' ORDER BY id LIMIT 1`,
    );
    const actor = admin?.id ?? null;
    const audit = (at: string, action: string, entity: string, id: number, before: unknown, after: unknown) =>
      q(
        `INSERT INTO audit_log (at, actor_id, ip, action, entity, entity_id, before, after) VALUES ($1, $2, '10.20.0.57', $3, $4, $5, $6, $7)`,
        [
          at,
          actor,
          action,
          entity,
          String(id),
          before === null ? null : JSON.stringify(before),
          JSON.stringify(after),
        ],
      );
    const at = (daysAgo: number, hour = 10) =>
      new Date(today - daysAgo * DAY_MS + hour * HOUR_MS).toISOString();

    const offerIds = new Map<string, { id: number; advertiser: number }>();
    for (const [i, o] of OFFERS.entries()) {
      const advertiser = partners.get(o.advertiser);
      if (advertiser === undefined) continue;
      const createdAt = at(45 - i);
      const updatedAt = o.payoutBefore ? at(8 - (i % 5)) : createdAt;
      const [row] = await q<{ id: number }>(
        `INSERT INTO offers (name, advertiser_id, status, tracking_url, preview_url, payout, revenue, currency, countries, platforms, cap_type, daily_cap, total_cap, version, created_at, updated_at, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17) RETURNING id`,
        [
          o.name,
          advertiser,
          o.status,
          o.tracking,
          o.preview,
          o.payout,
          o.revenue,
          o.currency,
          JSON.stringify(o.countries),
          JSON.stringify(o.platforms),
          o.caps?.type ?? 'none',
          o.caps?.daily ?? null,
          o.caps?.total ?? null,
          o.payoutBefore ? 2 : 1,
          createdAt,
          updatedAt,
          actor,
        ],
      );
      const id = Number(row!.id);
      offerIds.set(o.key, { id, advertiser });
      const fields = {
        id,
        name: o.name,
        advertiser_id: advertiser,
        advertiser_id_label: o.advertiser,
        status: o.status,
        tracking_url: o.tracking,
        preview_url: o.preview,
        revenue: decimalText(o.revenue, 4),
        currency: o.currency,
        countries: o.countries,
        platforms: o.platforms,
        cap_type: o.caps?.type ?? 'none',
        daily_cap: o.caps?.daily ? decimalText(o.caps.daily, 2) : null,
        total_cap: o.caps?.total ? decimalText(o.caps.total, 2) : null,
      };
      const first = { ...fields, payout: decimalText(o.payoutBefore ?? o.payout, 4), version: 1 };
      await audit(createdAt, 'offer.create', 'offer', id, null, first);
      if (o.payoutBefore)
        await audit(updatedAt, 'offer.update', 'offer', id, first, {
          ...fields,
          payout: decimalText(o.payout, 4),
          version: 2,
        });
    }

    for (const [i, c] of CAMPAIGNS.entries()) {
      const offer = offerIds.get(c.offer);
      if (!offer) continue;
      const start = dayText(today + c.from * DAY_MS);
      const end = dayText(today + c.to * DAY_MS);
      let total: string;
      if ('amount' in c.budget) total = c.budget.amount;
      else {
        // The budget that puts the campaign at this pace: spent / (elapsed share × pace).
        const spent = await spentOf(q, offer.advertiser, start, end, c.countries, asOfMs);
        const { startMs, endMs } = campaignBounds(start, end);
        const elapsed = BigInt(Math.max(Math.min(asOfMs, endMs) - startMs, HOUR_MS));
        total =
          spent === 0n
            ? '5000.00'
            : roundAmount(
                (spent * BigInt(endMs - startMs) * 1000n) /
                  (elapsed * BigInt(Math.round(c.budget.pace * 1000))),
              );
      }
      const days = (c.to - c.from + 1) * 1000;
      const daily =
        c.daily === undefined
          ? null
          : roundAmount((decimalToMicros(total) * BigInt(Math.round(c.daily * 1000))) / BigInt(days));
      const createdAt = at(Math.max(2, 3 - c.from) + (i % 3));
      const editedAt = at(Math.max(1, -c.from - 2), 15);
      const first = c.raisedFrom
        ? roundAmount((decimalToMicros(total) * BigInt(Math.round(c.raisedFrom * 100))) / 100n)
        : total;
      const [row] = await q<{ id: number }>(
        `INSERT INTO campaigns (name, advertiser_id, offer_id, status, start_date, end_date, currency, total_budget, daily_budget, model, rate, cap_type, daily_cap, total_cap, countries, platforms, devices, version, created_at, updated_at, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $21) RETURNING id`,
        [
          c.name,
          offer.advertiser,
          offer.id,
          c.status,
          start,
          end,
          c.currency,
          total,
          daily,
          c.model,
          c.rate,
          c.caps?.type ?? 'none',
          c.caps?.daily ?? null,
          c.caps?.total ?? null,
          JSON.stringify(c.countries),
          JSON.stringify(c.platforms),
          JSON.stringify(c.devices),
          c.raisedFrom ? 2 : 1,
          createdAt,
          c.raisedFrom ? editedAt : createdAt,
          actor,
        ],
      );
      const id = Number(row!.id);
      const advertiserName = OFFERS.find((o) => o.key === c.offer)!.advertiser;
      const fields = {
        id,
        name: c.name,
        advertiser_id: offer.advertiser,
        advertiser_id_label: advertiserName,
        offer_id: offer.id,
        offer_id_label: OFFERS.find((o) => o.key === c.offer)!.name,
        status: c.status,
        start_date: start,
        end_date: end,
        currency: c.currency,
        daily_budget: daily,
        model: c.model,
        rate: decimalText(c.rate, 4),
        cap_type: c.caps?.type ?? 'none',
        daily_cap: c.caps?.daily ? decimalText(c.caps.daily, 2) : null,
        total_cap: c.caps?.total ? decimalText(c.caps.total, 2) : null,
        countries: c.countries,
        platforms: c.platforms,
        devices: c.devices,
      };
      await audit(createdAt, 'campaign.create', 'campaign', id, null, {
        ...fields,
        total_budget: first,
        version: 1,
      });
      if (c.raisedFrom)
        await audit(
          editedAt,
          'campaign.update',
          'campaign',
          id,
          { ...fields, total_budget: first, version: 1 },
          { ...fields, total_budget: total, version: 2 },
        );

      for (const e of c.events) {
        const [event] = await q<{ id: number }>(
          `INSERT INTO campaign_events (campaign_id, name, code, status, payout, revenue, postback_url, click_window_days, view_window_hours, created_at, updated_at, created_by, updated_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $11) RETURNING id`,
          [
            id,
            e.name,
            e.code,
            e.status ?? 'active',
            e.payout,
            e.revenue,
            e.postback,
            e.click,
            e.view,
            createdAt,
            actor,
          ],
        );
        const eventId = Number(event!.id);
        await audit(createdAt, 'campaign_event.create', 'campaign_event', eventId, null, {
          id: eventId,
          campaign_id: id,
          campaign_id_label: c.name,
          name: e.name,
          code: e.code,
          status: e.status ?? 'active',
          payout: decimalText(e.payout, 4),
          revenue: decimalText(e.revenue, 4),
          postback_url: e.postback,
          click_window_days: e.click,
          view_window_hours: e.view,
          version: 1,
        });
        for (const test of DEMO_TESTS.filter((x) => x.campaign === c.name && x.code === e.code)) {
          const values = {
            click_id: `test-${(eventId * 7919 + test.ageHours).toString(16).padStart(12, '0')}`,
            payout: decimalText(e.payout, 4),
            revenue: decimalText(e.revenue, 4),
            event: e.code,
            event_id: String(eventId),
            campaign_id: String(id),
            offer_id: String(offer.id),
            currency: c.currency,
            timestamp: String(Math.floor((asOfMs - test.ageHours * HOUR_MS) / 1000)),
          };
          const url = resolveMacros(e.postback, values);
          const sentAt = new Date(asOfMs - test.ageHours * HOUR_MS).toISOString();
          const [made] = await q<{ id: number }>(
            `INSERT INTO postback_tests (event_id, requested_at, requested_by, status, url, macro_values, http_status, response_headers, response_body, redirects, duration_ms)
             VALUES ($1, $2, $3, 'done', $4, $5, $6, $7, $8, '[]', $9) RETURNING id`,
            [
              eventId,
              sentAt,
              actor,
              url,
              JSON.stringify(values),
              test.status,
              JSON.stringify({
                'content-type': test.contentType,
                'content-length': String(Buffer.byteLength(test.body)),
                server: 'nginx',
              }),
              test.body,
              180 + test.ageHours,
            ],
          );
          await audit(sentAt, 'campaign_event.postback_test', 'campaign_event', eventId, null, {
            test_id: Number(made!.id),
            url,
            status: 'done',
            http_status: test.status,
            error_key: null,
          });
        }
      }
    }
  });
}

/** A decimal as the numeric column answers it (`6.5` with scale 4 -> `6.5000`). */
function decimalText(value: string, scale: number): string {
  const [whole, fraction = ''] = value.split('.');
  return `${whole}.${fraction.padEnd(scale, '0').slice(0, scale)}`;
}
