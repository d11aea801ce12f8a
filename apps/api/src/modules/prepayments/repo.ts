/**
 * The prepayments' queries (docs/decisions/029-prepayments-finances.md): the prepaid advertisers
 * with their balance (the exact numeric sum of their entries), threshold and last top-up, filtered,
 * sorted and paged by the database; an advertiser's ledger with its running balance (a window sum
 * over the whole ledger, in ledger order: day, then id), paged after the window so every page shows
 * the true balance after each entry.
 *
 * An advertiser has a ledger when it is a demand partner of the performance side that is prepaid
 * (billing_mode 'prepayment') or already has an account or entries (one moved back to credit keeps
 * its history).
 */
import {
  parsePrepaymentSort,
  type EntryKind,
  type LedgerEntry,
  type PrepaymentAccount,
  type PrepaymentListQuery,
  type PrepaymentSort,
} from '@backoffice/core/prepayments';
import type { Database } from '../../db/client.ts';
import { query, type QueryFn, type SqlRow } from '../../reports-data/sql.ts';

class Params {
  readonly values: unknown[] = [];
  add(v: unknown, type: string): string {
    this.values.push(v);
    return `$${this.values.length}::${type}`;
  }
}

const SORT_SQL: Record<PrepaymentSort, string> = {
  name: 'lower(a.name)',
  balance: 'a.balance',
  threshold: 'a.threshold',
  last_top_up: 'a.last_top_up_date',
};

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Who may have a ledger (SQL over demand_partners p and prepayment_accounts acc). */
export const HAS_LEDGER = `p.side = 'performance' AND (p.billing_mode = 'prepayment' OR acc.advertiser_id IS NOT NULL
  OR EXISTS (SELECT 1 FROM prepayment_entries x WHERE x.advertiser_id = p.id))`;

/** The accounts' CTE `a`: every advertiser with a ledger, or one. */
function accountsCte(params: Params, opts: { id?: number }): string {
  const where = [HAS_LEDGER];
  if (opts.id !== undefined) where.push(`p.id = ${params.add(opts.id, 'int4')}`);
  return `a AS (
    SELECT p.id, p.name, p.status, p.billing_mode, c.legal_name AS company,
      coalesce(acc.currency, 'EUR') AS currency,
      coalesce(acc.low_balance_threshold, 0) AS threshold,
      acc.spend_posted_through::text AS spend_posted_through,
      coalesce(acc.version, 0) AS version, acc.updated_at, acc.updated_by AS updated_by_id, u.name AS updated_by_name,
      coalesce(b.balance, 0) AS balance, coalesce(b.entries, 0) AS entries,
      t.entry_date AS last_top_up_date, t.amount AS last_top_up_amount
    FROM demand_partners p
      LEFT JOIN companies c ON c.id = p.company_id
      LEFT JOIN prepayment_accounts acc ON acc.advertiser_id = p.id
      LEFT JOIN users u ON u.id = acc.updated_by
      LEFT JOIN (SELECT advertiser_id, sum(amount) AS balance, count(*)::int AS entries FROM prepayment_entries GROUP BY advertiser_id) b
        ON b.advertiser_id = p.id
      LEFT JOIN LATERAL (
        SELECT e.entry_date, e.amount FROM prepayment_entries e
        WHERE e.advertiser_id = p.id AND e.kind = 'top_up' AND NOT EXISTS (SELECT 1 FROM prepayment_entries r WHERE r.reverses_id = e.id)
        ORDER BY e.entry_date DESC, e.id DESC LIMIT 1
      ) t ON true
    WHERE ${where.join(' AND ')}
  )`;
}

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v));
const day = (v: unknown): string | null => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));
/** numeric(18,2) as text with 2 decimals (a sum comes with the scale of its inputs). */
const cents = (v: unknown): string => {
  const text = String(v ?? '0');
  const [int, frac = ''] = text.split('.');
  return `${int}.${frac.padEnd(2, '0').slice(0, 2)}`;
};

function toAccount(r: SqlRow): PrepaymentAccount {
  const balance = cents(r.balance);
  const threshold = cents(r.threshold);
  return {
    id: Number(r.id),
    name: String(r.name),
    status: String(r.status),
    company: r.company === null || r.company === undefined ? null : String(r.company),
    billing_mode: String(r.billing_mode),
    currency: String(r.currency),
    balance,
    threshold,
    low: r.low === true || r.low === 't',
    last_top_up: r.last_top_up_date ? { date: day(r.last_top_up_date)!, amount: cents(r.last_top_up_amount) } : null,
    spend_posted_through: day(r.spend_posted_through),
    entries: Number(r.entries),
    version: Number(r.version),
    updated_at: iso(r.updated_at),
    updated_by: { id: r.updated_by_id === null || r.updated_by_id === undefined ? null : Number(r.updated_by_id), name: r.updated_by_name ? String(r.updated_by_name) : null },
  };
}

const SELECT_ACCOUNT = `a.*, (a.balance < a.threshold) AS low, a.balance::text AS balance, a.threshold::text AS threshold, a.last_top_up_amount::text AS last_top_up_amount`;

/** The list's filters over `a`, as the CTE `f`. */
function filteredCte(params: Params, q: Omit<PrepaymentListQuery, 'page' | 'page_size'>): string {
  const where: string[] = [];
  if (q.search) {
    const like = params.add(likePattern(q.search), 'text');
    where.push(`(lower(a.name) LIKE ${like} OR lower(coalesce(a.company, '')) LIKE ${like})`);
  }
  if (q.under === 'true') where.push('a.balance < a.threshold');
  if (q.under === 'false') where.push('a.balance >= a.threshold');
  return `f AS (SELECT * FROM a${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''})`;
}

/** A page of advertisers (or all of them, for the export), the filtered count and balance, and how many are low (whatever the filters). */
export async function listAccounts(
  database: Database,
  q: Omit<PrepaymentListQuery, 'page' | 'page_size'>,
  page: { limit: number; offset: number },
): Promise<{ items: PrepaymentAccount[]; total: number; low_count: number; total_balance: string }> {
  const s = parsePrepaymentSort(q.sort);
  const dir = s.desc ? 'DESC' : 'ASC';
  const params = new Params();
  const cte = `${accountsCte(params, {})}, ${filteredCte(params, q)}`;
  const limit = params.add(page.limit, 'int8');
  const offset = params.add(page.offset, 'int8');
  const sumParams = new Params();
  const sumCte = `${accountsCte(sumParams, {})}, ${filteredCte(sumParams, q)}`;
  const [rows, [summary]] = await Promise.all([
    query<SqlRow>(
      database,
      `WITH ${cte} SELECT ${SELECT_ACCOUNT.replace(/\ba\./g, 'f.')} FROM f
       ORDER BY ${SORT_SQL[s.field].replace(/\ba\./g, 'f.')} ${dir} NULLS LAST, lower(f.name), f.id LIMIT ${limit} OFFSET ${offset}`,
      params.values,
    ),
    query<SqlRow>(
      database,
      `WITH ${sumCte} SELECT (SELECT count(*)::int FROM a WHERE a.balance < a.threshold) AS low_count,
         (SELECT count(*)::int FROM f) AS total, (SELECT coalesce(sum(f.balance), 0)::text FROM f) AS balance`,
      sumParams.values,
    ),
  ]);
  return {
    items: rows.map(toAccount),
    total: Number(summary?.total ?? 0),
    low_count: Number(summary?.low_count ?? 0),
    total_balance: cents(summary?.balance),
  };
}

/** One advertiser with a ledger, or null. */
export async function findAccount(database: Database, id: number): Promise<PrepaymentAccount | null> {
  const params = new Params();
  const [row] = await query<SqlRow>(database, `WITH ${accountsCte(params, { id })} SELECT ${SELECT_ACCOUNT} FROM a`, params.values);
  return row ? toAccount(row) : null;
}

/** The same, inside a transaction. */
export async function findAccountIn(q: QueryFn, id: number): Promise<PrepaymentAccount | null> {
  const params = new Params();
  const [row] = await q<SqlRow>(`WITH ${accountsCte(params, { id })} SELECT ${SELECT_ACCOUNT} FROM a`, params.values);
  return row ? toAccount(row) : null;
}

const LEDGER_CTE = `l AS (
    SELECT e.id, e.entry_date, e.kind, e.amount, e.currency, e.reference, e.comment, e.reverses_id, e.source, e.created_at, e.created_by,
      sum(e.amount) OVER (ORDER BY e.entry_date, e.id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running_balance
    FROM prepayment_entries e WHERE e.advertiser_id = $1::int4
  )`;

function toEntry(r: SqlRow): LedgerEntry {
  return {
    id: Number(r.id),
    entry_date: day(r.entry_date)!,
    kind: String(r.kind) as EntryKind,
    amount: cents(r.amount),
    currency: String(r.currency),
    running_balance: cents(r.running_balance),
    reference: String(r.reference ?? ''),
    comment: String(r.comment ?? ''),
    reverses_id: r.reverses_id === null || r.reverses_id === undefined ? null : Number(r.reverses_id),
    reversed_by: r.reversed_by === null || r.reversed_by === undefined ? null : Number(r.reversed_by),
    source: String(r.source),
    created_at: iso(r.created_at)!,
    created_by: { id: r.created_by === null || r.created_by === undefined ? null : Number(r.created_by), name: r.created_by_name ? String(r.created_by_name) : null },
  };
}

const LEDGER_SELECT = `l.id, l.entry_date::text AS entry_date, l.kind, l.amount::text AS amount, l.currency, l.reference, l.comment, l.reverses_id,
  l.source, l.created_at, l.created_by, u.name AS created_by_name, l.running_balance::text AS running_balance,
  (SELECT r.id FROM prepayment_entries r WHERE r.reverses_id = l.id) AS reversed_by`;

/** A page of an advertiser's ledger, newest first, each entry with the balance after it. */
export async function ledgerPage(
  database: Database,
  id: number,
  opts: { kind?: EntryKind; limit: number; offset: number },
): Promise<{ items: LedgerEntry[]; total: number; balance: string }> {
  const kind = opts.kind ?? null;
  const [rows, [summary]] = await Promise.all([
    query<SqlRow>(
      database,
      `WITH ${LEDGER_CTE}
       SELECT ${LEDGER_SELECT} FROM l LEFT JOIN users u ON u.id = l.created_by
       WHERE ($2::text IS NULL OR l.kind = $2::text)
       ORDER BY l.entry_date DESC, l.id DESC LIMIT $3::int8 OFFSET $4::int8`,
      [id, kind, opts.limit, opts.offset],
    ),
    query<SqlRow>(
      database,
      `SELECT count(*) FILTER (WHERE $2::text IS NULL OR kind = $2::text)::int AS total, coalesce(sum(amount), 0)::text AS balance
       FROM prepayment_entries WHERE advertiser_id = $1::int4`,
      [id, kind],
    ),
  ]);
  return { items: rows.map(toEntry), total: Number(summary?.total ?? 0), balance: cents(summary?.balance) };
}

/** One entry of an advertiser's ledger (with its running balance), or null. */
export async function findEntry(q: QueryFn, advertiserId: number, entryId: number): Promise<LedgerEntry | null> {
  const [row] = await q<SqlRow>(
    `WITH ${LEDGER_CTE} SELECT ${LEDGER_SELECT} FROM l LEFT JOIN users u ON u.id = l.created_by WHERE l.id = $2::int8`,
    [advertiserId, entryId],
  );
  return row ? toEntry(row) : null;
}
