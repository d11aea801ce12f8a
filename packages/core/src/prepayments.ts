/**
 * Prepayments (issue 23; screen `/billing_performance/prepayments`, docs/decisions/029-prepayments-finances.md):
 * the ledger of each prepaid advertiser (a demand partner of the performance side) and its balance.
 *
 *   GET  /v1/prepayments?search=&under=&sort=&page=&page_size=     the advertisers: balance, threshold, low flag, last top-up
 *   GET  /v1/prepayments/export?…the same…&format=csv|xlsx
 *   GET  /v1/prepayments/{id}                                       one advertiser's account
 *   GET  /v1/prepayments/{id}/entries?kind=&page=&page_size=        its ledger, newest first, with the running balance
 *   GET  /v1/prepayments/{id}/entries/export?format=csv|xlsx
 *   POST /v1/prepayments/{id}/entries                               a top-up, an adjustment or a refund (idempotency key)
 *   POST /v1/prepayments/{id}/entries/{entry}/reverse               reverse an entry (a reason; once only)
 *   PUT  /v1/prepayments/{id}/threshold                             the low-balance threshold, with `version` (409 when stale)
 *   POST /v1/prepayments/post-spend                                 post the daily spend up to a day (at most yesterday)
 * ACL: `/v1/prepayments`, read to see, write to change.
 *
 * Rules: entries are append-only (the database refuses UPDATE and DELETE); a wrong entry is
 * reversed by another of the opposite amount (`reverses_id`), once. Amounts are signed decimal text
 * to the cent: a top-up adds, a refund and spend take away, an adjustment either way. The balance is
 * the exact sum of the entries; an advertiser is low when its balance is under its threshold.
 */
import { z } from 'zod';
import { fromMicros, toMicros } from './billing.ts';
import { isIsoDate } from './dates.ts';
import { idText } from './ids.ts';

/** Every kind an entry has (labels `prepayments.kind.*`). */
export const ENTRY_KINDS = ['top_up', 'spend', 'adjustment', 'refund', 'reversal'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];
/** The kinds a person adds by hand (spend comes from the warehouse, reversals from the reverse action). */
export const MANUAL_KINDS = ['top_up', 'adjustment', 'refund'] as const;
export type ManualKind = (typeof MANUAL_KINDS)[number];
/** An adjustment adds (credit) or takes away (debit). */
export const ADJUSTMENT_DIRECTIONS = ['credit', 'debit'] as const;
export type AdjustmentDirection = (typeof ADJUSTMENT_DIRECTIONS)[number];

/** The currency of the ledgers (the warehouse's facts are in EUR). */
export const PREPAYMENT_CURRENCY = 'EUR';
/** The largest amount one entry moves, and the largest threshold. */
export const MAX_ENTRY_AMOUNT = 10_000_000;
export const MAX_REFERENCE = 100;
export const MAX_ENTRY_COMMENT = 500;

export const PREPAYMENT_SORTS = ['name', 'balance', 'threshold', 'last_top_up'] as const;
export type PrepaymentSort = (typeof PREPAYMENT_SORTS)[number];
export const PREPAYMENT_DEFAULT_SORT = 'name';
export const PREPAYMENT_PAGE_SIZES = [10, 25, 50, 100] as const;
export const PREPAYMENT_PAGE_SIZE = 25;
export const LEDGER_PAGE_SIZE = 25;

/** Export file base names: `prepayments_YYYY-MM-DD_HHmmss.csv`, `prepayment_ledger_{id}_…`. */
export const PREPAYMENTS_EXPORT_NAME = 'prepayments';
export const ledgerExportName = (id: number) => `prepayment_ledger_${id}`;

// ---------------------------------------------------------------------------------------------
// Amounts

/** A positive amount to the cent (no sign; at most 2 decimals), as the forms and the API take it. */
export function isCentAmount(text: string, max = MAX_ENTRY_AMOUNT): boolean {
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(text)) return false;
  const micros = toMicros(text);
  return micros > 0n && micros <= BigInt(max) * 1_000_000n;
}

/** The signed amount an entry stores: a top-up adds, a refund takes away, an adjustment by its direction. */
export function signedAmount(kind: ManualKind, amount: string, direction?: AdjustmentDirection | null): string {
  const micros = toMicros(amount);
  const negative = kind === 'refund' || (kind === 'adjustment' && direction === 'debit');
  return fromMicros(negative ? -micros : micros);
}

/** The exact sum of signed amounts (decimal text, 2 places). */
export function balanceOf(amounts: readonly string[]): string {
  return fromMicros(amounts.reduce((s, a) => s + toMicros(a), 0n));
}

/** Low: the balance is under the threshold. */
export function isLowBalance(balance: string, threshold: string): boolean {
  return toMicros(balance) < toMicros(threshold);
}

/** The running balance after each entry, in ledger order (oldest first). */
export function runningBalances(amounts: readonly string[]): string[] {
  let sum = 0n;
  return amounts.map((a) => fromMicros((sum += toMicros(a))));
}

/** The reversal's amount: the entry's, with the other sign. */
export function reversalAmount(amount: string): string {
  return fromMicros(-toMicros(amount));
}

// ---------------------------------------------------------------------------------------------
// Requests

const amountField = (key: string) =>
  z
    .union([z.string(), z.number()], { error: 'prepayments.amount_invalid' })
    .transform((v) => String(v).trim())
    .refine((v) => isCentAmount(v), key);

const isoDay = (key: string) => z.string({ error: key }).refine((v) => isIsoDate(v), key);

/** A client's key for one click: a retried or doubled request is done once. */
export const idempotencyKeySchema = z
  .string({ error: 'error.required' })
  .trim()
  .min(8, 'error.invalid_value')
  .max(100, 'error.invalid_value')
  .regex(/^[A-Za-z0-9_-]+$/, 'error.invalid_value');

/** The fields of a manual entry, as the form checks them. */
export const entryFieldsSchema = z.strictObject({
  kind: z.enum(MANUAL_KINDS, { error: 'prepayments.kind_required' }),
  /** Only for an adjustment: credit adds, debit takes away. */
  direction: z.union([z.enum(ADJUSTMENT_DIRECTIONS, { error: 'prepayments.direction_required' }), z.null()]).optional(),
  amount: amountField('prepayments.amount_invalid'),
  /** The day it counts for (default today); never in the future. */
  entry_date: isoDay('prepayments.entry_date_invalid').optional(),
  reference: z.string({ error: 'error.invalid_type' }).trim().max(MAX_REFERENCE, 'prepayments.reference_too_long').default(''),
  comment: z.string({ error: 'error.invalid_type' }).trim().max(MAX_ENTRY_COMMENT, 'prepayments.comment_too_long').default(''),
});

/** Cross-field rules (checked even when other fields are wrong, so the form shows every error at once). */
type EntryShape = { kind?: unknown; direction?: unknown; reference?: unknown; comment?: unknown };
const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';
const always = (path: string, message: string) => ({
  path: [path],
  message,
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null,
});
/** An adjustment says its direction and why; a top-up or refund carries a reference. */
function withEntryRules<T extends z.ZodType<EntryShape>>(schema: T) {
  return schema
    .refine((v) => !(v.kind === 'adjustment' && v.direction !== 'credit' && v.direction !== 'debit'), always('direction', 'prepayments.direction_required'))
    .refine((v) => !(v.kind === 'adjustment' && blank(v.comment)), always('comment', 'prepayments.comment_required'))
    .refine((v) => !((v.kind === 'top_up' || v.kind === 'refund') && blank(v.reference)), always('reference', 'prepayments.reference_required'));
}

/** What the add-entry form checks. */
export const entryInputSchema = withEntryRules(entryFieldsSchema);
/** What POST …/entries takes: the entry and the click's idempotency key. */
export const entryBodySchema = withEntryRules(entryFieldsSchema.extend({ idempotency_key: idempotencyKeySchema }));
export type EntryBody = z.output<typeof entryBodySchema>;
export type EntryInput = z.input<typeof entryFieldsSchema>;

/** What POST …/entries/{entry}/reverse takes. */
export const reverseBodySchema = z.strictObject({
  reason: z.string({ error: 'prepayments.reason_required' }).trim().min(1, 'prepayments.reason_required').max(MAX_ENTRY_COMMENT, 'prepayments.comment_too_long'),
  idempotency_key: idempotencyKeySchema,
});
export type ReverseBody = z.output<typeof reverseBodySchema>;

/** A threshold: 0 or more, to the cent. */
export const thresholdFieldSchema = z
  .union([z.string(), z.number()], { error: 'prepayments.threshold_invalid' })
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,9}(\.\d{1,2})?$/.test(v) && toMicros(v) <= BigInt(MAX_ENTRY_AMOUNT) * 1_000_000n, 'prepayments.threshold_invalid');

/** What PUT …/threshold takes: the threshold and the account's version the editor read (0: no account yet). */
export const thresholdBodySchema = z.strictObject({
  threshold: thresholdFieldSchema,
  version: z.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(0, 'error.invalid_value').max(2_147_483_647, 'error.invalid_value'),
});
export type ThresholdBody = z.output<typeof thresholdBodySchema>;

/** What POST /v1/prepayments/post-spend takes: the last day to post (the server stops at yesterday and at the warehouse's last day). */
export const postSpendBodySchema = z.strictObject({
  through: isoDay('prepayments.through_invalid'),
});

const page = z.coerce.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(100_000, 'error.invalid_value').default(1);
const pageSize = z.coerce.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(100, 'error.invalid_value');

export const prepaymentListQuerySchema = z.strictObject({
  search: z.string().trim().max(200, 'error.too_long').default(''),
  /** true: only the advertisers under their threshold. */
  under: z.enum(['true', 'false'], { error: 'error.invalid_value' }).optional(),
  sort: z
    .string()
    .max(40)
    .default(PREPAYMENT_DEFAULT_SORT)
    .refine((v) => (PREPAYMENT_SORTS as readonly string[]).includes(v.replace(/^-/, '')), 'resource.sort_unknown'),
  page,
  page_size: pageSize.default(PREPAYMENT_PAGE_SIZE),
});
export type PrepaymentListQuery = z.output<typeof prepaymentListQuerySchema>;
export const prepaymentExportQuerySchema = prepaymentListQuerySchema.omit({ page: true, page_size: true }).extend({
  format: z.enum(['csv', 'xlsx'], { error: 'error.invalid_value' }).default('csv'),
});

export const ledgerQuerySchema = z.strictObject({
  kind: z.enum(ENTRY_KINDS, { error: 'error.invalid_value' }).optional(),
  page,
  page_size: pageSize.default(LEDGER_PAGE_SIZE),
});
export type LedgerQuery = z.output<typeof ledgerQuerySchema>;
export const ledgerExportQuerySchema = z.strictObject({
  kind: z.enum(ENTRY_KINDS, { error: 'error.invalid_value' }).optional(),
  format: z.enum(['csv', 'xlsx'], { error: 'error.invalid_value' }).default('csv'),
});

/** `{ id, entry }` path parameters: the advertiser and one of its entries. */
export const entryParamsSchema = z.object({ id: idText, entry: idText }).strict();

/** The sort of a query as a field and a direction. */
export function parsePrepaymentSort(sort: string): { field: PrepaymentSort; desc: boolean } {
  const field = sort.replace(/^-/, '');
  return { field: ((PREPAYMENT_SORTS as readonly string[]).includes(field) ? field : PREPAYMENT_DEFAULT_SORT) as PrepaymentSort, desc: sort.startsWith('-') };
}

// ---------------------------------------------------------------------------------------------
// Answers

/** A prepaid advertiser as the list and its page answer it. */
export interface PrepaymentAccount {
  id: number;
  name: string;
  status: string;
  company: string | null;
  /** credit | prepayment (the billing account's mode). */
  billing_mode: string;
  currency: string;
  balance: string;
  threshold: string;
  low: boolean;
  last_top_up: { date: string; amount: string } | null;
  /** The last day whose spend was posted. */
  spend_posted_through: string | null;
  entries: number;
  /** 0 while the advertiser has no account row yet (its first threshold or entry creates it). */
  version: number;
  updated_at: string | null;
  updated_by: { id: number | null; name: string | null };
}

export interface PrepaymentsAnswer {
  items: PrepaymentAccount[];
  total: number;
  page: number;
  page_size: number;
  /** Advertisers under their threshold (whatever the filters). */
  low_count: number;
  /** The sum of the filtered balances. */
  total_balance: string;
}

export interface LedgerEntry {
  id: number;
  entry_date: string;
  kind: EntryKind;
  amount: string;
  currency: string;
  /** The balance after this entry (ledger order: day, then id). */
  running_balance: string;
  reference: string;
  comment: string;
  reverses_id: number | null;
  /** The entry that reverses this one. */
  reversed_by: number | null;
  source: string;
  created_at: string;
  created_by: { id: number | null; name: string | null };
}

export interface LedgerAnswer {
  items: LedgerEntry[];
  total: number;
  page: number;
  page_size: number;
  balance: string;
}

export interface PostSpendResult {
  /** The last day posted (null: nothing to post). */
  through: string | null;
  /** Spend entries written now (days already posted are not written again). */
  posted: number;
  advertisers: number;
}

/** An entry can be reversed: not a reversal itself, and not reversed yet. */
export function canReverse(e: Pick<LedgerEntry, 'kind' | 'reversed_by'>): boolean {
  return e.kind !== 'reversal' && e.reversed_by === null;
}

/** Yesterday (UTC) of a day, `YYYY-MM-DD`. */
export function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}
