/**
 * SSP logs (issue 24, docs/decisions/035-ssp-logs.md).
 *
 * `ssp_auction_logs`: sampled auction logs, one row per bid request the exchange sent to a demand
 * partner: the OpenRTB 2.6 BidRequest and BidResponse (null on no bid, timeout or error), latency,
 * outcome and prices (CPM, exact numeric). In production the ad server's log shipping writes them;
 * here the sampler job (and the demo seed) stands in for it. Pruned after 7 days. No foreign keys:
 * a log is a record of what happened, kept even if the partner or publisher is later removed.
 * Indexes for the searches: exact request id; time (desc) with and without publisher / partner.
 *
 * `ssp_log_sampling`: the one sampling setting (id 1): active, sample rate, duration (minutes from
 * the start, or until an instant), partner scope; versioned (409 when stale); the sampler's
 * progress (`last_sampled_minute`, `sampled_rows`) lives here too, so a restarted server resumes.
 */
import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, jsonb, numeric, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './schema.ts';

export const sspAuctionLogs = pgTable(
  'ssp_auction_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    loggedAt: timestamp('logged_at', { withTimezone: true }).notNull(),
    requestId: text('request_id').notNull(),
    impId: text('imp_id').notNull().default('1'),
    publisherId: integer('publisher_id').notNull(),
    siteId: integer('site_id'),
    /** The site's domain or the app's bundle. */
    inventory: text('inventory').notNull(),
    /** site | app */
    environment: text('environment').notNull(),
    /** banner | video | native */
    mediaType: text('media_type').notNull(),
    partnerId: integer('partner_id').notNull(),
    endpoint: text('endpoint').notNull(),
    region: text('region').notNull(),
    dealId: text('deal_id'),
    bidRequest: jsonb('bid_request').notNull(),
    bidResponse: jsonb('bid_response'),
    latencyMs: integer('latency_ms').notNull(),
    /** won | lost | no_bid | below_floor | timeout | error */
    outcome: text('outcome').notNull(),
    bidPrice: numeric('bid_price', { precision: 12, scale: 4 }),
    bidCurrency: text('bid_currency'),
    clearingPrice: numeric('clearing_price', { precision: 12, scale: 4 }),
    floor: numeric('floor', { precision: 12, scale: 4 }),
    /** demo | sampler */
    source: text('source').notNull(),
  },
  (t) => [
    index('ssp_auction_logs_request_idx').on(t.requestId),
    index('ssp_auction_logs_time_idx').on(t.loggedAt.desc(), t.id.desc()),
    index('ssp_auction_logs_publisher_time_idx').on(t.publisherId, t.loggedAt.desc(), t.id.desc()),
    index('ssp_auction_logs_partner_time_idx').on(t.partnerId, t.loggedAt.desc(), t.id.desc()),
  ],
);

export const sspLogSampling = pgTable(
  'ssp_log_sampling',
  {
    id: smallint('id').primaryKey().default(1),
    active: boolean('active').notNull().default(false),
    sampleRatePct: smallint('sample_rate_pct').notNull().default(10),
    /** minutes | until */
    durationMode: text('duration_mode').notNull().default('minutes'),
    durationMinutes: integer('duration_minutes').default(60),
    until: timestamp('until', { withTimezone: true }),
    /** all | partners */
    partnerScope: text('partner_scope').notNull().default('all'),
    partnerIds: jsonb('partner_ids').$type<number[]>().notNull().default([]),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    lastSampledMinute: timestamp('last_sampled_minute', { withTimezone: true }),
    sampledRows: integer('sampled_rows').notNull().default(0),
    version: integer('version').notNull().default(1),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('ssp_log_sampling_one_row', sql`${t.id} = 1`),
    check('ssp_log_sampling_rate', sql`${t.sampleRatePct} BETWEEN 0 AND 100`),
  ],
);
