/**
 * Publisher payouts (issue 23, docs/decisions/028-payouts.md): the contract shared by the API and
 * the payout screens, and the spec's rules (spec 5, Payout), checked alike in the browser and the
 * API.
 *
 *   GET  /v1/payouts/{side}?month=&state=&search=&min_payout=&alerts=&sort=&page=   list, totals
 *   GET  /v1/payouts/{side}/export?…the same…&format=csv|xlsx
 *   GET  /v1/payouts/{side}/{id}                 one payout: carried months, history
 *   PATCH /v1/payouts/{side}/{id}                adjustment and comments (pending or held)
 *   GET  /v1/payouts/{side}/{id}/statement.pdf   the publisher's statement of the month
 *   POST /v1/payouts/{side}/compute              the month from the warehouse (pending rows)
 *   POST /v1/payouts/{side}/verification         a code for confirming a selection
 *   POST /v1/payouts/{side}/confirm              confirm with comment and code
 *   POST /v1/payouts/{side}/actions              unconfirm, hold, release, approve, mark paid
 *   POST /v1/payouts/{side}/payments/import      payment CSV: preview or apply ("paid")
 *   POST /v1/payouts/{side}/sepa                 SEPA credit transfer (pain.001.001.03) file
 *   GET/PUT /v1/payouts/settings                 alert thresholds
 * ACL `/v1/payouts`: read to see, write for every change, approve to approve (final).
 */
import { z } from 'zod';
import { isBillingMonth, nextMonth, PAYMENT_TERM_DAYS } from './billing-api.ts';
import { isIsoDate } from './dates.ts';
import { MAX_ID } from './ids.ts';
import { isValidIban, isValidTaxId } from './tax-ids.ts';

export const PAYOUT_SIDES = ['ssp', 'performance'] as const;
export type PayoutSide = (typeof PAYOUT_SIDES)[number];
export const PAYOUTS_RESOURCE = '/v1/payouts';

export const PAYOUT_STATES = ['pending', 'confirmed', 'approved', 'paid', 'held', 'carried'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];
/** What the pending screens show by default, and the monthly report. */
export const PAYOUT_TODO_STATES: readonly PayoutState[] = ['pending', 'held', 'confirmed'];
export const PAYOUT_DONE_STATES: readonly PayoutState[] = ['approved', 'paid'];

export const PAYOUT_ACTIONS = ['confirm', 'unconfirm', 'hold', 'release', 'approve', 'pay'] as const;
export type PayoutAction = (typeof PAYOUT_ACTIONS)[number];

/** A comment needs at least this many characters (spec 5). */
export const PAYOUT_COMMENT_MIN = 10;
export const PAYOUT_COMMENT_MAX = 500;
/** Previous-month payouts can be confirmed from this day of the month on (spec 9). */
export const PAYOUT_CONFIRM_FROM_DAY = 15;
/** A verification code: its length, how long it lives, how many wrong tries it takes. */
export const PAYOUT_CODE_LENGTH = 6;
export const PAYOUT_CODE_TTL_MS = 10 * 60_000;
export const PAYOUT_CODE_MAX_ATTEMPTS = 5;
export const PAYOUT_PAGE_SIZE = 50;
export const PAYOUT_MAX_PAGE_SIZE = 500;
export const PAYOUT_MAX_SELECTION = 10_000;

/** The alert thresholds (settings `payouts.over_revenue_pct`, `payouts.over_share_points`). */
export interface PayoutSettings {
  /** Over-revenue: the payout exceeds the revenue it comes from by more than this % (0: any excess). */
  over_revenue_pct: string;
  /** Over-percentage: the month's earnings exceed the publisher's share by more than these points. */
  over_share_points: string;
}
export const PAYOUT_DEFAULT_SETTINGS: PayoutSettings = { over_revenue_pct: '0', over_share_points: '5' };

const MONTH_RE = /^\d{4}-\d{2}$/;

/** Cents of a decimal text (exact; '12.5' → 1250n). */
export function toCents(v: string): bigint {
  const s = v.trim();
  const neg = s.startsWith('-');
  const [i = '0', f = ''] = (neg ? s.slice(1) : s).split('.');
  const cents = BigInt(i || '0') * 100n + BigInt((f + '00').slice(0, 2));
  return neg ? -cents : cents;
}
export function fromCents(c: bigint): string {
  const neg = c < 0n;
  const a = neg ? -c : c;
  return `${neg ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
}

/**
 * Whether a month's payouts can be confirmed on `todayIso` (YYYY-MM-DD): never the current or a
 * future month; the previous month from the 15th on (spec 5 and 9); older months always.
 */
export function confirmMonthError(month: string, todayIso: string): string | null {
  if (!MONTH_RE.test(month)) return 'payout.month_invalid';
  const current = todayIso.slice(0, 7);
  if (month >= current) return 'payout.month_not_over';
  if (month === nextMonth(current, -1) && Number(todayIso.slice(8, 10)) < PAYOUT_CONFIRM_FROM_DAY) return 'payout.too_early';
  return null;
}

/** The facts the rules read of a payout (a DTO has them all). */
export interface PayoutFacts {
  state: PayoutState;
  payout: string;
  new_revenue: string;
  revenue_gross: string;
  min_payout: string;
  share_pct: string;
  payment_terms: string;
  billing_info: { iban: string | null; country: string | null; tax_id: string | null };
}

export type PayoutAlert = 'over_revenue' | 'over_share';

/** The alerts of a payout (spec 5): over-revenue and over-percentage, with the thresholds given. */
export function payoutAlerts(p: PayoutFacts, settings: PayoutSettings = PAYOUT_DEFAULT_SETTINGS): PayoutAlert[] {
  const out: PayoutAlert[] = [];
  const payout = toCents(p.payout);
  const gross = toCents(p.revenue_gross);
  // payout > gross x (1 + pct/100), in integers: payout x 10000 > gross x (10000 + pct x 100).
  const pctBp = toCents(settings.over_revenue_pct); // percent x 100
  if (payout > 0n && payout * 10000n > gross * (10000n + pctBp)) out.push('over_revenue');
  // new_revenue / gross x 100 > share + points  ⇔  new_revenue x 10000 > gross x (share + points) x 100.
  const limit = toCents(p.share_pct) + toCents(settings.over_share_points); // points x 100
  if (gross > 0n && toCents(p.new_revenue) * 10000n > gross * limit) out.push('over_share');
  return out;
}

/** The publisher's earnings as a percentage of the revenue (2 decimals), null without revenue. */
export function effectiveSharePct(newRevenue: string, revenueGross: string): string | null {
  const gross = toCents(revenueGross);
  if (gross <= 0n) return null;
  const bp = (toCents(newRevenue) * 1_000_000n) / gross; // percent x 10000
  const rounded = (bp + (bp >= 0n ? 50n : -50n)) / 100n;
  return fromCents(rounded);
}

/** Why a payout's billing information is not valid (empty: valid). */
export function billingInfoProblems(info: PayoutFacts['billing_info']): string[] {
  const out: string[] = [];
  if (!info.iban) out.push('payout.iban_missing');
  else if (!isValidIban(info.iban)) out.push('payout.iban_invalid');
  if (!info.tax_id || !info.country) out.push('payout.tax_id_missing');
  else if (!isValidTaxId(info.country, info.tax_id)) out.push('payout.tax_id_invalid');
  return out;
}

/**
 * Why a payout cannot be confirmed (spec 5), apart from the selection, comment, month and code:
 * its state, the minimum, its billing info and its payment terms. Empty: it can be.
 */
export function confirmBlockers(p: PayoutFacts): string[] {
  const out: string[] = [];
  if (p.state !== 'pending') out.push('payout.skip.state');
  if (toCents(p.payout) <= toCents(p.min_payout) || toCents(p.payout) <= 0n) out.push('payout.below_minimum');
  out.push(...billingInfoProblems(p.billing_info));
  if (!(p.payment_terms in PAYMENT_TERM_DAYS)) out.push('payout.payment_terms_invalid');
  return out;
}

/** The errors of a confirmation as typed (field → message key), before the server is asked. */
export function confirmFormErrors(input: { selected: number; comment: string; code?: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  if (input.selected === 0) errors.rows = 'payout.none_selected';
  if (input.comment.trim().length < PAYOUT_COMMENT_MIN) errors.comment = 'payout.comment_short';
  if (input.code !== undefined && input.code.trim() === '') errors.code = 'payout.code_required';
  else if (input.code !== undefined && !/^\d{6}$/.test(input.code.trim())) errors.code = 'payout.code_wrong';
  return errors;
}

/** The payment's due date: the month's last day plus the terms' days (null for unknown terms). */
export function payoutDueDate(month: string, terms: string): string | null {
  const days = PAYMENT_TERM_DAYS[terms];
  if (days === undefined) return null;
  const end = Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0);
  return new Date(end + days * 86_400_000).toISOString().slice(0, 10);
}

// ---------------------------------------------------------------------------------------------
// The API's answers

export interface PayoutPublisher {
  id: number;
  name: string;
  company_id: number | null;
  company_name: string | null;
  billing_email: string | null;
}

/** A payout as the API answers it: the spec's columns (spec 3) and the rest. Amounts are decimal text. */
export interface PayoutDto {
  id: number;
  side: PayoutSide;
  month: string;
  /** Spec 3: id_user (the publisher's id), name, from_date, to_date, payment_terms, payout, newRevenue, comments, revenueGross. */
  id_user: number;
  name: string;
  from_date: string;
  to_date: string;
  payment_terms: string;
  payout: string;
  new_revenue: string;
  comments: string;
  revenue_gross: string;
  publisher: PayoutPublisher;
  currency: string;
  rate: string;
  carried_in: string;
  carried_from: { id: number; month: string; amount: string }[];
  adjustment: string;
  impressions: number;
  share_pct: string;
  effective_pct: string | null;
  min_payout: string;
  below_minimum: boolean;
  due_date: string | null;
  state: PayoutState;
  carried_into: number | null;
  held_reason: string | null;
  paid_on: string | null;
  bank_reference: string | null;
  sepa_message_id: string | null;
  billing_info: PayoutFacts['billing_info'] & { problems: string[] };
  alerts: PayoutAlert[];
  /** Why it cannot be confirmed now (message keys), apart from the month rule. */
  blockers: string[];
  version: number;
  computed_at: string;
  confirmed_at: string | null;
  confirmed_by: string | null;
  approved_at: string | null;
  approved_by: string | null;
  /** What the caller can do to it now (state and ACL). */
  actions: PayoutAction[];
}

export interface PayoutTotals {
  by_currency: { currency: string; payouts: number; payout: string; new_revenue: string; revenue_gross: string; carried_in: string }[];
  /** Payouts per state in the month (not the filter). */
  states: Record<PayoutState, number>;
  /** Payouts with an alert in the month. */
  alerts: number;
}

export interface PayoutListAnswer {
  rows: PayoutDto[];
  total: number;
  page: number;
  page_size: number;
  totals: PayoutTotals;
  computed_at: string | null;
  /** null when the month can be confirmed today, else why not (payout.too_early, payout.month_not_over). */
  confirm_month_error: string | null;
  settings: PayoutSettings;
}

// ---------------------------------------------------------------------------------------------
// Requests

const csvOf = <T extends string>(values: readonly T[]) =>
  z
    .string()
    .default('')
    .transform((v) => (v === '' ? [] : v.split(',').map((s) => s.trim())))
    .refine((list) => list.every((s) => (values as readonly string[]).includes(s)), 'error.invalid_value') as unknown as z.ZodType<T[], string | undefined>;

const money = (key: string, signed = false) =>
  z
    .string({ error: key })
    .trim()
    .regex(signed ? /^-?\d{1,12}(\.\d{1,2})?$/ : /^\d{1,12}(\.\d{1,2})?$/, key);

export const PAYOUT_SORTS = ['name', 'payout', 'new_revenue', 'revenue_gross', 'carried_in', 'state', 'id_user', 'effective_pct'] as const;
export const PAYOUT_DEFAULT_SORT = '-payout';

export const payoutListQuerySchema = z.strictObject({
  month: z.string({ error: 'payout.month_required' }).refine(isBillingMonth, 'payout.month_invalid'),
  state: csvOf(PAYOUT_STATES),
  search: z.string().trim().max(200, 'error.too_long').default(''),
  /** The minimum-revenue filter: payouts of at least this amount. */
  min_payout: z
    .string()
    .default('')
    .refine((v) => v === '' || /^\d{1,12}(\.\d{1,2})?$/.test(v), 'payout.amount_invalid'),
  alerts: z.enum(['', 'true', 'false']).default(''),
  currency: z
    .string()
    .default('')
    .refine((v) => v === '' || /^[A-Z]{3}$/.test(v), 'error.invalid_value'),
  sort: z
    .string()
    .default(PAYOUT_DEFAULT_SORT)
    .refine((v) => (PAYOUT_SORTS as readonly string[]).includes(v.replace(/^-/, '')), 'resource.sort_unknown'),
  page: z.coerce.number({ error: 'error.invalid_value' }).int().min(1).max(100_000).default(1),
  page_size: z.coerce.number({ error: 'error.invalid_value' }).int().min(1).max(PAYOUT_MAX_PAGE_SIZE, 'resource.page_size_max').default(PAYOUT_PAGE_SIZE),
  format: z.enum(['csv', 'xlsx']).optional(),
});
export type PayoutListQuery = z.output<typeof payoutListQuerySchema>;

const rowRefs = z
  .array(z.strictObject({ id: z.number().int().min(1).max(MAX_ID), version: z.number().int().min(1).max(MAX_ID) }), { error: 'payout.none_selected' })
  .min(1, 'payout.none_selected')
  .max(PAYOUT_MAX_SELECTION, 'payout.too_many');
const idemKey = z.string().trim().min(8).max(100).regex(/^[A-Za-z0-9_-]+$/, 'error.invalid_value');

export const payoutComputeSchema = z.strictObject({
  month: z.string({ error: 'payout.month_required' }).refine(isBillingMonth, 'payout.month_invalid'),
});

/** POST …/verification: a code for confirming exactly these payouts. */
export const payoutVerificationSchema = z.strictObject({
  ids: z.array(z.number().int().min(1).max(MAX_ID), { error: 'payout.none_selected' }).min(1, 'payout.none_selected').max(PAYOUT_MAX_SELECTION, 'payout.too_many'),
});
export interface PayoutVerification {
  id: number;
  /** Shown to the person, who types it to confirm. */
  code: string;
  expires_at: string;
}

/** POST …/confirm. */
export const payoutConfirmSchema = z.strictObject({
  rows: rowRefs,
  comment: z
    .string({ error: 'payout.comment_short' })
    .trim()
    .min(PAYOUT_COMMENT_MIN, 'payout.comment_short')
    .max(PAYOUT_COMMENT_MAX, 'error.too_long'),
  verification_id: z.number({ error: 'payout.code_wrong' }).int().min(1).max(MAX_ID),
  code: z.string({ error: 'payout.code_wrong' }).trim().max(20, 'payout.code_wrong'),
  /** Confirming payouts with alerts (over-revenue, over-percentage) needs it. */
  acknowledge_alerts: z.boolean().default(false),
  idempotency_key: idemKey,
});
export type PayoutConfirmInput = z.input<typeof payoutConfirmSchema>;

/** POST …/actions. */
export const payoutActionSchema = z
  .strictObject({
    action: z.enum(['unconfirm', 'hold', 'release', 'approve', 'pay'], { error: 'error.invalid_value' }),
    rows: rowRefs,
    /** hold: why (10+ characters). */
    reason: z.string().trim().max(PAYOUT_COMMENT_MAX, 'error.too_long').optional(),
    /** pay: the day paid and the bank's reference. */
    paid_on: z.string().refine(isIsoDate, 'payout.date_invalid').optional(),
    bank_reference: z.string().trim().max(140, 'error.too_long').optional(),
    idempotency_key: idemKey,
  })
  .superRefine((v, ctx) => {
    if (v.action === 'hold' && (v.reason ?? '').length < PAYOUT_COMMENT_MIN) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'payout.comment_short' });
    if (v.action === 'pay') {
      if (!v.paid_on) ctx.addIssue({ code: 'custom', path: ['paid_on'], message: 'payout.date_invalid' });
      if (!v.bank_reference) ctx.addIssue({ code: 'custom', path: ['bank_reference'], message: 'payout.bank_reference_required' });
    }
  });
export type PayoutActionInput = z.input<typeof payoutActionSchema>;

export interface PayoutRowResult {
  id: number;
  ok: boolean;
  state?: PayoutState;
  reason?: string;
}
export interface PayoutRun {
  id: number;
  action: PayoutAction;
  results: PayoutRowResult[];
  applied: number;
  skipped: number;
}

/** PATCH …/{id}: a pending or held payout's adjustment and comments. */
export const payoutPatchSchema = z.strictObject({
  version: z.number({ error: 'error.invalid_value' }).int().min(1).max(MAX_ID),
  adjustment: money('payout.amount_invalid', true).optional(),
  comments: z.string().trim().max(PAYOUT_COMMENT_MAX, 'error.too_long').optional(),
});

/** POST …/payments/import: a payment CSV (reference with PO-{id}, date, amount, bank reference). */
export const payoutImportSchema = z.strictObject({
  csv: z.string({ error: 'payout.csv_required' }).min(1, 'payout.csv_required').max(5_000_000, 'payout.csv_too_big'),
  dry_run: z.boolean().default(true),
});
export interface PayoutImportLine {
  line: number;
  payout_id: number | null;
  name: string | null;
  date: string | null;
  amount: string | null;
  bank_reference: string;
  status: 'matched' | 'unmatched' | 'invalid' | 'duplicate';
  reason?: string;
}
export interface PayoutImportAnswer {
  delimiter: ',' | ';';
  lines: PayoutImportLine[];
  matched: number;
  unmatched: number;
  invalid: number;
  duplicate: number;
  applied: boolean;
  matched_amount: string;
}

/** POST …/sepa: approved EUR payouts into one credit transfer file. */
export const payoutSepaSchema = z.strictObject({
  ids: z.array(z.number().int().min(1).max(MAX_ID), { error: 'payout.none_selected' }).min(1, 'payout.none_selected').max(PAYOUT_MAX_SELECTION, 'payout.too_many'),
  execution_date: z.string({ error: 'payout.date_invalid' }).refine(isIsoDate, 'payout.date_invalid'),
});

export const payoutSettingsSchema = z.strictObject({
  over_revenue_pct: z.string().trim().regex(/^\d{1,3}(\.\d{1,2})?$/, 'payout.threshold_invalid'),
  over_share_points: z.string().trim().regex(/^\d{1,3}(\.\d{1,2})?$/, 'payout.threshold_invalid'),
});

/** The reference a transfer carries (SEPA EndToEndId, statement, payment CSV): PO-{id}. */
export const payoutReference = (id: number) => `PO-${id}`;
export const PAYOUT_REFERENCE_RE = /\bPO-(\d{1,10})\b/i;

/** Export file base names. */
export const payoutExportName = (side: PayoutSide) => `payouts_${side}`;
