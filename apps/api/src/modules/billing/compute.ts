/**
 * A month's billing rows from our figures (issue 21): one row per counterparty and product.
 *   SSP, what we invoice:  demand partner x ad format, the warehouse's revenue (cost: other side)
 *   SSP, what we owe:      publisher x ad format, the warehouse's cost (revenue: other side)
 *   performance, invoice:  advertiser x pricing model, performance_daily's revenue
 *   performance, owe:      publisher x pricing model, performance_daily's cost
 * The SSP bills its own partners and publishers (side 'ssp'); the performance side's partners
 * are billed from the performance facts, even where the demo warehouse holds some of their spend
 * (demo-budgets.ts). The SSP reads the rollups, never the hourly fact: a billing month is a UTC
 * calendar month, read from the partner x format and publisher x format rollups' calendar-month
 * level (one block a month); on a data set that lacks it until the server's start builds it, covered
 * exactly by the rollups' aligned blocks (whole days, weeks, 4- to 32-day blocks: `decompose`, the
 * reports planner's choice of the fewest rows). Only open rows take the new figures; a confirmed, approved or
 * closed row keeps what was confirmed (recompute it by disconfirming first). An open row whose
 * traffic disappeared drops to 0. Amounts stay integer micro-units until written as numeric.
 */
import {
  BILLING_SOURCE_CURRENCY,
  nextMonth,
  type BillingKind,
  type BillingSide,
} from '@backoffice/core/billing-api';
import { FORMATS } from '@backoffice/core/reports';
import type { Database } from '../../db/client.ts';
import { HOUR_MS, LEVELS, MONTH_LVL } from '../../reports-data/rollups.ts';
import { transaction, type QueryFn } from '../../reports-data/sql.ts';
import { decompose, type Segment } from '../reports/engine.ts';
import { sourceStats } from '../reports/service.ts';
import { applyReportedFigures } from '../partner-stats/billing.ts';

/** One computed line: micro-units as text (bigint sums). */
export interface ComputedLine {
  counterparty_type: 'demand_partner' | 'publisher';
  counterparty_id: number;
  product: string;
  billed_micros: string;
  other_micros: string;
  impressions: string;
  demand_partners: string;
}

const monthStart = (month: string) => `${month}-01T00:00:00Z`;

/** The format names by format_id (1-based), as a SQL array literal for `($arr)[format_id]`. */
const FORMAT_NAMES = `ARRAY[${FORMATS.map((f) => `'${f}'`).join(',')}]::text[]`;

/**
 * What the SSP's lines read, and the rollups that can answer it (the first its data set has):
 * partners' revenue by format, publishers' cost by format, and which partners each publisher's
 * traffic went to (partner x publisher; partner x publisher x country on a data set loaded before
 * that rollup existed, until the server's start builds it).
 */
const SSP_SOURCES = {
  partners: ['stats_r_partner_format', 'stats_r_partner_geo'],
  publishers: ['stats_r_publisher_format', 'stats_r_publisher'],
  names: ['stats_r_partner_pub', 'stats_r_partner_publisher'],
} as const;
type SspSource = keyof typeof SSP_SOURCES;

/** How each source covers the month: a rollup and aligned blocks of its levels (SSP only). */
export type MonthSources = Partial<Record<SspSource, { table: string; segments: Segment[] }>>;

/**
 * The month's cover per source: its calendar-month block when the rollup has that level (rollups.ts
 * MONTH_LVL), else the levels the data set's statistics list and their row counts (as the reports
 * planner chooses); without statistics (no data set loaded yet), days.
 */
export async function monthSources(
  database: Database,
  side: BillingSide,
  month: string,
): Promise<MonthSources> {
  if (side !== 'ssp') return {};
  const fromMs = Date.parse(monthStart(month));
  const toMs = Date.parse(monthStart(nextMonth(month)));
  const stats = await sourceStats(database);
  const hours = Math.max(1, stats?.hours ?? 1);
  const out: MonthSources = {};
  for (const [source, tables] of Object.entries(SSP_SOURCES) as [SspSource, readonly string[]][]) {
    const table = tables.find((t) => !stats || stats.rollups[t]) ?? tables[0]!;
    const counts = stats?.rollups[table];
    if (typeof counts?.[MONTH_LVL] === 'number') {
      out[source] = { table, segments: [{ lvl: MONTH_LVL, fromMs, toMs }] };
      continue;
    }
    const levels = LEVELS.filter((l) => l.lvl > 0 && (!counts || counts[l.lvl] !== undefined)).map(
      (l) => l.lvl,
    );
    const rowsPerBlock = (lvl: number) =>
      (counts?.[lvl] ?? 1) / Math.max(1, hours / (LEVELS[lvl]!.ms / HOUR_MS));
    const segments = counts ? decompose(fromMs, toMs, levels, rowsPerBlock) : [];
    out[source] = { table, segments: segments.length > 0 ? segments : [{ lvl: 1, fromMs, toMs }] };
  }
  return out;
}

/** A source's rows of the month: one index range per block, with the month's bounds ($1, $2) kept. */
function monthRows(source: SspSource, columns: string, sources: MonthSources): string {
  const cover = sources[source];
  if (!cover) throw new Error(`no cover of the month for ${source}`);
  const iso = (ms: number) => `'${new Date(ms).toISOString()}'::timestamptz`;
  return cover.segments
    .map(
      (s) => `SELECT ${columns} FROM ${cover.table}
              WHERE lvl = ${s.lvl} AND ts >= ${iso(s.fromMs)} AND ts < ${iso(s.toMs)}
                AND ts >= $1::timestamptz AND ts < $2::timestamptz`,
    )
    .join('\n            UNION ALL ');
}

/**
 * The SQL computing a kind's lines for [$1, $2) (timestamps, or dates for the performance side);
 * the SSP's from the rollups' blocks `sources` chose (`monthSources` of the same month).
 */
export function computeSql(side: BillingSide, kind: BillingKind, sources: MonthSources = {}): string {
  // Summed first, joined after: a few hundred groups meet the partners and publishers, whatever the
  // planner guesses of those tables (PGlite has no autovacuum to keep their statistics).
  if (side === 'ssp' && kind === 'advertiser')
    return `SELECT 'demand_partner' AS counterparty_type, g.demand_partner_id AS counterparty_id,
              (${FORMAT_NAMES})[g.format_id] AS product,
              g.billed::text AS billed_micros, g.other::text AS other_micros, g.impressions::text AS impressions,
              p.name AS demand_partners
            FROM (SELECT demand_partner_id, format_id, sum(revenue_micros) AS billed, sum(cost_micros) AS other,
                         sum(impressions) AS impressions
                  FROM (${monthRows('partners', 'demand_partner_id, format_id, revenue_micros, cost_micros, impressions', sources)}) r
                  GROUP BY demand_partner_id, format_id
                  HAVING sum(revenue_micros) <> 0 OR sum(cost_micros) <> 0) g
            JOIN demand_partners p ON p.id = g.demand_partner_id AND p.side = 'ssp'`;
  if (side === 'ssp')
    return `WITH names AS (
              SELECT pp.publisher_id, string_agg(dp.name, ', ' ORDER BY dp.name) AS demand_partners
              FROM (SELECT publisher_id, demand_partner_id
                    FROM (${monthRows('names', 'publisher_id, demand_partner_id', sources)}) r
                    GROUP BY publisher_id, demand_partner_id) pp
              JOIN demand_partners dp ON dp.id = pp.demand_partner_id
              GROUP BY pp.publisher_id
            )
            SELECT 'publisher' AS counterparty_type, s.publisher_id AS counterparty_id,
              (${FORMAT_NAMES})[s.format_id] AS product,
              s.billed::text AS billed_micros, s.other::text AS other_micros, s.impressions::text AS impressions,
              coalesce(n.demand_partners, '') AS demand_partners
            FROM (SELECT publisher_id, format_id, sum(cost_micros) AS billed, sum(revenue_micros) AS other,
                         sum(impressions) AS impressions
                  FROM (${monthRows('publishers', 'publisher_id, format_id, revenue_micros, cost_micros, impressions', sources)}) r
                  GROUP BY publisher_id, format_id
                  HAVING sum(revenue_micros) <> 0 OR sum(cost_micros) <> 0) s
            JOIN publishers pb ON pb.id = s.publisher_id AND pb.side = 'ssp'
            LEFT JOIN names n ON n.publisher_id = s.publisher_id`;
  if (kind === 'advertiser')
    return `SELECT 'demand_partner' AS counterparty_type, f.advertiser_id AS counterparty_id, f.product,
              sum(f.revenue_micros)::text AS billed_micros, sum(f.cost_micros)::text AS other_micros,
              sum(f.impressions)::text AS impressions, max(p.name) AS demand_partners
            FROM performance_daily f JOIN demand_partners p ON p.id = f.advertiser_id
            WHERE f.day >= $1::date AND f.day < $2::date
            GROUP BY f.advertiser_id, f.product
            HAVING sum(f.revenue_micros) <> 0 OR sum(f.cost_micros) <> 0`;
  return `SELECT 'publisher' AS counterparty_type, f.publisher_id AS counterparty_id, f.product,
            sum(f.cost_micros)::text AS billed_micros, sum(f.revenue_micros)::text AS other_micros,
            sum(f.impressions)::text AS impressions, string_agg(DISTINCT p.name, ', ') AS demand_partners
          FROM performance_daily f JOIN demand_partners p ON p.id = f.advertiser_id
          WHERE f.day >= $1::date AND f.day < $2::date
          GROUP BY f.publisher_id, f.product
          HAVING sum(f.revenue_micros) <> 0 OR sum(f.cost_micros) <> 0`;
}

/** The month's bounds as the SQL of `computeSql` takes them. */
export function monthBounds(side: BillingSide, month: string): [string, string] {
  if (side === 'ssp') return [monthStart(month), monthStart(nextMonth(month))];
  return [`${month}-01`, `${nextMonth(month)}-01`];
}

/**
 * The month's lines as the warehouse (or the performance facts) gives them now. Without parallel
 * workers: they would sum a few tens of thousands of rows and take longer to start (PostgreSQL,
 * 2 cores: 59 ms with two workers against 18 ms for the same SELECT inside writeMonth's INSERT).
 */
export async function computeLines(database: Database, side: BillingSide, kind: BillingKind, month: string): Promise<ComputedLine[]> {
  const sources = await monthSources(database, side, month);
  return transaction(database, async (q) => {
    await q('SET LOCAL max_parallel_workers_per_gather = 0');
    return q<ComputedLine>(computeSql(side, kind, sources), monthBounds(side, month));
  });
}

export interface ComputeResult {
  /** Rows written or updated, rows that kept their figures (not open), open rows dropped to 0. */
  inserted: number;
  updated: number;
  kept: number;
  zeroed: number;
}

const MICROS_TO_NUMERIC = (col: string) => `(${col}::numeric / 1000000)`;

/**
 * Writes a month's rows of one kind: new rows open, open rows updated (their version moves on
 * when a figure changed), other rows left as they are. One statement for the upsert, one for the
 * open rows whose traffic is gone; in one transaction with `lockedBy` (the caller's user id).
 */
export async function writeMonth(
  q: QueryFn,
  side: BillingSide,
  kind: BillingKind,
  month: string,
  userId: number | null,
  sources: MonthSources,
): Promise<ComputeResult> {
  const [start, end] = monthBounds(side, month);
  const currency = BILLING_SOURCE_CURRENCY[side];
  const terms =
    kind === 'advertiser'
      ? `LEFT JOIN (SELECT id, min_amount, payment_terms FROM demand_partners) t ON t.id = l.counterparty_id`
      : `LEFT JOIN (SELECT id, min_payout AS min_amount, payment_terms FROM publishers) t ON t.id = l.counterparty_id`;
  const [res] = await q<{ inserted: number; updated: number; kept: number; zeroed: number }>(
    `WITH l AS (${computeSql(side, kind, sources)}),
     up AS (
       INSERT INTO billing_rows AS b (side, kind, month, counterparty_type, counterparty_id, product, currency,
           revenue_ours, other_side, impressions, min_amount, payment_terms, demand_partners, updated_by)
       SELECT $3::text, $4::text, $5::text, l.counterparty_type, l.counterparty_id, l.product, $6::text,
           ${MICROS_TO_NUMERIC('l.billed_micros')}, ${MICROS_TO_NUMERIC('l.other_micros')}, l.impressions::int8,
           coalesce(t.min_amount, 0), coalesce(t.payment_terms, 'net45'), l.demand_partners, $7::int4
       FROM l ${terms}
       ON CONFLICT (side, kind, month, counterparty_type, counterparty_id, product) DO UPDATE SET
           revenue_ours = excluded.revenue_ours, other_side = excluded.other_side, impressions = excluded.impressions,
           min_amount = excluded.min_amount, payment_terms = excluded.payment_terms,
           demand_partners = excluded.demand_partners, computed_at = now(),
           version = b.version + CASE WHEN (b.revenue_ours, b.other_side, b.min_amount, b.payment_terms, b.demand_partners)
                       IS DISTINCT FROM (excluded.revenue_ours, excluded.other_side, excluded.min_amount, excluded.payment_terms, excluded.demand_partners) THEN 1 ELSE 0 END
         WHERE b.state = 'open'
       RETURNING (xmax = 0) AS inserted
     ),
     gone AS (
       UPDATE billing_rows b SET revenue_ours = 0, other_side = 0, impressions = 0, computed_at = now(), version = b.version + 1
       WHERE b.side = $3 AND b.kind = $4 AND b.month = $5 AND b.state = 'open'
         AND (b.revenue_ours <> 0 OR b.other_side <> 0)
         AND NOT EXISTS (SELECT 1 FROM l WHERE l.counterparty_type = b.counterparty_type AND l.counterparty_id = b.counterparty_id AND l.product = b.product)
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM up WHERE inserted)::int AS inserted,
            (SELECT count(*) FROM up WHERE NOT inserted)::int AS updated,
            ((SELECT count(*) FROM l) - (SELECT count(*) FROM up))::int AS kept,
            (SELECT count(*) FROM gone)::int AS zeroed`,
    [start, end, side, kind, month, currency, userId],
  );
  // The month's other open rows (no traffic, already 0) count as computed now too.
  await q(
    `UPDATE billing_rows SET computed_at = now()
     WHERE side = $1 AND kind = $2 AND month = $3 AND state = 'open' AND computed_at IS DISTINCT FROM now()`,
    [side, kind, month],
  );
  // Partner-reported days (issue 24) replace the warehouse's revenue on open rows (decision 034).
  if (side === 'ssp' && kind === 'advertiser') await applyReportedFigures(q, month, userId);
  return {
    inserted: Number(res!.inserted),
    updated: Number(res!.updated),
    kept: Number(res!.kept),
    zeroed: Number(res!.zeroed),
  };
}

/** Both kinds of a side's month, in one transaction. */
export async function computeMonth(
  database: Database,
  side: BillingSide,
  month: string,
  userId: number | null,
): Promise<Record<BillingKind, ComputeResult>> {
  const sources = await monthSources(database, side, month);
  return transaction(database, async (q) => ({
    advertiser: await writeMonth(q, side, 'advertiser', month, userId, sources),
    supply: await writeMonth(q, side, 'supply', month, userId, sources),
  }));
}
