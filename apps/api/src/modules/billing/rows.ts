/**
 * Reading billing rows: a month's list (filters, sort, page, totals per currency and in EUR, the
 * month's state counts) and one row. The payment badge, the margin, the due date and the actions a
 * row allows are core's rules (packages/core/src/billing.ts) applied to each row read; the list's
 * badge filter and margin sort use the same rules written in SQL (`BADGE_SQL`, `MARGIN_SQL`), which
 * the integration tests hold to core's.
 */
import {
  BILLING_STATES,
  availableActions,
  fromMicros,
  isLowMargin,
  marginPct,
  paymentBadge,
  pendingAmount,
  toEur,
  toMicros,
  type BillingAction,
  type BillingState,
} from '@backoffice/core/billing';
import {
  PAYMENT_TERM_DAYS,
  nextMonth,
  type BillingKind,
  type BillingListAnswer,
  type BillingListQuery,
  type BillingRowDto,
  type BillingSide,
  type BillingTotals,
} from '@backoffice/core/billing-api';
import { can, type Acl } from '@backoffice/core/acl';
import { billingResource } from '@backoffice/core/billing-api';
import type { Database } from '../../db/client.ts';
import { datasetState } from '../../reports-data/index.ts';
import { query, type QueryFn } from '../../reports-data/sql.ts';

export type RawRow = Record<string, unknown>;

/** Effective figure of the month (the network's when set). */
const EFF = 'coalesce(b.revenue_network, b.revenue_ours)';
/** spec 4, in its order; mirrors core paymentBadge. */
export const BADGE_SQL = `CASE WHEN b.received_payment_date IS NOT NULL OR b.paid_revenue >= b.revenue_gross THEN 'full_paid'
  WHEN b.charged THEN 'charged' WHEN b.paid_revenue <= 0 THEN 'no_paid' ELSE 'some_paid' END`;
/** The margin in percent (advertiser rows: billed against cost; supply rows: revenue against what we owe). */
export const MARGIN_SQL = `CASE WHEN b.kind = 'advertiser' THEN CASE WHEN ${EFF} > 0 THEN (${EFF} - b.other_side) * 100 / ${EFF} END
  ELSE CASE WHEN b.other_side > 0 THEN (b.other_side - ${EFF}) * 100 / b.other_side END END`;
/** What is still to be paid: nothing once the row is settled (a received payment date). */
export const PENDING_SQL = 'CASE WHEN b.received_payment_date IS NOT NULL THEN 0 ELSE greatest(b.revenue_gross - b.paid_revenue, 0) END';

/** The columns every read takes (b: billing_rows). */
export const ROW_SELECT = `b.id, b.side, b.kind, b.month, b.counterparty_type, b.counterparty_id, b.product, b.currency,
  b.revenue_ours::text, b.other_side::text, b.revenue_network::text, b.revenue_source, b.carried_in::text, b.carried_from,
  b.revenue_gross::text, b.paid_revenue::text, b.received_payment_date::text, b.document_id, b.charged,
  b.min_amount::text, b.payment_terms, b.demand_partners, b.description, b.state, b.accumulated_into, b.netting_id,
  b.version, b.computed_at, b.confirmed_at, b.approved_at,
  coalesce(dp.name, pb.name, '#' || b.counterparty_id) AS cp_name, coalesce(dp.company_id, pb.company_id) AS company_id,
  c.legal_name AS company_name, cu.name AS confirmed_by_name, au.name AS approved_by_name`;
export const ROW_FROM = `billing_rows b
  LEFT JOIN demand_partners dp ON b.counterparty_type = 'demand_partner' AND dp.id = b.counterparty_id
  LEFT JOIN publishers pb ON b.counterparty_type = 'publisher' AND pb.id = b.counterparty_id
  LEFT JOIN companies c ON c.id = coalesce(dp.company_id, pb.company_id)
  LEFT JOIN users cu ON cu.id = b.confirmed_by
  LEFT JOIN users au ON au.id = b.approved_by`;

const SORT_SQL: Record<string, string> = {
  counterparty: 'lower(coalesce(dp.name, pb.name))',
  product: 'b.product',
  revenue_ours: 'b.revenue_ours',
  revenue_gross: 'b.revenue_gross',
  paid_revenue: 'b.paid_revenue',
  pending: PENDING_SQL,
  margin_pct: MARGIN_SQL,
  state: `array_position(ARRAY[${BILLING_STATES.map((s) => `'${s}'`).join(',')}]::text[], b.state)`,
  min_amount: 'b.min_amount',
};

/** The last day of a month plus the payment terms' days (YYYY-MM-DD). */
export function dueDate(month: string, terms: string): string {
  const lastDay = Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0);
  return new Date(lastDay + (PAYMENT_TERM_DAYS[terms] ?? 45) * 86_400_000).toISOString().slice(0, 10);
}

export function isBelowMinimum(r: { revenue_gross: string; min_amount: string }): boolean {
  return toMicros(r.min_amount) > 0n && toMicros(r.revenue_gross) < toMicros(r.min_amount);
}

/** The month's billed figure and the other side as core's margin functions take them. */
function marginFigures(r: RawRow): { revenue: string; cost: string } {
  const eff = String(r.revenue_network ?? r.revenue_ours);
  return r.kind === 'advertiser' ? { revenue: eff, cost: String(r.other_side) } : { revenue: String(r.other_side), cost: eff };
}
export function rowIsLowMargin(r: RawRow): boolean {
  const { revenue, cost } = marginFigures(r);
  return isLowMargin(revenue, cost);
}

/** What the caller may do to a row (state, minimum, netting and ACL). */
export function rowActions(r: RawRow, acl: Acl | null): BillingAction[] {
  const resource = billingResource(r.side as BillingSide);
  const canWrite = can(acl, resource, 'write');
  const canApprove = can(acl, resource, 'approve');
  return availableActions(r.state as BillingState, { belowMinimum: isBelowMinimum(r as never) }).filter((a) => {
    if (a === 'approve') return canApprove;
    if ((a === 'discard' || a === 'accumulate') && r.netting_id !== null) return false;
    return canWrite;
  });
}

const iso = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
/** Micro-precision numeric text without trailing zeros beyond 2 decimals. */
const amount6 = (v: unknown) => fromMicros(toMicros(String(v)), 6).replace(/(\.\d\d\d*?)0+$/, '$1');

export function toDto(r: RawRow, acl: Acl | null, today: string): BillingRowDto {
  const gross = String(r.revenue_gross);
  const paid = String(r.paid_revenue);
  const pending = r.received_payment_date ? '0.00' : pendingAmount(gross, paid);
  const { revenue, cost } = marginFigures(r);
  const due = dueDate(String(r.month), String(r.payment_terms));
  const badge = paymentBadge({ gross, paid, receivedPaymentDate: (r.received_payment_date as string | null) ?? null, charged: Boolean(r.charged) });
  const billedState = r.state === 'approved' || r.state === 'invoiced';
  return {
    id: Number(r.id),
    side: r.side as BillingSide,
    kind: r.kind as BillingKind,
    month: String(r.month),
    counterparty: {
      type: r.counterparty_type as 'demand_partner' | 'publisher',
      id: Number(r.counterparty_id),
      name: String(r.cp_name),
      company_id: r.company_id === null ? null : Number(r.company_id),
      company_name: (r.company_name as string | null) ?? null,
    },
    product: String(r.product),
    currency: String(r.currency),
    revenue_ours: amount6(r.revenue_ours),
    other_side: amount6(r.other_side),
    revenue_network: r.revenue_network === null ? null : amount6(r.revenue_network),
    revenue_source: r.revenue_source === 'manual' ? 'manual' : 'warehouse',
    carried_in: amount6(r.carried_in),
    carried_from: (r.carried_from as BillingRowDto['carried_from']) ?? [],
    revenue_gross: gross,
    paid_revenue: paid,
    pending,
    received_payment_date: (r.received_payment_date as string | null) ?? null,
    document_id: (r.document_id as string | null) ?? null,
    charged: Boolean(r.charged),
    badge,
    min_amount: String(r.min_amount),
    below_minimum: isBelowMinimum({ revenue_gross: gross, min_amount: String(r.min_amount) }),
    payment_terms: String(r.payment_terms),
    due_date: due,
    overdue: billedState && badge !== 'full_paid' && badge !== 'charged' && due < today,
    demand_partners: String(r.demand_partners ?? ''),
    description: String(r.description ?? ''),
    state: r.state as BillingState,
    margin_pct: marginPct(revenue, cost),
    low_margin: isLowMargin(revenue, cost),
    accumulated_into: r.accumulated_into === null ? null : Number(r.accumulated_into),
    netting_id: r.netting_id === null ? null : Number(r.netting_id),
    version: Number(r.version),
    computed_at: iso(r.computed_at)!,
    confirmed_at: iso(r.confirmed_at),
    confirmed_by: (r.confirmed_by_name as string | null) ?? null,
    approved_at: iso(r.approved_at),
    approved_by: (r.approved_by_name as string | null) ?? null,
    actions: rowActions(r, acl),
  };
}

const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** WHERE of a list query (b, dp, pb, c in scope), with its parameters from $4 on ($1-$3: side, kind, month). */
export function listWhere(q: Omit<BillingListQuery, 'page' | 'page_size' | 'sort' | 'format'>): { sql: string; params: unknown[] } {
  const parts = ['b.side = $1', 'b.kind = $2', 'b.month = $3'];
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length + 3}`;
  };
  if (q.counterparty.length > 0) parts.push(`b.counterparty_id = ANY(${p(q.counterparty)}::int4[])`);
  if (q.search) {
    const like = p(containsPattern(q.search));
    parts.push(`(coalesce(dp.name, pb.name) ILIKE ${like} OR c.legal_name ILIKE ${like} OR b.document_id ILIKE ${like})`);
  }
  if (q.state.length > 0) parts.push(`b.state = ANY(${p(q.state)}::text[])`);
  if (q.badge.length > 0) parts.push(`(${BADGE_SQL}) = ANY(${p(q.badge)}::text[])`);
  if (q.currency) parts.push(`b.currency = ${p(q.currency)}`);
  if (q.product) parts.push(`b.product = ${p(q.product)}`);
  return { sql: parts.join(' AND '), params };
}

export function orderBy(sort: string): string {
  const desc = sort.startsWith('-');
  const field = sort.replace(/^-/, '');
  const expr = SORT_SQL[field] ?? SORT_SQL.revenue_gross!;
  return `${expr} ${desc ? 'DESC' : 'ASC'} NULLS LAST, b.id ASC`;
}

export function todayUtc(now = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** The month's rates (currency → units for 1 EUR). */
export async function monthRates(database: Database | QueryFn, month: string): Promise<Map<string, string>> {
  const sqlText = 'SELECT currency, rate::text AS rate FROM billing_rates WHERE month = $1';
  const rows =
    typeof database === 'function'
      ? await database<{ currency: string; rate: string }>(sqlText, [month])
      : await query<{ currency: string; rate: string }>(database, sqlText, [month]);
  return new Map(rows.map((r) => [r.currency, r.rate]));
}

export async function listRows(
  database: Database,
  side: BillingSide,
  q: BillingListQuery,
  acl: Acl | null,
  now = Date.now(),
): Promise<BillingListAnswer> {
  const where = listWhere(q);
  const base = [side, q.kind, q.month, ...where.params];
  const offset = (q.page - 1) * q.page_size;
  const [rows, totals, states, meta, rates] = await Promise.all([
    query<RawRow>(
      database,
      `SELECT ${ROW_SELECT} FROM ${ROW_FROM} WHERE ${where.sql} ORDER BY ${orderBy(q.sort)} LIMIT ${q.page_size} OFFSET ${offset}`,
      base,
    ),
    query<{ currency: string; rows: number; revenue_ours: string; revenue_gross: string; paid_revenue: string; pending: string }>(
      database,
      `SELECT b.currency, count(*)::int AS rows, sum(round(b.revenue_ours, 2))::text AS revenue_ours, sum(b.revenue_gross)::text AS revenue_gross,
         sum(b.paid_revenue)::text AS paid_revenue, sum(${PENDING_SQL})::text AS pending
       FROM ${ROW_FROM} WHERE ${where.sql} GROUP BY b.currency ORDER BY b.currency`,
      base,
    ),
    query<{ state: string; n: number }>(
      database,
      'SELECT state, count(*)::int AS n FROM billing_rows WHERE side = $1 AND kind = $2 AND month = $3 GROUP BY state',
      [side, q.kind, q.month],
    ),
    query<{ computed_at: Date | string | null }>(
      database,
      'SELECT max(computed_at) AS computed_at FROM billing_rows WHERE side = $1 AND kind = $2 AND month = $3',
      [side, q.kind, q.month],
    ),
    monthRates(database, q.month),
  ]);
  const dataEnd = await dataEndOf(database, side);
  const total = totals.reduce((s, t) => s + Number(t.rows), 0);
  const today = todayUtc(now);
  return {
    rows: rows.map((r) => toDto(r, acl, today)),
    total,
    page: q.page,
    page_size: q.page_size,
    totals: totalsOf(totals, states, rates),
    computed_at: iso(meta[0]?.computed_at ?? null),
    data_end: dataEnd,
  };
}

/** The end of the figures the rows are computed from: the warehouse's last hour, the performance facts' last day. */
async function dataEndOf(database: Database, side: BillingSide): Promise<string | null> {
  if (side === 'ssp') {
    const range = (await datasetState(database)) as { endMs: number } | null;
    return range ? new Date(range.endMs).toISOString() : null;
  }
  const [row] = await query<{ end: string | null }>(database, `SELECT (max(day) + 1)::text AS end FROM performance_daily`);
  return row?.end ? `${row.end}T00:00:00.000Z` : null;
}

export function totalsOf(
  byCurrency: { currency: string; rows: number; revenue_ours: string; revenue_gross: string; paid_revenue: string; pending: string }[],
  states: { state: string; n: number }[],
  rates: Map<string, string>,
): BillingTotals {
  const norm = (v: string | null) => fromMicros(toMicros(v ?? '0'));
  const missing = byCurrency.filter((t) => t.currency !== 'EUR' && !rates.has(t.currency)).map((t) => t.currency);
  let eur: BillingTotals['eur'] = null;
  if (missing.length === 0) {
    const sum = (key: 'revenue_gross' | 'paid_revenue' | 'pending') =>
      fromMicros(byCurrency.reduce((s, t) => s + toMicros(toEur(norm(t[key]), t.currency, rates.get(t.currency) ?? null)!), 0n));
    eur = { revenue_gross: sum('revenue_gross'), paid_revenue: sum('paid_revenue'), pending: sum('pending') };
  }
  const stateCounts = Object.fromEntries(BILLING_STATES.map((s) => [s, 0])) as Record<BillingState, number>;
  for (const s of states) stateCounts[s.state as BillingState] = Number(s.n);
  return {
    by_currency: byCurrency.map((t) => ({
      currency: t.currency,
      rows: Number(t.rows),
      revenue_ours: norm(t.revenue_ours),
      revenue_gross: norm(t.revenue_gross),
      paid_revenue: norm(t.paid_revenue),
      pending: norm(t.pending),
      rate: t.currency === 'EUR' ? '1' : (rates.get(t.currency) ?? null),
    })),
    eur,
    missing_rates: missing,
    states: stateCounts,
  };
}

/** One row by id within a side (null when there is none). */
export async function readRow(db: Database | QueryFn, side: BillingSide, id: number, lock = false): Promise<RawRow | null> {
  const text = `SELECT ${ROW_SELECT} FROM ${ROW_FROM} WHERE b.id = $1 AND b.side = $2${lock ? ' FOR UPDATE OF b' : ''}`;
  const rows = typeof db === 'function' ? await db<RawRow>(text, [id, side]) : await query<RawRow>(db, text, [id, side]);
  return rows[0] ?? null;
}

export { nextMonth };
