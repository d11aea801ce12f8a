/**
 * Demo prepayments: three prepaid advertisers of the performance side with what the screen is for.
 * - Garbí Affiliates (prepaid since the billing accounts' demo): two top-ups that cover its spend,
 *   a threshold it stays above;
 * - Levante Leads (moved to prepayment here): a top-up entered twice by mistake and reversed, spend
 *   that has eaten most of it, a threshold it is under (the low-balance list has it);
 * - Cierzo Installs (draft, moved to prepayment here): a first top-up, no spend yet.
 * Top-ups are sized from the warehouse's spend (performance_daily) so the balances look real; the
 * spend itself is posted by the same function as the daily job, up to yesterday. Runs once (a
 * settings marker), after the billing demo (which loads performance_daily).
 */
import { fromMicros, toMicros } from '@backoffice/core/billing';
import type { Database } from '../../db/client.ts';
import { query, transaction } from '../../reports-data/sql.ts';
import { postSpend } from './service.ts';

export const PREPAYMENTS_DEMO_KEY = 'demo_prepayments_seeded';
const DAY_MS = 86_400_000;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Rounds an amount in micro-units up to whole thousands of euros. */
const thousands = (micros: bigint) => fromMicros(((micros + 999_999_999n) / 1_000_000_000n) * 1_000_000_000n);

export async function seedPrepaymentsDemo(database: Database, now = Date.now()): Promise<void> {
  const claimed = await transaction(database, async (q) => {
    const partners = await q<{ id: number; name: string }>(
      `SELECT id, name FROM demand_partners WHERE side = 'performance' AND name IN ('Garbí Affiliates', 'Levante Leads', 'Cierzo Installs')`,
    );
    const byName = new Map(partners.map((p) => [p.name, Number(p.id)]));
    const garbi = byName.get('Garbí Affiliates');
    const levante = byName.get('Levante Leads');
    const cierzo = byName.get('Cierzo Installs');
    // Without the demo partners there is nothing to show (and the marker waits for them).
    if (!garbi || !levante || !cierzo) return null;
    const [marker] = await q(`INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING key`, [PREPAYMENTS_DEMO_KEY, new Date(now).toISOString()]);
    if (!marker) return null;
    await q(`UPDATE demand_partners SET billing_mode = 'prepayment', credit_limit = NULL WHERE id = ANY($1::int4[])`, [[garbi, levante, cierzo]]);
    const [finance] = await q<{ id: number }>(`SELECT id FROM users WHERE mail LIKE 'finance@%' LIMIT 1`);
    const who = finance?.id ?? null;

    const [range] = await q<{ first: string | null; last: string | null }>(`SELECT min(day)::text AS first, max(day)::text AS last FROM performance_daily`);
    const yesterday = dayOf(now - DAY_MS);
    const last = range?.last && range.last < yesterday ? range.last : yesterday;
    const first = range?.first ?? dayOf(now - 30 * DAY_MS);
    const spendOf = async (id: number) => {
      const [r] = await q<{ micros: string | null }>(`SELECT sum(revenue_micros)::text AS micros FROM performance_daily WHERE advertiser_id = $1 AND day BETWEEN $2::date AND $3::date`, [id, first, last]);
      return BigInt(r?.micros ?? '0');
    };
    const garbiSpend = await spendOf(garbi);
    const levanteSpend = await spendOf(levante);
    const mid = dayOf(Date.parse(`${first}T00:00:00Z`) + Math.floor((Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 2));
    const at = (day: string) => `${day}T09:30:00Z`;

    const entries: { adv: number; day: string; kind: string; amount: string; reference: string; comment: string }[] = [
      // Garbí: half its spend (rounded up to thousands) at the start, the rest plus a margin mid-way.
      { adv: garbi, day: first, kind: 'top_up', amount: thousands(garbiSpend / 2n + 5_000_000_000n), reference: 'SEPA GARBI-2025-001', comment: 'Opening prepayment' },
      { adv: garbi, day: mid, kind: 'top_up', amount: thousands(garbiSpend / 2n + 12_000_000_000n), reference: 'SEPA GARBI-2025-002', comment: '' },
      // Levante: its spend plus a little, so it ends under its threshold.
      { adv: levante, day: first, kind: 'top_up', amount: thousands(levanteSpend + 600_000_000n), reference: 'SEPA LEVANTE-0417', comment: 'Test campaign budget' },
      { adv: levante, day: first, kind: 'top_up', amount: thousands(levanteSpend + 600_000_000n), reference: 'SEPA LEVANTE-0417', comment: 'Entered twice by mistake' },
      { adv: cierzo, day: last, kind: 'top_up', amount: '2000.00', reference: 'SEPA CIERZO-0001', comment: 'First top-up before launch' },
    ];
    const ids: number[] = [];
    for (const e of entries) {
      const [row] = await q<{ id: string }>(
        `INSERT INTO prepayment_entries (advertiser_id, entry_date, kind, amount, currency, reference, comment, source, created_by, created_at)
         VALUES ($1, $2::date, $3, $4::numeric, 'EUR', $5, $6, 'manual', $7, $8::timestamptz) RETURNING id`,
        [e.adv, e.day, e.kind, e.amount, e.reference, e.comment, who, at(e.day)],
      );
      ids.push(Number(row!.id));
      await q(
        `INSERT INTO audit_log (actor_id, ip, action, entity, entity_id, after, at) VALUES ($1, '10.20.0.57', 'prepayment.entry_create', 'prepayment_account', $2, $3::jsonb, $4::timestamptz)`,
        [who, String(e.adv), JSON.stringify({ entry_id: ids.at(-1), kind: e.kind, amount: e.amount, entry_date: e.day, reference: e.reference, comment: e.comment }), at(e.day)],
      );
    }
    // The duplicated top-up, reversed the next day.
    const dup = ids[3]!;
    const next = dayOf(Date.parse(`${first}T00:00:00Z`) + DAY_MS);
    const [rev] = await q<{ id: string }>(
      `INSERT INTO prepayment_entries (advertiser_id, entry_date, kind, amount, currency, reference, comment, reverses_id, source, created_by, created_at)
       VALUES ($1, $2::date, 'reversal', $3::numeric, 'EUR', 'SEPA LEVANTE-0417', 'Duplicate of the top-up entered the same day', $4, 'manual', $5, $6::timestamptz) RETURNING id`,
      [levante, next, fromMicros(-toMicros(entries[3]!.amount)), dup, who, at(next)],
    );
    await q(
      `INSERT INTO audit_log (actor_id, ip, action, entity, entity_id, before, after, at) VALUES ($1, '10.20.0.57', 'prepayment.entry_reverse', 'prepayment_account', $2, $3::jsonb, $4::jsonb, $5::timestamptz)`,
      [who, String(levante), JSON.stringify({ entry_id: dup, kind: 'top_up', amount: entries[3]!.amount }), JSON.stringify({ entry_id: Number(rev!.id), reverses_id: dup, reason: 'Duplicate of the top-up entered the same day' }), at(next)],
    );
    // Thresholds: Garbí comfortably above, Levante under (its balance ends near its margin), Cierzo at 500.
    const levanteLeft = toMicros(entries[2]!.amount) - levanteSpend;
    const thresholds: [number, string][] = [
      [garbi, '5000.00'],
      [levante, fromMicros((levanteLeft / 1_000_000_000n + 1n) * 1_000_000_000n)],
      [cierzo, '500.00'],
    ];
    for (const [adv, threshold] of thresholds) {
      await q(
        `INSERT INTO prepayment_accounts (advertiser_id, currency, low_balance_threshold, version, updated_by, updated_at) VALUES ($1, 'EUR', $2::numeric, 2, $3, $4::timestamptz)
         ON CONFLICT (advertiser_id) DO UPDATE SET low_balance_threshold = excluded.low_balance_threshold`,
        [adv, threshold, who, at(mid)],
      );
      await q(
        `INSERT INTO audit_log (actor_id, ip, action, entity, entity_id, before, after, at) VALUES ($1, '10.20.0.57', 'prepayment.threshold_update', 'prepayment_account', $2, $3::jsonb, $4::jsonb, $5::timestamptz)`,
        [who, String(adv), JSON.stringify({ threshold: '0.00', version: 1 }), JSON.stringify({ threshold, version: 2 }), at(mid)],
      );
    }
    return last;
  });
  if (claimed) await postSpend(database, null, claimed, dayOf(now));
}

/** The demo's advertisers' balances, for a quick look (`npm run` scripts and tests). */
export async function demoBalances(database: Database): Promise<{ name: string; balance: string }[]> {
  return query<{ name: string; balance: string }>(
    database,
    `SELECT p.name, sum(e.amount)::text AS balance FROM prepayment_entries e JOIN demand_partners p ON p.id = e.advertiser_id GROUP BY p.name ORDER BY p.name`,
  );
}
