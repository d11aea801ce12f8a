/**
 * Invoices and credit notes (issue 22; spec sections 3 "Invoice preview columns", 4 "Invoice
 * actions", 5 "Invoice edit" and 9), shared by the invoice screens and the API, which enforces
 * every rule here.
 *
 *   GET    /v1/invoices/candidates?team=&months=  what precreation would draft: approved rows not yet on an invoice, grouped
 *   POST   /v1/invoices/precreate                 drafts from approved billing rows (one per counterparty, currency, months)
 *   GET    /v1/invoices?team=&kind=&state=&…      the preview (drafts) and the issued documents, paged
 *   GET    /v1/invoices/export?…the same…&format=csv|xlsx
 *   GET    /v1/invoices/{id}                      one document: lines, rows, payments, credit notes, VERI*FACTU, history
 *   PATCH  /v1/invoices/{id}                      a draft's deductions, comments, apply_deductions (version)
 *   DELETE /v1/invoices/{id}                      discard a draft (its rows go back to approved, uninvoiced)
 *   POST   /v1/invoices/issue                     issue drafts: numbers, VERI*FACTU records (idempotent)
 *   POST   /v1/invoices/{id}/credit-note          issue a credit note correcting an issued invoice
 *   POST   /v1/invoices/{id}/payments             record a payment; POST …/mark-paid; POST …/back-to-pending
 *   POST   /v1/invoices/{id}/send                 e-mail the PDF to the counterparty's billing contacts
 *   GET    /v1/invoices/{id}/pdf  /ubl  /facturae  the documents (POST …/pdf regenerates and compares)
 *   POST   /v1/invoices/blocked/{counterparty}    block or unblock the counterparty's invoicing
 *   GET    /v1/invoices/verifactu/verify          recompute the record chain, first broken link
 * ACL `/v1/invoices`: read to see, write to precreate, edit drafts and record payments, approve to
 * issue and credit (final: no rollback, spec).
 *
 * Money is decimal text with two decimals, computed in integer cents (BigInt), never floats.
 */
import { z } from 'zod';
import { isIsoDate } from './dates.ts';
import { MAX_ID } from './ids.ts';
import { EU_COUNTRIES } from './tax-ids.ts';
import type { InvoiceKind, TaxTreatment } from './invoice-document.ts';

export const INVOICES_RESOURCE = '/v1/invoices';
export const INVOICE_TEAMS = ['ssp', 'performance'] as const;
export type InvoiceTeam = (typeof INVOICE_TEAMS)[number];

/**
 * draft → issued → sent → partly_paid → paid, or credited (a credit note took its whole total).
 * A credit note is issued (then sent) and never paid: it lowers what its invoice is owed.
 */
export const INVOICE_STATES = ['draft', 'issued', 'sent', 'partly_paid', 'paid', 'credited'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];
export const ISSUED_STATES: readonly InvoiceState[] = ['issued', 'sent', 'partly_paid', 'paid', 'credited'];

export const INVOICE_PAGE_SIZE = 50;
export const INVOICE_MAX_PAGE_SIZE = 200;
/** Drafts one issue request takes at most. */
export const INVOICE_MAX_ISSUE = 500;
export const COMMENTS_MAX = 500;
export const CREDIT_REASON_MIN = 10;
export const CREDIT_REASON_MAX = 300;
/** Spanish VAT, general rate. */
export const DOMESTIC_VAT_RATE = '21.00';
export const invoicesExportName = (team: InvoiceTeam) => `invoices_${team}`;

export const INVOICE_SORTS = [
  'number',
  'name',
  'issue_date',
  'due_date',
  'revenue',
  'total',
  'state',
  'date_start',
] as const;
export type InvoiceSort = (typeof INVOICE_SORTS)[number];

// ---------------------------------------------------------------------------------------------
// Exact cents

/** A decimal text (up to 6 decimals, optionally negative) as integer cents, rounded half away from zero. */
export function toCents(text: string): bigint {
  const m = /^(-)?(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!m) throw new RangeError(`Not a decimal: ${text}`);
  const micros = BigInt(m[2]!) * 1_000_000n + BigInt((m[3] ?? '').padEnd(6, '0'));
  const cents = (micros + 5_000n) / 10_000n;
  return m[1] ? -cents : cents;
}

/** Cents as decimal text with two places. */
export function fromCents(cents: bigint): string {
  const neg = cents < 0n;
  const abs = (neg ? -cents : cents).toString().padStart(3, '0');
  return `${neg ? '-' : ''}${abs.slice(0, -2)}.${abs.slice(-2)}`;
}

/** a × pct / 100 in cents, rounded half away from zero (pct as decimal text, two places). */
export function percentOf(cents: bigint, pct: string): bigint {
  const p = toCents(pct); // the percentage × 100
  const num = cents * p;
  const neg = num < 0n;
  const abs = neg ? -num : num;
  const q = (abs * 2n + 10_000n) / 20_000n;
  return neg ? -q : q;
}

/** part / whole as a percentage with two places (whole > 0). */
export function percentage(part: bigint, whole: bigint): string {
  if (whole <= 0n) return '0.00';
  const q = (part * 10_000n * 2n + whole) / (whole * 2n);
  return fromCents(q);
}

// ---------------------------------------------------------------------------------------------
// Tax

/** How VAT applies to a customer in `country` (the issuer is in Spain): see invoice-document.ts. */
export function taxTreatment(country: string): TaxTreatment {
  const c = country.toUpperCase();
  if (c === 'ES') return 'domestic';
  if ((EU_COUNTRIES as readonly string[]).includes(c)) return 'reverse_charge';
  return 'not_subject';
}

export function vatRateOf(treatment: TaxTreatment): string {
  return treatment === 'domestic' ? DOMESTIC_VAT_RATE : '0.00';
}

/** The language a counterparty reads its documents in: Spanish for Spanish and Latin American customers. */
const SPANISH_SPEAKING = [
  'ES',
  'MX',
  'AR',
  'CO',
  'CL',
  'PE',
  'UY',
  'EC',
  'VE',
  'BO',
  'PY',
  'CR',
  'PA',
  'DO',
  'GT',
  'HN',
  'SV',
  'NI',
];
export function documentLanguage(country: string): 'en' | 'es' {
  return SPANISH_SPEAKING.includes(country.toUpperCase()) ? 'es' : 'en';
}

// ---------------------------------------------------------------------------------------------
// Deductions (the preview's fraud and spoofing columns)

export interface DeductionInput {
  fraud_percentage?: string | null;
  fraud_revenue?: string | null;
  spoofing_percentage?: string | null;
  spoofing_revenue?: string | null;
  apply_deductions: boolean;
}

export interface Deductions {
  fraud_percentage: string | null;
  fraud_revenue: string | null;
  spoofing_percentage: string | null;
  spoofing_revenue: string | null;
  /** What the deductions take off, together. */
  revenue_fraud: string;
  /** revenue − revenue_fraud when apply_deductions, else revenue. */
  new_revenue_net: string;
}

export type DeductionErrors = Partial<
  Record<'fraud_percentage' | 'fraud_revenue' | 'spoofing_percentage' | 'spoofing_revenue', string>
>;

/**
 * A deduction is given as a percentage of the revenue or as an amount; the other is derived
 * (amount = revenue × % rounded to cents; % = amount / revenue to two places). When both are given
 * the amount wins. Each must be above 0 ('has to be upper than 0', spec) and the deductions
 * together cannot exceed the revenue ('cannot exceed revenue', spec).
 */
export function computeDeductions(
  revenue: string,
  input: DeductionInput,
): { ok: true; value: Deductions } | { ok: false; errors: DeductionErrors } {
  const rev = toCents(revenue);
  const errors: DeductionErrors = {};
  const one = (kind: 'fraud' | 'spoofing'): { pct: string | null; amount: bigint | null } => {
    const pctText = input[`${kind}_percentage`];
    const amountText = input[`${kind}_revenue`];
    if (amountText != null && amountText !== '') {
      const a = toCents(amountText);
      if (a <= 0n) errors[`${kind}_revenue`] = 'invoice.deduction.positive';
      else if (a > rev) errors[`${kind}_revenue`] = 'invoice.deduction.exceeds';
      return { pct: percentage(a, rev), amount: a };
    }
    if (pctText != null && pctText !== '') {
      const p = toCents(pctText);
      if (p <= 0n) errors[`${kind}_percentage`] = 'invoice.deduction.positive';
      else if (p > 10_000n) errors[`${kind}_percentage`] = 'invoice.deduction.exceeds';
      return { pct: fromCents(p), amount: percentOf(rev, pctText) };
    }
    return { pct: null, amount: null };
  };
  const fraud = one('fraud');
  const spoofing = one('spoofing');
  const total = (fraud.amount ?? 0n) + (spoofing.amount ?? 0n);
  if (Object.keys(errors).length === 0 && total > rev) {
    if (spoofing.amount != null)
      errors[input.spoofing_revenue ? 'spoofing_revenue' : 'spoofing_percentage'] =
        'invoice.deduction.exceeds';
    else errors[input.fraud_revenue ? 'fraud_revenue' : 'fraud_percentage'] = 'invoice.deduction.exceeds';
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      fraud_percentage: fraud.pct,
      fraud_revenue: fraud.amount == null ? null : fromCents(fraud.amount),
      spoofing_percentage: spoofing.pct,
      spoofing_revenue: spoofing.amount == null ? null : fromCents(spoofing.amount),
      revenue_fraud: fromCents(total),
      new_revenue_net: fromCents(input.apply_deductions ? rev - total : rev),
    },
  };
}

/** Base, VAT and total of a document from its net amount. */
export function totalsOf(
  base: string,
  treatment: TaxTreatment,
): { base: string; vat_rate: string; vat_amount: string; total: string } {
  const b = toCents(base);
  const rate = vatRateOf(treatment);
  const vat = percentOf(b, rate);
  return { base: fromCents(b), vat_rate: rate, vat_amount: fromCents(vat), total: fromCents(b + vat) };
}

/** "F2026-000123": the series (prefix and year) and the number within it, six digits. */
export function formatNumber(series: string, sequence: number): string {
  return `${series}-${String(sequence).padStart(6, '0')}`;
}
export function seriesOf(prefix: string, issueDate: string): string {
  return `${prefix}${issueDate.slice(0, 4)}`;
}

// ---------------------------------------------------------------------------------------------
// Requests

const idSchema = z.number({ error: 'error.invalid_value' }).int().positive().max(MAX_ID);
const pct = z
  .string({ error: 'invoice.deduction.invalid' })
  .regex(/^\d{1,3}(\.\d{1,2})?$/, 'invoice.deduction.invalid')
  .nullable()
  .optional();
const amount = z
  .string({ error: 'invoice.deduction.invalid' })
  .regex(/^-?\d{1,12}(\.\d{1,2})?$/, 'invoice.deduction.invalid')
  .nullable()
  .optional();
const MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/;

export const invoicePrecreateSchema = z.strictObject({
  team: z.enum(INVOICE_TEAMS, { error: 'error.invalid_value' }),
  /** The months whose approved rows go on the drafts (several: accumulated on one draft). */
  months: z
    .array(z.string().regex(MONTH_RE, 'billing.month_invalid'))
    .min(1, 'invoice.months_required')
    .max(12),
  /** Only these counterparties (demand partner ids); all with approved rows when absent. */
  counterparty_ids: z.array(idSchema).max(1000).optional(),
});
export type InvoicePrecreate = z.output<typeof invoicePrecreateSchema>;

export const invoicePatchSchema = z.strictObject({
  version: z.number().int().min(1),
  fraud_percentage: pct,
  fraud_revenue: amount,
  spoofing_percentage: pct,
  spoofing_revenue: amount,
  apply_deductions: z.boolean().optional(),
  comments: z.string().max(COMMENTS_MAX, 'invoice.comments_too_long').nullable().optional(),
});
export type InvoicePatch = z.output<typeof invoicePatchSchema>;

export const invoiceIssueSchema = z.strictObject({
  ids: z.array(idSchema).min(1, 'invoice.none_selected').max(INVOICE_MAX_ISSUE),
  /** The issue date printed (default today, Europe/Madrid); never in the future nor before the last issued of the series. */
  issue_date: z.string().refine(isIsoDate, 'invoice.issue_date_invalid').optional(),
});

export const creditNoteSchema = z.strictObject({
  reason: z
    .string({ error: 'invoice.credit.reason_required' })
    .trim()
    .min(CREDIT_REASON_MIN, 'invoice.credit.reason_short')
    .max(CREDIT_REASON_MAX, 'invoice.credit.reason_long'),
  /**
   * The client's key for this credit note: a retried request with the same key answers the credit
   * note already issued instead of issuing another.
   */
  idempotency_key: z.string().trim().min(8).max(100).optional(),
  /** The net amount credited (positive, at most what is left to credit); the whole invoice when absent. */
  amount: z
    .string()
    .regex(/^\d{1,12}(\.\d{1,2})?$/, 'invoice.credit.amount_invalid')
    .optional(),
});
export type CreditNoteRequest = z.output<typeof creditNoteSchema>;

export const invoicePaymentSchema = z.strictObject({
  amount: z.string().regex(/^\d{1,12}(\.\d{1,2})?$/, 'invoice.payment.amount_invalid'),
  paid_on: z.string().refine(isIsoDate, 'invoice.payment.date_invalid'),
  reference: z.string().trim().max(100, 'invoice.payment.reference_long').optional(),
});

export const invoiceBlockedSchema = z.strictObject({
  blocked: z.boolean(),
  reason: z.string().trim().max(200).optional(),
});

export const invoiceSendSchema = z.strictObject({
  /** Extra addresses; the counterparty's billing e-mail and billing contacts by default. */
  to: z
    .array(z.email({ error: 'invoice.send.email_invalid' }))
    .max(10)
    .optional(),
});

const csv = (key: string) =>
  z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',').filter(Boolean) : []))
    .pipe(z.array(z.string()).max(50, key));

export const invoiceListQuerySchema = z.strictObject({
  team: z.enum(INVOICE_TEAMS, { error: 'error.invalid_value' }),
  kind: z.enum(['invoice', 'credit_note'], { error: 'error.invalid_value' }).optional(),
  state: csv('error.invalid_value').pipe(z.array(z.enum(INVOICE_STATES, { error: 'error.invalid_value' }))),
  q: z.string().trim().max(100).optional(),
  month: z.string().regex(MONTH_RE, 'billing.month_invalid').optional(),
  sort: z.string().max(30).default('-id'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(INVOICE_MAX_PAGE_SIZE).default(INVOICE_PAGE_SIZE),
});
export type InvoiceListQuery = z.output<typeof invoiceListQuerySchema>;

export function parseInvoiceSort(sort: string): { field: InvoiceSort | 'id'; desc: boolean } {
  const desc = sort.startsWith('-');
  const field = sort.replace(/^-/, '');
  if ((INVOICE_SORTS as readonly string[]).includes(field)) return { field: field as InvoiceSort, desc };
  if (field === 'id') return { field: 'id', desc };
  return { field: 'id', desc: true };
}

export const invoiceCandidatesQuerySchema = z.strictObject({
  team: z.enum(INVOICE_TEAMS, { error: 'error.invalid_value' }),
  /** Comma-separated months (YYYY-MM). */
  months: z
    .string({ error: 'invoice.months_required' })
    .transform((v) => v.split(',').filter(Boolean))
    .pipe(
      z.array(z.string().regex(MONTH_RE, 'billing.month_invalid')).min(1, 'invoice.months_required').max(12),
    ),
});

// ---------------------------------------------------------------------------------------------
// Answers

/** A draft precreation would make: one counterparty and currency, its approved rows of the months. */
export interface InvoiceCandidate {
  counterparty_id: number;
  name: string;
  company_name: string;
  country: string;
  currency: string;
  months: string[];
  rows: number;
  impressions: string;
  revenue: string;
  payment_terms: string;
  tax_treatment: TaxTreatment;
  blocked: boolean;
  missing: string[];
}

/** A row of the preview / list: the spec's preview columns and the document's figures. */
export interface InvoiceListItem {
  id: number;
  team: InvoiceTeam;
  kind: InvoiceKind;
  state: InvoiceState;
  number: string | null;
  /** spec columns */
  id_user: number;
  name: string;
  account_type: string;
  payment_terms: string;
  blocked: boolean;
  blocked_reason: string | null;
  date_start: string;
  date_end: string;
  impressions: string;
  revenue: string;
  fraud_percentage: string | null;
  fraud_revenue: string | null;
  spoofing_percentage: string | null;
  spoofing_revenue: string | null;
  revenue_fraud: string;
  new_revenue_net: string;
  comments: string | null;
  apply_deductions: boolean;
  /** the document */
  company_name: string;
  country: string;
  currency: string;
  months: string[];
  tax_treatment: TaxTreatment;
  base: string;
  vat_amount: string;
  total: string;
  paid: string;
  credited: string;
  outstanding: string;
  issue_date: string | null;
  due_date: string | null;
  overdue: boolean;
  /** Missing billing info ('Inexisting data in user_billinginfo table'): company, tax id, address. */
  missing: string[];
  corrects: { id: number; number: string } | null;
  version: number;
}

export interface InvoiceTotals {
  currency: string;
  count: number;
  revenue: string;
  new_revenue_net: string;
  total: string;
  outstanding: string;
}

export interface InvoiceList {
  rows: InvoiceListItem[];
  total: number;
  page: number;
  page_size: number;
  totals: InvoiceTotals[];
  states: Record<string, number>;
}

export interface InvoiceLineDto {
  position: number;
  description: string;
  product: string;
  months: string[];
  quantity: string;
  amount: string;
}

export interface InvoicePaymentDto {
  id: number;
  amount: string;
  paid_on: string;
  reference: string | null;
  created_by: string | null;
}

export interface VerifactuRecordDto {
  id: number;
  kind: 'alta' | 'anulacion';
  invoice_type: string;
  hash: string;
  previous_hash: string;
  generated_at: string;
  qr_url: string;
  /** The record's last submission to the tax agency (null: never sent; sending is off by default). */
  submission: { at: string; accepted: boolean; csv: string | null; error: string | null } | null;
}

export interface InvoiceDetail extends InvoiceListItem {
  lines: InvoiceLineDto[];
  rows: { id: number; month: string; product: string; revenue_gross: string; state: string }[];
  payments: InvoicePaymentDto[];
  credit_notes: {
    id: number;
    number: string;
    issue_date: string;
    base: string;
    total: string;
    reason: string;
  }[];
  /** What a credit note may still take off (net, positive): the base less the credit notes' bases. */
  left_to_credit: string;
  correction_reason: string | null;
  customer: {
    legal_name: string;
    tax_id: string;
    country: string;
    address: string;
    city: string;
    postal_code: string;
    email: string | null;
  };
  issuer: { id: number; legal_name: string; tax_id: string };
  language: 'en' | 'es';
  sent_at: string | null;
  sent_to: string[];
  verifactu: VerifactuRecordDto | null;
  pdf_sha256: string | null;
  history: { at: string; user: string | null; action: string; detail: unknown }[];
}

export interface IssueResult {
  id: number;
  status: 'issued' | 'skipped';
  number?: string;
  reason?: string;
}

/** The answer of POST /v1/invoices/precreate: the drafts made and how many billing rows they took. */
export interface PrecreateResult {
  created: number[];
  rows: number;
}

/** The answer of GET /v1/invoices/verifactu/verify: one chain per issuing company. */
export interface ChainCheck {
  issuer_id: number;
  legal_name: string;
  ok: boolean;
  count: number;
  /** The first broken link: its position, record, invoice number, why, and the two hashes. */
  broken: {
    index: number;
    id: number;
    number: string;
    reason: string;
    expected: string;
    found: string;
  } | null;
}
