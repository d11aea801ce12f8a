/**
 * Invoices and credit notes (issue 22, docs/decisions/024-invoices.md).
 *
 * `invoice_issuers`: our legal entities that issue documents (the SSP's and the performance
 * side's), each with its series prefixes. `invoice_sequences`: the last number of a series (issuer,
 * kind, year); issuing increments it in the invoice's own transaction, so a rolled-back issue
 * leaves no gap and concurrent issues queue on the row.
 *
 * `invoices`: drafts (from approved billing rows, one per counterparty, currency and months) and
 * issued invoices and credit notes. The customer is a snapshot taken at issue (an invoice shows the
 * company as it was). Amounts are numeric with two decimals. `invoice_lines`: a document's service
 * lines (one per product). Billing rows point at their draft or invoice (`billing_rows.invoice_id`).
 * `invoice_payments`: payments against an invoice.
 *
 * `verifactu_records`: the VERI*FACTU chain (registros de alta and anulación), append-only: a
 * trigger refuses UPDATE and DELETE; each record's hash covers the previous record's hash.
 */
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './schema.ts';

const cents = (name: string) => numeric(name, { precision: 18, scale: 2 });

export const invoiceIssuers = pgTable('invoice_issuers', {
  id: serial('id').primaryKey(),
  /** ssp | performance: the team whose documents it issues. */
  team: text('team').notNull().unique(),
  legalName: text('legal_name').notNull(),
  taxId: text('tax_id').notNull(),
  country: text('country').notNull().default('ES'),
  address: text('address').notNull(),
  city: text('city').notNull(),
  postalCode: text('postal_code').notNull(),
  email: text('email').notNull(),
  iban: text('iban').notNull(),
  bic: text('bic'),
  registry: text('registry'),
  /** Series prefixes: invoices "F" → F2026-000001, credit notes "R" → R2026-000001. */
  invoicePrefix: text('invoice_prefix').notNull(),
  creditPrefix: text('credit_prefix').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const invoiceSequences = pgTable(
  'invoice_sequences',
  {
    issuerId: integer('issuer_id')
      .notNull()
      .references(() => invoiceIssuers.id),
    /** invoice | credit_note */
    kind: text('kind').notNull(),
    year: integer('year').notNull(),
    lastNumber: integer('last_number').notNull().default(0),
    /** The last issue date of the series: a later document may not be dated before it. */
    lastIssueDate: date('last_issue_date'),
  },
  (t) => [primaryKey({ columns: [t.issuerId, t.kind, t.year] })],
);

export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    team: text('team').notNull(),
    /** invoice | credit_note */
    kind: text('kind').notNull().default('invoice'),
    /** draft | issued | sent | partly_paid | paid | credited */
    state: text('state').notNull().default('draft'),
    issuerId: integer('issuer_id')
      .notNull()
      .references(() => invoiceIssuers.id),
    counterpartyType: text('counterparty_type').notNull().default('demand_partner'),
    counterpartyId: integer('counterparty_id').notNull(),
    currency: text('currency').notNull(),
    /** The billing months on it (YYYY-MM, ascending). */
    months: jsonb('months').$type<string[]>().notNull(),
    periodStart: date('period_start').notNull(),
    periodEnd: date('period_end').notNull(),
    paymentTerms: text('payment_terms').notNull(),
    impressions: bigint('impressions', { mode: 'number' }).notNull().default(0),
    /** What the rows bill (sum of the lines before deductions). */
    revenue: cents('revenue').notNull(),
    fraudPercentage: numeric('fraud_percentage', { precision: 5, scale: 2 }),
    fraudRevenue: cents('fraud_revenue'),
    spoofingPercentage: numeric('spoofing_percentage', { precision: 5, scale: 2 }),
    spoofingRevenue: cents('spoofing_revenue'),
    applyDeductions: boolean('apply_deductions').notNull().default(true),
    comments: text('comments'),
    /** Set at issue (a draft shows the figures it would have). */
    taxTreatment: text('tax_treatment').notNull(),
    base: cents('base').notNull(),
    vatRate: numeric('vat_rate', { precision: 5, scale: 2 }).notNull(),
    vatAmount: cents('vat_amount').notNull(),
    total: cents('total').notNull(),
    paid: cents('paid').notNull().default('0'),
    /** What credit notes took off it (positive). */
    credited: cents('credited').notNull().default('0'),
    series: text('series'),
    sequence: integer('sequence'),
    number: text('number'),
    issueDate: date('issue_date'),
    dueDate: date('due_date'),
    language: text('language').notNull().default('en'),
    /** The customer as it was at issue (legal name, tax id, country, address, city, postal code, e-mail). */
    customer: jsonb('customer').$type<Record<string, string | null>>(),
    /** A credit note's invoice, and why. */
    correctsId: integer('corrects_id'),
    correctionReason: text('correction_reason'),
    /** The client's idempotency key of a credit note's request (a retry answers the same note). */
    requestKey: text('request_key'),
    pdfSha256: text('pdf_sha256'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    sentTo: jsonb('sent_to').$type<string[]>().notNull().default([]),
    version: integer('version').notNull().default(1),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    issuedBy: integer('issued_by').references(() => users.id, { onDelete: 'set null' }),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_number_idx').on(t.issuerId, t.number),
    uniqueIndex('invoices_series_seq_idx').on(t.issuerId, t.series, t.sequence),
    index('invoices_list_idx').on(t.team, t.kind, t.state, t.id),
    index('invoices_counterparty_idx').on(t.counterpartyType, t.counterpartyId),
    index('invoices_corrects_idx').on(t.correctsId),
    uniqueIndex('invoices_request_key_idx').on(t.correctsId, t.requestKey),
  ],
);

export const invoiceLines = pgTable(
  'invoice_lines',
  {
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    product: text('product').notNull(),
    description: text('description').notNull(),
    quantity: bigint('quantity', { mode: 'number' }).notNull().default(0),
    amount: cents('amount').notNull(),
  },
  (t) => [primaryKey({ columns: [t.invoiceId, t.position] })],
);

export const invoicePayments = pgTable(
  'invoice_payments',
  {
    id: serial('id').primaryKey(),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    amount: cents('amount').notNull(),
    paidOn: date('paid_on').notNull(),
    reference: text('reference'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('invoice_payments_invoice_idx').on(t.invoiceId)],
);

export const verifactuRecords = pgTable(
  'verifactu_records',
  {
    id: serial('id').primaryKey(),
    issuerId: integer('issuer_id')
      .notNull()
      .references(() => invoiceIssuers.id),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    /** alta | anulacion */
    kind: text('kind').notNull(),
    issuerTaxId: text('issuer_tax_id').notNull(),
    number: text('number').notNull(),
    issueDate: date('issue_date').notNull(),
    /** F1, R1… (empty for an anulación) */
    invoiceType: text('invoice_type').notNull().default(''),
    totalTax: text('total_tax').notNull().default(''),
    totalAmount: text('total_amount').notNull().default(''),
    previousHash: text('previous_hash').notNull(),
    /** yyyy-mm-ddThh:mm:ss+01:00 (Europe/Madrid) */
    generatedAt: text('generated_at').notNull(),
    hash: text('hash').notNull(),
    xml: text('xml').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('verifactu_records_chain_idx').on(t.issuerId, t.id),
    index('verifactu_records_invoice_idx').on(t.invoiceId),
  ],
);

/**
 * What became of a record sent to the tax agency (only when a sender is configured: the sending
 * adapter is off by default). The records themselves never change; their submissions are here.
 */
export const verifactuSubmissions = pgTable(
  'verifactu_submissions',
  {
    id: serial('id').primaryKey(),
    recordId: integer('record_id')
      .notNull()
      .references(() => verifactuRecords.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    accepted: boolean('accepted').notNull(),
    /** The agency's Código Seguro de Verificación of an accepted submission. */
    csv: text('csv'),
    error: text('error'),
  },
  (t) => [index('verifactu_submissions_record_idx').on(t.recordId, t.id)],
);
