/**
 * Premium offers, campaigns, their events and the postback tests (issue 26,
 * docs/decisions/043-offers-and-campaigns.md). Columns carry the API's field names (the resource
 * layer maps fields to columns by name); money is `numeric` (exact), never floats.
 *
 * `offers`: an advertiser's (a performance-side demand partner's) offer: URLs, payout and revenue
 * per conversion, targeting, caps and status. `campaigns`: an offer bought between two dates with
 * budgets, a pricing model and its rate, caps and targeting. `campaign_events`: the conversions a
 * campaign pays for, with their postback URL and attribution windows; the code is unique within a
 * campaign. `postback_tests`: every test conversion sent (or refused) from the event's page: the
 * URL as sent, the answer (status, headers, the first 2 KB of the body) or why there is none; one
 * test in flight per event (a partial unique index), and a retried request with the same
 * idempotency key answers the test it made. Deleting an event deletes its tests.
 */
import { sql } from 'drizzle-orm';
import {
  bigserial,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { resourceColumns, users } from './schema.ts';
import { demandPartners } from './schema-reports.ts';

export const offers = pgTable(
  'offers',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    advertiserId: integer('advertiser_id')
      .notNull()
      .references(() => demandPartners.id, { onDelete: 'restrict' }),
    /** draft, active, paused, archived */
    status: text('status').notNull().default('draft'),
    trackingUrl: text('tracking_url').notNull(),
    previewUrl: text('preview_url'),
    payout: numeric('payout', { precision: 12, scale: 4 }).notNull(),
    revenue: numeric('revenue', { precision: 12, scale: 4 }).notNull(),
    currency: text('currency').notNull().default('USD'),
    /** ISO 3166-1 alpha-2 codes and operating systems of the warehouse's lists (empty: all). */
    countries: jsonb('countries').$type<string[]>().notNull().default([]),
    platforms: jsonb('platforms').$type<string[]>().notNull().default([]),
    /** none, conversions, budget */
    capType: text('cap_type').notNull().default('none'),
    dailyCap: numeric('daily_cap', { precision: 12, scale: 2 }),
    totalCap: numeric('total_cap', { precision: 12, scale: 2 }),
    ...resourceColumns(),
  },
  (t) => [
    index('offers_name_idx').on(t.name, t.id),
    index('offers_advertiser_idx').on(t.advertiserId, t.id),
    index('offers_updated_idx').on(t.updatedAt, t.id),
  ],
);

export const campaigns = pgTable(
  'campaigns',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    advertiserId: integer('advertiser_id')
      .notNull()
      .references(() => demandPartners.id, { onDelete: 'restrict' }),
    offerId: integer('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'restrict' }),
    /** draft, active, paused, archived */
    status: text('status').notNull().default('draft'),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    currency: text('currency').notNull().default('USD'),
    totalBudget: numeric('total_budget', { precision: 11, scale: 2 }).notNull(),
    dailyBudget: numeric('daily_budget', { precision: 11, scale: 2 }),
    /** CPM, CPC, CPA */
    model: text('model').notNull(),
    rate: numeric('rate', { precision: 12, scale: 4 }).notNull(),
    capType: text('cap_type').notNull().default('none'),
    dailyCap: numeric('daily_cap', { precision: 12, scale: 2 }),
    totalCap: numeric('total_cap', { precision: 12, scale: 2 }),
    countries: jsonb('countries').$type<string[]>().notNull().default([]),
    platforms: jsonb('platforms').$type<string[]>().notNull().default([]),
    devices: jsonb('devices').$type<string[]>().notNull().default([]),
    ...resourceColumns(),
  },
  (t) => [
    index('campaigns_name_idx').on(t.name, t.id),
    index('campaigns_start_idx').on(t.startDate, t.id),
    index('campaigns_advertiser_idx').on(t.advertiserId, t.id),
    index('campaigns_offer_idx').on(t.offerId, t.id),
  ],
);

export const campaignEvents = pgTable(
  'campaign_events',
  {
    id: serial('id').primaryKey(),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    code: text('code').notNull(),
    /** active, paused */
    status: text('status').notNull().default('active'),
    payout: numeric('payout', { precision: 12, scale: 4 }).notNull(),
    revenue: numeric('revenue', { precision: 12, scale: 4 }).notNull(),
    postbackUrl: text('postback_url').notNull(),
    clickWindowDays: smallint('click_window_days').notNull().default(30),
    viewWindowHours: smallint('view_window_hours').notNull().default(24),
    ...resourceColumns(),
  },
  (t) => [
    uniqueIndex('campaign_events_code_idx').on(t.campaignId, t.code),
    index('campaign_events_name_idx').on(t.campaignId, t.name, t.id),
  ],
);

export const postbackTests = pgTable(
  'postback_tests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => campaignEvents.id, { onDelete: 'cascade' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    /** One per click: a retried request with the same key answers the test it made. */
    idempotencyKey: text('idempotency_key'),
    /** sending, done (the server answered), refused (not sent: a private address), error (no answer) */
    status: text('status').notNull(),
    /** The URL as sent (macros resolved), and the values used. */
    url: text('url').notNull(),
    macroValues: jsonb('macro_values').$type<Record<string, string>>().notNull(),
    httpStatus: smallint('http_status'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    /** The first 2 KB of the answer's body. */
    responseBody: text('response_body'),
    /** The URLs a redirect led to, in order. */
    redirects: jsonb('redirects').$type<string[]>().notNull().default([]),
    /** Why there is no answer: a message key. */
    errorKey: text('error_key'),
    errorDetail: text('error_detail'),
    durationMs: integer('duration_ms'),
  },
  (t) => [
    index('postback_tests_event_idx').on(t.eventId, t.id.desc()),
    uniqueIndex('postback_tests_in_flight_idx')
      .on(t.eventId)
      .where(sql`${t.status} = 'sending'`),
    uniqueIndex('postback_tests_key_idx').on(t.eventId, t.idempotencyKey),
  ],
);
