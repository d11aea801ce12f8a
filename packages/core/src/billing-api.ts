/**
 * The billing API's contract (issue 21), shared by the API and the billing screens: scopes (which
 * rows a screen lists), the list query, a row as the API answers it, the requests of every action.
 *
 *   GET    /v1/billing/{side}/rows?kind=&month=YYYY-MM&…filters…      a month's rows, totals
 *   GET    /v1/billing/{side}/rows/export?…the same…&format=csv|xlsx
 *   GET    /v1/billing/{side}/rows/{id}                               one row, its payments, its history
 *   PATCH  /v1/billing/{side}/rows/{id}                               revenue network, document id, description
 *   POST   /v1/billing/{side}/actions                                 bulk confirm/disconfirm/approve/discard/accumulate (a run)
 *   GET    /v1/billing/{side}/actions/{run}                           a run's progress and per-row results
 *   POST   /v1/billing/{side}/compute                                 recompute a month's open rows from the warehouse
 *   POST   /v1/billing/{side}/rows/{id}/payments                      record a payment
 *   POST   /v1/billing/{side}/payments/import                         bank CSV: preview (dry_run) or apply
 *   GET    /v1/billing/{side}/reconciliation?kind=&month=             billing against the warehouse
 *   GET    /v1/billing/ssp/nettings?month=  POST /v1/billing/ssp/nettings  POST /v1/billing/ssp/nettings/{id}/undo
 *   GET    /v1/billing/rates?month=   PUT /v1/billing/rates   POST /v1/billing/rates/import (ECB CSV)
 *   GET    /v1/billing/performance/overview?month=
 * ACL: `/v1/billing/{side}`: read to see, write for every change, approve to approve.
 */
import { z } from 'zod';
import { BILLING_STATES, PAYMENT_BADGES, type BillingAction, type BillingState, type PaymentBadge } from './billing.ts';
import { isIsoDate } from './dates.ts';
import { MAX_ID } from './ids.ts';
import { FORMATS } from './reports.ts';

export const BILLING_SIDES = ['ssp', 'performance'] as const;
export type BillingSide = (typeof BILLING_SIDES)[number];
/** advertiser: what we invoice (a demand partner or advertiser owes us); supply: what we owe a publisher. */
export const BILLING_KINDS = ['advertiser', 'supply'] as const;
export type BillingKind = (typeof BILLING_KINDS)[number];

export const billingResource = (side: BillingSide) => `/v1/billing/${side}`;
/** ACL actions: read to see, write for every change, approve to approve (final). */
export const BILLING_ACL = { read: 'read', write: 'write', approve: 'approve' } as const;

/** Products: the SSP bills per ad format, the performance side per pricing model. */
export const SSP_PRODUCTS = FORMATS;
export const PERFORMANCE_PRODUCTS = ['cpc', 'cpa', 'cpm'] as const;
export const BILLING_PRODUCTS = { ssp: SSP_PRODUCTS, performance: PERFORMANCE_PRODUCTS } as const;
/** The currency of our own figures: the SSP warehouse is in USD, the performance facts in EUR. */
export const BILLING_SOURCE_CURRENCY: Record<BillingSide, string> = { ssp: 'USD', performance: 'EUR' };

export const BILLING_PAGE_SIZE = 50;
export const BILLING_MAX_PAGE_SIZE = 500;
/** Rows one bulk action takes at most. */
export const BILLING_MAX_ACTION_ROWS = 20_000;
/** Rows of a bulk action applied per transaction (the run's progress moves per chunk). */
export const BILLING_ACTION_CHUNK = 500;
/** Export file base names (`billing_ssp_advertiser_YYYY-MM-DD_HHmmss.csv`). */
export const billingExportName = (side: BillingSide, kind: BillingKind) => `billing_${side}_${kind}`;

export const BILLING_SORTS = [
  'counterparty',
  'product',
  'revenue_ours',
  'revenue_gross',
  'paid_revenue',
  'pending',
  'margin_pct',
  'state',
  'min_amount',
] as const;
export type BillingSort = (typeof BILLING_SORTS)[number];
export const BILLING_DEFAULT_SORT = '-revenue_gross';

const MONTH_RE = /^(\d{4})-(0[1-9]|1[0-2])$/;
export function isBillingMonth(v: unknown): v is string {
  return typeof v === 'string' && MONTH_RE.test(v) && Number(v.slice(0, 4)) >= 2000;
}
/** The month after / before `YYYY-MM`. */
export function nextMonth(month: string, n = 1): string {
  const i = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
}
/** The month of a UTC instant, `YYYY-MM`. */
export function monthOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 7);
}

const csvOf = <T extends string>(values: readonly T[], key: string) =>
  z
    .string()
    .default('')
    .transform((v) => (v === '' ? [] : v.split(',').map((s) => s.trim())))
    .refine((list) => list.every((s) => (values as readonly string[]).includes(s)), key) as unknown as z.ZodType<T[], string | undefined>;

const idsCsv = z
  .string()
  .default('')
  .transform((v) => (v === '' ? [] : v.split(',').map((s) => s.trim())))
  .refine((list) => list.length <= 100 && list.every((s) => /^[1-9]\d{0,9}$/.test(s) && Number(s) <= 2_147_483_647), 'error.invalid_value')
  .transform((list) => list.map(Number));

const monthParam = z.string({ error: 'billing.month_required' }).refine(isBillingMonth, 'billing.month_invalid');

/** GET …/rows (and its export). `counterparty`: ids (comma list); `search`: counterparty or company name. */
export const billingListQuerySchema = z.strictObject({
  kind: z.enum(BILLING_KINDS, { error: 'error.invalid_value' }).default('advertiser'),
  month: monthParam,
  counterparty: idsCsv,
  search: z.string().trim().max(200, 'error.too_long').default(''),
  state: csvOf(BILLING_STATES, 'error.invalid_value'),
  badge: csvOf(PAYMENT_BADGES, 'error.invalid_value'),
  currency: z
    .string()
    .default('')
    .refine((v) => v === '' || /^[A-Z]{3}$/.test(v), 'error.invalid_value'),
  product: z.string().max(20).default(''),
  sort: z
    .string()
    .default(BILLING_DEFAULT_SORT)
    .refine((v) => (BILLING_SORTS as readonly string[]).includes(v.replace(/^-/, '')), 'resource.sort_unknown'),
  page: z.coerce.number({ error: 'error.invalid_value' }).int().min(1).max(100_000).default(1),
  page_size: z.coerce.number({ error: 'error.invalid_value' }).int().min(1).max(BILLING_MAX_PAGE_SIZE, 'resource.page_size_max').default(BILLING_PAGE_SIZE),
  format: z.enum(['csv', 'xlsx']).optional(),
});
export type BillingListQuery = z.output<typeof billingListQuerySchema>;

export interface BillingCounterparty {
  type: 'demand_partner' | 'publisher';
  id: number;
  name: string;
  company_id: number | null;
  company_name: string | null;
}

/** A billing row as the API answers it. Amounts are decimal text. */
export interface BillingRowDto {
  id: number;
  side: BillingSide;
  kind: BillingKind;
  month: string;
  counterparty: BillingCounterparty;
  product: string;
  /** currency_{product} (spec 3): every amount of the row is in it. */
  currency: string;
  /** revenue_{product}: our figure from the warehouse (6 decimals). */
  revenue_ours: string;
  /** The opposite flow of the same traffic: the cost of an advertiser row, the revenue of a supply row. */
  other_side: string;
  /** The counterparty's figure when it replaces ours, or null. */
  revenue_network: string | null;
  /** `manual`: revenue_network holds the partner-reported figures (/utils/ssp/stats-manual, issue 24). */
  revenue_source: 'warehouse' | 'manual';
  carried_in: string;
  carried_from: { id: number; month: string; amount: string }[];
  /** What the row bills: (revenue network or ours) + carried in, to the cent. */
  revenue_gross: string;
  paid_revenue: string;
  pending: string;
  received_payment_date: string | null;
  document_id: string | null;
  charged: boolean;
  badge: PaymentBadge;
  min_amount: string;
  below_minimum: boolean;
  payment_terms: string;
  /** The month's last day plus the payment terms' days. */
  due_date: string;
  overdue: boolean;
  demand_partners: string;
  description: string;
  state: BillingState;
  /** The margin of the month's figure against the other side (2 decimals), null without revenue. */
  margin_pct: string | null;
  low_margin: boolean;
  accumulated_into: number | null;
  netting_id: number | null;
  version: number;
  computed_at: string;
  confirmed_at: string | null;
  confirmed_by: string | null;
  approved_at: string | null;
  approved_by: string | null;
  /** What the caller can do to it now (state and ACL). */
  actions: BillingAction[];
}

export interface BillingTotals {
  by_currency: { currency: string; rows: number; revenue_ours: string; revenue_gross: string; paid_revenue: string; pending: string; rate: string | null }[];
  /** Sums in EUR with the month's rates; null when a currency has no rate (see missing_rates). */
  eur: { revenue_gross: string; paid_revenue: string; pending: string } | null;
  missing_rates: string[];
  /** Rows in each state (over the whole month, not the filter). */
  states: Record<BillingState, number>;
}

export interface BillingListAnswer {
  rows: BillingRowDto[];
  total: number;
  page: number;
  page_size: number;
  totals: BillingTotals;
  /** When the month was last computed, and the end of the warehouse's data. */
  computed_at: string | null;
  data_end: string | null;
}

// ---------------------------------------------------------------------------------------------
// Requests

const decimal = (key: string) =>
  z
    .string({ error: key })
    .trim()
    .regex(/^\d{1,12}(\.\d{1,6})?$/, key);

/** PATCH …/rows/{id}: an open row's revenue network (null restores ours), its document id, description. */
export const billingRowPatchSchema = z.strictObject({
  version: z.number({ error: 'error.invalid_value' }).int().min(1).max(MAX_ID),
  revenue_network: z.union([decimal('billing.amount_invalid'), z.null()]).optional(),
  document_id: z.union([z.string().trim().max(64, 'error.too_long'), z.null()]).optional(),
  description: z.string().trim().max(500, 'error.too_long').optional(),
  /** Needed when the new figure leaves under 20% margin (spec 5). */
  confirm_low_margin: z.boolean().optional(),
});
export type BillingRowPatch = z.infer<typeof billingRowPatchSchema>;

/** POST …/actions. */
export const billingActionSchema = z.strictObject({
  action: z.enum(['confirm', 'disconfirm', 'approve', 'discard', 'accumulate'], { error: 'error.invalid_value' }),
  /** The rows as shown: a row changed since (another version) answers 409. */
  rows: z
    .array(z.strictObject({ id: z.number().int().min(1).max(MAX_ID), version: z.number().int().min(1).max(MAX_ID) }), { error: 'billing.none_selected' })
    .min(1, 'billing.none_selected')
    .max(BILLING_MAX_ACTION_ROWS, 'billing.too_many_rows'),
  /** Confirming rows under 20% margin needs it (spec 5). */
  confirm_low_margin: z.boolean().default(false),
  /** The client's key for this click: a retry or a double click with the same key is the same run. */
  idempotency_key: z.string().trim().min(8).max(100).regex(/^[A-Za-z0-9_-]+$/, 'error.invalid_value'),
});
export type BillingActionRequest = z.input<typeof billingActionSchema>;

export interface BillingRowResult {
  id: number;
  ok: boolean;
  /** The state after, when done. */
  state?: BillingState;
  /** Why skipped (billing.skip.*). */
  reason?: string;
}
export interface BillingActionRun {
  id: number;
  action: BillingAction;
  status: 'running' | 'done' | 'failed';
  total: number;
  done: number;
  results: BillingRowResult[];
  applied: number;
  skipped: number;
}

/** POST …/rows/{id}/payments. */
export const billingPaymentSchema = z.strictObject({
  amount: decimal('billing.amount_invalid').refine((v) => Number(v) > 0, 'billing.amount_invalid'),
  paid_on: z.string({ error: 'billing.date_invalid' }).refine(isIsoDate, 'billing.date_invalid'),
  document_id: z.union([z.string().trim().max(64, 'error.too_long'), z.null()]).optional(),
  reference: z.string().trim().max(200, 'error.too_long').default(''),
  /** The row counts as paid with this payment even if short (bank fees). */
  settles: z.boolean().default(false),
  version: z.number().int().min(1).max(MAX_ID),
});
export type BillingPaymentInput = z.input<typeof billingPaymentSchema>;

/** POST …/payments/import: a bank statement CSV (date, amount, reference with the document id). */
export const billingBankImportSchema = z.strictObject({
  csv: z.string({ error: 'billing.csv_required' }).min(1, 'billing.csv_required').max(5_000_000, 'billing.csv_too_big'),
  dry_run: z.boolean().default(true),
});

export interface BankImportLine {
  line: number;
  date: string | null;
  amount: string | null;
  reference: string;
  /** The document id found in the reference, and the row it matched. */
  document_id: string | null;
  row_id: number | null;
  counterparty: string | null;
  /** matched | unmatched | invalid | duplicate (already recorded) */
  status: 'matched' | 'unmatched' | 'invalid' | 'duplicate';
  reason?: string;
}
export interface BankImportAnswer {
  delimiter: ',' | ';';
  lines: BankImportLine[];
  matched: number;
  unmatched: number;
  invalid: number;
  duplicate: number;
  applied: boolean;
  /** Sum of the matched amounts. */
  matched_amount: string;
}

/** POST /v1/billing/ssp/nettings. */
export const billingNettingSchema = z.strictObject({
  month: monthParam,
  company_id: z.number({ error: 'error.invalid_value' }).int().min(1).max(MAX_ID),
});
export interface BillingNettingDto {
  id: number;
  month: string;
  company_id: number;
  company_name: string;
  currency: string;
  receivable_row_ids: number[];
  payable_row_ids: number[];
  receivable: string;
  payable: string;
  net: string;
  created_at: string;
  created_by: string | null;
  undone_at: string | null;
  undone_by: string | null;
  /** Undo is possible while none of its rows is approved. */
  can_undo: boolean;
}
/** A company the SSP both pays and bills in a month, which can be netted. */
export interface NettingCandidate {
  company_id: number;
  company_name: string;
  currency: string;
  receivable: string;
  payable: string;
  net: string;
  receivable_row_ids: number[];
  payable_row_ids: number[];
}

/** PUT /v1/billing/rates. */
export const billingRateSchema = z.strictObject({
  month: monthParam,
  currency: z.string().regex(/^[A-Z]{3}$/, 'error.invalid_value'),
  rate: decimal('billing.rate_invalid').refine((v) => Number(v) > 0, 'billing.rate_invalid'),
});
/** POST /v1/billing/rates/import: an ECB CSV; the months it covers get their monthly averages. */
export const billingRatesImportSchema = z.strictObject({
  csv: z.string({ error: 'billing.csv_required' }).min(1, 'billing.csv_required').max(20_000_000, 'billing.csv_too_big'),
  /** Only these currencies (default: every currency the billing rows use). */
  currencies: z.array(z.string().regex(/^[A-Z]{3}$/)).max(50).optional(),
});

export interface ReconciliationLine {
  counterparty: BillingCounterparty;
  currency: string;
  /** The warehouse's figure for the month now. */
  warehouse: string;
  /** Our figure as computed into the rows (differs when the warehouse changed since). */
  computed: string;
  /** The sum of the rows' revenue_gross that count (not discarded, not accumulated). */
  billed: string;
  difference: string;
  /** The parts of billed − warehouse. */
  explained: { not_recomputed: string; network_edits: string; carried_in: string; accumulated_out: string; discarded: string; rounding: string };
}
export interface ReconciliationAnswer {
  month: string;
  kind: BillingKind;
  lines: ReconciliationLine[];
  totals: { currency: string; warehouse: string; billed: string; difference: string }[];
}

export interface PerformanceOverview {
  month: string;
  currency: string;
  products: { product: string; revenue: string; cost: string; margin: string; margin_pct: string | null; advertisers: number; publishers: number }[];
  totals: { revenue: string; cost: string; margin: string; margin_pct: string | null };
  /** Rows per state, of what we invoice and what we owe. */
  states: Record<BillingKind, Record<BillingState, number>>;
  /** The same month of the previous year is not kept; the previous month for comparison. */
  previous: { revenue: string; cost: string; margin: string } | null;
}

/** Days of each payment term. */
export const PAYMENT_TERM_DAYS: Record<string, number> = { net30: 30, net45: 45, net60: 60 };
