/**
 * Partner-reported figures in billing (docs/decisions/034-partner-reported-figures.md).
 *
 * An SSP advertiser row (demand partner x ad format, a UTC month) bills the warehouse's revenue.
 * For the days a partner reported figures of (`partner_stats`), the reported revenue replaces the
 * warehouse's: the row's `revenue_network` (the counterparty's figure, decision 022) becomes
 *   warehouse month - warehouse of the reported days + reported revenue (that format's share)
 * and `revenue_source` 'manual'. The reported revenue has no ad format: it is split over the
 * partner's formats in proportion to the warehouse's revenue of the same days (else of the month,
 * else all on its first media type), in micro-units, the remainder to the largest share, so the
 * parts add up exactly. The warehouse's figures of the reported days come from the daily rollup
 * (lvl 1 of stats_r_partner_geo: a few hundred rows per partner and day); the billing statement
 * that reads the month is not touched, nor the reports engine.
 *
 * Only open rows take figures (as with a recompute); a partner whose reported days are gone gets
 * its warehouse figure back (revenue_network NULL, source 'warehouse').
 */
import { nextMonth } from '@backoffice/core/billing-api';
import { FORMATS } from '@backoffice/core/reports';
import type { QueryFn } from '../../reports-data/sql.ts';

/** Splits `total` over `weights` (all >= 0) in proportion, exactly; null when the weights sum to 0. */
export function splitProportionally(total: bigint, weights: readonly bigint[]): bigint[] | null {
  const sum = weights.reduce((s, w) => s + (w > 0n ? w : 0n), 0n);
  if (sum <= 0n) return null;
  const parts = weights.map((w) => (w > 0n ? (total * w) / sum : 0n));
  let rest = total - parts.reduce((s, p) => s + p, 0n);
  // The remainder (fewer micro-units than formats) goes to the largest weights first.
  const order = weights.map((w, i) => ({ w, i })).sort((a, b) => (a.w === b.w ? a.i - b.i : a.w > b.w ? -1 : 1));
  for (const { i, w } of order) {
    if (rest <= 0n) break;
    if (w <= 0n) continue;
    parts[i]! += 1n;
    rest -= 1n;
  }
  return parts;
}

const micros = (text: string | null | undefined) => {
  if (!text) return 0n;
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return 0n;
  const v = BigInt(m[2]!) * 1_000_000n + BigInt((m[3] ?? '').slice(0, 6).padEnd(6, '0'));
  return m[1] ? -v : v;
};
const numeric6 = (v: bigint) => {
  const neg = v < 0n;
  const a = neg ? -v : v;
  return `${neg ? '-' : ''}${a / 1_000_000n}.${(a % 1_000_000n).toString().padStart(6, '0')}`;
};

/**
 * Applies the month's reported figures to its open SSP advertiser rows (in the caller's
 * transaction). Answers how many rows changed.
 */
export async function applyReportedFigures(q: QueryFn, month: string, userId: number | null): Promise<number> {
  const start = `${month}-01`;
  const end = `${nextMonth(month)}-01`;
  const reported = await q<{ partner: number; name: string; media: string[] | null; days: string[]; revenue: string }>(
    `SELECT s.demand_partner_id AS partner, max(p.name) AS name, (array_agg(p.media_types))[1] AS media,
            array_agg(s.day::text ORDER BY s.day) AS days, sum(s.revenue)::text AS revenue
     FROM partner_stats s JOIN demand_partners p ON p.id = s.demand_partner_id AND p.side = 'ssp'
     WHERE s.day >= $1::date AND s.day < $2::date AND s.currency = 'USD'
     GROUP BY s.demand_partner_id`,
    [start, end],
  );
  const rows = await q<{ id: number; partner: number; product: string; ours: string; network: string | null; source: string }>(
    `SELECT id, counterparty_id AS partner, product, revenue_ours::text AS ours, revenue_network::text AS network, revenue_source AS source
     FROM billing_rows
     WHERE side = 'ssp' AND kind = 'advertiser' AND month = $1 AND counterparty_type = 'demand_partner' AND state = 'open'`,
    [month],
  );
  let changed = 0;
  const setRow = async (id: number, network: string | null, source: 'manual' | 'warehouse') => {
    const [r] = await q<{ id: number }>(
      `UPDATE billing_rows SET revenue_network = $2::numeric, revenue_source = $3, version = version + 1, updated_by = $4::int4, updated_at = now()
       WHERE id = $1 AND (revenue_network IS DISTINCT FROM $2::numeric OR revenue_source IS DISTINCT FROM $3) RETURNING id`,
      [id, network, source, userId],
    );
    if (r) changed += 1;
  };

  const reportedIds = new Set(reported.map((r) => Number(r.partner)));
  // Partners whose reported days are gone: the warehouse's figure again.
  for (const row of rows) if (row.source === 'manual' && !reportedIds.has(Number(row.partner))) await setRow(row.id, null, 'warehouse');
  if (reported.length === 0) return changed;

  // The warehouse's revenue of the reported days, per partner and format (daily rollup).
  const dayStarts = [...new Set(reported.flatMap((r) => r.days))].map((d) => `${d}T00:00:00Z`);
  const warehouse = await q<{ partner: number; format_id: number; revenue: string }>(
    `SELECT demand_partner_id AS partner, format_id, sum(revenue_micros)::text AS revenue
     FROM stats_r_partner_geo
     WHERE lvl = 1 AND ts = ANY($1::timestamptz[]) AND demand_partner_id = ANY($2::int4[])
     GROUP BY demand_partner_id, format_id`,
    [dayStarts, [...reportedIds]],
  );

  for (const rep of reported) {
    const partner = Number(rep.partner);
    const own = rows.filter((r) => Number(r.partner) === partner);
    const formats = [...new Set([...own.map((r) => r.product), ...warehouse.filter((w) => Number(w.partner) === partner).map((w) => FORMATS[Number(w.format_id) - 1] ?? 'banner')])];
    const whDays = (f: string) =>
      warehouse.filter((w) => Number(w.partner) === partner && FORMATS[Number(w.format_id) - 1] === f).reduce((s, w) => s + BigInt(w.revenue), 0n);
    const whMonth = (f: string) => micros(own.find((r) => r.product === f)?.ours);
    const total = micros(rep.revenue);
    let split =
      splitProportionally(total, formats.map(whDays)) ?? splitProportionally(total, formats.map(whMonth));
    if (!split) {
      const first = (rep.media ?? [])[0] ?? 'banner';
      if (!formats.includes(first)) formats.push(first);
      split = formats.map((f) => (f === first ? total : 0n));
    }
    for (const [i, f] of formats.entries()) {
      const billed = whMonth(f) - whDays(f) + split[i]!;
      const value = numeric6(billed < 0n ? 0n : billed);
      const row = own.find((r) => r.product === f);
      if (row) await setRow(row.id, value, 'manual');
      else if (split[i]! > 0n) {
        // No warehouse traffic of that format this month: the row exists through the report only.
        const [r] = await q<{ id: number }>(
          `INSERT INTO billing_rows (side, kind, month, counterparty_type, counterparty_id, product, currency, revenue_ours, other_side,
              revenue_network, revenue_source, impressions, min_amount, payment_terms, demand_partners, updated_by)
           SELECT 'ssp', 'advertiser', $1, 'demand_partner', p.id, $3, 'USD', 0, 0, $4::numeric, 'manual', 0,
              p.min_amount, p.payment_terms, p.name, $5::int4
           FROM demand_partners p WHERE p.id = $2
           ON CONFLICT (side, kind, month, counterparty_type, counterparty_id, product) DO NOTHING RETURNING id`,
          [month, partner, f, value, userId],
        );
        if (r) changed += 1;
      }
    }
  }
  return changed;
}

/** The UTC months ('YYYY-MM') the days fall in. */
export function monthsOf(days: readonly string[]): string[] {
  return [...new Set(days.map((d) => d.slice(0, 7)))].sort();
}
