/**
 * Discrepancy demo data (issue 24): past requests of the tech team against the partners' own
 * reports, in each state a request rests in:
 * - applied: the review of two performance advertisers' month to a week ago (last month's early in
 *   a month; their reports a little under ours, two days far off accepted as theirs or split);
 *   applying wrote the open billing rows and named the confirmed ones it skipped;
 * - ready: this month to yesterday for three partners (one of them SSP), a couple of days over
 *   the tolerance awaiting a decision;
 * - reviewed: one partner of this month, every day within the tolerance;
 * - failed: a request whose run stopped half-way (a statement timeout), retryable.
 * Our figures are the job's own (`oursOfDay`), computed once per day for every request; the
 * partners' figures are ours moved by a deterministic few percent. Idempotent (a settings marker).
 */
import { requestDays, toBasisPoints } from '@backoffice/core/discrepancy';
import type { Database } from '../../db/client.ts';
import { createRng, hashSeed } from '../../reports-data/prng.ts';
import { query, transaction, type QueryFn } from '../../reports-data/sql.ts';
import { applyRequest, compareDay, decideRows, oursOfDay, writeDayRows } from './service.ts';

const MARKER = 'discrepancy_demo_seeded_at';
const DAY_MS = 86_400_000;

interface DemoRequest {
  key: string;
  date: string;
  networks: number[];
  state: 'applied' | 'ready' | 'reviewed' | 'failed';
  file: string | null;
  /** Days whose report is far off: day → factor of ours. */
  off: Record<number, number>;
  /** The usual spread of the partner's report around ours (fraction). */
  spread: number;
  daysDone?: number;
  error?: string;
  ageHours: number;
}

export async function seedDiscrepancyDemo(database: Database, now = Date.now()): Promise<void> {
  const [done] = await query(database, `SELECT 1 FROM settings WHERE key = $1`, [MARKER]);
  if (done) return;
  const lastMonth = new Date(Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  // Performance advertisers with traffic; first one whose last month is still open (applying writes
  // it), then one whose last month is confirmed (applying names it as skipped).
  const perf = await query<{ id: number }>(
    database,
    `SELECT d.id FROM demand_partners d WHERE d.side = 'performance' AND EXISTS (SELECT 1 FROM performance_daily f WHERE f.advertiser_id = d.id)
     ORDER BY EXISTS (SELECT 1 FROM billing_rows b WHERE b.counterparty_type = 'demand_partner' AND b.counterparty_id = d.id AND b.month = $1 AND b.kind = 'advertiser' AND b.state <> 'open'), d.id
     LIMIT 3`,
    [lastMonth],
  );
  const ssp = await query<{ id: number }>(database, `SELECT id FROM demand_partners WHERE side = 'ssp' AND status = 'live' ORDER BY id LIMIT 1`);
  const [tech] = await query<{ id: number }>(database, `SELECT id FROM users WHERE mail LIKE 'tech@%' ORDER BY id LIMIT 1`);
  if (perf.length < 2) return;
  const p = perf.map((r) => Number(r.id));
  const today = new Date(now).toISOString().slice(0, 10);
  const yesterday = new Date(now - DAY_MS).toISOString().slice(0, 10);
  const lastMonthEnd = new Date(Date.parse(`${today.slice(0, 8)}01T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
  // The applied review: the month to a week ago while this month's rows are open (applying writes
  // them), else last month (whose confirmed rows applying names as skipped).
  const weekAgo = new Date(now - 8 * DAY_MS).toISOString().slice(0, 10);
  const appliedDate = weekAgo.slice(0, 7) === today.slice(0, 7) ? weekAgo : lastMonthEnd;
  const requests: DemoRequest[] = [
    { key: 'demo-applied', date: appliedDate, networks: p.slice(0, 2), state: 'applied', file: `partner_report_${lastMonthEnd.slice(0, 7)}.csv`, off: { 4: 0.84, 17: 1.13 }, spread: 0.03, ageHours: 24 * 6 },
    { key: 'demo-ready', date: yesterday, networks: [...p.slice(0, 3), ...ssp.map((r) => Number(r.id))], state: 'ready', file: `networks_${yesterday}.csv`, off: { 2: 0.82, 6: 1.16 }, spread: 0.04, ageHours: 5 },
    { key: 'demo-reviewed', date: yesterday, networks: [p[1]!], state: 'reviewed', file: null, off: {}, spread: 0.02, ageHours: 30 },
    { key: 'demo-failed', date: yesterday, networks: [p[0]!], state: 'failed', file: `nordic_report_${yesterday}.csv`, off: {}, spread: 0.03, daysDone: 3, error: 'canceling statement due to statement timeout', ageHours: 2 },
  ];
  const who = { userId: tech ? Number(tech.id) : null, simulatedById: null, simulatedRoleId: null, ip: '10.0.4.21' };
  const sides = new Map((await query<{ id: number; side: string }>(database, `SELECT id, side FROM demand_partners WHERE id = ANY($1::int4[])`, [[...p, ...ssp.map((r) => Number(r.id))]])).map((r) => [Number(r.id), r.side]));
  const allIds = [...sides.keys()];
  // Our figures once per day for every request.
  const oursByDay = new Map<string, Awaited<ReturnType<typeof oursOfDay>>>();
  const ids: number[] = [];
  await transaction(database, async (q: QueryFn) => {
    const daySides = new Map<string, Set<string>>();
    for (const r of requests) for (const day of requestDays(r.date)) for (const n of r.networks) daySides.set(day, (daySides.get(day) ?? new Set()).add(sides.get(n) ?? 'ssp'));
    for (const [day, s] of daySides) oursByDay.set(day, await oursOfDay(q, day, allIds, [...s]));
    for (const r of requests) {
      const days = requestDays(r.date);
      const total = days.length;
      const doneDays = r.daysDone ?? total;
      const [row] = await q<{ id: number }>(
        `INSERT INTO discrepancy_requests (idem_key, date, from_date, month, network_ids, source, file_name, tolerance_pct, state, days_done, days_total, error, attempts,
           created_by, created_at, started_at, finished_at, updated_at)
         VALUES ($1, $2::date, $3::date, $4, $5::jsonb, $6, $7, 10, 'running', $8, $9, $10, 1, $11, $12::timestamptz, $12::timestamptz + interval '4 seconds',
           $12::timestamptz + interval '19 seconds', $12::timestamptz + interval '19 seconds')
         ON CONFLICT (idem_key) DO NOTHING RETURNING id`,
        [r.key, r.date, days[0], r.date.slice(0, 7), JSON.stringify(r.networks), r.file ? 'csv' : 'typed', r.file, doneDays, total, r.error ?? null, who.userId, new Date(now - r.ageHours * 3_600_000).toISOString()],
      );
      if (!row) continue;
      const id = Number(row.id);
      ids.push(id);
      const figures = days.flatMap((day, di) =>
        r.networks.map((n) => {
          const o = oursByDay.get(day)?.get(n) ?? { impressions: 0n, revenue: 0n };
          const rng = createRng(hashSeed('disc', r.key, day, n));
          const factor = r.off[di] !== undefined && n === r.networks[0] ? r.off[di]! : 1 - r.spread * rng();
          const permille = BigInt(Math.round(factor * 1_000_000));
          return { d: day, n, i: ((o.impressions * permille) / 1_000_000n).toString(), r: (Number((o.revenue * permille) / 1_000_000n) / 1e6).toFixed(2) };
        }),
      );
      await q(
        `INSERT INTO discrepancy_figures (request_id, day, network_id, impressions, revenue)
         SELECT $1::int4, f.d::date, f.n, f.i::int8, f.r::numeric FROM jsonb_to_recordset($2::jsonb) AS f(d text, n int, i text, r text)`,
        [id, JSON.stringify(figures)],
      );
      for (const day of days.slice(0, doneDays)) {
        const theirs = figures.filter((f) => f.d === day).map((f) => ({ network_id: f.n, impressions: f.i, revenue: f.r }));
        await writeDayRows(q, id, day, compareDay(oursByDay.get(day)!, theirs, sides, toBasisPoints('10')));
      }
      const state = r.state === 'failed' ? 'failed' : `CASE WHEN EXISTS (SELECT 1 FROM discrepancy_rows WHERE request_id = $1 AND flagged) THEN 'ready' ELSE 'reviewed' END`;
      await q(`UPDATE discrepancy_requests SET state = ${r.state === 'failed' ? `'${state}'` : state}, finished_at = CASE WHEN $2 THEN NULL ELSE finished_at END WHERE id = $1`, [id, r.state === 'failed']);
    }
    await q(`INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, [MARKER, new Date(now).toISOString()]);
  });
  // Last month's review: its flagged rows decided (theirs, then a split) and applied to billing.
  const [applied] = await query<{ id: number }>(database, `SELECT id FROM discrepancy_requests WHERE idem_key = 'demo-applied'`);
  if (applied && ids.includes(Number(applied.id))) {
    const id = Number(applied.id);
    const flagged = await query<{ id: number; version: number }>(database, `SELECT id, version FROM discrepancy_rows WHERE request_id = $1 AND flagged ORDER BY day, id`, [id]);
    if (flagged.length > 0) await decideRows(database, id, { rows: flagged.slice(0, 1), decision: 'theirs' }, who);
    if (flagged.length > 1) await decideRows(database, id, { rows: flagged.slice(1), decision: 'split', split_pct: '50' }, who);
    const [req] = await query<{ state: string; version: number }>(database, `SELECT state, version FROM discrepancy_requests WHERE id = $1`, [id]);
    if (req?.state === 'reviewed') await applyRequest(database, id, Number(req.version), who);
  }
}
