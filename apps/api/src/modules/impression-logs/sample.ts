/**
 * The sampled impression-level log of a (day, network), generated from the warehouse's hourly facts
 * with one set-based statement (generate_series + deterministic hashing): every hourly fact of the
 * network that day gives a number of impressions proportional to its own (a fixed sample of the
 * day's total, at most SAMPLE_TARGET rows), each with the fact's publisher, site, ad unit, deal,
 * country, device, OS, format, size and environment, a time inside the fact's hour and a win price
 * around the fact's eCPM (a bid at or above it). So an extract agrees with the reports: the same
 * publishers, countries and price levels. The same facts always give the same rows.
 *
 * A day that is over is sampled once (`impression_log_samples.complete`); today's sample is redone
 * on each extract, as the warehouse fills in.
 */
import type { Database } from '../../db/client.ts';
import { transaction } from '../../reports-data/sql.ts';

/** Rows the demo's sample of one network's day aims at. */
export const SAMPLE_TARGET = 20_000;

const LOCK_CLASS = 24025;

/**
 * Makes sure the sample of (day, network) exists; answers its row count. Concurrent callers
 * serialise on a transaction-level advisory lock of the pair.
 */
export async function ensureSample(database: Database, day: string, networkId: number, opts: { today: string; target?: number }): Promise<number> {
  const target = opts.target ?? SAMPLE_TARGET;
  const complete = day < opts.today;
  return transaction(database, async (q) => {
    await q(`SELECT pg_advisory_xact_lock($1::int, hashtext($2::text || ':' || $3::text))`, [LOCK_CLASS, day, networkId]);
    const [have] = await q<{ rows: number; complete: boolean }>(
      `SELECT rows, complete FROM impression_log_samples WHERE log_date = $1::date AND demand_partner_id = $2`,
      [day, networkId],
    );
    if (have?.complete) return have.rows;
    if (have) await q(`DELETE FROM impression_log_rows WHERE log_date = $1::date AND demand_partner_id = $2`, [day, networkId]);
    const [out] = await q<{ n: number }>(
      `WITH facts AS (
         SELECT h.*, sum(h.impressions) OVER () AS day_total
           FROM stats_hourly h
          WHERE h.demand_partner_id = $2 AND h.impressions > 0
            AND h.ts >= $1::date::timestamptz AND h.ts < ($1::date + 1)::timestamptz
       ),
       counted AS (
         SELECT f.*,
                -- this fact's share of the sample, rounded up or down by a hash (deterministic stochastic rounding)
                floor(f.impressions::numeric * LEAST(1, $3::numeric / f.day_total)
                      + (abs(hashtextextended(f.ts::text || f.ad_unit_id || ':' || f.deal_id || ':' || f.country_id || ':' || f.device_id || ':' || f.os_id, 7)) % 1000000) / 1000000.0)::int AS n,
                (f.revenue_micros::numeric * 1000 / f.impressions) AS ecpm_micros
           FROM facts f
       ),
       expanded AS (
         SELECT c.*, g.i,
                abs(hashtextextended(c.ts::text || ':' || c.ad_unit_id || ':' || c.deal_id || ':' || c.country_id || ':' || c.device_id || ':' || c.os_id || ':' || g.i, 11)) AS h
           FROM counted c
           CROSS JOIN LATERAL generate_series(1, c.n) AS g(i)
          WHERE c.n > 0
       ),
       priced AS (
         SELECT e.*,
                e.ts + make_interval(secs => (e.h % 3600000) / 1000.0) AS at,
                -- win price around the fact's eCPM (70%..130%), to 4 decimals of the CPM
                GREATEST(100, round(e.ecpm_micros * (0.7 + ((e.h / 3600000) % 600) / 1000.0) / 100) * 100)::bigint AS win
           FROM expanded e
       ),
       ins AS (
         INSERT INTO impression_log_rows
           (log_date, demand_partner_id, seq, ts, publisher_id, site_id, ad_unit_id, deal_id, country_id, device_id, os_id,
            format_id, size_id, environment_id, bid_micros, win_micros)
         SELECT $1::date, $2, row_number() OVER (ORDER BY p.at, p.h)::int, p.at, p.publisher_id, p.site_id, p.ad_unit_id, p.deal_id,
                p.country_id, p.device_id, p.os_id, p.format_id, p.size_id, p.environment_id,
                p.win + (round(p.win * ((p.h / 2160000000) % 250) / 1000.0 / 100) * 100)::bigint, p.win
           FROM priced p
         RETURNING 1
       )
       SELECT count(*)::int AS n FROM ins`,
      [day, networkId, target],
    );
    const n = out?.n ?? 0;
    await q(
      `INSERT INTO impression_log_samples (log_date, demand_partner_id, rows, complete, generated_at)
       VALUES ($1::date, $2, $3, $4, now())
       ON CONFLICT (log_date, demand_partner_id) DO UPDATE SET rows = EXCLUDED.rows, complete = EXCLUDED.complete, generated_at = now()`,
      [day, networkId, n, complete],
    );
    return n;
  });
}
