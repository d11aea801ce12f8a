/**
 * Finance reports (issue 23, docs/decisions/030-finance-reports.md): one statement reads, per
 * month of the range (and the month before it, for the deltas), the warehouse's rollups through the
 * blocks billing reads (compute.ts `monthSources`: each UTC calendar month's block of the
 * partner x format and publisher x format rollups) and the month's SSP advertiser billing rows with
 * their invoices:
 *
 *   cell (month x network x format): our revenue and cost (stats_r_partner_format, filtered to the
 *     product line), and the billing row of that network and format (its product): the
 *     discrepancy-adjusted revenue, revenue_gross less what earlier months carried into it (the
 *     row's coalesce(revenue_network, revenue_ours) to the cent, as billing bills it), what issued invoices
 *     bill of it (the row's revenue_gross x the invoice's base / revenue, less what credit notes
 *     took: x (total - credited) / total) and what was collected (the row's paid_revenue, which
 *     follows both its own payments and its invoice's). Without a billing row the adjusted revenue
 *     is ours. A product line is part of a row: it takes the row's figures in proportion to its
 *     share of the row's revenue_ours.
 *   rows: the cells summed per network or per product; per publisher, stats_r_publisher_format's revenue
 *     and cost with the billing figures spread by revenue over the month's format cells (billing
 *     rows are per network and format, not per publisher).
 *
 * Numeric all the way (micro-units as int8, billing amounts as numeric), rounded to micro-units
 * once per row; deltas, totals, the sort and the page are computed from those integers with BigInt.
 */
import {
  FINANCE_REPORTS_CURRENCY,
  PRODUCT_LINE_FILTERS,
  addFinanceSums,
  emptyFinanceSums,
  financeValues,
  monthsBetween,
  parseFinanceSort,
  previousMonth,
  type FinanceAnswer,
  type FinanceEntity,
  type FinanceMonthTotals,
  type FinanceQuery,
  type FinanceRow,
  type FinanceSums,
} from '@backoffice/core/finance-reports';
import { FORMATS } from '@backoffice/core/reports';
import type { Database } from '../../db/client.ts';
import { query, transaction } from '../../reports-data/sql.ts';
import { monthSources, type MonthSources } from '../billing/compute.ts';

const FORMAT_NAMES = `ARRAY[${FORMATS.map((f) => `'${f}'`).join(',')}]::text[]`;
const MONTH_RE = /^\d{4}-\d{2}$/;

type Cover = NonNullable<MonthSources['partners']>;

/** A cover's rows of one month, tagged with the month (validated YYYY-MM, inlined). */
function monthSelect(month: string, cover: Cover, columns: string, where: string): string {
  if (!MONTH_RE.test(month)) throw new Error(`not a month: ${month}`);
  const iso = (ms: number) => `'${new Date(ms).toISOString()}'::timestamptz`;
  return cover.segments
    .map(
      (s) => `SELECT '${month}'::text AS month, ${columns} FROM ${cover.table}
              WHERE lvl = ${s.lvl} AND ts >= ${iso(s.fromMs)} AND ts < ${iso(s.toMs)}${where}`,
    )
    .join('\n UNION ALL ');
}

/** The product line's conditions on a rollup's columns (ids from core, inlined as integers). */
function productWhere(product: FinanceQuery['product']): string {
  const f = PRODUCT_LINE_FILTERS[product];
  const ints = (v: readonly number[]) => v.map((x) => String(Math.trunc(x))).join(',');
  return [
    ...(f.format ? [` AND format_id IN (${ints(f.format)})`] : []),
    ...(f.environment ? [` AND environment_id IN (${ints(f.environment)})`] : []),
  ].join('');
}

interface SumsRow {
  month: string;
  gid: number | null;
  name: string | null;
  revenue: string;
  cost: string;
  impressions: string;
  adjusted_revenue: string;
  invoiced: string;
  collected: string;
  billed: boolean;
}

/** The statement of the query's rows over `months` (each with its covers). */
export function financeSql(
  q: Pick<FinanceQuery, 'product' | 'group' | 'ids'>,
  months: { month: string; sources: MonthSources }[],
): { text: string; params: unknown[] } {
  const params: unknown[] = [months[0]!.month, months[months.length - 1]!.month];
  const exact = q.product === 'all';
  const networkIds = q.group === 'network' && q.ids.length > 0;
  const publisherIds = q.group === 'publisher' && q.ids.length > 0;
  if (networkIds || publisherIds) params.push(q.ids);
  const where = productWhere(q.product);
  const partnerRows = months
    .map(({ month, sources }) =>
      monthSelect(
        month,
        sources.partners!,
        'demand_partner_id, format_id, revenue_micros, cost_micros, impressions',
        `${where}${networkIds ? ' AND demand_partner_id = ANY($3::int4[])' : ''}`,
      ),
    )
    .join('\n UNION ALL ');
  const micros = (x: string) => `round((${x}) * 1000000)::int8::text`;
  // Share of a billing cell that the product line is (1 for every product: the cell itself).
  const share = exact ? '1' : 'CASE WHEN b.ours > 0 THEN n.rev::numeric / 1000000 / b.ours ELSE 0 END';
  const ctes = `
    n AS (
      SELECT month, demand_partner_id AS network, format_id, sum(revenue_micros) AS rev, sum(cost_micros) AS cost,
             sum(impressions) AS imps
      FROM (${partnerRows}) r
      GROUP BY month, demand_partner_id, format_id
    ),
    b AS (
      SELECT br.month, br.counterparty_id AS network, array_position(${FORMAT_NAMES}, br.product)::int2 AS format_id,
             sum(br.revenue_ours) AS ours,
             sum(br.revenue_gross - br.carried_in) AS adj,
             coalesce(sum(br.revenue_gross * i.base / nullif(i.revenue, 0) * (i.total - i.credited) / nullif(i.total, 0)), 0) AS inv,
             sum(br.paid_revenue) AS col
      FROM billing_rows br
      LEFT JOIN invoices i ON i.id = br.invoice_id AND i.kind = 'invoice' AND i.state <> 'draft'
      WHERE br.side = 'ssp' AND br.kind = 'advertiser' AND br.counterparty_type = 'demand_partner'
        AND br.month >= $1::text AND br.month <= $2::text
        ${networkIds ? 'AND br.counterparty_id = ANY($3::int4[])' : ''}
      GROUP BY 1, 2, 3
    ),
    cell AS (
      SELECT ${exact ? 'coalesce(n.month, b.month)' : 'n.month'} AS month,
             ${exact ? 'coalesce(n.network, b.network)' : 'n.network'} AS network,
             ${exact ? 'coalesce(n.format_id, b.format_id)' : 'n.format_id'} AS format_id,
             coalesce(n.rev, 0) AS rev, coalesce(n.cost, 0) AS cost, coalesce(n.imps, 0) AS imps,
             CASE WHEN b.month IS NULL OR (${exact ? 'false' : 'b.ours <= 0'}) THEN coalesce(n.rev, 0)::numeric / 1000000
                  ELSE b.adj * ${share} END AS adj,
             CASE WHEN b.month IS NULL THEN 0 ELSE b.inv * ${share} END AS inv,
             CASE WHEN b.month IS NULL THEN 0 ELSE b.col * ${share} END AS col,
             b.month IS NOT NULL AS billed
      FROM n ${exact ? 'FULL' : 'LEFT'} JOIN b ON b.month = n.month AND b.network = n.network AND b.format_id = n.format_id
    )`;
  if (q.group === 'network')
    return {
      params,
      text: `WITH ${ctes}
        SELECT c.month, c.network AS gid, p.name, sum(c.rev)::text AS revenue, sum(c.cost)::text AS cost,
               sum(c.imps)::text AS impressions, ${micros('sum(c.adj)')} AS adjusted_revenue,
               ${micros('sum(c.inv)')} AS invoiced, ${micros('sum(c.col)')} AS collected, bool_or(c.billed) AS billed
        FROM cell c LEFT JOIN demand_partners p ON p.id = c.network
        GROUP BY c.month, c.network, p.name`,
    };
  if (q.group === 'product')
    return {
      params,
      text: `WITH ${ctes}
        SELECT c.month, c.format_id::int4 AS gid, NULL::text AS name, sum(c.rev)::text AS revenue, sum(c.cost)::text AS cost,
               sum(c.imps)::text AS impressions, ${micros('sum(c.adj)')} AS adjusted_revenue,
               ${micros('sum(c.inv)')} AS invoiced, ${micros('sum(c.col)')} AS collected, bool_or(c.billed) AS billed
        FROM cell c GROUP BY c.month, c.format_id`,
    };
  const publisherRows = months
    .map(({ month, sources }) =>
      monthSelect(
        month,
        sources.publishers!,
        'publisher_id, format_id, revenue_micros, cost_micros, impressions',
        `${where}${publisherIds ? ' AND publisher_id = ANY($3::int4[])' : ''}`,
      ),
    )
    .join('\n UNION ALL ');
  return {
    params,
    text: `WITH ${ctes},
      ratio AS (
        SELECT month, format_id, sum(rev) AS rev, sum(adj) AS adj, sum(inv) AS inv, sum(col) AS col, bool_or(billed) AS billed
        FROM cell GROUP BY month, format_id
      ),
      pf AS (
        SELECT month, publisher_id, format_id, sum(revenue_micros) AS rev, sum(cost_micros) AS cost, sum(impressions) AS imps
        FROM (${publisherRows}) r
        GROUP BY month, publisher_id, format_id
      )
      SELECT pf.month, pf.publisher_id AS gid, pb.name, sum(pf.rev)::text AS revenue, sum(pf.cost)::text AS cost,
             sum(pf.imps)::text AS impressions,
             ${micros('sum(CASE WHEN r.rev > 0 THEN pf.rev * r.adj / r.rev ELSE pf.rev::numeric / 1000000 END)')} AS adjusted_revenue,
             ${micros('coalesce(sum(CASE WHEN r.rev > 0 THEN pf.rev * r.inv / r.rev ELSE 0 END), 0)')} AS invoiced,
             ${micros('coalesce(sum(CASE WHEN r.rev > 0 THEN pf.rev * r.col / r.rev ELSE 0 END), 0)')} AS collected,
             coalesce(bool_or(r.billed), false) AS billed
      FROM pf LEFT JOIN ratio r ON r.month = pf.month AND r.format_id = pf.format_id
      LEFT JOIN publishers pb ON pb.id = pf.publisher_id
      GROUP BY pf.month, pf.publisher_id, pb.name`,
  };
}

const sumsOf = (r: SumsRow): FinanceSums => ({
  revenue: BigInt(r.revenue),
  cost: BigInt(r.cost),
  impressions: BigInt(r.impressions),
  adjusted_revenue: BigInt(r.adjusted_revenue),
  invoiced: BigInt(r.invoiced),
  collected: BigInt(r.collected),
});

/** The raw rows (micro-units) of the range and the month before it. */
export async function readFinanceRows(
  database: Database,
  q: Pick<FinanceQuery, 'from' | 'to' | 'product' | 'group' | 'ids'>,
): Promise<SumsRow[]> {
  const list = monthsBetween(previousMonth(q.from), q.to);
  const months = [];
  for (const month of list) months.push({ month, sources: await monthSources(database, 'ssp', month) });
  const { text, params } = financeSql(q, months);
  // As billing's compute: a few tens of thousands of rollup rows, faster without parallel workers.
  return transaction(database, async (run) => {
    await run('SET LOCAL max_parallel_workers_per_gather = 0');
    return run<SumsRow>(text, params);
  });
}

/** A sort key: decimals with 6 places compare as integers; null sorts last either way. */
function sortKey(row: FinanceRow, field: string): bigint | string | null {
  if (field === 'month') return row.month;
  if (field === 'name') return row.name.toLowerCase();
  const v = (row as unknown as Record<string, string | number | null>)[field];
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return BigInt(v);
  return BigInt(v.replace('.', ''));
}

function compareKeys(a: bigint | string | null, b: bigint | string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortFinanceRows(rows: FinanceRow[], sort: string): FinanceRow[] {
  const s = parseFinanceSort(sort)!;
  const dir = s.dir === 'desc' ? -1 : 1;
  const revenue = (r: FinanceRow) => BigInt(r.revenue!.replace('.', ''));
  return [...rows].sort((a, b) => {
    const ka = sortKey(a, s.field);
    const kb = sortKey(b, s.field);
    const primary = ka === null || kb === null ? compareKeys(ka, kb) : dir * compareKeys(ka, kb);
    if (primary !== 0) return primary;
    if (a.month !== b.month) return a.month < b.month ? 1 : -1;
    const r = compareKeys(revenue(b), revenue(a));
    if (r !== 0) return r;
    return a.name.localeCompare(b.name) || (a.id ?? 0) - (b.id ?? 0);
  });
}

/** The report for a query: a page (or every row, for the export), totals and the months' totals. */
export async function financeReport(
  database: Database,
  q: FinanceQuery,
  page: { limit: number; offset: number },
): Promise<FinanceAnswer> {
  const raw = await readFinanceRows(database, q);
  const keyOf = (month: string, gid: number | null) => `${month}|${gid ?? ''}`;
  const byKey = new Map(raw.map((r) => [keyOf(r.month, r.gid === null ? null : Number(r.gid)), r]));
  const inRange = new Set(monthsBetween(q.from, q.to));
  const rows: FinanceRow[] = [];
  const monthSums = new Map<string, { sums: FinanceSums; billed: boolean }>();
  let totals = emptyFinanceSums();
  for (const r of raw) {
    const sums = sumsOf(r);
    const m = monthSums.get(r.month) ?? { sums: emptyFinanceSums(), billed: false };
    monthSums.set(r.month, { sums: addFinanceSums(m.sums, sums), billed: m.billed || r.billed });
    if (!inRange.has(r.month)) continue;
    totals = addFinanceSums(totals, sums);
    const gid = r.gid === null ? null : Number(r.gid);
    const prev = byKey.get(keyOf(previousMonth(r.month), gid));
    rows.push({
      month: r.month,
      id: q.group === 'product' ? null : gid,
      name: q.group === 'product' ? (FORMATS[(gid ?? 0) - 1] ?? String(gid)) : (r.name ?? `#${gid}`),
      billed: r.billed,
      ...financeValues(sums, prev ? sumsOf(prev) : null),
    });
  }
  const months: FinanceMonthTotals[] = [...inRange].map((month) => {
    const cur = monthSums.get(month);
    const prev = monthSums.get(previousMonth(month));
    return {
      month,
      billed: cur?.billed ?? false,
      ...financeValues(cur?.sums ?? emptyFinanceSums(), prev ? prev.sums : null),
    };
  });
  const sorted = sortFinanceRows(rows, q.sort);
  return {
    from: q.from,
    to: q.to,
    product: q.product,
    group: q.group,
    currency: FINANCE_REPORTS_CURRENCY,
    rows: sorted.slice(page.offset, page.offset + page.limit),
    totals: financeValues(totals, null),
    months,
    total_rows: rows.length,
    page: q.page,
    page_size: q.page_size,
  };
}

/** The filter's choices: every demand partner or publisher, by name. */
export async function financeEntities(
  database: Database,
  group: 'network' | 'publisher',
): Promise<FinanceEntity[]> {
  const table = group === 'network' ? 'demand_partners' : 'publishers';
  const rows = await query<{ id: number; name: string }>(
    database,
    `SELECT id, name FROM ${table} ORDER BY lower(name), id LIMIT 5000`,
  );
  return rows.map((r) => ({ id: Number(r.id), name: String(r.name) }));
}
