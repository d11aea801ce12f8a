/**
 * Demo payouts (issue 23): every month of the demo data, both sides, in the states a month-end
 * close leaves them. Publishers without a company get one of the demo's unused companies (its
 * billing information: IBAN and tax ID), all but two, which show "billing info missing"; the SSP
 * publishers' revenue share is set to what their traffic earns (the warehouse's cost over revenue),
 * all but a few, which show the over-percentage alert. Older months are approved and paid (by
 * SEPA), last month is being closed (some confirmed, a few approved, one held, one adjusted), this
 * month is pending. Idempotent (a settings marker).
 */
import { monthOf, nextMonth } from '@backoffice/core/billing-api';
import type { Database } from '../../db/client.ts';
import { generatedCompany, type GeneratedCompany } from '../../db/generated-companies.ts';
import { datasetState } from '../../reports-data/index.ts';
import { query, transaction } from '../../reports-data/sql.ts';
import { computePayouts } from './compute.ts';

const DAY_MS = 86_400_000;
const MARKER = 'demo_payouts_seeded';

export async function seedPayoutsDemo(database: Database, now = Date.now()): Promise<void> {
  const [marker] = await query<{ key: string }>(database, `SELECT key FROM settings WHERE key = $1`, [MARKER]);
  if (marker) return;
  const state = (await datasetState(database)) as { startMs: number; endMs: number } | null;
  const endMs = state?.endMs ?? now;
  const startMs = state?.startMs ?? endMs - 62 * DAY_MS;
  const [finance] = await query<{ id: number }>(database, `SELECT id FROM users WHERE mail LIKE 'finance@%' LIMIT 1`);
  const who = finance?.id ?? null;

  await transaction(database, async (q) => {
    // A company (billing information) for each publisher without one, but two: generated ones (a
    // pure function of the index: the same on every machine), those with an IBAN.
    const pubs = await q<{ id: number }>(
      `SELECT id FROM publishers WHERE company_id IS NULL
         AND id NOT IN (SELECT id FROM publishers WHERE company_id IS NULL AND side = 'ssp' ORDER BY id DESC LIMIT 2)
       ORDER BY id`,
    );
    const made: (GeneratedCompany & { publisher_id: number })[] = [];
    for (let i = 0; made.length < pubs.length && i < pubs.length * 3; i++) {
      const c = generatedCompany(i, 23);
      if (c.iban) made.push({ ...c, publisher_id: pubs[made.length]!.id });
    }
    if (made.length > 0) {
      await q(
        `WITH c AS (
           INSERT INTO companies (legal_name, trade_name, country, tax_id, address, city, postal_code, billing_email, iban, currency, created_by, updated_by)
           SELECT legal_name, trade_name, country, tax_id, address, city, postal_code, billing_email, iban, 'EUR', $2::int4, $2::int4
           FROM jsonb_to_recordset($1::jsonb) AS r(legal_name text, trade_name text, country text, tax_id text, address text, city text,
                postal_code text, billing_email text, iban text)
           ON CONFLICT (country, tax_id) DO NOTHING
           RETURNING id, country, tax_id
         )
         UPDATE publishers p SET company_id = c.id
         FROM c JOIN jsonb_to_recordset($1::jsonb) AS r(country text, tax_id text, publisher_id int) ON r.country = c.country AND r.tax_id = c.tax_id
         WHERE p.id = r.publisher_id`,
        [JSON.stringify(made), who],
      );
    }
    // The SSP publishers' share as their traffic earns it (rounded up), but every eleventh.
    await q(
      `UPDATE publishers p SET revenue_share_pct = least(95, ceil(s.cost * 100 / s.revenue))
       FROM (SELECT publisher_id, sum(cost_micros)::numeric AS cost, sum(revenue_micros)::numeric AS revenue
             FROM stats_r_publisher WHERE lvl = (SELECT min(lvl) FROM stats_r_publisher) GROUP BY publisher_id HAVING sum(revenue_micros) > 0) s
       WHERE p.id = s.publisher_id AND p.side = 'ssp' AND p.id % 11 <> 5`,
    );
  });

  const current = monthOf(now);
  const months: string[] = [];
  for (let m = monthOf(startMs); m <= monthOf(endMs) && m <= current; m = nextMonth(m)) months.push(m);
  for (const month of months) for (const side of ['ssp', 'performance'] as const) await computePayouts(database, side, month, who);

  const last = nextMonth(current, -1);
  await transaction(database, async (q) => {
    const audit = (action: string, where: string, after: string, params: unknown[] = []) =>
      q(
        `INSERT INTO audit_log (actor_id, action, entity, entity_id, before, after, at)
         SELECT $1::int4, '${action}', 'payouts', id::text, NULL, ${after}, coalesce(approved_at, confirmed_at, now()) FROM payouts WHERE ${where}`,
        [who, ...params],
      );
    // Older months: confirmed, approved, paid by SEPA around the 20th of the next month.
    const older = `month < $2 AND state = 'pending' AND payout > min_payout`;
    await q(
      `UPDATE payouts SET state = 'paid', comments = 'Checked against the warehouse and the publisher''s report',
         confirmed_by = $1, confirmed_at = (month || '-16')::date + interval '1 month', approved_by = $1,
         approved_at = (month || '-18')::date + interval '1 month', paid_by = $1, paid_on = (month || '-22')::date + interval '1 month',
         bank_reference = 'SEPA ' || replace(month, '-', '') || ' PO-' || id, version = version + 3
       WHERE ${older}`,
      [who, last],
    );
    await audit('payout.pay', `month < $2 AND state = 'paid'`, `jsonb_build_object('state', 'paid', 'paid_on', paid_on, 'bank_reference', bank_reference)`, [last]);
    // Last month: the close in progress.
    const lastPending = `month = $2 AND state = 'pending' AND payout > min_payout AND side = $3`;
    for (const side of ['ssp', 'performance'] as const) {
      await q(
        `UPDATE payouts SET state = 'confirmed', comments = 'Figures checked against the warehouse', confirmed_by = $1,
           confirmed_at = now() - interval '2 days', version = version + 1
         WHERE ${lastPending} AND id % 3 = 0
           AND EXISTS (SELECT 1 FROM publishers pb JOIN companies c ON c.id = pb.company_id WHERE pb.id = payouts.publisher_id AND c.iban IS NOT NULL)`,
        [who, last, side],
      );
      await q(
        `UPDATE payouts SET state = 'approved', approved_by = $1, approved_at = now() - interval '1 day', version = version + 1
         WHERE month = $2 AND side = $3 AND state = 'confirmed' AND id % 2 = 0`,
        [who, last, side],
      );
      await q(
        `UPDATE payouts SET state = 'held', held_reason = 'Invalid traffic under review with the publisher (ticket SUP-4471)', version = version + 1
         WHERE id = (SELECT id FROM payouts WHERE month = $1 AND side = $2 AND state = 'pending' AND payout > min_payout ORDER BY payout DESC OFFSET 1 LIMIT 1)`,
        [last, side],
      );
      await q(
        `UPDATE payouts SET adjustment = -round(payout * 0.015, 2), comments = 'Deduct 1.5% for invalid traffic found by the partner', version = version + 1
         WHERE id = (SELECT id FROM payouts WHERE month = $1 AND side = $2 AND state = 'pending' AND payout > min_payout ORDER BY payout DESC OFFSET 2 LIMIT 1)`,
        [last, side],
      );
    }
    await audit('payout.confirm', `month = $2 AND state IN ('confirmed', 'approved')`, `jsonb_build_object('state', 'confirmed', 'comment', comments)`, [last]);
    await audit('payout.approve', `month = $2 AND state = 'approved'`, `'{"state":"approved"}'::jsonb`, [last]);
    await audit('payout.hold', `month = $2 AND state = 'held'`, `jsonb_build_object('state', 'held', 'reason', held_reason)`, [last]);
    await q(`INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [MARKER, new Date(now).toISOString()]);
  });
}
