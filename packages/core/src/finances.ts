/**
 * Finances (issue 23; screens `/finances/supply` and `/finances/demand`; spec section 5, Finances;
 * docs/decisions/029-prepayments-finances.md): the manual finance entries of the supply and demand
 * teams, with whether their e-mail to the counterparty was sent.
 *
 *   GET  /v1/finances/{team}/entries?from=&to=&counterparty_id=&network_id=&item=&email_status=&sort=&page=&page_size=
 *   GET  /v1/finances/{team}/entries/export?…the same…&format=csv|xlsx
 *   GET  /v1/finances/{team}/entries/{id}            one entry
 *   GET  /v1/finances/{team}/entries/{id}/history    its changes (audit log)
 *   POST /v1/finances/{team}/entries                 create (and send its e-mail when chosen)
 *   PUT  /v1/finances/{team}/entries/{id}            edit, with `version` (409 when stale)
 *   POST /v1/finances/{team}/entries/{id}/resend     send a failed e-mail again
 *   GET  /v1/finances/{team}/options?kind=counterparty|network&search=&limit=   choices for the form and the filters
 * ACL: `/v1/finances`, read to see, write to change.
 *
 * The spec's rules (form and API, same keys): a valid user (the counterparty: a publisher for
 * supply, a demand partner for demand), network (a demand partner), amount and item/type; a comment
 * of at most 100 characters; a period with start and end (start not after end); the send-e-mail
 * choice made (yes or no: no default).
 */
import { z } from 'zod';
import { toMicros } from './billing.ts';
import { isIsoDate } from './dates.ts';
import { CURRENCIES } from './resources/companies.ts';

export const FINANCE_TEAMS = ['supply', 'demand'] as const;
export type FinanceTeam = (typeof FINANCE_TEAMS)[number];

/** The items (types) of each team (labels `finances.item.*`). */
export const FINANCE_ITEMS = {
  supply: ['bonus', 'adjustment', 'chargeback', 'fraud_deduction', 'advance_payment', 'platform_fee', 'withholding_tax', 'other'],
  demand: ['adjustment', 'credit_note', 'chargeback', 'prepayment', 'make_good', 'volume_rebate', 'late_payment_fee', 'other'],
} as const satisfies Record<FinanceTeam, readonly string[]>;
export const ALL_FINANCE_ITEMS = [...new Set([...FINANCE_ITEMS.supply, ...FINANCE_ITEMS.demand])];

/** The spec's limit (section 9: 'Comment: max 100 characters (finance)'). */
export const FINANCE_COMMENT_MAX = 100;
/** The largest amount of an entry (either sign). */
export const FINANCE_MAX_AMOUNT = 999_999_999;

/** not_requested | pending (being sent) | sent | failed (labels `finances.email.*`). */
export const EMAIL_STATUSES = ['not_requested', 'pending', 'sent', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const FINANCE_SORTS = ['id', 'period_start', 'amount', 'counterparty', 'network', 'item', 'created_at'] as const;
export type FinanceSort = (typeof FINANCE_SORTS)[number];
export const FINANCE_DEFAULT_SORT = '-id';
export const FINANCE_PAGE_SIZES = [10, 25, 50, 100] as const;
export const FINANCE_PAGE_SIZE = 25;

/** Export file base name: `finances_supply_YYYY-MM-DD_HHmmss.csv`. */
export const financesExportName = (team: FinanceTeam) => `finances_${team}`;
/** ACL resource of both screens. */
export const FINANCES_RESOURCE = '/v1/finances';

/** The counterparty ("user") of a team: a publisher for supply, a demand partner for demand. */
export const counterpartyKind = (team: FinanceTeam) => (team === 'supply' ? 'publisher' : 'demand_partner');

// ---------------------------------------------------------------------------------------------
// Rules

/** A signed amount to the cent, not zero, at most FINANCE_MAX_AMOUNT either way. */
export function isFinanceAmount(text: string): boolean {
  if (!/^-?\d{1,9}(\.\d{1,2})?$/.test(text)) return false;
  const m = toMicros(text);
  return m !== 0n && (m < 0n ? -m : m) <= BigInt(FINANCE_MAX_AMOUNT) * 1_000_000n;
}

/*
 * The spec's fields are checked with their own message even when missing or of the wrong type (a
 * plain z.number() would answer the generic 'error.required'), so each rule shows its own text.
 */
const id = (key: string) =>
  z
    .unknown()
    .refine((v) => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 2_147_483_647, key)
    .transform((v) => v as number)
    .meta({ type: 'integer', minimum: 1, maximum: 2_147_483_647 });

const day = () =>
  z
    .unknown()
    .refine((v) => typeof v === 'string' && v !== '', 'finances.period_required')
    .refine((v) => typeof v !== 'string' || v === '' || isIsoDate(v), 'finances.period_invalid')
    .transform((v) => v as string)
    .meta({ type: 'string', format: 'date' });

/** The entry's fields (form and API); the item is checked against the team's list by `financeEntrySchema(team)`. */
const fieldsSchema = z.strictObject({
  counterparty_id: id('finances.user_invalid'),
  network_id: id('finances.network_invalid'),
  amount: z
    .unknown()
    .refine((v) => (typeof v === 'string' || typeof v === 'number') && isFinanceAmount(String(v).trim()), 'finances.amount_invalid')
    .transform((v) => String(v).trim())
    .meta({ type: 'string', description: 'Signed decimal to the cent, not 0' }),
  currency: z.enum(CURRENCIES, { error: 'finances.currency_invalid' }),
  item: z
    .unknown()
    .refine((v) => typeof v === 'string' && v !== '', 'finances.item_invalid')
    .transform((v) => v as string)
    .meta({ type: 'string' }),
  comment: z.string({ error: 'error.invalid_type' }).trim().max(FINANCE_COMMENT_MAX, 'finances.comment_too_long').default(''),
  period_start: day(),
  period_end: day(),
  send_email: z
    .unknown()
    .refine((v) => typeof v === 'boolean', 'finances.send_email_required')
    .transform((v) => v as boolean)
    .meta({ type: 'boolean' }),
});

const always = (path: string, message: string) => ({
  path: [path],
  message,
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null,
});

function withRules<T extends z.ZodType<{ item?: unknown; period_start?: unknown; period_end?: unknown }>>(schema: T, team: FinanceTeam) {
  const items: readonly string[] = FINANCE_ITEMS[team];
  return schema
    .refine((v) => typeof v.item === 'string' && items.includes(v.item), always('item', 'finances.item_invalid'))
    .refine(
      (v) => !(typeof v.period_start === 'string' && typeof v.period_end === 'string' && isIsoDate(v.period_start) && isIsoDate(v.period_end) && v.period_start > v.period_end),
      always('period_end', 'finances.period_order'),
    );
}

/** What the form checks, and POST takes (with an optional idempotency key for a doubled click). */
export function financeEntrySchema(team: FinanceTeam) {
  return withRules(
    fieldsSchema.extend({
      idempotency_key: z.string().trim().min(8, 'error.invalid_value').max(100, 'error.invalid_value').regex(/^[A-Za-z0-9_-]+$/, 'error.invalid_value').optional(),
    }),
    team,
  );
}
/** What PUT takes: the fields and the version the editor read. */
export function financeUpdateSchema(team: FinanceTeam) {
  return withRules(
    fieldsSchema.extend({
      version: z.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(2_147_483_647, 'error.invalid_value'),
    }),
    team,
  );
}
export type FinanceEntryBody = z.output<ReturnType<typeof financeEntrySchema>>;
export type FinanceUpdateBody = z.output<ReturnType<typeof financeUpdateSchema>>;
export type FinanceEntryInput = z.input<typeof fieldsSchema>;

const csvIds = z
  .string()
  .max(200)
  .default('')
  .transform((v) => (v === '' ? [] : [...new Set(v.split(',').map((s) => s.trim()))]))
  .refine((list) => list.length <= 20 && list.every((s) => /^\d{1,9}$/.test(s) && Number(s) >= 1), 'error.invalid_value')
  .transform((list) => list.map(Number));

const optionalDay = z
  .string()
  .default('')
  .refine((v) => v === '' || isIsoDate(v), 'error.invalid_value');

/** The list's filters: entries whose period overlaps [from, to]; counterparties, networks, items (comma lists). */
export const financeListQuerySchema = z.strictObject({
  from: optionalDay,
  to: optionalDay,
  counterparty_id: csvIds,
  network_id: csvIds,
  item: z
    .string()
    .max(400)
    .default('')
    .transform((v) => (v === '' ? [] : [...new Set(v.split(',').map((s) => s.trim()))]))
    .refine((list) => list.every((s) => (ALL_FINANCE_ITEMS as readonly string[]).includes(s)), 'error.invalid_value'),
  email_status: z.enum(EMAIL_STATUSES, { error: 'error.invalid_value' }).optional(),
  sort: z
    .string()
    .max(40)
    .default(FINANCE_DEFAULT_SORT)
    .refine((v) => (FINANCE_SORTS as readonly string[]).includes(v.replace(/^-/, '')), 'resource.sort_unknown'),
  page: z.coerce.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(100_000, 'error.invalid_value').default(1),
  page_size: z.coerce.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(100, 'error.invalid_value').default(FINANCE_PAGE_SIZE),
});
export type FinanceListQuery = z.output<typeof financeListQuerySchema>;
export const financeExportQuerySchema = financeListQuerySchema.omit({ page: true, page_size: true }).extend({
  format: z.enum(['csv', 'xlsx'], { error: 'error.invalid_value' }).default('csv'),
});

export const financeOptionsQuerySchema = z.strictObject({
  kind: z.enum(['counterparty', 'network'], { error: 'error.invalid_value' }),
  search: z.string().trim().max(100, 'error.too_long').default(''),
  /** Names these ids (a link's filters), whatever the search. */
  ids: csvIds,
  limit: z.coerce.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(50, 'error.invalid_value').default(20),
});

export function parseFinanceSort(sort: string): { field: FinanceSort; desc: boolean } {
  const field = sort.replace(/^-/, '');
  return { field: ((FINANCE_SORTS as readonly string[]).includes(field) ? field : 'id') as FinanceSort, desc: sort.startsWith('-') };
}

// ---------------------------------------------------------------------------------------------
// Answers

export interface FinanceParty {
  id: number;
  name: string;
}

export interface FinanceEntry {
  id: number;
  team: FinanceTeam;
  counterparty: FinanceParty;
  network: FinanceParty;
  amount: string;
  currency: string;
  item: string;
  comment: string;
  period_start: string;
  period_end: string;
  send_email: boolean;
  email_status: EmailStatus;
  email_to: string | null;
  email_sent_at: string | null;
  email_error: string | null;
  created_at: string;
  created_by: { id: number | null; name: string | null };
  updated_at: string;
  updated_by: { id: number | null; name: string | null };
  version: number;
}

export interface FinanceTotal {
  currency: string;
  amount: string;
  count: number;
}

export interface FinanceEntriesAnswer {
  items: FinanceEntry[];
  total: number;
  page: number;
  page_size: number;
  /** The sum of every filtered entry, per currency. */
  totals: FinanceTotal[];
}

export interface FinanceOption {
  id: number;
  name: string;
  /** The counterparty's currency (the form's default) and whether it has a billing e-mail. */
  currency?: string;
  has_email?: boolean;
}

export interface FinanceHistoryEntry {
  id: number;
  at: string;
  action: string;
  actor: { id: number | null; name: string | null };
  simulated_by: { id: number | null; name: string | null } | null;
  ip: string | null;
  changes: Record<string, [unknown, unknown]>;
}

/** Spanish-speaking countries: a counterparty there gets its e-mail in Spanish (else English). */
export const SPANISH_COUNTRIES = ['ES', 'MX', 'AR', 'CO', 'CL', 'PE', 'UY', 'PY', 'BO', 'EC', 'VE', 'CR', 'PA', 'GT', 'HN', 'SV', 'NI', 'DO', 'CU'] as const;
export function mailLocaleOfCountry(country: string | null | undefined): 'en' | 'es' {
  return country && (SPANISH_COUNTRIES as readonly string[]).includes(country.toUpperCase()) ? 'es' : 'en';
}
