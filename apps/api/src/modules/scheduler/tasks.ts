/**
 * The scheduler's task registry: what each task type runs, calling the modules' own code (the
 * DataViewer schedules' send, the firewall's expiry sweep, billing's row build, the ads.txt check).
 * Parameters arrive checked with the task type's schema (@backoffice/core/scheduler TASK_PARAMS).
 *
 * Adding a task is one entry here plus its id, parameter schema and form fields in core.
 *
 * `discrepancy.run` requests a discrepancy review (the discrepancy module's own request, as the
 * screen makes it) for a date, comparing our figures with those the partners reported by hand or
 * through the Amazon CSV importer (partner_stats, decision 034): the scheduled counterpart of
 * uploading their CSV. The request is then queued and run like any other (the discrepancy sweep
 * picks it up within a minute) and waits on /process/discrepancy for a person's review.
 */
import type { TaskParams, TaskType } from '@backoffice/core/scheduler';
import { billingMonthOf } from '@backoffice/core/scheduler';
import { requestDays } from '@backoffice/core/discrepancy';
import { localDateOf, wallTimeOf } from '@backoffice/core/time-zones';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { computeMonth } from '../billing/compute.ts';
import { requestDiscrepancy } from '../discrepancy/service.ts';
import { query } from '../../reports-data/sql.ts';
import type { ScheduleRow } from '../dataviewer-schedules/repo.ts';
import { sendSchedule } from '../dataviewer-schedules/service.ts';
import { firewallServiceFor } from '../firewall/service.ts';
import { checkAdsTxt } from '../publishers/ads-txt-check.ts';

/** What a task gets besides its parameters. */
export interface TaskContext {
  ctx: AppContext;
  logger: FastifyBaseLogger;
  job: { id: number; name: string; timezone: string; ownerId: number | null };
  runId: number;
  /** The occurrence (schedule) or the moment it was asked for, epoch ms. */
  runMs: number;
  /** Appends a line to the run's log (the screen shows it live). */
  log(line: string): Promise<void>;
  /** 0-100. */
  progress(pct: number): Promise<void>;
}

export interface TaskDefinition<T extends TaskType = TaskType> {
  id: T;
  /** i18n key of its name. */
  label: string;
  /** Runs it; throws on failure (the message, or an i18n key, is the run's error). Its result is stored. */
  run(params: TaskParams<T>, tc: TaskContext): Promise<object>;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

const dataviewerSend: TaskDefinition<'dataviewer.send'> = {
  id: 'dataviewer.send',
  label: 'scheduler.task.dataviewer.send',
  async run(p, tc) {
    await tc.log(`Rendering saved DataViewer #${p.dataviewer_id} (${p.range_preset}, ${p.format}) for ${p.recipients.length} recipient(s)`);
    const local = wallTimeOf(tc.runMs, tc.job.timezone);
    const now = new Date();
    // The DataViewer schedules' own send (report → attachment → mail), given this job as a schedule.
    const row: ScheduleRow = {
      id: 0,
      dataviewerId: p.dataviewer_id,
      createdById: tc.job.ownerId ?? 0,
      frequency: 'daily',
      weekday: null,
      monthDay: null,
      timeOfDay: `${pad2(local.hour)}:${pad2(local.minute)}`,
      timezone: tc.job.timezone,
      rangePreset: p.range_preset,
      format: p.format,
      recipients: p.recipients,
      locale: 'en',
      enabled: true,
      nextRunAt: null,
      claimedUntil: null,
      claimedBy: null,
      lastRunAt: null,
      lastStatus: null,
      lastRows: null,
      lastError: null,
      lastRange: null,
      createdAt: now,
      updatedAt: now,
    };
    const sent = await sendSchedule(tc.ctx, row, tc.runMs, tc.logger);
    if (sent.status === 'error') throw new Error(sent.error ?? 'dvs.send_failed');
    await tc.log(
      sent.status === 'empty'
        ? `Report ${sent.range?.start} – ${sent.range?.end} had no rows: sent "export empty" to ${p.recipients.join(', ')}`
        : `Sent ${sent.rows} row(s) for ${sent.range?.start} – ${sent.range?.end} to ${p.recipients.join(', ')}`,
    );
    return { status: sent.status, rows: sent.rows, range: sent.range };
  },
};

const firewallExpire: TaskDefinition<'firewall.expire'> = {
  id: 'firewall.expire',
  label: 'scheduler.task.firewall.expire',
  async run(_p, tc) {
    const service = firewallServiceFor(tc.ctx);
    await tc.log('Disabling expired allow-list entries');
    const expired = await service.expireDue();
    await tc.log(expired.length > 0 ? `Expired ${expired.length} entr${expired.length === 1 ? 'y' : 'ies'}: #${expired.join(', #')}` : 'No entry had expired');
    await tc.progress(50);
    const applied = await service.rebuild(tc.logger);
    if (!applied.ok) throw new Error(applied.key);
    await tc.log('Allow-list applied');
    return { expired, applied: applied.ok };
  },
};

const billingBuild: TaskDefinition<'billing.build_rows'> = {
  id: 'billing.build_rows',
  label: 'scheduler.task.billing.build_rows',
  async run(p, tc) {
    const month = billingMonthOf(p.month, tc.runMs, tc.job.timezone);
    await tc.log(`Building ${p.side} billing rows for ${month}`);
    const result = await computeMonth(tc.ctx.database, p.side, month, tc.job.ownerId);
    for (const [kind, r] of Object.entries(result)) {
      await tc.log(`${kind}: ${r.inserted} new, ${r.updated} updated, ${r.kept} kept (not open), ${r.zeroed} set to 0`);
    }
    return { side: p.side, month, ...result };
  },
};

const adsTxtCheck: TaskDefinition<'ads_txt.check'> = {
  id: 'ads_txt.check',
  label: 'scheduler.task.ads_txt.check',
  async run(p, tc) {
    await tc.log(p.publisher_id === null ? 'Checking ads.txt of every active publisher' : `Checking ads.txt of publisher #${p.publisher_id}`);
    const result = await checkAdsTxt(tc.ctx, p.publisher_id === null ? {} : { publisherId: p.publisher_id });
    await tc.log(`${result.checked} checked: ${result.verified} verified, ${result.missing_line} missing our line, ${result.unreachable} unreachable`);
    return { ...result };
  },
};

const discrepancyRun: TaskDefinition<'discrepancy.run'> = {
  id: 'discrepancy.run',
  label: 'scheduler.task.discrepancy.run',
  async run(p, tc) {
    const today = localDateOf(tc.runMs, tc.job.timezone);
    const date = p.date ?? new Date(Date.parse(`${today}T00:00:00Z`) + (p.date_offset ?? 0) * 86_400_000).toISOString().slice(0, 10);
    const days = requestDays(date);
    await tc.log(`Reading the partners' reported figures of ${days[0]} to ${date}${p.network_ids.length ? ` for ${p.network_ids.length} network(s)` : ''}`);
    const figures = await query<{ day: string; network: number; impressions: string; revenue: string }>(
      tc.ctx.database,
      `SELECT day::text AS day, demand_partner_id AS network, sum(impressions)::text AS impressions, sum(revenue)::text AS revenue
       FROM partner_stats
       WHERE day >= $1::date AND day <= $2::date AND (cardinality($3::int4[]) = 0 OR demand_partner_id = ANY($3::int4[]))
       GROUP BY day, demand_partner_id ORDER BY day, demand_partner_id`,
      [days[0], date, p.network_ids],
    );
    const networks = [...new Set(figures.map((f) => Number(f.network)))];
    const without = p.network_ids.filter((id) => !networks.includes(id));
    if (without.length > 0) await tc.log(`No reported figures for network(s) ${without.join(', ')}: left out`);
    if (networks.length === 0) {
      await tc.log('Nothing to compare: no partner reported figures for these days');
      return { date, requested: false };
    }
    const { request, created } = await requestDiscrepancy(
      tc.ctx,
      {
        date,
        network_ids: networks,
        source: 'typed',
        figures: figures.map((f) => ({ date: f.day, network: String(f.network), impressions: f.impressions, revenue: f.revenue })),
        // One request per run, also when the run is retried after a crash.
        idempotency_key: `scheduler-run-${tc.runId}`,
      },
      { userId: tc.job.ownerId, simulatedById: null, simulatedRoleId: null, ip: null },
    );
    await tc.log(`${created ? 'Requested' : 'Already requested'}: discrepancy #${request.id} for ${date}, ${networks.length} network(s), ${figures.length} reported day(s); it is queued and will be ready for review on /process/discrepancy`);
    return { date, requested: true, request_id: request.id, networks: networks.length, figures: figures.length };
  },
};

/** The run functions by task type. */
export const TASKS: Partial<{ [T in TaskType]: TaskDefinition<T> }> = {
  'dataviewer.send': dataviewerSend,
  'discrepancy.run': discrepancyRun,
  'firewall.expire': firewallExpire,
  'billing.build_rows': billingBuild,
  'ads_txt.check': adsTxtCheck,
};
