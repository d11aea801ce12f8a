/**
 * Billing (issue 21, docs/decisions/021 and 022).
 *
 * `billing_rows`: one row per month, counterparty and product of what we invoice (kind
 * `advertiser`: a demand partner or performance advertiser owes us) or what we owe (kind `supply`:
 * a publisher). Our figure (`revenue_ours`) comes from the warehouse (SSP) or the performance
 * facts; `other_side` is the opposite flow of the same traffic (the cost of an advertiser row, the
 * revenue of a supply row) for the margin. `revenue_network` is the counterparty's reported
 * figure when it replaces ours; `carried_in` what earlier months accumulated into this row.
 * `revenue_gross` (what the row bills) is derived by the database, to the cent.
 *
 * `billing_payments`: payments received (or made) against a row; `paid_revenue` and
 * `received_payment_date` on the row follow them. `billing_rates`: the month's exchange rate per
 * currency (units for 1 EUR). `billing_nettings`: an SSP company's receivable row offset against
 * its payable rows of the same month. `billing_action_runs`: a bulk action as a job, keyed by the
 * client's idempotency key, with its progress and each row's result.
 *
 * `performance_daily`: the performance side's facts (per day, advertiser, publisher and product).
 */
import { sql, type SQL } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, jsonb, numeric, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies, users } from './schema.ts';

const money = (name: string) => numeric(name, { precision: 18, scale: 6 });
const cents = (name: string) => numeric(name, { precision: 18, scale: 2 });

export const billingRows = pgTable(
  'billing_rows',
  {
    id: serial('id').primaryKey(),
    /** ssp | performance */
    side: text('side').notNull(),
    /** advertiser (we invoice) | supply (we owe) */
    kind: text('kind').notNull(),
    /** YYYY-MM (a UTC calendar month) */
    month: text('month').notNull(),
    /** demand_partner | publisher */
    counterpartyType: text('counterparty_type').notNull(),
    counterpartyId: integer('counterparty_id').notNull(),
    /** banner, video, native, audio (SSP formats); cpc, cpa, cpm (performance) */
    product: text('product').notNull(),
    currency: text('currency').notNull(),
    revenueOurs: money('revenue_ours').notNull().default('0'),
    otherSide: money('other_side').notNull().default('0'),
    revenueNetwork: money('revenue_network'),
    /** warehouse | manual: `manual` when revenue_network holds the partner-reported figures (issue 24). */
    revenueSource: text('revenue_source').notNull().default('warehouse'),
    carriedIn: money('carried_in').notNull().default('0'),
    /** The rows of earlier months accumulated into this one: [{ id, month, amount }]. */
    carriedFrom: jsonb('carried_from').$type<{ id: number; month: string; amount: string }[]>().notNull().default([]),
    revenueGross: cents('revenue_gross')
      .notNull()
      .generatedAlwaysAs((): SQL => sql`round(coalesce(revenue_network, revenue_ours) + carried_in, 2)`),
    paidRevenue: cents('paid_revenue').notNull().default('0'),
    receivedPaymentDate: date('received_payment_date'),
    documentId: text('document_id'),
    /** Taken by a prepayment or direct debit: pending shows as CHARGED. */
    charged: boolean('charged').notNull().default(false),
    minAmount: cents('min_amount').notNull().default('0'),
    paymentTerms: text('payment_terms').notNull().default('net45'),
    /** Comma-separated partner names (spec 3). */
    demandPartners: text('demand_partners').notNull().default(''),
    description: text('description').notNull().default(''),
    state: text('state').notNull().default('open'),
    /** The next month's row an accumulated row moved into. */
    accumulatedInto: integer('accumulated_into'),
    nettingId: integer('netting_id'),
    /** Impressions the row's figure comes from (the warehouse's, or the performance facts'). */
    impressions: bigint('impressions', { mode: 'number' }).notNull().default(0),
    /** The draft or invoice the row is on (issue 22); an issued invoice makes the row 'invoiced'. */
    invoiceId: integer('invoice_id'),
    version: integer('version').notNull().default(1),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedBy: integer('confirmed_by').references(() => users.id, { onDelete: 'set null' }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    approvedBy: integer('approved_by').references(() => users.id, { onDelete: 'set null' }),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('billing_rows_key_idx').on(t.side, t.kind, t.month, t.counterpartyType, t.counterpartyId, t.product),
    index('billing_rows_list_idx').on(t.side, t.kind, t.month, t.state),
    index('billing_rows_counterparty_idx').on(t.counterpartyType, t.counterpartyId, t.month),
    index('billing_rows_document_idx').on(t.documentId),
    index('billing_rows_invoice_idx').on(t.invoiceId),
  ],
);

export const billingPayments = pgTable(
  'billing_payments',
  {
    id: serial('id').primaryKey(),
    rowId: integer('row_id')
      .notNull()
      .references(() => billingRows.id, { onDelete: 'cascade' }),
    amount: cents('amount').notNull(),
    paidOn: date('paid_on').notNull(),
    documentId: text('document_id'),
    reference: text('reference').notNull().default(''),
    /** manual | bank_csv */
    source: text('source').notNull().default('manual'),
    /** The row counts as paid from this payment on, even if short (bank fees, a write-off). */
    settles: boolean('settles').notNull().default(false),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('billing_payments_row_idx').on(t.rowId)],
);

export const billingRates = pgTable(
  'billing_rates',
  {
    month: text('month').notNull(),
    currency: text('currency').notNull(),
    /** Units of the currency for 1 EUR. */
    rate: numeric('rate', { precision: 18, scale: 6 }).notNull(),
    /** manual | ecb */
    source: text('source').notNull().default('manual'),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.month, t.currency] })],
);

export const billingNettings = pgTable(
  'billing_nettings',
  {
    id: serial('id').primaryKey(),
    month: text('month').notNull(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    currency: text('currency').notNull(),
    /** What the company owes us (its advertiser rows) and what we owe it (its supply rows). */
    receivableRowIds: jsonb('receivable_row_ids').$type<number[]>().notNull(),
    payableRowIds: jsonb('payable_row_ids').$type<number[]>().notNull(),
    receivable: cents('receivable').notNull(),
    payable: cents('payable').notNull(),
    /** receivable − payable: positive, the company pays us; negative, we pay it. */
    net: cents('net').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    undoneBy: integer('undone_by').references(() => users.id, { onDelete: 'set null' }),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
  },
  (t) => [index('billing_nettings_month_idx').on(t.month, t.companyId)],
);

export const billingActionRuns = pgTable('billing_action_runs', {
  id: serial('id').primaryKey(),
  /** The client's idempotency key: the same key answers the same run. */
  idemKey: text('idem_key').notNull().unique(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  side: text('side').notNull(),
  action: text('action').notNull(),
  total: integer('total').notNull(),
  done: integer('done').notNull().default(0),
  /** running | done | failed */
  status: text('status').notNull().default('running'),
  /** [{ id, ok, reason?, state? }] */
  results: jsonb('results').$type<{ id: number; ok: boolean; reason?: string; state?: string }[]>().notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

export const performanceDaily = pgTable(
  'performance_daily',
  {
    day: date('day').notNull(),
    /** A demand partner of the performance side. */
    advertiserId: integer('advertiser_id').notNull(),
    /** A publisher of the performance side. */
    publisherId: integer('publisher_id').notNull(),
    /** cpc | cpa | cpm */
    product: text('product').notNull(),
    impressions: bigint('impressions', { mode: 'number' }).notNull(),
    clicks: bigint('clicks', { mode: 'number' }).notNull(),
    conversions: bigint('conversions', { mode: 'number' }).notNull(),
    /** EUR micro-units: what the advertiser pays us, what we pay the publisher. */
    revenueMicros: bigint('revenue_micros', { mode: 'bigint' }).notNull(),
    costMicros: bigint('cost_micros', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.advertiserId, t.publisherId, t.product] })],
);
