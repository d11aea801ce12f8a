/**
 * Discrepancy review (issue 24, docs/decisions/033-discrepancy-review.md).
 *
 * `discrepancy_requests`: one comparison of the month to `date` for some demand partners, run as a
 * pg-boss job whose state and progress live here (queued → running → ready → reviewed → applied,
 * or failed with its reason). `discrepancy_figures`: the partner's figures as typed or uploaded.
 * `discrepancy_rows`: the job's result per day and partner (ours, theirs, delta %, flagged) and
 * the reviewer's decision (ours, theirs, split) with the accepted revenue.
 */
import { bigint, boolean, date, index, integer, jsonb, numeric, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './schema.ts';

const money = (name: string) => numeric(name, { precision: 18, scale: 6 });

export const discrepancyRequests = pgTable(
  'discrepancy_requests',
  {
    id: serial('id').primaryKey(),
    idemKey: text('idem_key').notNull(),
    /** The requested date; the comparison covers from_date (the 1st of its month) to date. */
    date: date('date').notNull(),
    fromDate: date('from_date').notNull(),
    /** YYYY-MM: the billing month the accepted figures go to. */
    month: text('month').notNull(),
    networkIds: jsonb('network_ids').$type<number[]>().notNull(),
    /** csv | typed */
    source: text('source').notNull(),
    fileName: text('file_name'),
    /** The tolerance (%) when requested: flagging is reproducible whatever the setting becomes. */
    tolerancePct: numeric('tolerance_pct', { precision: 5, scale: 2 }).notNull(),
    state: text('state').notNull().default('queued'),
    daysDone: integer('days_done').notNull().default(0),
    daysTotal: integer('days_total').notNull(),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    applyResult: jsonb('apply_result'),
    version: integer('version').notNull().default(1),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    appliedBy: integer('applied_by').references(() => users.id, { onDelete: 'set null' }),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('discrepancy_requests_idem_idx').on(t.idemKey), index('discrepancy_requests_state_idx').on(t.state, t.createdAt)],
);

export const discrepancyFigures = pgTable(
  'discrepancy_figures',
  {
    requestId: integer('request_id')
      .notNull()
      .references(() => discrepancyRequests.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    networkId: integer('network_id').notNull(),
    impressions: bigint('impressions', { mode: 'number' }).notNull(),
    revenue: money('revenue').notNull(),
  },
  (t) => [primaryKey({ columns: [t.requestId, t.day, t.networkId] })],
);

export const discrepancyRows = pgTable(
  'discrepancy_rows',
  {
    id: serial('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => discrepancyRequests.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    networkId: integer('network_id').notNull(),
    currency: text('currency').notNull(),
    oursImpressions: bigint('ours_impressions', { mode: 'number' }).notNull(),
    theirsImpressions: bigint('theirs_impressions', { mode: 'number' }).notNull(),
    impressionsDeltaPct: numeric('impressions_delta_pct', { precision: 14, scale: 2 }),
    oursRevenue: money('ours_revenue').notNull(),
    theirsRevenue: money('theirs_revenue').notNull(),
    revenueDeltaPct: numeric('revenue_delta_pct', { precision: 14, scale: 2 }),
    flagged: boolean('flagged').notNull(),
    /** ours | theirs | split */
    decision: text('decision'),
    acceptedRevenue: money('accepted_revenue'),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
  },
  (t) => [uniqueIndex('discrepancy_rows_key_idx').on(t.requestId, t.day, t.networkId), index('discrepancy_rows_flagged_idx').on(t.requestId, t.flagged)],
);
