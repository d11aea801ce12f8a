/**
 * Payouts, prepayments and finance entries (issue 23, docs/decisions/028-payouts.md).
 *
 * `payouts`: what we pay a publisher for a month, one row per side, month and publisher, in the
 * publisher's currency (the warehouse's figures converted at the month's rate). `revenue_gross` is
 * what the publisher's traffic brought in, `new_revenue` the publisher's earnings of the month (the
 * warehouse's cost), `carried_in` the balances of earlier months that stayed under the minimum,
 * `adjustment` finance's correction; `payout` (derived by the database) is what is paid.
 * States: pending -> confirmed -> approved (final) -> paid, or held; a month under the minimum is
 * `carried` into the next month's row (`carried_into`).
 *
 * `payout_verifications`: the code a person types to confirm a selection: one per confirmation,
 * for that user and that selection, single use, expiring (only its hash is kept).
 *
 * `prepayment_accounts` / `prepayment_entries`: a prepaid advertiser's ledger. Entries are
 * append-only (a trigger refuses UPDATE and DELETE); a wrong entry is reversed by another
 * (`reverses_id`, at most one reversal each). Daily spend comes from the performance facts, one
 * entry per advertiser and day.
 *
 * `finance_entries`: manual finance entries of the supply and demand teams (spec 5, Finances), with
 * whether their e-mail was sent.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './schema.ts';

const cents = (name: string) => numeric(name, { precision: 18, scale: 2 });

export const payouts = pgTable(
  'payouts',
  {
    id: serial('id').primaryKey(),
    /** ssp | performance */
    side: text('side').notNull(),
    /** YYYY-MM */
    month: text('month').notNull(),
    publisherId: integer('publisher_id').notNull(),
    /** The publisher's currency; the warehouse's figures are converted at `rate`. */
    currency: text('currency').notNull(),
    /** Units of `currency` for one unit of the warehouse's currency (1 when the same). */
    rate: numeric('rate', { precision: 18, scale: 6 }).notNull().default('1'),
    /** The period paid: the month, or from the first carried month's start. */
    fromDate: date('from_date').notNull(),
    toDate: date('to_date').notNull(),
    revenueGross: cents('revenue_gross').notNull().default('0'),
    newRevenue: cents('new_revenue').notNull().default('0'),
    carriedIn: cents('carried_in').notNull().default('0'),
    /** [{ id, month, amount }] of the earlier months carried into this one. */
    carriedFrom: jsonb('carried_from').$type<{ id: number; month: string; amount: string }[]>().notNull().default([]),
    adjustment: cents('adjustment').notNull().default('0'),
    payout: cents('payout')
      .notNull()
      .generatedAlwaysAs((): SQL => sql`new_revenue + carried_in + adjustment`),
    impressions: bigint('impressions', { mode: 'number' }).notNull().default(0),
    /** The publisher's revenue share and minimum when computed. */
    sharePct: numeric('share_pct', { precision: 5, scale: 2 }).notNull().default('0'),
    minPayout: numeric('min_payout', { precision: 11, scale: 2 }).notNull().default('0'),
    paymentTerms: text('payment_terms').notNull().default('net45'),
    /** pending | confirmed | approved | paid | held | carried */
    state: text('state').notNull().default('pending'),
    carriedInto: integer('carried_into'),
    comments: text('comments').notNull().default(''),
    heldReason: text('held_reason'),
    paidOn: date('paid_on'),
    bankReference: text('bank_reference'),
    /** The SEPA file (message id) the payout was last exported in. */
    sepaMessageId: text('sepa_message_id'),
    version: integer('version').notNull().default(1),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedBy: integer('confirmed_by').references(() => users.id, { onDelete: 'set null' }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    approvedBy: integer('approved_by').references(() => users.id, { onDelete: 'set null' }),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    paidBy: integer('paid_by').references(() => users.id, { onDelete: 'set null' }),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payouts_key_idx').on(t.side, t.month, t.publisherId),
    index('payouts_list_idx').on(t.side, t.month, t.state, t.id),
    index('payouts_publisher_idx').on(t.publisherId, t.month),
  ],
);

export const payoutVerifications = pgTable(
  'payout_verifications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** confirm (the action the code is for) */
    action: text('action').notNull(),
    /** The selection, sorted: the code confirms exactly these payouts. */
    payoutIds: jsonb('payout_ids').$type<number[]>().notNull(),
    /** SHA-256 of the code. */
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('payout_verifications_user_idx').on(t.userId, t.id)],
);

export const prepaymentAccounts = pgTable('prepayment_accounts', {
  /** A demand partner (advertiser) that pays in advance. */
  advertiserId: integer('advertiser_id').primaryKey(),
  currency: text('currency').notNull().default('EUR'),
  /** Under this balance the advertiser is listed as low. */
  lowBalanceThreshold: cents('low_balance_threshold').notNull().default('0'),
  /** The last day whose spend was posted (daily spend is posted up to yesterday). */
  spendPostedThrough: date('spend_posted_through'),
  version: integer('version').notNull().default(1),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const prepaymentEntries = pgTable(
  'prepayment_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    advertiserId: integer('advertiser_id').notNull(),
    /** The day the entry counts for. */
    entryDate: date('entry_date').notNull(),
    /** top_up | spend | adjustment | refund | reversal */
    kind: text('kind').notNull(),
    /** Signed: a top-up adds, spend and refunds take away, an adjustment either. */
    amount: cents('amount').notNull(),
    currency: text('currency').notNull(),
    reference: text('reference').notNull().default(''),
    comment: text('comment').notNull().default(''),
    /** The entry this one reverses. */
    reversesId: bigint('reverses_id', { mode: 'number' }),
    /** manual | warehouse */
    source: text('source').notNull().default('manual'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('prepayment_entries_ledger_idx').on(t.advertiserId, t.entryDate, t.id),
    uniqueIndex('prepayment_entries_reverses_idx').on(t.reversesId),
    uniqueIndex('prepayment_entries_spend_day_idx')
      .on(t.advertiserId, t.entryDate)
      .where(sql`kind = 'spend'`),
  ],
);

export const financeEntries = pgTable(
  'finance_entries',
  {
    id: serial('id').primaryKey(),
    /** supply (a publisher) | demand (an advertiser or demand partner) */
    team: text('team').notNull(),
    /** The publisher (supply) or demand partner (demand) the entry is for: the spec's "user". */
    counterpartyId: integer('counterparty_id').notNull(),
    /** The network (demand partner) the entry concerns. */
    networkId: integer('network_id').notNull(),
    /** Signed amount in `currency`. */
    amount: cents('amount').notNull(),
    currency: text('currency').notNull(),
    /** The item/type (core's list per team). */
    item: text('item').notNull(),
    comment: text('comment').notNull().default(''),
    periodStart: date('period_start').notNull(),
    periodEnd: date('period_end').notNull(),
    sendEmail: boolean('send_email').notNull(),
    /** not_requested | pending | sent | failed */
    emailStatus: text('email_status').notNull().default('not_requested'),
    emailTo: text('email_to'),
    emailSentAt: timestamp('email_sent_at', { withTimezone: true }),
    emailError: text('email_error'),
    emailMessageId: text('email_message_id'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('finance_entries_list_idx').on(t.team, t.periodStart, t.id),
    index('finance_entries_counterparty_idx').on(t.team, t.counterpartyId),
  ],
);
