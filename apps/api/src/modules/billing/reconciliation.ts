/**
 * Reconciliation of a month (issue 21): per counterparty, what the rows bill against what the
 * warehouse (or the performance facts) says now, with the difference taken apart:
 *   billed − warehouse = not_recomputed + network_edits + carried_in − accumulated_out − discarded + rounding
 * where not_recomputed is our figure in the rows against the warehouse's now (data that arrived
 * after a row was confirmed), network_edits the partner-reported figures against ours (rows that
 * bill), carried_in what earlier months accumulated into this one, accumulated_out and discarded
 * our figure of the rows that do not bill this month. The parts are shown in cents and `rounding`
 * takes what rounding left (each row's gross is rounded to the cent), so that they add up to the
 * difference to the cent. Exact: micro-units until then.
 *
 * The performance overview: the month's revenue, cost and margin per product, how many
 * advertisers and publishers, the rows in each state, and last month's totals.
 */
import { BILLING_STATES, fromMicros, marginPct, toMicros, type BillingState } from '@backoffice/core/billing';
import {
  BILLING_SOURCE_CURRENCY,
  nextMonth,
  type BillingKind,
  type BillingSide,
  type PerformanceOverview,
  type ReconciliationAnswer,
  type ReconciliationLine,
} from '@backoffice/core/billing-api';
import type { Database } from '../../db/client.ts';
import { query } from '../../reports-data/sql.ts';
import { computeLines } from './compute.ts';

const m = (v: unknown) => toMicros(String(v ?? '0'));
const f = (v: bigint) => fromMicros(v);

/**
 * The parts in cents, with `rounding` taking what rounding each part left, so that the parts
 * shown add up to the difference shown, to the cent.
 */
function centsAddingUp(difference: bigint, parts: Record<'not_recomputed' | 'network_edits' | 'carried_in' | 'accumulated_out' | 'discarded', bigint>): ReconciliationLine['explained'] {
  const cents = (v: bigint) => toMicros(fromMicros(v));
  const shown = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, cents(v)])) as Record<keyof typeof parts, bigint>;
  const rest = cents(difference) - Object.values(shown).reduce((s, v) => s + v, 0n);
  return {
    not_recomputed: f(shown.not_recomputed),
    network_edits: f(shown.network_edits),
    carried_in: f(shown.carried_in),
    accumulated_out: f(shown.accumulated_out),
    discarded: f(shown.discarded),
    rounding: f(rest),
  };
}

export async function reconcile(database: Database, side: BillingSide, kind: BillingKind, month: string): Promise<ReconciliationAnswer> {
  const [lines, rows] = await Promise.all([
    computeLines(database, side, kind, month),
    query<Record<string, unknown>>(
      database,
      `SELECT b.counterparty_type, b.counterparty_id, b.currency, b.state, b.revenue_ours::text, b.revenue_network::text,
         b.carried_in::text, b.revenue_gross::text, coalesce(dp.name, pb.name, '#' || b.counterparty_id) AS name,
         coalesce(dp.company_id, pb.company_id) AS company_id, c.legal_name AS company_name
       FROM billing_rows b
       LEFT JOIN demand_partners dp ON b.counterparty_type = 'demand_partner' AND dp.id = b.counterparty_id
       LEFT JOIN publishers pb ON b.counterparty_type = 'publisher' AND pb.id = b.counterparty_id
       LEFT JOIN companies c ON c.id = coalesce(dp.company_id, pb.company_id)
       WHERE b.side = $1 AND b.kind = $2 AND b.month = $3`,
      [side, kind, month],
    ),
  ]);
  interface Acc {
    type: 'demand_partner' | 'publisher';
    id: number;
    name: string;
    company_id: number | null;
    company_name: string | null;
    currency: string;
    warehouse: bigint;
    computed: bigint;
    billed: bigint;
    network: bigint;
    carried: bigint;
    accumulated: bigint;
    discarded: bigint;
  }
  const acc = new Map<string, Acc>();
  const currency = BILLING_SOURCE_CURRENCY[side];
  const entry = (type: string, id: number, cur: string) => {
    const key = `${type}|${id}|${cur}`;
    let a = acc.get(key);
    if (!a) {
      a = { type: type as Acc['type'], id, name: `#${id}`, company_id: null, company_name: null, currency: cur, warehouse: 0n, computed: 0n, billed: 0n, network: 0n, carried: 0n, accumulated: 0n, discarded: 0n };
      acc.set(key, a);
    }
    return a;
  };
  const names = new Map<string, string>();
  for (const l of lines) {
    const a = entry(l.counterparty_type, Number(l.counterparty_id), currency);
    a.warehouse += BigInt(l.billed_micros);
    names.set(`${l.counterparty_type}|${l.counterparty_id}`, l.demand_partners);
  }
  for (const r of rows) {
    const a = entry(String(r.counterparty_type), Number(r.counterparty_id), String(r.currency));
    a.name = String(r.name);
    a.company_id = r.company_id === null ? null : Number(r.company_id);
    a.company_name = (r.company_name as string | null) ?? null;
    const ours = m(r.revenue_ours);
    const eff = r.revenue_network === null ? ours : m(r.revenue_network);
    a.computed += ours;
    if (r.state === 'discarded') a.discarded += ours;
    else if (r.state === 'accumulated') a.accumulated += ours;
    else {
      a.billed += m(r.revenue_gross);
      a.network += eff - ours;
      a.carried += m(r.carried_in);
    }
  }
  const out: ReconciliationLine[] = [...acc.values()]
    .map((a) => {
      const notRecomputed = a.computed - a.warehouse;
      return {
        counterparty: { type: a.type, id: a.id, name: a.name, company_id: a.company_id, company_name: a.company_name },
        currency: a.currency,
        warehouse: f(a.warehouse),
        computed: f(a.computed),
        billed: f(a.billed),
        difference: f(a.billed - a.warehouse),
        explained: centsAddingUp(a.billed - a.warehouse, {
          not_recomputed: notRecomputed,
          network_edits: a.network,
          carried_in: a.carried,
          accumulated_out: -a.accumulated,
          discarded: -a.discarded,
        }),
      };
    })
    .sort((x, y) => (m(y.warehouse) > m(x.warehouse) ? 1 : m(y.warehouse) < m(x.warehouse) ? -1 : x.counterparty.name.localeCompare(y.counterparty.name)));
  const totals = new Map<string, { warehouse: bigint; billed: bigint }>();
  for (const a of acc.values()) {
    const t = totals.get(a.currency) ?? { warehouse: 0n, billed: 0n };
    t.warehouse += a.warehouse;
    t.billed += a.billed;
    totals.set(a.currency, t);
  }
  return {
    month,
    kind,
    lines: out,
    totals: [...totals].map(([cur, t]) => ({ currency: cur, warehouse: f(t.warehouse), billed: f(t.billed), difference: f(t.billed - t.warehouse) })),
  };
}

export async function performanceOverview(database: Database, month: string): Promise<PerformanceOverview> {
  const prev = nextMonth(month, -1);
  const [products, previous, states] = await Promise.all([
    query<{ product: string; revenue: string; cost: string; advertisers: number; publishers: number }>(
      database,
      `SELECT product, sum(revenue_micros)::text AS revenue, sum(cost_micros)::text AS cost,
         count(DISTINCT advertiser_id)::int AS advertisers, count(DISTINCT publisher_id)::int AS publishers
       FROM performance_daily WHERE day >= $1::date AND day < $2::date GROUP BY product ORDER BY product`,
      [`${month}-01`, `${nextMonth(month)}-01`],
    ),
    query<{ revenue: string | null; cost: string | null }>(
      database,
      `SELECT sum(revenue_micros)::text AS revenue, sum(cost_micros)::text AS cost FROM performance_daily WHERE day >= $1::date AND day < $2::date`,
      [`${prev}-01`, `${month}-01`],
    ),
    query<{ kind: string; state: string; n: number }>(
      database,
      `SELECT kind, state, count(*)::int AS n FROM billing_rows WHERE side = 'performance' AND month = $1 GROUP BY kind, state`,
      [month],
    ),
  ]);
  const money = (micros: bigint) => fromMicros(micros);
  let rev = 0n;
  let cost = 0n;
  const list = products.map((p) => {
    const r = BigInt(p.revenue);
    const c = BigInt(p.cost);
    rev += r;
    cost += c;
    return {
      product: p.product,
      revenue: money(r),
      cost: money(c),
      margin: money(r - c),
      margin_pct: marginPct(money(r), money(c)),
      advertisers: Number(p.advertisers),
      publishers: Number(p.publishers),
    };
  });
  const empty = () => Object.fromEntries(BILLING_STATES.map((s) => [s, 0])) as Record<BillingState, number>;
  const byKind: Record<BillingKind, Record<BillingState, number>> = { advertiser: empty(), supply: empty() };
  for (const s of states) byKind[s.kind as BillingKind][s.state as BillingState] = Number(s.n);
  const p0 = previous[0];
  return {
    month,
    currency: BILLING_SOURCE_CURRENCY.performance,
    products: list,
    totals: { revenue: money(rev), cost: money(cost), margin: money(rev - cost), margin_pct: marginPct(money(rev), money(cost)) },
    states: byKind,
    previous:
      p0 && p0.revenue !== null
        ? { revenue: money(BigInt(p0.revenue)), cost: money(BigInt(p0.cost ?? '0')), margin: money(BigInt(p0.revenue) - BigInt(p0.cost ?? '0')) }
        : null,
  };
}
