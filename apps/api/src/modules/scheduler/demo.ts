/**
 * The scheduler's demo data: five jobs of an ad-tech back office (owned by the tech lead and the
 * admin) and about two weeks of run history, mostly successful with a couple of realistic
 * failures. Three statements (the jobs, the runs of each job's own occurrences, the jobs' last
 * run), so it costs a few milliseconds; seeded once (skipped when any job exists).
 */
import { DEMO_MAILS } from '../../db/demo-data.ts';
import type { Database } from '../../db/client.ts';
import { query } from '../../reports-data/sql.ts';
import { runsBetween } from '@backoffice/core/scheduler';
import { nextRunOf } from './service.ts';

const HISTORY_DAYS = 14;

interface DemoJob {
  name: string;
  cron: string;
  timezone: string;
  task_type: string;
  params: object;
  enabled: boolean;
  owner: 'tech' | 'admin';
}

const JOBS: DemoJob[] = [
  {
    name: 'Daily revenue by partner → sales team',
    cron: '0 7 * * *',
    timezone: 'Europe/Madrid',
    task_type: 'dataviewer.send',
    params: { dataviewer_id: 0, recipients: ['sales@adtech.example', 'carmen.ortega@adtech.example'], format: 'xlsx', range_preset: 'yesterday' },
    enabled: true,
    owner: 'admin',
  },
  { name: 'Firewall: expire allow-list entries', cron: '0 * * * *', timezone: 'UTC', task_type: 'firewall.expire', params: {}, enabled: true, owner: 'tech' },
  { name: 'Monthly performance billing rows', cron: '0 6 1 * *', timezone: 'Europe/Madrid', task_type: 'billing.build_rows', params: { side: 'performance', month: 'previous' }, enabled: true, owner: 'admin' },
  { name: 'Nightly ads.txt check', cron: '30 3 * * *', timezone: 'Europe/Madrid', task_type: 'ads_txt.check', params: { publisher_id: null }, enabled: true, owner: 'tech' },
  { name: 'SSP billing rows (mid-month preview)', cron: '0 8 15 * *', timezone: 'Europe/Madrid', task_type: 'billing.build_rows', params: { side: 'ssp', month: 'current' }, enabled: false, owner: 'tech' },
];

export async function seedSchedulerDemo(database: Database, now = Date.now()): Promise<void> {
  const [existing] = await query<{ n: number }>(database, 'SELECT count(*)::int AS n FROM scheduled_jobs');
  if (Number(existing?.n ?? 0) > 0) return;
  const people = await query<{ id: number; mail: string }>(database, 'SELECT id, mail FROM users WHERE mail = ANY($1::text[])', [[DEMO_MAILS.tech, DEMO_MAILS.admin]]);
  const idOf = (key: 'tech' | 'admin') => people.find((p) => p.mail === DEMO_MAILS[key])?.id ?? null;
  // The DataViewer the daily send mails: the admin's "Revenue by partner", saved here when missing.
  let [dv] = await query<{ id: number }>(database, `SELECT id FROM dataviewers WHERE name = 'Revenue by partner' ORDER BY id LIMIT 1`);
  if (!dv && idOf('admin') !== null) {
    [dv] = await query<{ id: number }>(
      database,
      `INSERT INTO dataviewers (owner_id, name, definition) VALUES ($1, 'Revenue by partner', $2::jsonb) RETURNING id`,
      [idOf('admin'), JSON.stringify({ preset: 'yesterday', range: { start: '2026-01-01', end: '2026-01-01' }, timezone: 'Europe/Madrid', dimensions: ['demand_partner'], metrics: ['revenue', 'impressions', 'ecpm'], filters: [], sort: [{ field: 'revenue', dir: 'desc' }] })],
    );
  }
  const jobs = JOBS.filter((j) => j.task_type !== 'dataviewer.send' || dv).map((j) => ({
    ...j,
    params: j.task_type === 'dataviewer.send' ? { ...j.params, dataviewer_id: dv!.id } : j.params,
    owner_id: idOf(j.owner),
    next_run_at: nextRunOf(j, now)?.toISOString() ?? null,
  }));
  const inserted = await query<{ id: number; task_type: string; cron: string; timezone: string; enabled: boolean }>(
    database,
    `INSERT INTO scheduled_jobs (name, cron, timezone, task_type, params, enabled, owner_id, next_run_at, created_by, updated_by, created_at, updated_at)
     SELECT j.name, j.cron, j.timezone, j.task_type, j.params, j.enabled, j.owner_id, j.next_run_at, j.owner_id, j.owner_id,
            $2::timestamptz - interval '20 days', $2::timestamptz - interval '20 days'
     FROM jsonb_to_recordset($1::jsonb) AS j(name text, cron text, timezone text, task_type text, params jsonb, enabled boolean, owner_id int, next_run_at timestamptz)
     RETURNING id, task_type, cron, timezone, enabled`,
    [JSON.stringify(jobs), new Date(now).toISOString()],
  );
  // The last two weeks' occurrences of each enabled job, from its own expression and zone.
  const occurrences = inserted
    .filter((j) => j.enabled)
    // A monthly job's history reaches back two months, so it has runs to show too.
    .flatMap((j) =>
      runsBetween(j.cron, j.timezone, now - (j.cron.split(' ')[2] === '*' ? HISTORY_DAYS : 62) * 86_400_000, now - 60_000).map((at) => ({ job_id: j.id, task_type: j.task_type, at })),
    );
  // Two weeks of history: hourly firewall sweeps, daily sends and ads.txt checks, the 1st's billing
  // build. Two failures with the log a person would read: an SMTP refusal and unreachable files.
  await query(
    database,
    `WITH occ AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS o(job_id int, task_type text, at timestamptz)),
     shaped AS (
       SELECT occ.*, row_number() OVER (PARTITION BY job_id ORDER BY at DESC) AS back,
         CASE task_type WHEN 'firewall.expire' THEN 180 + (extract(epoch FROM at)::int % 400)
                        WHEN 'dataviewer.send' THEN 2400 + (extract(epoch FROM at)::int % 3100)
                        WHEN 'ads_txt.check' THEN 41000 + (extract(epoch FROM at)::int % 9000)
                        ELSE 8600 END AS ms
       FROM occ
     )
     INSERT INTO scheduled_job_runs (job_id, trigger, status, scheduled_for, queued_at, started_at, finished_at, duration_ms, progress, attempts, instance, log, error, result)
     SELECT job_id, 'schedule', CASE WHEN failed THEN 'failed' ELSE 'succeeded' END, at, at, at + interval '1 second',
            at + interval '1 second' + ms * interval '1 millisecond', ms, CASE WHEN failed THEN 40 ELSE 100 END, 1, 'bo-api-1:4120:a1b2c3',
            '[' || to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '] Queued by the schedule' || chr(10) ||
            '[' || to_char((at + interval '1 second') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '] Started on bo-api-1:4120:a1b2c3' || chr(10) ||
            CASE task_type
              WHEN 'firewall.expire' THEN '[' || st || '] Disabling expired allow-list entries' || chr(10) || '[' || st || '] ' || CASE WHEN back % 5 = 0 THEN 'Expired 1 entry' ELSE 'No entry had expired' END || chr(10) || '[' || st || '] Allow-list applied' || chr(10)
              WHEN 'dataviewer.send' THEN '[' || st || '] Rendering saved DataViewer (yesterday, xlsx) for 2 recipient(s)' || chr(10) ||
                CASE WHEN failed THEN '[' || st || '] SMTP 451 4.7.1 mail.adtech.example: temporary local problem, try again later' || chr(10)
                     ELSE '[' || st || '] Sent ' || (180 + back * 7) || ' row(s) to sales@adtech.example, carmen.ortega@adtech.example' || chr(10) END
              WHEN 'ads_txt.check' THEN '[' || st || '] Checking ads.txt of every active publisher' || chr(10) ||
                CASE WHEN failed THEN '[' || st || '] 212 of 640 properties checked' || chr(10) || '[' || st || '] getaddrinfo EAI_AGAIN cdn.publisher-network.example (DNS resolver timeout)' || chr(10)
                     ELSE '[' || st || '] 640 checked: ' || (598 + back % 9) || ' verified, ' || (30 - back % 9) || ' missing our line, 12 unreachable' || chr(10) END
              ELSE '[' || st || '] Building performance billing rows for the previous month' || chr(10) || '[' || st || '] advertiser: 46 new, 0 updated, 0 kept (not open), 0 set to 0' || chr(10) || '[' || st || '] supply: 38 new, 0 updated, 0 kept (not open), 0 set to 0' || chr(10)
            END ||
            '[' || to_char((at + interval '1 second' + ms * interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '] ' ||
            CASE WHEN failed THEN 'Failed: ' || err ELSE 'Succeeded' END || chr(10),
            CASE WHEN failed THEN err END,
            CASE WHEN failed THEN NULL ELSE '{}'::jsonb END
     FROM (
       SELECT shaped.*,
         (task_type = 'dataviewer.send' AND back = 6) OR (task_type = 'ads_txt.check' AND back = 1) AS failed,
         CASE task_type WHEN 'dataviewer.send' THEN 'SMTP 451 4.7.1 temporary local problem' ELSE 'getaddrinfo EAI_AGAIN cdn.publisher-network.example' END AS err,
         to_char((at + interval '2 seconds') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS st
       FROM shaped
     ) s
     ORDER BY at`,
    [JSON.stringify(occurrences)],
  );
  await query(
    database,
    `UPDATE scheduled_jobs j SET last_run_at = r.started_at, last_status = r.status
     FROM (SELECT DISTINCT ON (job_id) job_id, started_at, status FROM scheduled_job_runs ORDER BY job_id, id DESC) r
     WHERE r.job_id = j.id`,
  );
}
