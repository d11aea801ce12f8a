/**
 * Billing demo data (issue 21): the performance side's facts for the warehouse's days, the months'
 * billing rows of both sides, and a month-end close in progress:
 * - months before last month: approved, with document ids and (mostly) paid;
 * - last month: most rows confirmed, some approved (partly paid, unpaid, one overdue), one partner's
 *   revenue network edited, a small row accumulated into this month, one discarded, some open;
 * - this month: open (month to date).
 * Exchange rates (ECB monthly averages for USD and GBP) for the months, and one SSP publisher owned
 * by a demand partner's company so that netting has a candidate. Idempotent (a settings marker).
 */
import { nextMonth, monthOf, PERFORMANCE_PRODUCTS } from '@backoffice/core/billing-api';
import type { Database } from '../../db/client.ts';
import { datasetState } from '../../reports-data/index.ts';
import { createRng, hashSeed } from '../../reports-data/prng.ts';
import { query, transaction } from '../../reports-data/sql.ts';
import { computeMonth } from './compute.ts';

const DAY_MS = 86_400_000;

/** ECB-like monthly averages (units for 1 EUR), by month offset from the current one (0 = now). */
const RATES: Record<string, string[]> = {
  USD: ['1.158700', '1.161200', '1.173100', '1.164800', '1.169300', '1.152400'],
  GBP: ['0.877900', '0.874100', '0.869400', '0.865200', '0.862700', '0.858100'],
};

/** Per pricing model: units per day (range), price per unit in EUR micro-units (range). */
const PRODUCT_SHAPE: Record<(typeof PERFORMANCE_PRODUCTS)[number], { units: [number, number]; price: [number, number] }> = {
  cpc: { units: [150, 1400], price: [220_000, 610_000] },
  cpa: { units: [4, 45], price: [7_500_000, 26_000_000] },
  cpm: { units: [40, 320], price: [1_100_000, 3_600_000] },
};

/** The performance facts for [startMs, endMs): advertisers x publishers x products per day. */
export async function seedPerformanceFacts(database: Database, startMs: number, endMs: number): Promise<number> {
  const advertisers = await query<{ id: number; name: string; status: string }>(
    database,
    `SELECT id, name, status FROM demand_partners WHERE side = 'performance' AND status IN ('live', 'testing', 'paused') ORDER BY id`,
  );
  const pubs = await query<{ id: number; share: string }>(database, `SELECT id, revenue_share_pct::text AS share FROM publishers WHERE side = 'performance' ORDER BY id`);
  if (advertisers.length === 0 || pubs.length === 0) return 0;
  const cols: { day: string[]; adv: number[]; pub: number[]; product: string[]; imp: number[]; clicks: number[]; conv: number[]; rev: string[]; cost: string[] } = {
    day: [], adv: [], pub: [], product: [], imp: [], clicks: [], conv: [], rev: [], cost: [],
  };
  const first = Math.floor(startMs / DAY_MS) * DAY_MS;
  for (let t = first; t < endMs; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    for (const [ai, a] of advertisers.entries()) {
      // A partner in testing buys a little; each advertiser uses two of the three models.
      const weight = a.status === 'testing' ? 0.15 : 1 - ai * 0.18;
      for (const [pi, p] of pubs.entries()) {
        if ((ai + pi) % 4 === 3) continue; // not every advertiser runs on every publisher
        for (const [ki, product] of PERFORMANCE_PRODUCTS.entries()) {
          if ((ai + ki) % 3 === 2) continue;
          const rng = createRng(hashSeed('perf', day, a.id, p.id, product));
          const shape = PRODUCT_SHAPE[product];
          const units = Math.round((shape.units[0] + rng() * (shape.units[1] - shape.units[0])) * weight);
          if (units <= 0) continue;
          const price = Math.round(shape.price[0] + rng() * (shape.price[1] - shape.price[0]));
          const revenue = BigInt(units) * BigInt(price);
          const cost = (revenue * BigInt(Math.round(Number(p.share) * 100))) / 10_000n;
          cols.day.push(day);
          cols.adv.push(a.id);
          cols.pub.push(p.id);
          cols.product.push(product);
          const impressions = product === 'cpm' ? units * 1000 : units * (product === 'cpc' ? 180 : 2600);
          cols.imp.push(impressions);
          cols.clicks.push(product === 'cpc' ? units : Math.round(impressions * 0.004));
          cols.conv.push(product === 'cpa' ? units : Math.round(units * 0.02));
          cols.rev.push(revenue.toString());
          cols.cost.push(cost.toString());
        }
      }
    }
  }
  await query(
    database,
    `INSERT INTO performance_daily (day, advertiser_id, publisher_id, product, impressions, clicks, conversions, revenue_micros, cost_micros)
     SELECT * FROM unnest($1::date[], $2::int4[], $3::int4[], $4::text[], $5::int8[], $6::int8[], $7::int8[], $8::int8[], $9::int8[])
     ON CONFLICT DO NOTHING`,
    [cols.day, cols.adv, cols.pub, cols.product, cols.imp, cols.clicks, cols.conv, cols.rev, cols.cost],
  );
  return cols.day.length;
}

/** The months from the one holding startMs to the one holding endMs. */
function monthsBetween(startMs: number, endMs: number): string[] {
  const out: string[] = [];
  for (let m = monthOf(startMs); m <= monthOf(endMs); m = nextMonth(m)) out.push(m);
  return out;
}

export async function seedBillingDemo(database: Database, now = Date.now()): Promise<void> {
  const [marker] = await query<{ key: string }>(database, `SELECT key FROM settings WHERE key = 'demo_billing_seeded'`);
  if (marker) return;
  const state = (await datasetState(database)) as { startMs: number; endMs: number } | null;
  const endMs = state?.endMs ?? now;
  const startMs = state?.startMs ?? endMs - 62 * DAY_MS;
  await seedPerformanceFacts(database, startMs, endMs);

  // A company on both sides of the SSP: it buys through its partners and sells through a publisher.
  await query(
    database,
    `UPDATE publishers SET company_id = (SELECT id FROM companies WHERE legal_name = 'Isar Video Monetization AG')
     WHERE id = (SELECT min(id) FROM publishers WHERE side = 'ssp' AND company_id IS NULL)
       AND EXISTS (SELECT 1 FROM companies WHERE legal_name = 'Isar Video Monetization AG')`,
  );

  const [finance] = await query<{ id: number }>(database, `SELECT id FROM users WHERE mail LIKE 'finance@%' LIMIT 1`);
  const who = finance?.id ?? null;
  const months = monthsBetween(startMs, endMs);
  const current = monthOf(now);
  for (const side of ['ssp', 'performance'] as const) for (const month of months) await computeMonth(database, side, month, who);

  // Rates for every month shown, newest first in RATES.
  const rateRows = months.flatMap((month) =>
    Object.entries(RATES).map(([currency, list]) => {
      const back = (Number(current.slice(0, 4)) * 12 + Number(current.slice(5, 7))) - (Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)));
      return { month, currency, rate: list[Math.min(Math.max(back, 0), list.length - 1)]! };
    }),
  );
  await query(
    database,
    `INSERT INTO billing_rates (month, currency, rate, source, updated_by)
     SELECT r.month, r.currency, r.rate::numeric, 'ecb', $2::int4 FROM jsonb_to_recordset($1::jsonb) AS r(month text, currency text, rate text)
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(rateRows), who],
  );

  const last = nextMonth(current, -1);
  await transaction(database, async (q) => {
    const stamp = (state: string) =>
      state === 'approved'
        ? `state = 'approved', confirmed_by = $2, confirmed_at = now() - interval '9 days', approved_by = $2, approved_at = now() - interval '7 days'`
        : `state = 'confirmed', confirmed_by = $2, confirmed_at = now() - interval '3 days'`;
    // Older months: approved, numbered and (all but a few) paid.
    await q(
      `UPDATE billing_rows SET ${stamp('approved')}, version = version + 2,
         document_id = CASE kind WHEN 'advertiser' THEN 'INV-' ELSE 'PAY-' END || replace(month, '-', '') || '-' || lpad(id::text, 4, '0')
       WHERE month < $1 AND revenue_gross > 0`,
      [last, who],
    );
    await q(
      `UPDATE billing_rows SET paid_revenue = revenue_gross, received_payment_date = (month || '-01')::date + interval '1 month' + interval '38 days'
       WHERE month < $1 AND state = 'approved' AND id % 7 <> 3`,
      [last],
    );
    await q(`UPDATE billing_rows SET paid_revenue = round(revenue_gross * 0.6, 2) WHERE month < $1 AND state = 'approved' AND id % 7 = 3 AND id % 2 = 0`, [last]);
    // Last month: the close in progress.
    await q(`UPDATE billing_rows SET ${stamp('confirmed')}, version = version + 1 WHERE month = $1 AND id % 5 <> 0 AND revenue_gross > 0`, [last, who]);
    await q(
      `UPDATE billing_rows SET ${stamp('approved')}, version = version + 1,
         document_id = CASE kind WHEN 'advertiser' THEN 'INV-' ELSE 'PAY-' END || replace(month, '-', '') || '-' || lpad(id::text, 4, '0')
       WHERE month = $1 AND state = 'confirmed' AND id % 3 = 0`,
      [last, who],
    );
    await q(`UPDATE billing_rows SET paid_revenue = round(revenue_gross * 0.5, 2) WHERE month = $1 AND state = 'approved' AND id % 2 = 0`, [last]);
    // The partner-reported figure of the biggest open SSP row of last month: 3.2 % under ours.
    await q(
      `UPDATE billing_rows SET revenue_network = round(revenue_ours * 0.968, 2), description = 'Partner report: 3.2% discrepancy (invalid traffic filtered)'
       WHERE id = (SELECT id FROM billing_rows WHERE month = $1 AND side = 'ssp' AND kind = 'advertiser' AND state = 'open' ORDER BY revenue_ours DESC LIMIT 1)`,
      [last],
    );
    // The smallest advertiser row of last month is under its minimum: moved into this month.
    const [small] = await q<{ id: number; side: string; kind: string; counterparty_type: string; counterparty_id: number; product: string; gross: string }>(
      `SELECT id, side, kind, counterparty_type, counterparty_id, product, revenue_gross::text AS gross FROM billing_rows
       WHERE month = $1 AND kind = 'advertiser' AND state = 'open' AND revenue_gross > 0 ORDER BY revenue_gross LIMIT 1`,
      [last],
    );
    if (small) {
      await q(`UPDATE billing_rows SET min_amount = greatest(min_amount, ceil(revenue_gross) + 100) WHERE id = $1`, [small.id]);
      const [into] = await q<{ id: number }>(
        `UPDATE billing_rows SET carried_in = carried_in + $1::numeric, carried_from = carried_from || $2::jsonb, version = version + 1
         WHERE side = $3 AND kind = $4 AND month = $5 AND counterparty_type = $6 AND counterparty_id = $7 AND product = $8 RETURNING id`,
        [small.gross, JSON.stringify([{ id: small.id, month: last, amount: small.gross }]), small.side, small.kind, current, small.counterparty_type, small.counterparty_id, small.product],
      );
      if (into) await q(`UPDATE billing_rows SET state = 'accumulated', accumulated_into = $2, version = version + 1 WHERE id = $1`, [small.id, into.id]);
    }
    // A paused partner's test traffic, written off.
    await q(
      `UPDATE billing_rows SET state = 'discarded', description = 'Test campaign, not billable (agreed with the partner)', version = version + 1
       WHERE id = (SELECT b.id FROM billing_rows b JOIN demand_partners p ON p.id = b.counterparty_id
                   WHERE b.month = $1 AND b.kind = 'advertiser' AND b.counterparty_type = 'demand_partner' AND b.state = 'open' AND p.status <> 'live'
                   ORDER BY b.revenue_gross LIMIT 1)`,
      [last],
    );
    // Every payment the figures above imply, as payment records.
    await q(
      `INSERT INTO billing_payments (row_id, amount, paid_on, document_id, reference, source, created_by)
       SELECT id, paid_revenue, coalesce(received_payment_date, (month || '-01')::date + interval '1 month' + interval '20 days'), document_id,
              'Transfer ' || document_id, 'bank_csv', $1::int4
       FROM billing_rows WHERE paid_revenue > 0`,
      [who],
    );
    await q(`INSERT INTO settings (key, value) VALUES ('demo_billing_seeded', $1) ON CONFLICT DO NOTHING`, [new Date(now).toISOString()]);
  });
}
