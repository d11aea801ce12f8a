/**
 * The finance entries' queries: a team's entries with their counterparty and network names,
 * filtered (period overlap, counterparties, networks, items, e-mail status), sorted and paged by the
 * database, with the filtered totals per currency summed exactly (numeric).
 */
import { parseFinanceSort, type EmailStatus, type FinanceEntry, type FinanceListQuery, type FinanceSort, type FinanceTeam, type FinanceTotal } from '@backoffice/core/finances';
import type { Database } from '../../db/client.ts';
import { query, type QueryFn, type SqlRow } from '../../reports-data/sql.ts';

class Params {
  readonly values: unknown[] = [];
  add(v: unknown, type: string): string {
    this.values.push(v);
    return `$${this.values.length}::${type}`;
  }
}

/** The counterparty's table of a team (a fixed identifier, never input). */
export const counterpartyTable = (team: FinanceTeam) => (team === 'supply' ? 'publishers' : 'demand_partners');

const SORT_SQL: Record<FinanceSort, string> = {
  id: 'e.id',
  period_start: 'e.period_start',
  amount: 'e.amount',
  counterparty: 'lower(cp.name)',
  network: 'lower(n.name)',
  item: 'e.item',
  created_at: 'e.created_at',
};

function fromWhere(team: FinanceTeam, params: Params, f: Partial<Omit<FinanceListQuery, 'sort' | 'page' | 'page_size'>>, id?: number): string {
  const where = [`e.team = ${params.add(team, 'text')}`];
  if (id !== undefined) where.push(`e.id = ${params.add(id, 'int4')}`);
  if (f.from) where.push(`e.period_end >= ${params.add(f.from, 'date')}`);
  if (f.to) where.push(`e.period_start <= ${params.add(f.to, 'date')}`);
  if (f.counterparty_id && f.counterparty_id.length > 0) where.push(`e.counterparty_id = ANY(${params.add(f.counterparty_id, 'int4[]')})`);
  if (f.network_id && f.network_id.length > 0) where.push(`e.network_id = ANY(${params.add(f.network_id, 'int4[]')})`);
  if (f.item && f.item.length > 0) where.push(`e.item = ANY(${params.add(f.item, 'text[]')})`);
  if (f.email_status) where.push(`e.email_status = ${params.add(f.email_status, 'text')}`);
  return `FROM finance_entries e
    LEFT JOIN ${counterpartyTable(team)} cp ON cp.id = e.counterparty_id
    LEFT JOIN demand_partners n ON n.id = e.network_id
    LEFT JOIN users cu ON cu.id = e.created_by
    LEFT JOIN users uu ON uu.id = e.updated_by
    WHERE ${where.join(' AND ')}`;
}

const SELECT = `e.id, e.team, e.counterparty_id, cp.name AS counterparty_name, e.network_id, n.name AS network_name, e.amount::text AS amount, e.currency,
  e.item, e.comment, e.period_start::text AS period_start, e.period_end::text AS period_end, e.send_email, e.email_status, e.email_to,
  e.email_sent_at, e.email_error, e.created_at, e.created_by, cu.name AS created_by_name, e.updated_at, e.updated_by, uu.name AS updated_by_name, e.version`;

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v));
const cents = (v: unknown): string => {
  const text = String(v ?? '0');
  const [int, frac = ''] = text.split('.');
  return `${int}.${frac.padEnd(2, '0').slice(0, 2)}`;
};
const who = (id: unknown, name: unknown) => ({ id: id === null || id === undefined ? null : Number(id), name: name ? String(name) : null });

export function toEntry(r: SqlRow): FinanceEntry {
  return {
    id: Number(r.id),
    team: String(r.team) as FinanceTeam,
    counterparty: { id: Number(r.counterparty_id), name: r.counterparty_name ? String(r.counterparty_name) : `#${String(r.counterparty_id)}` },
    network: { id: Number(r.network_id), name: r.network_name ? String(r.network_name) : `#${String(r.network_id)}` },
    amount: cents(r.amount),
    currency: String(r.currency),
    item: String(r.item),
    comment: String(r.comment ?? ''),
    period_start: String(r.period_start).slice(0, 10),
    period_end: String(r.period_end).slice(0, 10),
    send_email: r.send_email === true,
    email_status: String(r.email_status) as EmailStatus,
    email_to: r.email_to ? String(r.email_to) : null,
    email_sent_at: iso(r.email_sent_at),
    email_error: r.email_error ? String(r.email_error) : null,
    created_at: iso(r.created_at)!,
    created_by: who(r.created_by, r.created_by_name),
    updated_at: iso(r.updated_at)!,
    updated_by: who(r.updated_by, r.updated_by_name),
    version: Number(r.version),
  };
}

export async function listEntries(
  database: Database,
  team: FinanceTeam,
  q: Omit<FinanceListQuery, 'page' | 'page_size'>,
  page: { limit: number; offset: number },
): Promise<{ items: FinanceEntry[]; total: number; totals: FinanceTotal[] }> {
  const { sort, ...filters } = q;
  const s = parseFinanceSort(sort);
  const dir = s.desc ? 'DESC' : 'ASC';
  const p1 = new Params();
  const from1 = fromWhere(team, p1, filters);
  const limit = p1.add(page.limit, 'int8');
  const offset = p1.add(page.offset, 'int8');
  const p2 = new Params();
  const from2 = fromWhere(team, p2, filters);
  const [rows, totals] = await Promise.all([
    query<SqlRow>(database, `SELECT ${SELECT} ${from1} ORDER BY ${SORT_SQL[s.field]} ${dir} NULLS LAST, e.id ${dir} LIMIT ${limit} OFFSET ${offset}`, p1.values),
    query<SqlRow>(database, `SELECT e.currency, sum(e.amount)::text AS amount, count(*)::int AS n ${from2} GROUP BY e.currency ORDER BY e.currency`, p2.values),
  ]);
  return {
    items: rows.map(toEntry),
    total: totals.reduce((n, t) => n + Number(t.n), 0),
    totals: totals.map((t) => ({ currency: String(t.currency), amount: cents(t.amount), count: Number(t.n) })),
  };
}

export async function findEntry(database: Database, team: FinanceTeam, id: number): Promise<FinanceEntry | null> {
  const params = new Params();
  const [row] = await query<SqlRow>(database, `SELECT ${SELECT} ${fromWhere(team, params, {}, id)}`, params.values);
  return row ? toEntry(row) : null;
}

export async function findEntryIn(q: QueryFn, team: FinanceTeam, id: number): Promise<FinanceEntry | null> {
  const params = new Params();
  const [row] = await q<SqlRow>(`SELECT ${SELECT} ${fromWhere(team, params, {}, id)}`, params.values);
  return row ? toEntry(row) : null;
}

/** Where a counterparty's e-mail goes and in which language: its billing e-mail, else its company's. */
export async function counterpartyMail(q: QueryFn, team: FinanceTeam, id: number): Promise<{ name: string; email: string | null; country: string | null } | null> {
  const [row] = await q<SqlRow>(
    `SELECT x.name, coalesce(nullif(btrim(x.billing_email), ''), nullif(btrim(c.billing_email), '')) AS email, c.country
     FROM ${counterpartyTable(team)} x LEFT JOIN companies c ON c.id = x.company_id WHERE x.id = $1::int4`,
    [id],
  );
  return row ? { name: String(row.name), email: row.email ? String(row.email) : null, country: row.country ? String(row.country) : null } : null;
}

/** Whether ids exist: the counterparty (of the team's kind) and the network (a demand partner). */
export async function partiesExist(q: QueryFn, team: FinanceTeam, counterpartyId: number, networkId: number): Promise<{ counterparty: boolean; network: boolean }> {
  const [row] = await q<SqlRow>(
    `SELECT EXISTS (SELECT 1 FROM ${counterpartyTable(team)} WHERE id = $1::int4) AS c, EXISTS (SELECT 1 FROM demand_partners WHERE id = $2::int4) AS n`,
    [counterpartyId, networkId],
  );
  return { counterparty: row?.c === true, network: row?.n === true };
}

/** Choices for the form and the filters: counterparties of the team or networks, by name. */
export async function options(
  database: Database,
  team: FinanceTeam,
  opts: { kind: 'counterparty' | 'network'; search: string; ids: number[]; limit: number },
): Promise<{ id: number; name: string; currency: string; has_email: boolean }[]> {
  const table = opts.kind === 'network' ? 'demand_partners' : counterpartyTable(team);
  const currency = table === 'publishers' ? 'x.currency' : 'x.invoice_currency';
  const like = `%${opts.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await query<SqlRow>(
    database,
    `SELECT x.id, x.name, ${currency} AS currency,
       (coalesce(nullif(btrim(x.billing_email), ''), nullif(btrim(c.billing_email), '')) IS NOT NULL) AS has_email
     FROM ${table} x LEFT JOIN companies c ON c.id = x.company_id
     WHERE (cardinality($3::int4[]) > 0 AND x.id = ANY($3::int4[])) OR (cardinality($3::int4[]) = 0 AND lower(x.name) LIKE $1::text)
     ORDER BY lower(x.name), x.id LIMIT $2::int8`,
    [like, opts.limit, opts.ids],
  );
  return rows.map((r) => ({ id: Number(r.id), name: String(r.name), currency: String(r.currency), has_email: r.has_email === true }));
}
