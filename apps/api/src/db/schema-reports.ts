/**
 * Reports warehouse (issue 4): the entities facts point to, the hourly fact table, its rollups,
 * the 1-minute QPS series with its 15-minute rollup, and saved DataViewers.
 *
 * Layout (see src/modules/reports/README.md):
 * - stats_hourly: one row per UTC hour x every dimension (dictionary-encoded integer ids; enum
 *   dimensions are smallint positions in @backoffice/core/reports), integer metrics, money in
 *   integer micro-units (never floats). BRIN on ts: rows arrive in time order.
 * - stats_r_*: rollups of the fact over fewer dimensions at several time levels in one table
 *   (lvl 0 = UTC hour, 1 = UTC day, 2 = 7-day block, 3 = 28-day block, 4–9 = 4- to 128-day
 *   blocks by powers of two; blocks aligned on Monday 1970-01-05; LEVELS in
 *   src/reports-data/rollups.ts). A planner picks the smallest rollup that covers a report's
 *   dimensions and filters and covers its range with the aligned blocks that read the fewest rows.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  date,
  index,
  integer,
  boolean,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies, resourceColumns, roles, users } from './schema.ts';

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

// ---------------------------------------------------------------------------------------------
// Entities (kept simple; the partner and publisher screens grow them later)

/**
 * Demand partners: the warehouse's dimension and the resource of the partner screens
 * (packages/core/src/resources/demand-partners.ts) in one table. The warehouse loader writes
 * name, type, status and qps_cap of its partners; every other column has a default.
 */
export const demandPartners = pgTable(
  'demand_partners',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    side: text('side').notNull().default('ssp'),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'restrict' }),
    /** DSP, SSP, network, amazon */
    type: text('type').notNull().default('DSP'),
    accountManager: text('account_manager'),
    status: text('status').notNull().default('live'),
    endpointUrl: text('endpoint_url'),
    openrtbVersion: text('openrtb_version').notNull().default('2.6'),
    gzip: boolean('gzip').notNull().default(true),
    timeoutMs: integer('timeout_ms').notNull().default(300),
    mediaTypes: jsonb('media_types').$type<string[]>().notNull().default(['banner']),
    environments: jsonb('environments').$type<string[]>().notNull().default(['site']),
    sizes: jsonb('sizes').$type<string[]>().notNull().default([]),
    consentFrameworks: jsonb('consent_frameworks').$type<string[]>().notNull().default([]),
    /** Outgoing QPS cap (0 = none). */
    qpsCap: integer('qps_cap').notNull().default(0),
    simulateOnly: boolean('simulate_only').notNull().default(false),
    geoAllow: jsonb('geo_allow').$type<string[]>().notNull().default([]),
    geoDeny: jsonb('geo_deny').$type<string[]>().notNull().default([]),
    defaultFloor: numeric('default_floor', { precision: 13, scale: 4 }).notNull().default('0'),
    floorCurrency: text('floor_currency').notNull().default('USD'),
    revenueSharePct: numeric('revenue_share_pct', { precision: 5, scale: 2 }).notNull().default('0'),
    paymentTerms: text('payment_terms').notNull().default('net45'),
    invoiceCurrency: text('invoice_currency').notNull().default('EUR'),
    minAmount: numeric('min_amount', { precision: 11, scale: 2 }).notNull().default('0'),
    /** credit (invoiced after the month, on its payment terms) | prepayment (pays before, spend is charged). */
    billingMode: text('billing_mode').notNull().default('credit'),
    /** The most a credit account may owe (null: no limit). */
    creditLimit: numeric('credit_limit', { precision: 14, scale: 2 }),
    /** Billing contacts: [{ name, email, role }]. */
    billingContacts: jsonb('billing_contacts')
      .$type<{ name: string; email: string; role: string }[]>()
      .notNull()
      .default([]),
    vatId: text('vat_id'),
    billingEmail: text('billing_email'),
    /** Invoicing blocked (issue 22: the invoice preview's `blocked`): no invoice is issued while set. */
    invoicingBlocked: boolean('invoicing_blocked').notNull().default(false),
    invoicingBlockedReason: text('invoicing_blocked_reason'),
    sellerIdAtPartner: text('seller_id_at_partner'),
    partnerDomain: text('partner_domain'),
    certificationAuthorityId: text('certification_authority_id'),
    /** api | manual: whether the partner's figures come from its API or are entered by hand (issue 24). */
    reporting: text('reporting').notNull().default('api'),
    ...resourceColumns(),
  },
  (t) => [
    uniqueIndex('demand_partners_name_idx').on(sql`lower(${t.name})`),
    // A network is registered once: by name (above) and by endpoint URL (stored normalised).
    uniqueIndex('demand_partners_endpoint_url_idx').on(t.endpointUrl),
    index('demand_partners_side_name_idx').on(t.side, t.name, t.id),
    index('demand_partners_company_idx').on(t.companyId),
  ],
);

export const supplyEndpoints = pgTable(
  'supply_endpoints',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    region: text('region').notNull().default('eu'),
    qpsCap: integer('qps_cap').notNull().default(0),
    createdAt,
    updatedAt,
  },
  (t) => [uniqueIndex('supply_endpoints_name_idx').on(sql`lower(${t.name})`)],
);

/**
 * Publishers: the warehouse's dimension and the resource of the publisher screens
 * (packages/core/src/resources/publishers.ts) in one table; the loader writes name and seller_id.
 */
export const publishers = pgTable(
  'publishers',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    side: text('side').notNull().default('ssp'),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'restrict' }),
    manager: text('manager'),
    status: text('status').notNull().default('live'),
    revenueSharePct: numeric('revenue_share_pct', { precision: 5, scale: 2 }).notNull().default('0'),
    paymentTerms: text('payment_terms').notNull().default('net45'),
    minPayout: numeric('min_payout', { precision: 11, scale: 2 }).notNull().default('0'),
    currency: text('currency').notNull().default('EUR'),
    billingEmail: text('billing_email'),
    /** sellers.json seller id */
    sellerId: text('seller_id'),
    sellerType: text('seller_type').notNull().default('PUBLISHER'),
    sellerDomain: text('seller_domain'),
    isConfidential: boolean('is_confidential').notNull().default(false),
    ...resourceColumns(),
  },
  (t) => [
    index('publishers_name_idx').on(sql`lower(${t.name})`),
    // sellers.json: a seller id appears once in the file.
    uniqueIndex('publishers_seller_id_idx').on(t.sellerId),
    index('publishers_side_name_idx').on(t.side, t.name, t.id),
  ],
);

/** Onboarding drafts of publishers and demand partners (packages/core/src/resources/precreation.ts). */
export const precreation = pgTable(
  'precreation',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    side: text('side').notNull(),
    target: text('target').notNull(),
    state: text('state').notNull().default('draft'),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'restrict' }),
    contactEmail: text('contact_email'),
    notes: text('notes'),
    sellerId: text('seller_id'),
    sellerDomain: text('seller_domain'),
    revenueSharePct: numeric('revenue_share_pct', { precision: 5, scale: 2 }).notNull().default('0'),
    partnerType: text('partner_type').notNull().default('DSP'),
    endpointUrl: text('endpoint_url'),
    qpsCap: integer('qps_cap').notNull().default(0),
    contractSigned: boolean('contract_signed').notNull().default(false),
    billingInfo: boolean('billing_info').notNull().default(false),
    adsTxtVerified: boolean('ads_txt_verified').notNull().default(false),
    testTraffic: boolean('test_traffic').notNull().default(false),
    /** The publisher or demand partner the approval created. */
    createdEntityId: integer('created_entity_id'),
    rejectReason: text('reject_reason'),
    ...resourceColumns(),
  },
  (t) => [
    index('precreation_side_state_idx').on(t.side, t.state, t.updatedAt),
    index('precreation_name_idx').on(t.name, t.id),
  ],
);

export const sites = pgTable(
  'sites',
  {
    id: serial('id').primaryKey(),
    publisherId: integer('publisher_id')
      .notNull()
      .references(() => publishers.id),
    /** Domain or app bundle */
    name: text('name').notNull(),
    /** Position + 1 in ENVIRONMENTS (web, app, ctv) */
    environmentId: smallint('environment_id').notNull(),
    /** The last ads.txt / app-ads.txt check: unchecked, verified, missing_line, unreachable. */
    adsTxtStatus: text('ads_txt_status').notNull().default('unchecked'),
    adsTxtCheckedAt: timestamp('ads_txt_checked_at', { withTimezone: true }),
    /** What the check found: the URL read, an HTTP status or error, malformed lines. */
    adsTxtDetail: jsonb('ads_txt_detail'),
    createdAt,
  },
  (t) => [index('sites_publisher_idx').on(t.publisherId), index('sites_name_idx').on(sql`lower(${t.name})`)],
);

export const adUnits = pgTable(
  'ad_units',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    name: text('name').notNull(),
    formatId: smallint('format_id').notNull(),
    sizeId: smallint('size_id').notNull(),
    createdAt,
  },
  (t) => [index('ad_units_site_idx').on(t.siteId), index('ad_units_name_idx').on(sql`lower(${t.name})`)],
);

export const deals = pgTable(
  'deals',
  {
    id: serial('id').primaryKey(),
    demandPartnerId: integer('demand_partner_id')
      .notNull()
      .references(() => demandPartners.id),
    /** OpenRTB deal id */
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** pmp, preferred, pg */
    type: text('type').notNull().default('pmp'),
    /** OpenRTB 2.6 Deal: bidfloor (exact decimal) and bidfloorcur. */
    bidfloor: numeric('bidfloor', { precision: 12, scale: 4 }).notNull().default('0'),
    bidfloorcur: text('bidfloorcur').notNull().default('USD'),
    /** OpenRTB `at`: 1 first price, 2 second price plus, 3 the bidfloor is the fixed price. */
    auctionType: smallint('auction_type').notNull().default(1),
    /** Allowed buyer seats and advertiser domains (empty: any). */
    wseat: jsonb('wseat').$type<string[]>().notNull().default([]),
    wadomain: jsonb('wadomain').$type<string[]>().notNull().default([]),
    /** Targeted publishers and ad units by id (empty: all of the partner's inventory). */
    publisherIds: jsonb('publisher_ids').$type<number[]>().notNull().default([]),
    adUnitIds: jsonb('ad_unit_ids').$type<number[]>().notNull().default([]),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    /** Programmatic guaranteed: the impressions promised. */
    guaranteedImpressions: bigint('guaranteed_impressions', { mode: 'number' }),
    /** draft, active, paused, archived */
    status: text('status').notNull().default('active'),
    notes: text('notes'),
    ...resourceColumns(),
  },
  (t) => [
    uniqueIndex('deals_code_idx').on(t.code),
    index('deals_name_idx').on(sql`lower(${t.name})`),
    index('deals_partner_idx').on(t.demandPartnerId, t.id),
    index('deals_updated_idx').on(t.updatedAt, t.id),
  ],
);

// ---------------------------------------------------------------------------------------------
// Facts

const metricColumns = {
  adRequests: integer('ad_requests').notNull(),
  bidRequests: integer('bid_requests').notNull(),
  bids: integer('bids').notNull(),
  wins: integer('wins').notNull(),
  impressions: integer('impressions').notNull(),
  clicks: integer('clicks').notNull(),
  timeouts: integer('timeouts').notNull(),
  errors: integer('errors').notNull(),
  revenueMicros: bigint('revenue_micros', { mode: 'bigint' }).notNull(),
  costMicros: bigint('cost_micros', { mode: 'bigint' }).notNull(),
};

/** Rollup sums: wide enough for any range. */
const rollupMetricColumns = {
  adRequests: bigint('ad_requests', { mode: 'number' }).notNull(),
  bidRequests: bigint('bid_requests', { mode: 'number' }).notNull(),
  bids: bigint('bids', { mode: 'number' }).notNull(),
  wins: bigint('wins', { mode: 'number' }).notNull(),
  impressions: bigint('impressions', { mode: 'number' }).notNull(),
  clicks: bigint('clicks', { mode: 'number' }).notNull(),
  timeouts: bigint('timeouts', { mode: 'number' }).notNull(),
  errors: bigint('errors', { mode: 'number' }).notNull(),
  revenueMicros: bigint('revenue_micros', { mode: 'bigint' }).notNull(),
  costMicros: bigint('cost_micros', { mode: 'bigint' }).notNull(),
};

/** The hourly fact: one row per UTC hour and combination of every dimension. */
export const statsHourly = pgTable(
  'stats_hourly',
  {
    ts: timestamp('ts', { withTimezone: true }).notNull(),
    publisherId: integer('publisher_id').notNull(),
    siteId: integer('site_id').notNull(),
    adUnitId: integer('ad_unit_id').notNull(),
    supplyEndpointId: integer('supply_endpoint_id').notNull(),
    demandPartnerId: integer('demand_partner_id').notNull(),
    /** 0 = open auction */
    dealId: integer('deal_id').notNull(),
    countryId: smallint('country_id').notNull(),
    deviceId: smallint('device_id').notNull(),
    osId: smallint('os_id').notNull(),
    formatId: smallint('format_id').notNull(),
    sizeId: smallint('size_id').notNull(),
    environmentId: smallint('environment_id').notNull(),
    ...metricColumns,
  },
  (t) => [index('stats_hourly_ts_brin').using('brin', t.ts)],
);

const lvl = smallint('lvl').notNull();
const ts = timestamp('ts', { withTimezone: true }).notNull();

/** Rollup: demand partner only (dashboard tiles and series, day x partner). */
export const statsRPartner = pgTable(
  'stats_r_partner',
  { lvl, ts, demandPartnerId: integer('demand_partner_id').notNull(), ...rollupMetricColumns },
  (t) => [index('stats_r_partner_lvl_ts_idx').on(t.lvl, t.ts, t.demandPartnerId)],
);

/** Rollup: demand partner x supply endpoint x deal. */
export const statsRPartnerSupply = pgTable(
  'stats_r_partner_supply',
  {
    lvl,
    ts,
    demandPartnerId: integer('demand_partner_id').notNull(),
    supplyEndpointId: integer('supply_endpoint_id').notNull(),
    dealId: integer('deal_id').notNull(),
    ...rollupMetricColumns,
  },
  (t) => [
    index('stats_r_partner_supply_lvl_ts_idx').on(t.lvl, t.ts),
    index('stats_r_partner_supply_partner_idx').on(t.demandPartnerId, t.lvl, t.ts),
  ],
);

/**
 * Rollup: demand partner x country x device (a partner's geography and devices by hour: its rows
 * are each one group of such a report filtered on one partner and one country, so it is answered
 * without aggregating; see `rowsAreGroups` in src/modules/reports/engine.ts).
 */
export const statsRPartnerCountryDevice = pgTable(
  'stats_r_partner_country_device',
  {
    lvl,
    ts,
    demandPartnerId: integer('demand_partner_id').notNull(),
    countryId: smallint('country_id').notNull(),
    deviceId: smallint('device_id').notNull(),
    ...rollupMetricColumns,
  },
  (t) => [
    index('stats_r_partner_country_device_lvl_ts_idx').on(t.lvl, t.ts),
    index('stats_r_partner_country_device_partner_idx').on(t.demandPartnerId, t.countryId, t.lvl, t.ts),
  ],
);

/** Rollup: demand partner x country x device x environment x format. */
export const statsRPartnerGeo = pgTable(
  'stats_r_partner_geo',
  {
    lvl,
    ts,
    demandPartnerId: integer('demand_partner_id').notNull(),
    countryId: smallint('country_id').notNull(),
    deviceId: smallint('device_id').notNull(),
    environmentId: smallint('environment_id').notNull(),
    formatId: smallint('format_id').notNull(),
    ...rollupMetricColumns,
  },
  (t) => [
    index('stats_r_partner_geo_lvl_ts_idx').on(t.lvl, t.ts),
    index('stats_r_partner_geo_partner_idx').on(t.demandPartnerId, t.lvl, t.ts),
    index('stats_r_partner_geo_partner_country_idx').on(t.demandPartnerId, t.countryId, t.lvl, t.ts),
  ],
);

/** Rollup: demand partner x publisher x country. */
export const statsRPartnerPublisher = pgTable(
  'stats_r_partner_publisher',
  {
    lvl,
    ts,
    demandPartnerId: integer('demand_partner_id').notNull(),
    publisherId: integer('publisher_id').notNull(),
    countryId: smallint('country_id').notNull(),
    ...rollupMetricColumns,
  },
  (t) => [
    index('stats_r_partner_publisher_lvl_ts_idx').on(t.lvl, t.ts),
    index('stats_r_partner_publisher_partner_idx').on(t.demandPartnerId, t.lvl, t.ts),
    index('stats_r_partner_publisher_publisher_idx').on(t.publisherId, t.lvl, t.ts),
  ],
);

/**
 * Rollup: demand partner x publisher (the one above without the country, summed from its hours):
 * which partners a publisher's traffic went to in a month (billing's supply rows) reads a
 * fifteenth of the rows.
 */
export const statsRPartnerPub = pgTable(
  'stats_r_partner_pub',
  {
    lvl,
    ts,
    demandPartnerId: integer('demand_partner_id').notNull(),
    publisherId: integer('publisher_id').notNull(),
    ...rollupMetricColumns,
  },
  (t) => [
    index('stats_r_partner_pub_lvl_ts_idx').on(t.lvl, t.ts),
    index('stats_r_partner_pub_partner_idx').on(t.demandPartnerId, t.lvl, t.ts),
    index('stats_r_partner_pub_publisher_idx').on(t.publisherId, t.lvl, t.ts),
  ],
);

/** Rollup: publisher x site x environment x format x device. */
export const statsRPublisher = pgTable(
  'stats_r_publisher',
  {
    lvl,
    ts,
    publisherId: integer('publisher_id').notNull(),
    siteId: integer('site_id').notNull(),
    environmentId: smallint('environment_id').notNull(),
    formatId: smallint('format_id').notNull(),
    deviceId: smallint('device_id').notNull(),
    ...rollupMetricColumns,
  },
  (t) => [
    index('stats_r_publisher_lvl_ts_idx').on(t.lvl, t.ts),
    index('stats_r_publisher_publisher_idx').on(t.publisherId, t.lvl, t.ts),
  ],
);

/**
 * Rollup: demand partner x environment x format (stats_r_partner_geo without the country and the
 * device, summed from its hours), with the calendar-month level (rollups.ts MONTH_LVL): billing's
 * advertiser rows and the finance reports read one row per partner, environment and format a month.
 */
export const statsRPartnerFormat = pgTable(
  'stats_r_partner_format',
  {
    lvl,
    ts,
    demandPartnerId: integer('demand_partner_id').notNull(),
    environmentId: smallint('environment_id').notNull(),
    formatId: smallint('format_id').notNull(),
    ...rollupMetricColumns,
  },
  (t) => [
    index('stats_r_partner_format_lvl_ts_idx').on(t.lvl, t.ts),
    index('stats_r_partner_format_partner_idx').on(t.demandPartnerId, t.lvl, t.ts),
  ],
);

/**
 * Rollup: publisher x environment x format (stats_r_publisher without the site and the device,
 * summed from its hours), with the calendar-month level: billing's publisher rows, the payouts and
 * the finance reports' month x publisher read one row per publisher, environment and format a month.
 */
export const statsRPublisherFormat = pgTable(
  'stats_r_publisher_format',
  {
    lvl,
    ts,
    publisherId: integer('publisher_id').notNull(),
    environmentId: smallint('environment_id').notNull(),
    formatId: smallint('format_id').notNull(),
    ...rollupMetricColumns,
  },
  (t) => [
    index('stats_r_publisher_format_lvl_ts_idx').on(t.lvl, t.ts),
    index('stats_r_publisher_format_publisher_idx').on(t.publisherId, t.lvl, t.ts),
  ],
);

/** What is loaded (range, generator parameters, rollup row counts per level for the planner). */
export const statsState = pgTable('stats_state', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt,
});

// ---------------------------------------------------------------------------------------------
// QPS series

/** 1-minute QPS series. kind 1 = demand partner, 2 = supply endpoint. */
export const qpsMinute = pgTable(
  'qps_minute',
  {
    ts: timestamp('ts', { withTimezone: true }).notNull(),
    kind: smallint('kind').notNull(),
    entityId: integer('entity_id').notNull(),
    /** Requests sent in the minute (QPS = requests / 60). */
    requests: integer('requests').notNull(),
    /** The cap in force during the minute (QPS). */
    capQps: integer('cap_qps').notNull(),
    bids: integer('bids').notNull(),
    timeouts: integer('timeouts').notNull(),
    errors: integer('errors').notNull(),
    latencyP95Ms: smallint('latency_p95_ms').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.entityId, t.ts] })],
);

/** 15-minute rollup of the QPS series: what graphs read (their interval is at least 15 minutes). */
export const qps15m = pgTable(
  'qps_15m',
  {
    ts: timestamp('ts', { withTimezone: true }).notNull(),
    kind: smallint('kind').notNull(),
    entityId: integer('entity_id').notNull(),
    minutes: smallint('minutes').notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull(),
    bids: bigint('bids', { mode: 'number' }).notNull(),
    timeouts: bigint('timeouts', { mode: 'number' }).notNull(),
    errors: bigint('errors', { mode: 'number' }).notNull(),
    /** Cap in force at the end of the bucket, and the highest during it. */
    capLast: integer('cap_last').notNull(),
    capMax: integer('cap_max').notNull(),
    /** Highest minute p95 in the bucket (p95s do not add up; the max is a safe upper bound). */
    latencyP95Ms: smallint('latency_p95_ms').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.entityId, t.ts] })],
);

// ---------------------------------------------------------------------------------------------
// Saved DataViewers

export const dataviewers = pgTable(
  'dataviewers',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    definition: jsonb('definition').notNull(),
    createdAt,
    updatedAt,
  },
  (t) => [index('dataviewers_owner_idx').on(t.ownerId)],
);

export const dataviewerShares = pgTable(
  'dataviewer_shares',
  {
    dataviewerId: integer('dataviewer_id')
      .notNull()
      .references(() => dataviewers.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.dataviewerId, t.roleId] }),
    index('dataviewer_shares_role_idx').on(t.roleId),
  ],
);
