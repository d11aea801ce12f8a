/**
 * The scheduler (`/utils/scheduler`, docs/decisions/031-scheduler.md, module src/modules/scheduler).
 *
 * `scheduled_jobs`: a job definition on the resource layer (version, who created and changed it).
 * `next_run_at` is set from the cron expression and zone on every save and by each dispatch (null
 * while paused); `last_run_at` / `last_status` follow its runs (they do not move `version`).
 *
 * `scheduled_job_runs`: one execution: queued by the every-minute dispatch (`schedule`), "run now"
 * (`manual`) or a retry of a failed run (`retry`); running with a heartbeat (a run whose worker died
 * is taken over by pg-boss's retry once the heartbeat is stale); then succeeded or failed, with its
 * duration, progress and a log that grows as it goes. At most one run of a job is queued or running
 * at a time (a partial unique index): an occurrence due while the previous run still works is
 * skipped, and concurrent "run now" clicks create one run.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { resourceColumns, users } from './schema.ts';

export const scheduledJobs = pgTable(
  'scheduled_jobs',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    cron: text('cron').notNull(),
    timezone: text('timezone').notNull(),
    taskType: text('task_type').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    enabled: boolean('enabled').notNull().default(true),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    /** queued | running | succeeded | failed (the latest run's). */
    lastStatus: text('last_status'),
    ...resourceColumns(),
  },
  (t) => [
    uniqueIndex('scheduled_jobs_name_idx').on(t.name),
    index('scheduled_jobs_due_idx').on(t.nextRunAt).where(sql`${t.enabled}`),
    index('scheduled_jobs_last_run_idx').on(t.lastRunAt, t.id),
  ],
);

export const scheduledJobRuns = pgTable(
  'scheduled_job_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    jobId: integer('job_id')
      .notNull()
      .references(() => scheduledJobs.id, { onDelete: 'cascade' }),
    /** schedule | manual | retry */
    trigger: text('trigger').notNull(),
    /** queued | running | succeeded | failed */
    status: text('status').notNull().default('queued'),
    /** The occurrence it runs (schedule), or when it was asked for. */
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    durationMs: integer('duration_ms'),
    /** 0-100. */
    progress: smallint('progress').notNull().default(0),
    /** Handler starts (more than one: taken over after a restart). */
    attempts: smallint('attempts').notNull().default(0),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    instance: text('instance'),
    log: text('log').notNull().default(''),
    error: text('error'),
    result: jsonb('result'),
    retryOf: bigint('retry_of', { mode: 'number' }),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('scheduled_job_runs_job_idx').on(t.jobId, t.id),
    uniqueIndex('scheduled_job_runs_active_idx').on(t.jobId).where(sql`${t.status} in ('queued', 'running')`),
    index('scheduled_job_runs_failed_idx').on(t.finishedAt).where(sql`${t.status} = 'failed'`),
  ],
);
