/**
 * The invoice screens' side of the API contract (packages/core/src/invoices.ts): paths, the views
 * the two screens keep in their URLs ("Invoices preview" `/billing/{team}` and "Create invoice /
 * Credit note" `/billing_ssp/invoice-precreation`), the list query a view asks for, and the
 * credit note's amount rules (what is left to credit, exactly, in cents).
 */
import { isBillingMonth, monthOf, nextMonth } from '@backoffice/core/billing-api';
import {
  creditNoteSchema,
  fromCents,
  INVOICE_PAGE_SIZE,
  INVOICE_SORTS,
  INVOICE_STATES,
  INVOICE_TEAMS,
  ISSUED_STATES,
  toCents,
  type InvoiceCandidate,
  type InvoiceListItem,
  type InvoiceState,
  type InvoiceTeam,
} from '@backoffice/core/invoices';

export const invoicesPath = 'invoices';
export const invoicePath = (id: number) => `invoices/${id}`;
export const candidatesPath = 'invoices/candidates';
export const PAGE_SIZES = [25, 50, 100, 200] as const;
export const DEFAULT_SORT = '-id';

export const isTeam = (v: unknown): v is InvoiceTeam => (INVOICE_TEAMS as readonly unknown[]).includes(v);

export type { ChainCheck, PrecreateResult } from '@backoffice/core/invoices';

// ------------------------------------------------------------------------------ preview view

export const PREVIEW_TABS = ['drafts', 'invoices', 'credit_notes'] as const;
export type PreviewTab = (typeof PREVIEW_TABS)[number];
/** States an issued invoice can be in (the Invoices tab's state filter). */
export const DOCUMENT_STATES = ISSUED_STATES;

/** What "Invoices preview" shows: all of it in the URL, so that a link reproduces the view. */
export interface PreviewView {
  tab: PreviewTab;
  search: string;
  /** Only on the Invoices tab. */
  state: InvoiceState[];
  /** `YYYY-MM`, '' for every month. */
  month: string;
  sort: string;
  page: number;
  pageSize: number;
  /** The document open in the drawer. */
  open: number | null;
}

const list = (v: string | null) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

const isSort = (s: string) =>
  s === DEFAULT_SORT || (INVOICE_SORTS as readonly string[]).includes(s.replace(/^-/, ''));
const positiveId = (v: string | null) => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 && n <= 2_147_483_647 ? n : null;
};

export function readPreviewView(p: URLSearchParams): PreviewView {
  const tab = p.get('tab') ?? '';
  const sort = p.get('sort') ?? '';
  const page = Number(p.get('page'));
  const size = Number(p.get('size'));
  const month = p.get('month') ?? '';
  const theTab = (PREVIEW_TABS as readonly string[]).includes(tab) ? (tab as PreviewTab) : 'drafts';
  return {
    tab: theTab,
    search: (p.get('q') ?? '').slice(0, 100),
    state:
      theTab === 'invoices'
        ? (list(p.get('state')).filter((s) =>
            (DOCUMENT_STATES as readonly string[]).includes(s),
          ) as InvoiceState[])
        : [],
    month: isBillingMonth(month) ? month : '',
    sort: isSort(sort) ? sort : DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? size : INVOICE_PAGE_SIZE,
    open: positiveId(p.get('open')),
  };
}

/** The URL parameters of a change to the view (null removes one). */
export function previewPatch(patch: Partial<PreviewView>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const set = (k: string, v: string | null | undefined) => (out[k] = v === '' || v === undefined ? null : v);
  if ('tab' in patch) set('tab', patch.tab && patch.tab !== 'drafts' ? patch.tab : null);
  if ('search' in patch) set('q', patch.search);
  if ('state' in patch) set('state', patch.state?.join(','));
  if ('month' in patch) set('month', patch.month);
  if ('sort' in patch) set('sort', patch.sort === DEFAULT_SORT ? null : patch.sort);
  if ('page' in patch) set('page', patch.page && patch.page > 1 ? String(patch.page) : null);
  if ('pageSize' in patch)
    set('size', patch.pageSize && patch.pageSize !== INVOICE_PAGE_SIZE ? String(patch.pageSize) : null);
  if ('open' in patch) set('open', patch.open ? String(patch.open) : null);
  return out;
}

/** GET /v1/invoices (and its export) for a view of a team. */
export function previewQuery(team: InvoiceTeam, v: PreviewView): Record<string, string | number> {
  const q: Record<string, string | number> = { team, sort: v.sort, page: v.page, page_size: v.pageSize };
  if (v.tab === 'drafts') {
    q.kind = 'invoice';
    q.state = 'draft';
  } else if (v.tab === 'invoices') {
    q.kind = 'invoice';
    q.state = (v.state.length > 0 ? v.state : DOCUMENT_STATES).join(',');
  } else q.kind = 'credit_note';
  if (v.search) q.q = v.search;
  if (v.month) q.month = v.month;
  return q;
}

export const isFiltered = (v: PreviewView) => Boolean(v.search || v.month || v.state.length);

/** A link (path and query, without the language) to a document in the preview's drawer. */
export function documentLink(team: InvoiceTeam, kind: 'invoice' | 'credit_note', id: number): string {
  return `/billing/${team}?tab=${kind === 'invoice' ? 'invoices' : 'credit_notes'}&open=${id}`;
}

// ---------------------------------------------------------------------------- precreation view

export const PRECREATION_TABS = ['create', 'credit'] as const;
export type PrecreationTab = (typeof PRECREATION_TABS)[number];

export interface PrecreationView {
  tab: PrecreationTab;
  team: InvoiceTeam;
  /** Sorted, unique, at most 12. */
  months: string[];
  /** The invoice chosen on the credit note tab. */
  invoice: number | null;
}

/** Last month (UTC), the month a finance team closes. */
export function lastMonth(now = Date.now()): string {
  return nextMonth(monthOf(now), -1);
}

/** The months offered by the month select: this month and the 23 before it, newest first. */
export function monthChoices(now = Date.now(), count = 24): string[] {
  const current = monthOf(now);
  return Array.from({ length: count }, (_, i) => nextMonth(current, -i));
}

export function readPrecreationView(p: URLSearchParams, now = Date.now()): PrecreationView {
  const tab = p.get('tab') ?? '';
  const team = p.get('team');
  const months = [...new Set(list(p.get('months')).filter(isBillingMonth))].sort().slice(-12);
  return {
    tab: (PRECREATION_TABS as readonly string[]).includes(tab) ? (tab as PrecreationTab) : 'create',
    team: isTeam(team) ? team : 'ssp',
    months: months.length > 0 ? months : [lastMonth(now)],
    invoice: positiveId(p.get('invoice')),
  };
}

export function precreationPatch(patch: Partial<PrecreationView>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  if ('tab' in patch) out.tab = patch.tab && patch.tab !== 'create' ? patch.tab : null;
  if ('team' in patch) out.team = patch.team && patch.team !== 'ssp' ? patch.team : null;
  if ('months' in patch) out.months = patch.months?.length ? [...patch.months].sort().join(',') : null;
  if ('invoice' in patch) out.invoice = patch.invoice ? String(patch.invoice) : null;
  return out;
}

/** A month as its name in the UI language ("October 2026", "octubre de 2026"). */
export function monthLabel(month: string, locale: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(locale === 'es' ? 'es-ES' : 'en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, 1)));
}

/** A candidate line: one counterparty and currency. */
export const candidateKey = (c: Pick<InvoiceCandidate, 'counterparty_id' | 'currency'>) =>
  `${c.counterparty_id}-${c.currency}`;

/** The lines chosen after a change from `before` to `after`: whole counterparties in or out. */
export function selectByCounterparty(
  rows: readonly Pick<InvoiceCandidate, 'counterparty_id' | 'currency'>[],
  before: ReadonlySet<string>,
  after: ReadonlySet<string>,
): Set<string> {
  const idOf = new Map(rows.map((r) => [candidateKey(r), r.counterparty_id]));
  const added = new Set([...after].filter((k) => !before.has(k)).map((k) => idOf.get(k)));
  const removed = new Set([...before].filter((k) => !after.has(k)).map((k) => idOf.get(k)));
  const out = new Set<string>();
  for (const r of rows) {
    const k = candidateKey(r);
    if (removed.has(r.counterparty_id)) continue;
    if (after.has(k) || added.has(r.counterparty_id)) out.add(k);
  }
  return out;
}

// -------------------------------------------------------------------------------- money helpers

/** Decimal text typed with a decimal comma (Spanish keyboards) as the API's decimal point. */
export function normalizeDecimal(text: string): string {
  const t = text.trim();
  return /^-?\d+,\d+$/.test(t) ? t.replace(',', '.') : t;
}

/** Per currency, the count and Σ total of documents (the issue dialog's figures), sorted by currency. */
export function totalsByCurrency(items: readonly Pick<InvoiceListItem, 'currency' | 'total'>[]) {
  const by = new Map<string, { count: number; cents: bigint }>();
  for (const i of items) {
    const t = by.get(i.currency) ?? { count: 0, cents: 0n };
    t.count += 1;
    t.cents += toCents(i.total);
    by.set(i.currency, t);
  }
  return [...by.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, t]) => ({ currency, count: t.count, total: fromCents(t.cents) }));
}

/**
 * What is left to credit on an invoice, net (its base minus the bases its credit notes took;
 * theirs are negative), as the API counts it.
 */
export function leftToCredit(base: string, creditNoteBases: readonly string[]): string {
  const taken = creditNoteBases.reduce((s, b) => s - toCents(b), 0n);
  const left = toCents(base) - taken;
  return fromCents(left < 0n ? 0n : left);
}

export type CreditField = 'amount' | 'reason';

/**
 * A credit note request as the form checks it (core's creditNoteSchema, and the amount at most
 * what is left): the body to send, or the message key of each wrong field.
 */
export function checkCreditNote(
  values: { amount: string; reason: string },
  left: string,
):
  | { ok: true; body: { reason: string; amount?: string } }
  | { ok: false; errors: Partial<Record<CreditField, string>> } {
  const amount = normalizeDecimal(values.amount ?? '');
  const parsed = creditNoteSchema.safeParse({ reason: values.reason ?? '', ...(amount ? { amount } : {}) });
  const errors: Partial<Record<CreditField, string>> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0]) as CreditField;
      errors[field] ??= issue.message;
    }
  if (!errors.amount && amount) {
    const cents = toCents(amount);
    if (cents <= 0n) errors.amount = 'invoice.credit.amount_invalid';
    else if (cents > toCents(left)) errors.amount = 'invoice.credit.amount_exceeds';
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body: parsed.data };
}

/** The states in which an invoice takes a payment, can go back to pending, can be credited. */
export const canTakePayment = (i: Pick<InvoiceListItem, 'kind' | 'state'>) =>
  i.kind === 'invoice' && ['issued', 'sent', 'partly_paid'].includes(i.state);
export const canGoBackToPending = (i: Pick<InvoiceListItem, 'kind' | 'state'>) =>
  i.kind === 'invoice' && ['paid', 'partly_paid'].includes(i.state);
export const canBeCredited = (i: Pick<InvoiceListItem, 'kind' | 'state'>) =>
  i.kind === 'invoice' && i.state !== 'draft' && i.state !== 'credited';

/** The states a credit note can be searched for on the precreation screen. */
export const CREDITABLE_STATES: readonly InvoiceState[] = INVOICE_STATES.filter(
  (s) => s !== 'draft' && s !== 'credited',
);
