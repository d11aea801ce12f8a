/**
 * Impression logs (issue 24, docs/decisions/032-impression-logs.md).
 *
 * `impression_log_requests`: an extract someone asked for (day, network, columns, filters) and the
 * state of the job that writes it: pending -> running -> done (file in the storage adapter until
 * `expires_at`) | failed (with the reason), done -> expired (file removed by the cleanup job).
 * `attempt` numbers the job generations: a retry or "process pending" bumps it and sends a new job,
 * and a job of an older generation does nothing. `run_token` is the current run's: progress
 * writes of an older run (a worker that was given up on) change nothing.
 *
 * `impression_log_rows`: the sampled impression-level log, one row per impression, keyed by day,
 * network and a sequence in time order (the extract pages through it by that key). Generated from
 * the warehouse's hourly facts for a (day, network) the first time it is asked for
 * (`impression_log_samples` records which), so seeding stays cheap.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './schema.ts';
import { demandPartners } from './schema-reports.ts';

export const impressionLogRequests = pgTable(
  'impression_log_requests',
  {
    id: serial('id').primaryKey(),
    logDate: date('log_date').notNull(),
    demandPartnerId: integer('demand_partner_id')
      .notNull()
      .references(() => demandPartners.id, { onDelete: 'restrict' }),
    columns: jsonb('columns').$type<string[]>().notNull(),
    filters: jsonb('filters').$type<object[]>().notNull(),
    /** pending | running | done | failed | expired */
    status: text('status').notNull().default('pending'),
    attempt: integer('attempt').notNull().default(1),
    runToken: text('run_token'),
    rowsDone: bigint('rows_done', { mode: 'number' }).notNull().default(0),
    rowsTotal: bigint('rows_total', { mode: 'number' }),
    bytes: bigint('bytes', { mode: 'number' }),
    /** The file's key in the storage adapter. */
    storageKey: text('storage_key'),
    fileName: text('file_name'),
    error: text('error'),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    /** The client's key of the click that asked (a doubled click makes one request). */
    idempotencyKey: text('idempotency_key'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('impression_log_requests_requested_idx').on(t.requestedAt, t.id),
    index('impression_log_requests_status_idx').on(t.status),
    index('impression_log_requests_partner_idx').on(t.demandPartnerId),
    uniqueIndex('impression_log_requests_key_idx').on(t.requestedBy, t.idempotencyKey),
  ],
);

export const impressionLogRows = pgTable(
  'impression_log_rows',
  {
    logDate: date('log_date').notNull(),
    demandPartnerId: integer('demand_partner_id').notNull(),
    seq: integer('seq').notNull(),
    ts: timestamp('ts', { withTimezone: true }).notNull(),
    publisherId: integer('publisher_id').notNull(),
    siteId: integer('site_id').notNull(),
    adUnitId: integer('ad_unit_id').notNull(),
    /** 0 = open auction */
    dealId: integer('deal_id').notNull(),
    countryId: smallint('country_id').notNull(),
    deviceId: smallint('device_id').notNull(),
    osId: smallint('os_id').notNull(),
    formatId: smallint('format_id').notNull(),
    sizeId: smallint('size_id').notNull(),
    environmentId: smallint('environment_id').notNull(),
    /** CPMs in micro-units of the warehouse's currency. */
    bidMicros: bigint('bid_micros', { mode: 'number' }).notNull(),
    winMicros: bigint('win_micros', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.logDate, t.demandPartnerId, t.seq] })],
);

export const impressionLogSamples = pgTable(
  'impression_log_samples',
  {
    logDate: date('log_date').notNull(),
    demandPartnerId: integer('demand_partner_id').notNull(),
    rows: integer('rows').notNull(),
    /** The day was over when sampled (a sample of today is redone on the next extract). */
    complete: boolean('complete').notNull().default(false),
    generatedAt: timestamp('generated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.logDate, t.demandPartnerId] })],
);
