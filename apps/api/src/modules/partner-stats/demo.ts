/**
 * Demo data of the partner-reported figures (issue 24): three SSP partners report by hand (Amazon
 * TAM, Orion Network, Ember Media); the last 30 days are entered, a few percent off the warehouse's
 * figures as partners' reports are (Orion by hand, Ember partly from an upload), and Amazon's come
 * from one APS CSV import with a saved mapping. Seeded before billing, so the months' rows bill them.
 * A few hundred rows: well under a second. Idempotent (a settings marker).
 */
import { APS_COLUMNS } from '@backoffice/core/partner-stats';
import { utcToday } from '@backoffice/core/billing-accounts';
import { createHash } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import { createRng, hashSeed } from '../../reports-data/prng.ts';
import { query, transaction } from '../../reports-data/sql.ts';

const MARKER = 'demo_partner_stats_seeded_at';
export const DEMO_MANUAL_PARTNERS = ['Amazon TAM', 'Orion Network', 'Ember Media'] as const;
export const DEMO_MAPPING = 'APS earnings report (default)';
const DAYS = 30;
const DAY_MS = 86_400_000;

export async function seedPartnerStatsDemo(database: Database, today = utcToday()): Promise<void> {
  const [done] = await query<{ value: unknown }>(database, 'SELECT value FROM settings WHERE key = $1', [MARKER]);
  if (done) return;
  const partners = await query<{ id: number; name: string }>(
    database,
    `UPDATE demand_partners SET reporting = 'manual' WHERE side = 'ssp' AND name = ANY($1::text[]) RETURNING id, name`,
    [[...DEMO_MANUAL_PARTNERS]],
  );
  const [author] = await query<{ id: number }>(database, `SELECT id FROM users WHERE mail = 'tech@adtech.example'`);
  const userId = author ? Number(author.id) : null;
  const end = Date.parse(`${today}T00:00:00Z`);
  const first = new Date(end - DAYS * DAY_MS).toISOString().slice(0, 10);
  // The warehouse's days of these partners (daily rollup): the reports start from them.
  const warehouse = await query<{ partner: number; day: string; impressions: string; revenue: string }>(
    database,
    `SELECT demand_partner_id AS partner, to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, sum(impressions)::text AS impressions, sum(revenue_micros)::text AS revenue
     FROM stats_r_partner_geo WHERE lvl = 1 AND ts >= $1::timestamptz AND ts < $2::timestamptz AND demand_partner_id = ANY($3::int4[])
     GROUP BY 1, 2`,
    [`${first}T00:00:00Z`, `${today}T00:00:00Z`, partners.map((p) => p.id)],
  );
  const wh = new Map(warehouse.map((w) => [`${w.partner}|${w.day}`, w]));
  await transaction(database, async (q) => {
    const amazon = partners.find((p) => p.name === 'Amazon TAM');
    const cols = { date: 'Date', impressions: 'Impressions', revenue: 'Earnings (USD)', currency: null, ad_unit: 'Slot Name' };
    await q(
      `INSERT INTO amazon_csv_mappings (name, columns, created_by, updated_by) VALUES ($1, $2::jsonb, $3, $3) ON CONFLICT DO NOTHING`,
      [DEMO_MAPPING, JSON.stringify(cols), userId],
    );
    for (const p of partners) {
      const days: { day: string; impressions: number; revenue: string; source: string }[] = [];
      for (let t = end - DAYS * DAY_MS; t < end; t += DAY_MS) {
        const day = new Date(t).toISOString().slice(0, 10);
        const rng = createRng(hashSeed('partner-stats', p.id, day));
        const w = wh.get(`${p.id}|${day}`);
        // Partners report a little under or over what we counted (discrepancy of -4%..+2%).
        const factor = 0.96 + rng() * 0.06;
        const baseImps = w ? Number(w.impressions) : Math.round(150_000 + rng() * 60_000);
        const baseMicros = w ? Number(w.revenue) : Math.round(baseImps * (1.2 + rng() * 0.6) * 1000);
        const micros = BigInt(Math.round(baseMicros * factor));
        const revenue = `${micros / 1_000_000n}.${(micros % 1_000_000n).toString().padStart(6, '0').slice(0, 2)}`;
        const source = p.name === 'Amazon TAM' ? 'amazon_csv' : p.name === 'Ember Media' && t < end - 12 * DAY_MS ? 'upload' : 'manual';
        days.push({ day, impressions: Math.round(baseImps * factor), revenue, source });
      }
      let importId: number | null = null;
      if (p.id === amazon?.id) {
        // The import that brought Amazon's days: one APS file (its header and the first lines keep the shape).
        const text = `${APS_COLUMNS.join(',')}\n${days.map((d) => `${d.day},homepage_leaderboard_728x90,4f1c2b9e-2a51-4d7e-9c1e-6b1a0f3d7a21,728x90,${d.impressions},${Math.round(d.impressions / 1900)},${d.revenue},${((Number(d.revenue) / Math.max(1, d.impressions)) * 1000).toFixed(2)}`).join('\n')}`;
        const [imp] = await q<{ id: number }>(
          `INSERT INTO partner_stat_imports (demand_partner_id, file_name, file_hash, mapping_name, rows, days, first_day, last_day, inserted, created_by, created_at)
           VALUES ($1, $2, $3, $4, $5, $5, $6::date, $7::date, $5, $8, $9::timestamptz) RETURNING id`,
          [p.id, `aps_earnings_${days[0]!.day}_${days.at(-1)!.day}.csv`, createHash('sha256').update(text).digest('hex'), DEMO_MAPPING, days.length, days[0]!.day, days.at(-1)!.day, userId, new Date(end + 9.5 * 3_600_000 - DAY_MS).toISOString()],
        );
        importId = Number(imp!.id);
      }
      await q(
        `INSERT INTO partner_stats (day, demand_partner_id, impressions, revenue, currency, source, import_id, created_by, updated_by)
         SELECT k.day, $1, k.impressions, k.revenue, 'USD', k.source, $6::int4, $7::int4, $7::int4
         FROM unnest($2::date[], $3::int8[], $4::numeric[], $5::text[]) AS k(day, impressions, revenue, source)
         ON CONFLICT (demand_partner_id, day) DO NOTHING`,
        [p.id, days.map((d) => d.day), days.map((d) => d.impressions), days.map((d) => d.revenue), days.map((d) => d.source), importId, userId],
      );
    }
    await q(`INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, [MARKER, new Date().toISOString()]);
  });
}
