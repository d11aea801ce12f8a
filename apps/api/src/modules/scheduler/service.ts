/**
 * The scheduler's engine (docs/decisions/031-scheduler.md):
 * - dispatch (`tick`, the `scheduler.tick` pg-boss job every minute): claims each due job with a
 *   conditional UPDATE (`next_run_at` moves from the value read to the next occurrence after now,
 *   so two instances or two overlapping ticks claim an occurrence once; missed occurrences are not
 *   replayed), queues a run and sends a `scheduler.run` job for it;
 * - execution (`executeRun`, the `scheduler.run` handler, data {runId}): takes the run (queued, or
 *   running with a stale heartbeat: its worker died), runs the task with a log that grows as it
 *   goes and a heartbeat, and records the outcome. A run already finished is not redone, so
 *   pg-boss's retries and duplicates are harmless;
 * - "run now", "retry" (a new run), pause and resume (the `enabled` flag; a paused job keeps its
 *   definition and has no next run).
 */
import { isAllowed } from '@backoffice/core/acl';
import { SCHEDULER_ACL, SCHEDULER_AREA } from '@backoffice/core/resources/scheduled-jobs';
import { isTaskType, nextRunAfter, RUN_STATUSES, TASK_PARAMS, type RunStatus, type RunTrigger, type SchedulerRun } from '@backoffice/core/scheduler';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { query, transaction } from '../../reports-data/sql.ts';
import type { Caller } from '../../plugins/auth.ts';
import { TASKS, type TaskContext } from './tasks.ts';

export const SCHEDULER_TICK_QUEUE = 'scheduler.tick';
export const SCHEDULER_RUN_QUEUE = 'scheduler.run';

/** A running run's heartbeat; a run whose heartbeat is older than STALE_SECONDS may be taken over. */
export const HEARTBEAT_MS = 20_000;
export const STALE_SECONDS = 90;
/**
 * A run still queued after this long (its pg-boss job lost: a crash between the two writes), or
 * running with a stale heartbeat (its worker stopped), is sent again by the tick; the handler's
 * claim makes a duplicate harmless.
 */
export const REQUEUE_MINUTES = 5;
const MAX_LOG_CHARS = 100_000;
const DUE_BATCH = 100;

export type Send = (queue: string, data: object) => Promise<string | null>;

/** May this caller read (or change) the scheduler: its permission resource and its protected area. */
export function canUseScheduler(caller: Pick<Caller, 'roles' | 'acl'> | null, action: 'read' | 'write'): boolean {
  return isAllowed(caller, { resource: SCHEDULER_ACL, action }) && isAllowed(caller, { resource: SCHEDULER_AREA, action });
}

const stamp = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const line = (text: string) => `[${stamp()}] ${text}\n`;

interface RunRow {
  id: number | string;
  job_id: number;
  trigger: string;
  status: string;
  scheduled_for: Date | string | null;
  queued_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  duration_ms: number | null;
  progress: number;
  attempts: number;
  error: string | null;
  retry_of: number | string | null;
  requested_by: number | null;
  requested_by_name: string | null;
  log?: string;
  result?: unknown;
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export function runDto(r: RunRow, withLog: boolean): SchedulerRun {
  return {
    id: Number(r.id),
    job_id: Number(r.job_id),
    trigger: r.trigger as RunTrigger,
    status: r.status as RunStatus,
    scheduled_for: iso(r.scheduled_for),
    queued_at: iso(r.queued_at)!,
    started_at: iso(r.started_at),
    finished_at: iso(r.finished_at),
    duration_ms: r.duration_ms === null ? null : Number(r.duration_ms),
    progress: Number(r.progress),
    attempts: Number(r.attempts),
    error: r.error,
    retry_of: r.retry_of === null ? null : Number(r.retry_of),
    requested_by: { id: r.requested_by, name: r.requested_by_name },
    ...(withLog ? { log: r.log ?? '', result: r.result ?? null } : {}),
  };
}

const RUN_SELECT = `r.id, r.job_id, r.trigger, r.status, r.scheduled_for, r.queued_at, r.started_at, r.finished_at, r.duration_ms,
  r.progress, r.attempts, r.error, r.retry_of, r.requested_by, u.name AS requested_by_name`;

export async function listRuns(database: Database, jobId: number, page: number, pageSize: number, status?: RunStatus): Promise<{ items: SchedulerRun[]; total: number }> {
  const where = `r.job_id = $1${status ? ' AND r.status = $4' : ''}`;
  const params: unknown[] = [jobId, pageSize, (page - 1) * pageSize, ...(status ? [status] : [])];
  const [rows, [total]] = await Promise.all([
    query<RunRow>(database, `SELECT ${RUN_SELECT} FROM scheduled_job_runs r LEFT JOIN users u ON u.id = r.requested_by WHERE ${where} ORDER BY r.id DESC LIMIT $2 OFFSET $3`, params),
    query<{ n: number }>(database, `SELECT count(*)::int AS n FROM scheduled_job_runs r WHERE ${where.replace('$4', '$2')}`, status ? [jobId, status] : [jobId]),
  ]);
  return { items: rows.map((r) => runDto(r, false)), total: Number(total?.n ?? 0) };
}

export async function readRun(database: Database, runId: number): Promise<SchedulerRun | null> {
  const [row] = await query<RunRow>(
    database,
    `SELECT ${RUN_SELECT}, r.log, r.result FROM scheduled_job_runs r LEFT JOIN users u ON u.id = r.requested_by WHERE r.id = $1`,
    [runId],
  );
  return row ? runDto(row, true) : null;
}

/**
 * Queues a run of a job; null when the job already has a queued or running run (the partial unique
 * index decides, so concurrent requests create one run).
 */
export async function createRun(
  d: Db,
  jobId: number,
  trigger: RunTrigger,
  opts: { scheduledFor?: Date; requestedBy?: number | null; retryOf?: number | null } = {},
): Promise<number | null> {
  const first = trigger === 'schedule' ? 'Queued by the schedule' : trigger === 'retry' ? `Retry of run #${opts.retryOf}` : 'Queued by "run now"';
  const result = await d.execute(sql`
    WITH run AS (
      INSERT INTO scheduled_job_runs (job_id, trigger, scheduled_for, requested_by, retry_of, log)
      VALUES (${jobId}, ${trigger}, coalesce(${opts.scheduledFor?.toISOString() ?? null}::timestamptz, now()), ${opts.requestedBy ?? null}, ${opts.retryOf ?? null}, ${line(first)})
      ON CONFLICT (job_id) WHERE status in ('queued', 'running') DO NOTHING
      RETURNING id, job_id, queued_at
    ), job AS (
      UPDATE scheduled_jobs j SET last_status = 'queued', last_run_at = run.queued_at FROM run WHERE j.id = run.job_id RETURNING j.id
    )
    SELECT id FROM run`);
  const [row] = ((result as { rows?: { id: number | string }[] }).rows ?? []);
  return row ? Number(row.id) : null;
}

/**
 * Sends a run to the workers; without background jobs in this process (JOBS=0) it runs here, in
 * the background, so the screen's "run now" still works on a server that runs no jobs.
 */
export async function dispatchRun(ctx: AppContext, runId: number, send: Send | null, log: FastifyBaseLogger, instance: string): Promise<void> {
  if (send && (await send(SCHEDULER_RUN_QUEUE, { runId })) !== null) return;
  void executeRun(ctx, runId, instance, log).catch((err: unknown) => log.error({ err, runId }, 'scheduler: run failed'));
}

/** One dispatch: claims the due jobs, queues their runs and sends them; re-sends runs left queued. */
export async function tick(ctx: AppContext, send: Send, log: FastifyBaseLogger, nowMs = Date.now()): Promise<{ queued: number[]; skipped: number[]; resent: number[] }> {
  const database = ctx.database;
  // `exact`: the value as text, to the microsecond (a Date keeps milliseconds), for the claim.
  const due = await query<{ id: number; cron: string; timezone: string; next_run_at: Date | string; exact: string }>(
    database,
    `SELECT id, cron, timezone, next_run_at, next_run_at::text AS exact FROM scheduled_jobs WHERE enabled AND next_run_at <= $1::timestamptz ORDER BY next_run_at, id LIMIT ${DUE_BATCH}`,
    [new Date(nowMs).toISOString()],
  );
  const queued: number[] = [];
  const skipped: number[] = [];
  for (const job of due) {
    const old = new Date(job.next_run_at);
    const next = nextRunAfter(job.cron, job.timezone, Math.max(nowMs, old.getTime()));
    const runId = await transaction(database, async (q) => {
      // The claim: only the tick that still sees the old value moves it.
      const claimed = await q(`UPDATE scheduled_jobs SET next_run_at = $2 WHERE id = $1 AND enabled AND next_run_at = $3::timestamptz RETURNING id`, [
        job.id,
        next === null ? null : new Date(next).toISOString(),
        job.exact,
      ]);
      if (claimed.length === 0) return undefined;
      const [run] = await q<{ id: number | string }>(
        `WITH run AS (
           INSERT INTO scheduled_job_runs (job_id, trigger, scheduled_for, log) VALUES ($1, 'schedule', $2::timestamptz, $3)
           ON CONFLICT (job_id) WHERE status in ('queued', 'running') DO NOTHING RETURNING id, job_id, queued_at
         ), job AS (
           UPDATE scheduled_jobs j SET last_status = 'queued', last_run_at = run.queued_at FROM run WHERE j.id = run.job_id RETURNING j.id
         )
         SELECT id FROM run`,
        [job.id, old.toISOString(), line(`Queued by the schedule (occurrence ${old.toISOString()})`)],
      );
      return run ? Number(run.id) : null;
    });
    if (runId === undefined) continue;
    if (runId === null) {
      // The previous run still works: this occurrence is skipped, not stacked.
      skipped.push(job.id);
      log.warn({ jobId: job.id, occurrence: old.toISOString() }, 'scheduler: previous run still active, occurrence skipped');
      continue;
    }
    queued.push(runId);
    await send(SCHEDULER_RUN_QUEUE, { runId });
  }
  const stale = await query<{ id: number | string }>(
    database,
    `SELECT id FROM scheduled_job_runs
     WHERE (status = 'queued' AND queued_at < now() - make_interval(mins => ${REQUEUE_MINUTES}))
        OR (status = 'running' AND heartbeat_at < now() - make_interval(secs => ${STALE_SECONDS}))
     ORDER BY id LIMIT ${DUE_BATCH}`,
  );
  for (const r of stale) await send(SCHEDULER_RUN_QUEUE, { runId: Number(r.id) });
  return { queued, skipped, resent: stale.map((r) => Number(r.id)) };
}

async function appendLog(database: Database, runId: number, text: string): Promise<void> {
  await query(
    database,
    `UPDATE scheduled_job_runs SET log = CASE WHEN length(log) < ${MAX_LOG_CHARS} THEN log || $2 ELSE log END, heartbeat_at = now() WHERE id = $1`,
    [runId, text],
  );
}

/**
 * Runs one run (the `scheduler.run` handler). Returns what happened; never throws for a task's own
 * failure (that is the run's outcome), only for the database's.
 */
export async function executeRun(ctx: AppContext, runId: number, instance: string, logger: FastifyBaseLogger): Promise<{ runId: number; status: string }> {
  const database = ctx.database;
  const [run] = await query<{ job_id: number; attempts: number; scheduled_for: Date | string | null; taken_over: boolean }>(
    database,
    `UPDATE scheduled_job_runs r SET
       status = 'running', started_at = coalesce(r.started_at, now()), attempts = r.attempts + 1, heartbeat_at = now(), instance = $2,
       log = r.log || CASE WHEN r.status = 'running' THEN $3 ELSE $4 END
     WHERE r.id = $1 AND (r.status = 'queued' OR (r.status = 'running' AND r.heartbeat_at < now() - make_interval(secs => ${STALE_SECONDS})))
     RETURNING r.job_id, r.attempts, r.scheduled_for, (r.attempts > 1) AS taken_over`,
    [runId, instance, line(`Taken over by ${instance}: the previous worker stopped`), line(`Started on ${instance}`)],
  );
  if (!run) {
    const [now] = await query<{ status: string }>(database, 'SELECT status FROM scheduled_job_runs WHERE id = $1', [runId]);
    return { runId, status: now ? `skipped (${now.status})` : 'skipped (gone)' };
  }
  const [job] = await query<{ id: number; name: string; timezone: string; task_type: string; params: Record<string, unknown>; owner_id: number | null }>(
    database,
    `UPDATE scheduled_jobs SET last_status = 'running' WHERE id = $1 RETURNING id, name, timezone, task_type, params, owner_id`,
    [run.job_id],
  );
  if (!job) return { runId, status: 'skipped (job gone)' };
  const heartbeat = setInterval(() => {
    void query(database, `UPDATE scheduled_job_runs SET heartbeat_at = now() WHERE id = $1 AND status = 'running'`, [runId]).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  let status: RunStatus = 'succeeded';
  let error: string | null = null;
  let result: object | null = null;
  try {
    const task = isTaskType(job.task_type) ? TASKS[job.task_type] : undefined;
    if (!task) throw new Error('scheduler.task_unavailable');
    const params = TASK_PARAMS[task.id].safeParse(job.params);
    if (!params.success) throw new Error('scheduler.params.invalid');
    const tc: TaskContext = {
      ctx,
      logger,
      job: { id: job.id, name: job.name, timezone: job.timezone, ownerId: job.owner_id },
      runId,
      runMs: run.scheduled_for ? new Date(run.scheduled_for).getTime() : Date.now(),
      log: (text) => appendLog(database, runId, line(text)),
      progress: (pct) => query(database, `UPDATE scheduled_job_runs SET progress = $2, heartbeat_at = now() WHERE id = $1`, [runId, Math.max(0, Math.min(100, Math.round(pct)))]).then(() => undefined),
    };
    result = await (task.run as (p: unknown, tc: TaskContext) => Promise<object>)(params.data, tc);
  } catch (err) {
    status = 'failed';
    error = (err instanceof Error ? err.message : String(err)).slice(0, 2000);
    logger.warn({ err, runId, jobId: job.id }, 'scheduler: task failed');
  } finally {
    clearInterval(heartbeat);
  }
  await transaction(database, async (q) => {
    const [done] = await q<{ started_at: Date | string }>(
      `UPDATE scheduled_job_runs SET status = $2, finished_at = now(), progress = CASE WHEN $2 = 'succeeded' THEN 100 ELSE progress END,
         duration_ms = greatest(0, round(extract(epoch FROM (now() - started_at)) * 1000))::int, error = $3, result = $4::jsonb,
         log = log || $5
       WHERE id = $1 AND status = 'running' RETURNING started_at`,
      [runId, status, error, result === null ? null : JSON.stringify(result), line(status === 'succeeded' ? 'Succeeded' : `Failed: ${error}`)],
    );
    if (done) {
      // The job shows its latest run's outcome (a newer run may have been queued meanwhile).
      await q(
        `UPDATE scheduled_jobs SET last_status = $2, last_run_at = $3
         WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM scheduled_job_runs WHERE job_id = $1 AND id > $4)`,
        [job.id, status, new Date(done.started_at).toISOString(), runId],
      );
    }
  });
  return { runId, status };
}

/** The next run of a job as stored (enabled), or null (paused, or an expression with no next run). */
export function nextRunOf(row: { cron: unknown; timezone: unknown; enabled: unknown }, nowMs = Date.now()): Date | null {
  if (row.enabled !== true || typeof row.cron !== 'string' || typeof row.timezone !== 'string') return null;
  const next = nextRunAfter(row.cron, row.timezone, nowMs);
  return next === null ? null : new Date(next);
}

/** Failed runs of the last 7 days whose job has not succeeded since (the dashboard's "waiting" entry). */
export async function recentFailures(database: Database, limit = 20): Promise<{ count: number; items: { id: number; job_id: number; name: string; finished_at: string; error: string | null; link: string }[] }> {
  const where = `r.status = 'failed' AND r.finished_at > now() - interval '7 days'
    AND NOT EXISTS (SELECT 1 FROM scheduled_job_runs s WHERE s.job_id = r.job_id AND s.status = 'succeeded' AND s.finished_at > r.finished_at)`;
  const [rows, [total]] = await Promise.all([
    query<{ id: number | string; job_id: number; name: string; finished_at: Date | string; error: string | null }>(
      database,
      `SELECT r.id, r.job_id, j.name, r.finished_at, r.error FROM scheduled_job_runs r JOIN scheduled_jobs j ON j.id = r.job_id
       WHERE ${where} ORDER BY r.finished_at DESC, r.id DESC LIMIT $1`,
      [limit],
    ),
    query<{ n: number }>(database, `SELECT count(*)::int AS n FROM scheduled_job_runs r WHERE ${where}`),
  ]);
  return {
    count: Number(total?.n ?? 0),
    items: rows.map((r) => ({
      id: Number(r.id),
      job_id: r.job_id,
      name: r.name,
      finished_at: new Date(r.finished_at).toISOString(),
      error: r.error,
      link: `/utils/scheduler/${r.job_id}`,
    })),
  };
}

export const isRunStatus = (v: unknown): v is RunStatus => typeof v === 'string' && (RUN_STATUSES as readonly string[]).includes(v);
