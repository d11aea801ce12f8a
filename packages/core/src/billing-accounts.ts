/**
 * Billing accounts (issue 21; screens `/billing_ssp/advertiser` and `/billing_performance/advertiser`,
 * docs/decisions/023-billing-accounts.md): every demand partner of a side as the account finance
 * invoices, with its company's billing data, its billing terms and its statement.
 *
 *   GET /v1/billing/{side}/accounts?search=&billing_mode=&payment_terms=&currency=&missing=&overdue=&sort=&page=&page_size=
 *   GET /v1/billing/{side}/accounts/export?…the same…&format=csv|xlsx
 *   GET /v1/billing/{side}/accounts/{id}           the account, its statement lines and payments
 *   PUT /v1/billing/{side}/accounts/{id}           its billing terms, with `version` (409 when stale)
 *   GET /v1/billing/{side}/accounts/{id}/history   changes of its billing terms (audit log)
 * ACL: `/v1/billing/{side}` (billingResource): read to see, write to change the terms.
 *
 * The statement counts the account's billing rows of kind `advertiser` in state approved or
 * invoiced (what was approved to invoice), per currency, exactly (integer micro-units):
 *   billed       Σ revenue_gross
 *   paid         Σ paid_revenue
 *   outstanding  Σ pending (revenue_gross − paid_revenue, never below 0) of rows still to be paid
 *   overdue      the outstanding of rows whose due date (the month's last day + the row's payment
 *                term days) is before today
 *   charged      the pending of charged rows (taken by prepayment or direct debit: the spec's
 *                CHARGED), neither outstanding nor overdue
 * A row with a received payment date is paid (spec 4: full_paid), whatever is left of it.
 */
import { z } from 'zod';
import { PAYMENT_TERM_DAYS, type BillingSide } from './billing-api.ts';
import { fromMicros, paymentBadge, toMicros, type PaymentBadge } from './billing.ts';
import { isIsoDate } from './dates.ts';
import { normalizeTaxId, isValidTaxId, EU_COUNTRIES } from './tax-ids.ts';
import { CURRENCIES } from './resources/companies.ts';
import { COMMON_FIELDS, defineResource, type ChangedBy } from './resources/define.ts';
import { PAYMENT_TERMS } from './resources/demand-partners.ts';
import { decimalText, optionalEmail } from './resources/field-schemas.ts';

export const BILLING_MODES = ['credit', 'prepayment'] as const;
export type BillingMode = (typeof BILLING_MODES)[number];
/** What a billing contact does for the account (labels `billing_account.contact_role.*`). */
export const CONTACT_ROLES = ['accounts_payable', 'finance', 'billing', 'legal', 'other'] as const;
export type ContactRole = (typeof CONTACT_ROLES)[number];
export const MAX_BILLING_CONTACTS = 10;
/** The row states a statement counts: approved to invoice, or invoiced. */
export const STATEMENT_STATES = ['approved', 'invoiced'] as const;
/** The largest credit limit (numeric(14, 2) holds more; nobody gives a billion of credit). */
export const MAX_CREDIT_LIMIT = 999_999_999;

export const ACCOUNT_SORTS = ['name', 'company', 'payment_terms', 'billing_mode', 'invoice_currency', 'billed', 'paid', 'outstanding', 'overdue'] as const;
export type AccountSort = (typeof ACCOUNT_SORTS)[number];
export const ACCOUNT_DEFAULT_SORT = 'name';
export const ACCOUNT_PAGE_SIZES = [10, 25, 50, 100] as const;
export const ACCOUNT_PAGE_SIZE = 25;
export const ACCOUNT_MAX_PAGE_SIZE = 100;
/** Lines and payments an account's page shows at most (newest first). */
export const ACCOUNT_MAX_LINES = 1000;
export const ACCOUNT_MAX_PAYMENTS = 500;
/** What a row lacks for an invoice (labels `billing_account.missing.*`). */
export const MISSING_PARTS = ['company', 'tax_id', 'address'] as const;
export type MissingPart = (typeof MISSING_PARTS)[number];

/** Export file base name: `billing_ssp_accounts_YYYY-MM-DD_HHmmss.csv`. */
export const accountsExportName = (side: BillingSide) => `billing_${side}_accounts`;

// ---------------------------------------------------------------------------------------------
// The list query

const csvOf = <T extends string>(values: readonly T[]) =>
  z
    .string()
    .max(200)
    .default('')
    .transform((v) => (v === '' ? [] : [...new Set(v.split(',').map((s) => s.trim()))]))
    .refine((list) => list.every((s) => (values as readonly string[]).includes(s)), 'error.invalid_value') as unknown as z.ZodType<T[], string | undefined>;

const flag = z.enum(['true', 'false'], { error: 'error.invalid_value' }).optional();

/** What the list filters, sorts and pages by (the URL's parameters are the same names). */
export const accountListQuerySchema = z.strictObject({
  /** Partner name, company legal or trade name (contains, any case). */
  search: z.string().trim().max(200, 'error.too_long').default(''),
  billing_mode: csvOf(BILLING_MODES),
  payment_terms: csvOf(PAYMENT_TERMS),
  /** The invoice currency. */
  currency: csvOf(CURRENCIES),
  /** true: only accounts whose billing information is missing; false: only complete ones. */
  missing: flag,
  /** true: only accounts with something overdue; false: none overdue. */
  overdue: flag,
  sort: z
    .string()
    .max(40)
    .default(ACCOUNT_DEFAULT_SORT)
    .refine((v) => (ACCOUNT_SORTS as readonly string[]).includes(v.replace(/^-/, '')), 'resource.sort_unknown'),
  page: z.coerce.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(100_000, 'error.invalid_value').default(1),
  page_size: z.coerce
    .number({ error: 'error.invalid_value' })
    .int('error.invalid_value')
    .min(1, 'error.invalid_value')
    .max(ACCOUNT_MAX_PAGE_SIZE, 'billing_account.page_size_max')
    .default(ACCOUNT_PAGE_SIZE),
});
export type AccountListQuery = z.output<typeof accountListQuerySchema>;

export const accountExportQuerySchema = accountListQuerySchema.omit({ page: true, page_size: true }).extend({
  format: z.enum(['csv', 'xlsx'], { error: 'error.invalid_value' }).default('csv'),
});
export type AccountExportQuery = z.output<typeof accountExportQuerySchema>;

/** The sort of a query as a field and a direction. */
export function parseAccountSort(sort: string): { field: AccountSort; desc: boolean } {
  const field = sort.replace(/^-/, '');
  return { field: ((ACCOUNT_SORTS as readonly string[]).includes(field) ? field : ACCOUNT_DEFAULT_SORT) as AccountSort, desc: sort.startsWith('-') };
}

// ---------------------------------------------------------------------------------------------
// The billing terms (PUT)

/** A VAT id as stored: upper case, no spaces, dots, dashes or slashes. */
export function normalizeVatId(text: string): string {
  return text.toUpperCase().replace(/[\s.\-/]/g, '');
}

/**
 * A VAT id as invoices print it: 4 to 30 letters and digits; one that starts with an EU country's
 * prefix (EL for Greece) must pass that country's check (the companies' rule, jsvat).
 */
export function isValidVatId(text: string): boolean {
  const id = normalizeVatId(text);
  if (!/^[A-Z0-9]{4,30}$/.test(id)) return false;
  const prefix = id.slice(0, 2);
  const country = prefix === 'EL' ? 'GR' : prefix;
  if ((EU_COUNTRIES as readonly string[]).includes(country)) {
    return isValidTaxId(country, normalizeTaxId(country, id));
  }
  return true;
}

export const billingContactSchema = z.strictObject({
  name: z.string({ error: 'error.required' }).trim().min(1, 'error.required').max(120, 'error.too_long'),
  email: z.string({ error: 'error.required' }).trim().max(254, 'error.too_long').email('company.email_invalid'),
  role: z.enum(CONTACT_ROLES, { error: 'billing_account.contact_role_required' }),
});
export type BillingContact = z.infer<typeof billingContactSchema>;

/** The fields of an account's billing terms (the form's and the PUT's, with `version`). */
export const billingTermsFieldsSchema = z.strictObject({
  payment_terms: z.enum(PAYMENT_TERMS, { error: 'error.invalid_value' }),
  invoice_currency: z.enum(CURRENCIES, { error: 'error.invalid_value' }),
  min_amount: decimalText(2, 1_000_000, 'demand_partner.min_amount_invalid'),
  billing_mode: z.enum(BILLING_MODES, { error: 'billing_account.billing_mode_required' }),
  credit_limit: z.union([decimalText(2, MAX_CREDIT_LIMIT, 'billing_account.credit_limit_invalid'), z.null()]),
  billing_email: optionalEmail(),
  vat_id: z
    .union([z.string(), z.null()])
    .transform((v) => (v === null ? null : normalizeVatId(v) || null))
    .refine((v) => v === null || v.length <= 30, 'error.too_long')
    .refine((v) => v === null || v.length > 30 || isValidVatId(v), 'billing_account.vat_id_invalid'),
  billing_contacts: z
    .array(billingContactSchema, { error: 'error.invalid_value' })
    .max(MAX_BILLING_CONTACTS, 'billing_account.contacts_max')
    .refine((list) => new Set(list.map((c) => c.email.toLowerCase())).size === list.length, 'billing_account.contact_duplicate'),
});

/**
 * Cross-field rule: a prepayment account has no credit limit. Checked even when other fields are
 * wrong (`when`), so the form shows every error at once.
 */
const prepaidHasNoLimit = (v: { billing_mode?: unknown; credit_limit?: unknown }) =>
  !(v.billing_mode === 'prepayment' && v.credit_limit !== null && v.credit_limit !== undefined && v.credit_limit !== '');
const prepaidRule = () => ({
  path: ['credit_limit'],
  message: 'billing_account.credit_limit_prepayment',
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null,
});

/** What the form checks before sending. */
export const billingTermsInputSchema = billingTermsFieldsSchema.refine(prepaidHasNoLimit, prepaidRule());
/** What PUT …/accounts/{id} takes: the terms and the version the editor read. */
export const billingTermsBodySchema = billingTermsFieldsSchema
  .extend({ version: z.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(2_147_483_647, 'error.invalid_value') })
  .refine(prepaidHasNoLimit, prepaidRule());
export type BillingTermsBody = z.output<typeof billingTermsBodySchema>;
export type BillingTermsInput = z.input<typeof billingTermsFieldsSchema>;
/** The terms' field names (the audit entry's and the history's fields). */
export const BILLING_TERMS_FIELDS = Object.keys(billingTermsFieldsSchema.shape) as (keyof typeof billingTermsFieldsSchema.shape)[];

/**
 * The terms form as the resource layer's form reads a declaration (labels, inputs, the schema);
 * not a resource of the layer: the account's routes are the billing module's own.
 */
export function billingTermsForm(side: BillingSide) {
  return defineResource({
    name: `billing_${side}_accounts`,
    entity: 'billing_account',
    path: `/v1/billing/${side}/accounts`,
    acl: `/v1/billing/${side}`,
    schema: billingTermsFieldsSchema,
    input: billingTermsInputSchema,
    fields: {
      id: COMMON_FIELDS.id,
      payment_terms: { label: 'demand_partner.payment_terms', type: 'enum', options: PAYMENT_TERMS },
      invoice_currency: { label: 'demand_partner.invoice_currency', type: 'enum', options: CURRENCIES },
      min_amount: { label: 'demand_partner.min_amount', type: 'money' },
      billing_mode: { label: 'billing_account.billing_mode', type: 'enum', options: BILLING_MODES },
      credit_limit: { label: 'billing_account.credit_limit', type: 'money' },
      billing_email: { label: 'demand_partner.billing_email', type: 'email' },
      vat_id: { label: 'demand_partner.vat_id', type: 'text' },
      billing_contacts: { label: 'billing_account.contacts', type: 'json' },
      version: COMMON_FIELDS.version,
      updated_at: COMMON_FIELDS.updated_at,
    },
    titleField: 'payment_terms',
    defaultSort: 'id',
    exportName: accountsExportName(side),
    writes: ['update'],
  });
}

// ---------------------------------------------------------------------------------------------
// Answers

export interface AccountCompany {
  id: number;
  legal_name: string;
  trade_name: string | null;
  tax_id: string;
  country: string;
  address: string;
  city: string;
  postal_code: string;
  billing_email: string;
  iban: string | null;
  currency: string;
}

/** An account's figures in one currency (decimal text, 2 places). */
export interface AccountFigures {
  currency: string;
  billed: string;
  paid: string;
  outstanding: string;
  overdue: string;
  charged: string;
}

/** An account as the list and its page answer it. */
export interface BillingAccount {
  id: number;
  name: string;
  side: BillingSide;
  status: string;
  company: AccountCompany | null;
  /** What an invoice would lack (empty when complete): the spec's 'Inexisting data in user_billinginfo table'. */
  missing: MissingPart[];
  payment_terms: string;
  invoice_currency: string;
  min_amount: string;
  billing_mode: BillingMode;
  credit_limit: string | null;
  billing_email: string | null;
  vat_id: string | null;
  billing_contacts: BillingContact[];
  /** Per currency, sorted by currency; empty when nothing was approved yet. */
  statement: AccountFigures[];
  has_overdue: boolean;
  /** A credit account whose outstanding in its invoice currency is over its credit limit. */
  over_credit_limit: boolean;
  version: number;
  updated_at: string;
  updated_by: ChangedBy;
}

export interface BillingAccountsAnswer {
  items: BillingAccount[];
  total: number;
  page: number;
  page_size: number;
  /** The figures of every filtered account, per currency. */
  totals: AccountFigures[];
  /** The day the overdue figures are counted against (UTC). */
  today: string;
}

/** A statement line: one billing row that counts. */
export interface AccountLine {
  id: number;
  month: string;
  product: string;
  state: string;
  currency: string;
  revenue_gross: string;
  paid: string;
  pending: string;
  received_payment_date: string | null;
  charged: boolean;
  badge: PaymentBadge;
  payment_terms: string;
  due_date: string;
  overdue: boolean;
  document_id: string | null;
}

export interface AccountPayment {
  id: number;
  row_id: number;
  month: string;
  product: string;
  currency: string;
  amount: string;
  paid_on: string;
  document_id: string | null;
  reference: string;
  source: string;
}

export interface BillingAccountDetail extends BillingAccount {
  lines: AccountLine[];
  /** More lines than ACCOUNT_MAX_LINES exist (the statement still counts them all). */
  lines_truncated: boolean;
  payments: AccountPayment[];
  today: string;
}

/** One change of the billing terms (history), the billing fields only. */
export interface AccountHistoryEntry {
  id: number;
  at: string;
  action: string;
  actor: ChangedBy;
  simulated_by: ChangedBy | null;
  ip: string | null;
  changes: Record<string, [unknown, unknown]>;
}

// ---------------------------------------------------------------------------------------------
// The statement's rules

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The last day of a `YYYY-MM` month plus the payment term's days (0 for an unknown term), `YYYY-MM-DD`. */
export function dueDate(month: string, terms: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  const d = new Date(Date.UTC(y, m, 0) + (PAYMENT_TERM_DAYS[terms] ?? 0) * 86_400_000);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

/** Today's UTC date, `YYYY-MM-DD`. */
export function utcToday(now = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** A billing row as the statement reads it. */
export interface StatementRow {
  month: string;
  currency: string;
  revenue_gross: string;
  paid_revenue: string;
  received_payment_date: string | null;
  charged: boolean;
  payment_terms: string;
}

/** Where a row's pending amount goes. */
export type PendingKind = 'settled' | 'charged' | 'outstanding';

/** A row's figures: pending (never below 0), where it counts, its due date and whether it is overdue. */
export function rowStatus(row: StatementRow, today: string): { pending: bigint; kind: PendingKind; due_date: string; overdue: boolean; badge: PaymentBadge } {
  const gross = toMicros(row.revenue_gross);
  const paid = toMicros(row.paid_revenue);
  const pending = gross > paid ? gross - paid : 0n;
  const kind: PendingKind = row.received_payment_date !== null || pending === 0n ? 'settled' : row.charged ? 'charged' : 'outstanding';
  const due = dueDate(row.month, row.payment_terms);
  if (!isIsoDate(today)) throw new RangeError(`not a date: ${today}`);
  return {
    pending,
    kind,
    due_date: due,
    overdue: kind === 'outstanding' && due < today,
    badge: paymentBadge({ gross: row.revenue_gross, paid: row.paid_revenue, receivedPaymentDate: row.received_payment_date, charged: row.charged }),
  };
}

/** The statement of some rows: per currency (sorted), exact. */
export function statementOf(rows: readonly StatementRow[], today: string): AccountFigures[] {
  const sums = new Map<string, { billed: bigint; paid: bigint; outstanding: bigint; overdue: bigint; charged: bigint }>();
  for (const row of rows) {
    const s = sums.get(row.currency) ?? { billed: 0n, paid: 0n, outstanding: 0n, overdue: 0n, charged: 0n };
    const st = rowStatus(row, today);
    s.billed += toMicros(row.revenue_gross);
    s.paid += toMicros(row.paid_revenue);
    if (st.kind === 'outstanding') s.outstanding += st.pending;
    if (st.kind === 'charged') s.charged += st.pending;
    if (st.overdue) s.overdue += st.pending;
    sums.set(row.currency, s);
  }
  return [...sums.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, s]) => ({
      currency,
      billed: fromMicros(s.billed),
      paid: fromMicros(s.paid),
      outstanding: fromMicros(s.outstanding),
      overdue: fromMicros(s.overdue),
      charged: fromMicros(s.charged),
    }));
}

/** Figures summed per currency (the list's totals over several accounts). */
export function addFigures(lists: readonly (readonly AccountFigures[])[]): AccountFigures[] {
  const out = new Map<string, AccountFigures>();
  for (const list of lists) {
    for (const f of list) {
      const s = out.get(f.currency);
      out.set(
        f.currency,
        s
          ? {
              currency: f.currency,
              billed: fromMicros(toMicros(s.billed) + toMicros(f.billed)),
              paid: fromMicros(toMicros(s.paid) + toMicros(f.paid)),
              outstanding: fromMicros(toMicros(s.outstanding) + toMicros(f.outstanding)),
              overdue: fromMicros(toMicros(s.overdue) + toMicros(f.overdue)),
              charged: fromMicros(toMicros(s.charged) + toMicros(f.charged)),
            }
          : { ...f },
      );
    }
  }
  return [...out.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

/** A credit account owes more than its limit (in its invoice currency; other currencies are not converted). */
export function isOverCreditLimit(a: { billing_mode: string; credit_limit: string | null; invoice_currency: string; statement: readonly AccountFigures[] }): boolean {
  if (a.billing_mode !== 'credit' || a.credit_limit === null) return false;
  const owed = a.statement.find((f) => f.currency === a.invoice_currency);
  return owed !== undefined && toMicros(owed.outstanding) > toMicros(a.credit_limit);
}

/** What an invoice needs that the company lacks: no company, no tax id, no full address. */
export function missingBillingInfo(company: Pick<AccountCompany, 'tax_id' | 'address' | 'city' | 'postal_code'> | null): MissingPart[] {
  if (!company) return ['company'];
  const out: MissingPart[] = [];
  if (!company.tax_id?.trim()) out.push('tax_id');
  if (!company.address?.trim() || !company.city?.trim() || !company.postal_code?.trim()) out.push('address');
  return out;
}
