/**
 * A month's payouts from the warehouse (issue 23, docs/decisions/028-payouts.md). The figures are
 * billing's (modules/billing/compute.ts `computeSql` of the side's supply kind, summed over the
 * products): `new_revenue` is the publisher's earnings (the warehouse's cost), `revenue_gross` the
 * revenue its traffic brought; both converted from the warehouse's currency into the publisher's at
 * the month's rates (`billing_rates`: units per EUR) and rounded to the cent.
 *
 * Only pending payouts take new figures. Computing month M also closes M-1's pending payouts that
 * stay under the publisher's minimum: they become `carried` into M's payout (created empty when
 * the publisher has no traffic in M), whose `carried_in` and period grow by them.
 */
import { BILLING_SOURCE_CURRENCY, nextMonth } from '@backoffice/core/billing-api';
import type { PayoutSide } from '@backoffice/core/payouts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { query, transaction, type QueryFn } from '../../reports-data/sql.ts';
import { computeSql, monthBounds, monthSources, type MonthSources } from '../billing/compute.ts';

export interface PayoutComputeResult {
  inserted: number;
  updated: number;
  kept: number;
  carried: number;
}

const lastDay = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);

/**
 * The conversion of the month into each publisher currency of the side: rate = units of the
 * currency per unit of the warehouse's. Throws 422 `payout.rate_missing` naming the currencies
 * the month has no rate for.
 */
async function monthRates(q: QueryFn, side: PayoutSide, month: string): Promise<{ currency: string; num: string; den: string }[]> {
  const source = BILLING_SOURCE_CURRENCY[side];
  const currencies = (await q<{ currency: string }>(`SELECT DISTINCT currency FROM publishers WHERE side = $1`, [side])).map((r) => r.currency);
  const perEur = new Map((await q<{ currency: string; rate: string }>(`SELECT currency, rate::text FROM billing_rates WHERE month = $1`, [month])).map((r) => [r.currency, r.rate]));
  perEur.set('EUR', '1');
  const others = [...new Set(currencies)].filter((c) => c !== source);
  const missing = others.length === 0 ? [] : [source, ...others].filter((c) => !perEur.has(c));
  if (missing.length > 0) throw new AppError(422, 'payout.rate_missing', { params: { month, currencies: missing.join(', ') } });
  // Units of the currency per unit of the warehouse's: (currency per EUR) / (source per EUR).
  return [{ currency: source, num: '1', den: '1' }, ...others.map((c) => ({ currency: c, num: perEur.get(c)!, den: perEur.get(source)! }))];
}

/** Writes month M's payouts of one side; the caller's transaction. */
export async function writePayouts(q: QueryFn, side: PayoutSide, month: string, userId: number | null, sources: MonthSources): Promise<PayoutComputeResult> {
  const [start, end] = monthBounds(side, month);
  const rates = await monthRates(q, side, month);
  const [res] = await q<{ inserted: number; updated: number; kept: number }>(
    `WITH l AS (${computeSql(side, 'supply', sources)}),
     g AS (SELECT counterparty_id AS publisher_id, sum(billed_micros::numeric) AS cost, sum(other_micros::numeric) AS revenue,
                  sum(impressions::int8) AS impressions
           FROM l GROUP BY counterparty_id),
     rt AS (SELECT currency, round(num / den, 6) AS rate FROM jsonb_to_recordset($7::jsonb) AS r(currency text, num numeric, den numeric)),
     up AS (
       INSERT INTO payouts AS o (side, month, publisher_id, currency, rate, from_date, to_date, revenue_gross, new_revenue,
           impressions, share_pct, min_payout, payment_terms, updated_by)
       SELECT $3::text, $4::text, g.publisher_id, p.currency, rt.rate, $5::date, $6::date,
           round(g.revenue * rt.rate / 1000000, 2), round(g.cost * rt.rate / 1000000, 2), g.impressions,
           p.revenue_share_pct, p.min_payout, p.payment_terms, $8::int4
       FROM g JOIN publishers p ON p.id = g.publisher_id JOIN rt ON rt.currency = p.currency
       ON CONFLICT (side, month, publisher_id) DO UPDATE SET
           currency = excluded.currency, rate = excluded.rate, revenue_gross = excluded.revenue_gross,
           new_revenue = excluded.new_revenue, impressions = excluded.impressions, share_pct = excluded.share_pct,
           min_payout = excluded.min_payout, payment_terms = excluded.payment_terms, computed_at = now(),
           version = o.version + CASE WHEN (o.revenue_gross, o.new_revenue, o.share_pct, o.min_payout, o.payment_terms, o.currency)
               IS DISTINCT FROM (excluded.revenue_gross, excluded.new_revenue, excluded.share_pct, excluded.min_payout, excluded.payment_terms, excluded.currency)
             THEN 1 ELSE 0 END
         WHERE o.state = 'pending' AND (o.carried_in = 0 OR o.currency = excluded.currency)
       RETURNING (xmax = 0) AS inserted
     )
     SELECT (SELECT count(*) FROM up WHERE inserted)::int AS inserted,
            (SELECT count(*) FROM up WHERE NOT inserted)::int AS updated,
            ((SELECT count(*) FROM g) - (SELECT count(*) FROM up))::int AS kept`,
    [start, end, side, month, `${month}-01`, lastDay(month), JSON.stringify(rates), userId],
  );

  // The previous month's pending payouts under the minimum roll into this month's.
  const previous = nextMonth(month, -1);
  const under = await q<{ id: number; publisher_id: number; currency: string; payout: string; from_date: string; carried_from: unknown[] }>(
    `SELECT id, publisher_id, currency, payout::text, from_date::text, carried_from FROM payouts
     WHERE side = $1 AND month = $2 AND state = 'pending' AND payout <> 0 AND payout <= min_payout
     ORDER BY id FOR UPDATE`,
    [side, previous],
  );
  let carried = 0;
  if (under.length > 0) {
    // A receiving row for publishers without traffic this month (empty figures).
    await q(
      `INSERT INTO payouts (side, month, publisher_id, currency, from_date, to_date, share_pct, min_payout, payment_terms, updated_by)
       SELECT $1, $2, p.id, u.currency, $3::date, $4::date, p.revenue_share_pct, p.min_payout, p.payment_terms, $5::int4
       FROM jsonb_to_recordset($6::jsonb) AS u(publisher_id int, currency text) JOIN publishers p ON p.id = u.publisher_id
       ON CONFLICT (side, month, publisher_id) DO NOTHING`,
      [side, month, `${month}-01`, lastDay(month), userId, JSON.stringify(under.map((u) => ({ publisher_id: u.publisher_id, currency: u.currency })))],
    );
    const moved = await q<{ from_id: number; into_id: number }>(
      `WITH u AS (SELECT * FROM jsonb_to_recordset($3::jsonb) AS u(id int, publisher_id int, currency text, payout numeric, from_date date)),
       into_rows AS (
         UPDATE payouts o SET carried_in = o.carried_in + u.payout,
             carried_from = o.carried_from || jsonb_build_array(jsonb_build_object('id', u.id, 'month', $2::text, 'amount', u.payout::text)),
             from_date = least(o.from_date, u.from_date), version = o.version + 1, updated_at = now()
         FROM u WHERE o.side = $1 AND o.month = $4 AND o.publisher_id = u.publisher_id AND o.state = 'pending' AND o.currency = u.currency
         RETURNING o.id AS into_id, u.id AS from_id
       )
       UPDATE payouts p SET state = 'carried', carried_into = i.into_id, version = p.version + 1, updated_at = now(), updated_by = $5::int4
       FROM into_rows i WHERE p.id = i.from_id
       RETURNING p.id AS from_id, i.into_id`,
      [side, previous, JSON.stringify(under), month, userId],
    );
    carried = moved.length;
    if (moved.length > 0) {
      await q(
        `INSERT INTO audit_log (actor_id, action, entity, entity_id, before, after)
         SELECT $1::int4, 'payout.carry', 'payouts', m.from_id::text, '{"state":"pending"}'::jsonb, jsonb_build_object('state', 'carried', 'carried_into', m.into_id)
         FROM jsonb_to_recordset($2::jsonb) AS m(from_id int, into_id int)`,
        [userId, JSON.stringify(moved)],
      );
    }
  }
  return { inserted: Number(res!.inserted), updated: Number(res!.updated), kept: Number(res!.kept), carried };
}

/** Computes a side's month in one transaction. */
export async function computePayouts(database: Database, side: PayoutSide, month: string, userId: number | null): Promise<PayoutComputeResult> {
  const sources = await monthSources(database, side, month);
  return transaction(database, async (q) => {
    await q('SET LOCAL max_parallel_workers_per_gather = 0');
    return writePayouts(q, side, month, userId, sources);
  });
}

/** When the side's month was last computed (null: never). */
export async function computedAt(database: Database, side: PayoutSide, month: string): Promise<string | null> {
  const [r] = await query<{ at: Date | string | null }>(database, `SELECT max(computed_at) AS at FROM payouts WHERE side = $1 AND month = $2`, [side, month]);
  return r?.at ? new Date(r.at).toISOString() : null;
}
