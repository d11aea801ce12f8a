/**
 * Demo SSP logs: a cheap sample (1,200 auctions over the last 48 hours, written in a few batched
 * statements) built by the same generator the sampler uses, from the seeded publishers, ad units,
 * partners, deals and floors; and the sampling setting's history (a past 25 % run on three
 * partners that ended, then the setting left at 10 % for all partners, off). Runs once (it does
 * nothing when logs exist).
 */
import type { Database } from '../../db/client.ts';
import { query, transaction } from '../../reports-data/sql.ts';
import { auctionRow, insertLogRows, loadInventory, type LogRow } from './generate.ts';
import { SAMPLING_ENTITY } from './service.ts';
import { auctionSeed } from '@backoffice/core/ssp-logs-auction';

const DEMO_ROWS = 1200;
const HOURS = 48;

export async function seedSspLogsDemo(database: Database, now = Date.now()): Promise<number> {
  const [any] = await query(database, 'SELECT 1 FROM ssp_auction_logs LIMIT 1');
  if (any) return 0;
  return transaction(database, async (q) => {
    const inv = await loadInventory(q, null);
    if (inv.partners.length === 0 || inv.units.length === 0) return 0;
    const rows: LogRow[] = [];
    const span = HOURS * 3600_000;
    for (let k = 0; k < DEMO_ROWS; k++) {
      const partner = inv.partners[(k * 7) % inv.partners.length]!;
      const at = now - span + Math.floor((k * span) / DEMO_ROWS) + ((k * 7919) % 60_000);
      const row = auctionRow(inv, partner, at, auctionSeed(at, partner.id, k), 'demo');
      if (row) rows.push(row);
    }
    await insertLogRows(q, rows);

    // The setting's history: a run of 25 % on three partners two days ago, ended; then 10 % for all, off.
    const [tech] = await q<{ id: number }>(`SELECT id FROM users WHERE mail LIKE 'tech.supply@%' OR mail LIKE 'tech@%' ORDER BY mail DESC LIMIT 1`);
    const actor = tech?.id ?? null;
    const three = inv.partners.slice(0, 3).map((p) => p.id);
    const start = new Date(now - 50 * 3600_000);
    const end = new Date(start.getTime() + 120 * 60_000);
    const base = { duration_mode: 'minutes', until: null, partner_ids: [] as number[], started_at: null as string | null, ends_at: null as string | null };
    const v1 = { ...base, active: false, sample_rate_pct: 10, duration_minutes: 60, partner_scope: 'all', version: 1 };
    const v2 = { ...base, active: true, sample_rate_pct: 25, duration_minutes: 120, partner_scope: 'partners', partner_ids: three, started_at: start.toISOString(), ends_at: end.toISOString(), version: 2 };
    const v3 = { ...v2, active: false, version: 3 };
    const v4 = { ...v1, started_at: v2.started_at, ends_at: v2.ends_at, version: 4 };
    const entry = (action: string, before: object, after: object, at: Date, who: number | null) =>
      q(
        `INSERT INTO audit_log (actor_id, ip, action, entity, entity_id, before, after, at) VALUES ($1, $2, $3, $4, '1', $5::jsonb, $6::jsonb, $7::timestamptz)`,
        [who, who === null ? null : '10.20.0.14', action, SAMPLING_ENTITY, JSON.stringify(before), JSON.stringify(after), at.toISOString()],
      );
    await entry('ssp_logs.parametrization_update', v1, v2, start, actor);
    await entry('ssp_logs.sampling_ended', v2, v3, end, null);
    await entry('ssp_logs.parametrization_update', v3, v4, new Date(end.getTime() + 3600_000), actor);
    await q(
      `UPDATE ssp_log_sampling SET active = false, sample_rate_pct = 10, duration_mode = 'minutes', duration_minutes = 60, partner_scope = 'all', partner_ids = '[]'::jsonb,
              started_at = $1::timestamptz, ends_at = $2::timestamptz, sampled_rows = $3, version = 4, updated_by = $4, updated_at = $5::timestamptz WHERE id = 1`,
      [start.toISOString(), end.toISOString(), Math.round(rows.length / 8), actor, new Date(end.getTime() + 3600_000).toISOString()],
    );
    return rows.length;
  });
}
