/**
 * Demo impression-log requests: a short history for the screen (two extracts whose files have
 * expired, one that failed, one still pending for "Process pending"). Only request rows: the
 * sampled log itself is generated when an extract runs, so seeding costs a few inserts.
 */
import { exportTimestamp } from '@backoffice/core/export-name';
import { IMPRESSION_LOG_FILE_TTL_HOURS, impressionLogFileBase } from '@backoffice/core/impression-logs';
import type { Database } from '../../db/client.ts';
import { query } from '../../reports-data/sql.ts';

const DAY_MS = 86_400_000;
const day = (now: number, back: number) => new Date(now - back * DAY_MS).toISOString().slice(0, 10);

export async function seedImpressionLogsDemo(database: Database, now = Date.now()): Promise<void> {
  const [{ n } = { n: 0 }] = await query<{ n: number }>(database, `SELECT count(*)::int AS n FROM impression_log_requests`);
  if (n > 0) return;
  const partners = await query<{ id: number; name: string }>(
    database,
    `SELECT dp.id, dp.name FROM demand_partners dp WHERE dp.name IN ('Nimbus Exchange', 'BlueOrbit DSP', 'Kappa Media', 'Amazon TAM') ORDER BY dp.id`,
  );
  const users = await query<{ id: number; mail: string }>(database, `SELECT id, mail FROM users WHERE mail LIKE 'tech@%' OR mail LIKE 'admin@%' ORDER BY id`);
  if (partners.length < 3 || users.length === 0) return;
  const tech = users.find((u) => u.mail.startsWith('tech@'))?.id ?? users[0]!.id;
  const admin = users.find((u) => u.mail.startsWith('admin@'))?.id ?? tech;
  const [p1, p2, p3] = partners as [{ id: number; name: string }, { id: number; name: string }, { id: number; name: string }];
  const at = (hoursBack: number) => new Date(now - hoursBack * 3_600_000).toISOString();
  const stamp = (hoursBack: number) => exportTimestamp(new Date(now - hoursBack * 3_600_000), 'UTC');
  const rows = [
    {
      date: day(now, 9), partner: p1, by: tech, status: 'expired', rows: 18_342, bytes: 612_904, hoursBack: 8 * 24 + 5,
      columns: ['timestamp', 'request_id', 'publisher', 'site', 'country', 'device', 'win_price', 'currency'],
      filters: [{ field: 'country', values: ['ES', 'PT', 'FR'] }],
    },
    {
      date: day(now, 6), partner: p2, by: admin, status: 'expired', rows: 4_120, bytes: 151_733, hoursBack: 5 * 24 + 2,
      columns: ['timestamp', 'request_id', 'publisher', 'ad_unit', 'format', 'size', 'deal_id', 'bid_price', 'win_price', 'currency'],
      filters: [{ field: 'deal', value: 'deal' }, { field: 'min_win_price', value: '1.50' }],
    },
    {
      date: day(now, 3), partner: p3, by: tech, status: 'failed', rows: 0, bytes: null, hoursBack: 50,
      columns: ['timestamp', 'request_id', 'country', 'device', 'os', 'win_price'],
      filters: [{ field: 'device', values: ['phone', 'tablet'] }],
      error: 'ENOSPC: no space left on device, write',
    },
    {
      date: day(now, 1), partner: p1, by: tech, status: 'pending', rows: 0, bytes: null, hoursBack: 1,
      columns: ['timestamp', 'request_id', 'publisher', 'site', 'country', 'device', 'format', 'size', 'win_price', 'currency'],
      filters: [{ field: 'country', values: ['US', 'GB'] }, { field: 'format', values: ['video'] }],
    },
  ];
  for (const r of rows) {
    const finished = r.status === 'pending' ? null : at(r.hoursBack - 0.05);
    const expired = r.status === 'expired';
    await query(
      database,
      `INSERT INTO impression_log_requests
         (log_date, demand_partner_id, columns, filters, status, rows_done, rows_total, bytes, storage_key, file_name, error,
          requested_by, requested_at, started_at, finished_at, expires_at)
       VALUES ($1::date, $2, $3::jsonb, $4::jsonb, $5, $6, $7, $8, NULL, $9, $10, $11, $12::timestamptz, $13::timestamptz, $14::timestamptz, $15::timestamptz)`,
      [
        r.date, r.partner.id, JSON.stringify(r.columns), JSON.stringify(r.filters), r.status, r.rows,
        r.status === 'pending' ? null : r.rows, r.bytes,
        expired ? `${impressionLogFileBase(r.partner.name, r.date)}_${stamp(r.hoursBack)}.csv.gz` : null,
        r.error ?? null, r.by, at(r.hoursBack), r.status === 'pending' ? null : at(r.hoursBack - 0.02), finished,
        expired ? new Date(Date.parse(finished!) + IMPRESSION_LOG_FILE_TTL_HOURS * 3_600_000).toISOString() : null,
      ],
    );
  }
}
