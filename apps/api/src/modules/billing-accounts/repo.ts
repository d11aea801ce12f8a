/**
 * The billing accounts' queries (docs/decisions/023-billing-accounts.md): a side's demand partners
 * with their company and their statement, filtered, sorted and paged by the database. The
 * statement is summed in SQL (numeric, exact) with core's rules (packages/core/src/billing-accounts.ts):
 * the rows of kind advertiser in state approved or invoiced; pending never below 0; a row with a
 * received payment date settled, a charged row charged, the rest outstanding, overdue after the
 * month's last day plus the row's payment term days (PAYMENT_TERM_DAYS). The account page's lines
 * are read as rows and figured by core, and the integration test holds both to the same figures.
 */
import {
  ACCOUNT_MAX_LINES,
  ACCOUNT_MAX_PAYMENTS,
  BILLING_TERMS_FIELDS,
  STATEMENT_STATES,
  isOverCreditLimit,
  missingBillingInfo,
  parseAccountSort,
  rowStatus,
  type AccountCompany,
  type AccountFigures,
  type AccountHistoryEntry,
  type AccountLine,
  type AccountListQuery,
  type AccountPayment,
  type AccountSort,
  type BillingAccount,
  type BillingContact,
  type BillingMode,
} from '@backoffice/core/billing-accounts';
import { PAYMENT_TERM_DAYS, type BillingSide } from '@backoffice/core/billing-api';
import { fromMicros, toMicros } from '@backoffice/core/billing';
import type { Database } from '../../db/client.ts';
import { historyOf } from '../../resources/routes.ts';
import { query } from '../../reports-data/sql.ts';

class Params {
  readonly values: unknown[] = [];
  add(v: unknown, type: string): string {
    this.values.push(v);
    return `$${this.values.length}::${type}`;
  }
}

/** A payment term's days in SQL, from core's table (its keys are checked to be plain words). */
function termDaysSql(column: string): string {
  const cases = Object.entries(PAYMENT_TERM_DAYS).map(([term, days]) => {
    if (!/^[a-z0-9_]+$/.test(term) || !Number.isInteger(days)) throw new Error(`payment term ${term}: not a plain word and whole days`);
    return `WHEN '${term}' THEN ${days}`;
  });
  return `(CASE ${column} ${cases.join(' ')} ELSE 0 END)`;
}

const STATES_SQL = STATEMENT_STATES.map((s) => `'${s}'`).join(', ');

const SORT_SQL: Record<AccountSort, string> = {
  name: 'lower(a.name)',
  company: 'lower(a.legal_name)',
  payment_terms: termDaysSql('a.payment_terms'),
  billing_mode: 'a.billing_mode',
  invoice_currency: 'a.invoice_currency',
  billed: 'a.s_billed',
  paid: 'a.s_paid',
  outstanding: 'a.s_outstanding',
  overdue: 'a.s_overdue',
};

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

interface Scope {
  side: BillingSide;
  today: string;
  /** One account (its page), or the list's filters. */
  id?: number;
  filters?: Omit<AccountListQuery, 'sort' | 'page' | 'page_size'>;
}

/** The CTEs every account query starts with: r (counted rows), f (per currency), s (per account), a (accounts). */
function accountsCte(scope: Scope, params: Params): string {
  const side = params.add(scope.side, 'text');
  const today = params.add(scope.today, 'date');
  const one = scope.id !== undefined ? params.add(scope.id, 'int4') : null;
  const where: string[] = [`p.side = ${side}`];
  if (one) where.push(`p.id = ${one}`);
  const f = scope.filters;
  if (f) {
    if (f.search) {
      const like = params.add(likePattern(f.search), 'text');
      where.push(`(lower(p.name) LIKE ${like} OR lower(c.legal_name) LIKE ${like} OR lower(coalesce(c.trade_name, '')) LIKE ${like})`);
    }
    const oneOf = (column: string, values: readonly string[]) => {
      if (values.length > 0) where.push(`${column} IN (${values.map((v) => params.add(v, 'text')).join(', ')})`);
    };
    oneOf('p.billing_mode', f.billing_mode);
    oneOf('p.payment_terms', f.payment_terms);
    oneOf('p.invoice_currency', f.currency);
    if (f.missing) where.push(`${f.missing === 'true' ? '' : 'NOT '}${INFO_MISSING}`);
    if (f.overdue) where.push(`coalesce(s.overdue, 0) ${f.overdue === 'true' ? '>' : '='} 0`);
  }
  return `
    r AS (
      SELECT b.counterparty_id AS id, b.currency, b.revenue_gross, b.paid_revenue,
        greatest(b.revenue_gross - b.paid_revenue, 0) AS pending,
        CASE WHEN b.received_payment_date IS NOT NULL OR b.revenue_gross <= b.paid_revenue THEN 's'
             WHEN b.charged THEN 'c' ELSE 'o' END AS k,
        (to_date(b.month || '-01', 'YYYY-MM-DD') + interval '1 month' - interval '1 day')::date + ${termDaysSql('b.payment_terms')} AS due
      FROM billing_rows b
      WHERE b.side = ${side} AND b.kind = 'advertiser' AND b.counterparty_type = 'demand_partner'
        AND b.state IN (${STATES_SQL})${one ? ` AND b.counterparty_id = ${one}` : ''}
    ),
    f AS (
      SELECT id, currency, sum(revenue_gross) AS billed, sum(paid_revenue) AS paid,
        coalesce(sum(pending) FILTER (WHERE k = 'o'), 0) AS outstanding,
        coalesce(sum(pending) FILTER (WHERE k = 'o' AND due < ${today}), 0) AS overdue,
        coalesce(sum(pending) FILTER (WHERE k = 'c'), 0) AS charged
      FROM r GROUP BY id, currency
    ),
    s AS (
      SELECT id,
        jsonb_agg(jsonb_build_object('currency', currency, 'billed', billed::text, 'paid', paid::text,
          'outstanding', outstanding::text, 'overdue', overdue::text, 'charged', charged::text) ORDER BY currency) AS statement,
        sum(billed) AS billed, sum(paid) AS paid, sum(outstanding) AS outstanding, sum(overdue) AS overdue
      FROM f GROUP BY id
    ),
    a AS (
      SELECT p.id, p.name, p.status, p.payment_terms, p.invoice_currency, p.min_amount::text AS min_amount,
        p.billing_mode, p.credit_limit::text AS credit_limit, p.billing_email, p.vat_id, p.billing_contacts,
        p.version, p.updated_at, p.updated_by AS updated_by_id, u.name AS updated_by_name,
        c.id AS company_id, c.legal_name, c.trade_name, c.tax_id, c.country, c.address, c.city, c.postal_code,
        c.billing_email AS company_billing_email, c.iban, c.currency AS company_currency,
        coalesce(s.statement, '[]'::jsonb) AS statement,
        coalesce(s.billed, 0) AS s_billed, coalesce(s.paid, 0) AS s_paid,
        coalesce(s.outstanding, 0) AS s_outstanding, coalesce(s.overdue, 0) AS s_overdue
      FROM demand_partners p
        LEFT JOIN companies c ON c.id = p.company_id
        LEFT JOIN s ON s.id = p.id
        LEFT JOIN users u ON u.id = p.updated_by
      WHERE ${where.join(' AND ')}
    )`;
}

/** core's missingBillingInfo in SQL: no company, no tax id, or no full address. */
const INFO_MISSING = `(c.id IS NULL OR btrim(c.tax_id) = '' OR btrim(c.address) = '' OR btrim(c.city) = '' OR btrim(c.postal_code) = '')`;

type SqlRow = Record<string, unknown>;

/** An amount as 2-decimal text (the sums come with the scale of their inputs). */
const cents = (v: unknown): string => fromMicros(toMicros(String(v ?? '0')));
const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));
const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function figuresOf(v: unknown): AccountFigures[] {
  const list = (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown>[];
  return list.map((f) => ({
    currency: String(f.currency),
    billed: cents(f.billed),
    paid: cents(f.paid),
    outstanding: cents(f.outstanding),
    overdue: cents(f.overdue),
    charged: cents(f.charged),
  }));
}

function toAccount(r: SqlRow, side: BillingSide): BillingAccount {
  const company: AccountCompany | null =
    r.company_id === null || r.company_id === undefined
      ? null
      : {
          id: Number(r.company_id),
          legal_name: String(r.legal_name),
          trade_name: textOrNull(r.trade_name),
          tax_id: String(r.tax_id ?? ''),
          country: String(r.country),
          address: String(r.address ?? ''),
          city: String(r.city ?? ''),
          postal_code: String(r.postal_code ?? ''),
          billing_email: String(r.company_billing_email ?? ''),
          iban: textOrNull(r.iban),
          currency: String(r.company_currency),
        };
  const statement = figuresOf(r.statement);
  const contacts = (typeof r.billing_contacts === 'string' ? JSON.parse(r.billing_contacts) : r.billing_contacts) as BillingContact[] | null;
  const account = {
    id: Number(r.id),
    name: String(r.name),
    side,
    status: String(r.status),
    company,
    missing: missingBillingInfo(company),
    payment_terms: String(r.payment_terms),
    invoice_currency: String(r.invoice_currency),
    min_amount: cents(r.min_amount),
    billing_mode: String(r.billing_mode) as BillingMode,
    credit_limit: r.credit_limit === null || r.credit_limit === undefined ? null : cents(r.credit_limit),
    billing_email: textOrNull(r.billing_email),
    vat_id: textOrNull(r.vat_id),
    billing_contacts: contacts ?? [],
    statement,
    has_overdue: statement.some((f) => toMicros(f.overdue) > 0n),
    over_credit_limit: false,
    version: Number(r.version),
    updated_at: iso(r.updated_at),
    updated_by: { id: r.updated_by_id === null ? null : Number(r.updated_by_id), name: textOrNull(r.updated_by_name) },
  } satisfies BillingAccount;
  return { ...account, over_credit_limit: isOverCreditLimit(account) };
}

/** A page of accounts (or every one, for the export), the filtered total and the totals per currency. */
export async function listAccounts(
  database: Database,
  side: BillingSide,
  q: Omit<AccountListQuery, 'page' | 'page_size'>,
  today: string,
  page: { limit: number; offset: number },
): Promise<{ items: BillingAccount[]; total: number; totals: AccountFigures[] }> {
  const { sort, ...filters } = q;
  const s = parseAccountSort(sort);
  const dir = s.desc ? 'DESC' : 'ASC';
  const pageParams = new Params();
  const cte = accountsCte({ side, today, filters }, pageParams);
  const limit = pageParams.add(page.limit, 'int8');
  const offset = pageParams.add(page.offset, 'int8');
  const totalParams = new Params();
  const totalCte = accountsCte({ side, today, filters }, totalParams);
  const [rows, [summary]] = await Promise.all([
    query<SqlRow>(
      database,
      `WITH ${cte} SELECT a.* FROM a ORDER BY ${SORT_SQL[s.field]} ${dir} NULLS LAST, lower(a.name), a.id LIMIT ${limit} OFFSET ${offset}`,
      pageParams.values,
    ),
    query<SqlRow>(
      database,
      `WITH ${totalCte}
       SELECT (SELECT count(*)::int FROM a) AS total,
         (SELECT coalesce(jsonb_agg(jsonb_build_object('currency', t.currency, 'billed', t.billed::text, 'paid', t.paid::text,
             'outstanding', t.outstanding::text, 'overdue', t.overdue::text, 'charged', t.charged::text) ORDER BY t.currency), '[]'::jsonb)
          FROM (SELECT f.currency, sum(f.billed) AS billed, sum(f.paid) AS paid, sum(f.outstanding) AS outstanding,
                  sum(f.overdue) AS overdue, sum(f.charged) AS charged
                FROM f JOIN a ON a.id = f.id GROUP BY f.currency) t) AS totals`,
      totalParams.values,
    ),
  ]);
  return { items: rows.map((r) => toAccount(r, side)), total: Number(summary?.total ?? 0), totals: figuresOf(summary?.totals ?? []) };
}

/** One account of a side, or null (another side's partner is not found here). */
export async function findAccount(database: Database, side: BillingSide, id: number, today: string): Promise<BillingAccount | null> {
  const params = new Params();
  const cte = accountsCte({ side, today, id }, params);
  const [row] = await query<SqlRow>(database, `WITH ${cte} SELECT a.* FROM a`, params.values);
  return row ? toAccount(row, side) : null;
}

/** The account's statement lines (the rows that count), newest month first, and whether there are more. */
export async function accountLines(database: Database, side: BillingSide, id: number, today: string): Promise<{ lines: AccountLine[]; truncated: boolean }> {
  const rows = await query<SqlRow>(
    database,
    `SELECT b.id, b.month, b.product, b.state, b.currency, b.revenue_gross::text AS revenue_gross, b.paid_revenue::text AS paid_revenue,
       b.received_payment_date::text AS received_payment_date, b.charged, b.payment_terms, b.document_id
     FROM billing_rows b
     WHERE b.side = $1 AND b.kind = 'advertiser' AND b.counterparty_type = 'demand_partner' AND b.counterparty_id = $2
       AND b.state IN (${STATES_SQL})
     ORDER BY b.month DESC, b.product, b.id
     LIMIT $3`,
    [side, id, ACCOUNT_MAX_LINES + 1],
  );
  const lines = rows.slice(0, ACCOUNT_MAX_LINES).map((r): AccountLine => {
    const row = {
      month: String(r.month),
      currency: String(r.currency),
      revenue_gross: cents(r.revenue_gross),
      paid_revenue: cents(r.paid_revenue),
      received_payment_date: textOrNull(r.received_payment_date),
      charged: r.charged === true,
      payment_terms: String(r.payment_terms),
    };
    const st = rowStatus(row, today);
    return {
      id: Number(r.id),
      month: row.month,
      product: String(r.product),
      state: String(r.state),
      currency: row.currency,
      revenue_gross: row.revenue_gross,
      paid: row.paid_revenue,
      pending: fromMicros(st.pending),
      received_payment_date: row.received_payment_date,
      charged: row.charged,
      badge: st.badge,
      payment_terms: row.payment_terms,
      due_date: st.due_date,
      overdue: st.overdue,
      document_id: textOrNull(r.document_id),
    };
  });
  return { lines, truncated: rows.length > ACCOUNT_MAX_LINES };
}

/** Payments received against any of the account's rows, newest first. */
export async function accountPayments(database: Database, side: BillingSide, id: number): Promise<AccountPayment[]> {
  const rows = await query<SqlRow>(
    database,
    `SELECT p.id, p.row_id, b.month, b.product, b.currency, p.amount::text AS amount, p.paid_on::text AS paid_on,
       p.document_id, p.reference, p.source
     FROM billing_payments p JOIN billing_rows b ON b.id = p.row_id
     WHERE b.side = $1 AND b.kind = 'advertiser' AND b.counterparty_type = 'demand_partner' AND b.counterparty_id = $2
     ORDER BY p.paid_on DESC, p.id DESC
     LIMIT $3`,
    [side, id, ACCOUNT_MAX_PAYMENTS],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    row_id: Number(r.row_id),
    month: String(r.month),
    product: String(r.product),
    currency: String(r.currency),
    amount: cents(r.amount),
    paid_on: String(r.paid_on),
    document_id: textOrNull(r.document_id),
    reference: String(r.reference ?? ''),
    source: String(r.source),
  }));
}

/**
 * The partner's audit entries that changed a billing term (its billing screen's and the partner
 * screen's), newest first, with the billing fields' before and after only.
 */
export async function accountHistory(database: Database, id: number): Promise<AccountHistoryEntry[]> {
  const out: AccountHistoryEntry[] = [];
  for (const entry of await historyOf(database.db, 'demand_partner', id)) {
    // A partner-screen entry holds only the partner resource's fields; keep the billing terms'.
    const changes = Object.fromEntries(Object.entries(entry.changes).filter(([field]) => (BILLING_TERMS_FIELDS as readonly string[]).includes(field)));
    if (Object.keys(changes).length === 0) continue;
    out.push({ id: entry.id, at: entry.at, action: entry.action, actor: entry.actor, simulated_by: entry.simulated_by, ip: entry.ip, changes });
  }
  return out;
}
