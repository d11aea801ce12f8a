/**
 * The scheduler's API (`/utils/scheduler`, docs/decisions/031-scheduler.md). Jobs are on the
 * resource layer (list, one, create, update with version, delete, history, export, autocomplete at
 * /v1/scheduler-api/jobs); the rest are the scheduler's own:
 *   GET  /v1/scheduler-api/preview?cron=&timezone=     the expression in words and its next five runs
 *   POST /v1/scheduler-api/jobs/:id/actions/run        run now (201 {run}; 409 while a run is active)
 *   POST /v1/scheduler-api/jobs/:id/actions/pause      {version}: enabled off, no next run
 *   POST /v1/scheduler-api/jobs/:id/actions/resume     {version}: enabled on, next run from now
 *   GET  /v1/scheduler-api/jobs/:id/runs               run history, newest first (page, page_size, status)
 *   GET  /v1/scheduler-api/runs/:id                    one run with its log (the screen polls it)
 *   POST /v1/scheduler-api/runs/:id/retry              a failed run again, as a new run
 * Every route needs its action ('read' for GET, 'write' otherwise) on '/v1/scheduler-api' AND on
 * the `scheduler` protected area. Changes are audited (`scheduled_job.*`).
 */
import { ok } from '@backoffice/core/envelope';
import { localeFromAcceptLanguage } from '@backoffice/core/i18n/catalogues';
import { idParamsSchema } from '@backoffice/core/ids';
import { scheduledJobs as jobsDef } from '@backoffice/core/resources/scheduled-jobs';
import { DEFAULT_JOB_TIMEZONE, previewOf, RUN_STATUSES, SCHEDULER_ERRORS } from '@backoffice/core/scheduler';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { dataviewers } from '../../db/schema-reports.ts';
import { scheduledJobs } from '../../db/schema-scheduler.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { audit } from '../../plugins/audit.ts';
import { callerOf } from '../../plugins/auth.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { resourceRoutes } from '../../resources/routes.ts';
import { query } from '../../reports-data/sql.ts';
import { canUseScheduler, createRun, dispatchRun, listRuns, nextRunOf, readRun } from './service.ts';

const versionBody = z.strictObject({ version: z.number().int().min(1).max(2_147_483_647) });
const READ = { permission: { resource: jobsDef.acl, action: 'read' } } as const;
const WRITE = { permission: { resource: jobsDef.acl, action: 'write' } } as const;
const tags = [jobsDef.name];

const instanceOf = (request: FastifyRequest) => request.server.jobs?.instanceId ?? `api:${process.pid}`;

export async function schedulerRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  // The `scheduler` protected area, besides the routes' own permission (checked first by the auth
  // hook): the same action, so a viewer of the API who lacks the area is refused too.
  root.addHook('preValidation', async (request) => {
    if (!request.caller) return;
    const action = request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';
    if (!canUseScheduler(request.caller, action)) throw forbidden('auth.forbidden');
  });

  const send = (request: FastifyRequest) => {
    const jobs = request.server.jobs;
    return jobs?.running ? (queue: string, data: object) => jobs.send(queue, data) : null;
  };

  resourceRoutes(root, ctx, jobsDef, {
    table: scheduledJobs,
    unique: [{ constraint: 'scheduled_jobs_name_idx', field: 'name', key: 'scheduler.name_taken' }],
    derived: (data, caller, before) => ({
      next_run_at: nextRunOf({ cron: data.cron, timezone: data.timezone, enabled: data.enabled }),
      ...(before === null ? { owner_id: caller.id } : {}),
    }),
    validate: async (d: Db, data) => {
      if (data.task_type !== 'dataviewer.send') return undefined;
      const id = (data.params as { dataviewer_id?: number }).dataviewer_id!;
      const [found] = await d.select({ id: dataviewers.id }).from(dataviewers).where(eq(dataviewers.id, id)).limit(1);
      return found ? undefined : { 'params.dataviewer_id': 'scheduler.params.dataviewer_unknown' };
    },
    extraRoutes: (scope) => {
      const app = scope.withTypeProvider<ZodTypeProvider>();

      app.get(
        '/v1/scheduler-api/preview',
        {
          config: { auth: READ },
          schema: {
            tags,
            summary: 'A cron expression in words and its next five runs in a time zone',
            description:
              'cron (five fields), timezone (IANA, default Europe/Madrid), from (an ISO instant; default now): the runs after it. Answers {valid, error, words, next_runs} in the request language; an invalid expression is valid: false with its message key, not a 400.',
            querystring: z.strictObject({
              cron: z.string().max(200).default(''),
              timezone: z.string().max(64).default(DEFAULT_JOB_TIMEZONE),
              from: z.iso.datetime({ offset: true, error: 'error.invalid_value' }).optional(),
            }),
            response: { 400: errorEnvelopeSchema },
          },
        },
        async (request) => {
          const from = request.query.from ? Date.parse(request.query.from) : Date.now();
          return ok(previewOf(request.query.cron, request.query.timezone, from, localeFromAcceptLanguage(request.headers['accept-language'])));
        },
      );

      /** The job row for a command, locked; 404 when it is gone. */
      const lockedJob = async (t: Db, id: number) => {
        const [job] = await t.select().from(scheduledJobs).where(eq(scheduledJobs.id, id)).for('update');
        if (!job) throw notFound('resource.not_found');
        return job;
      };

      app.post(
        `${jobsDef.path}/:id/actions/run`,
        {
          config: { auth: WRITE },
          bodyLimit: 1024,
          schema: {
            tags,
            summary: 'Run a job now, outside its schedule',
            description: 'Queues a run (trigger manual) and answers 201 {run}. 409 scheduler.already_running while the job has a queued or running run (so concurrent clicks make one run). Works on a paused job too.',
            params: idParamsSchema,
            body: z.strictObject({}).optional(),
            response: { 201: z.object({ status: z.string(), message: z.string(), data: z.unknown() }), 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
          },
        },
        async (request, reply) => {
          const id = request.params.id;
          const caller = callerOf(request);
          const runId = await ctx.database.db.transaction(async (tx) => {
            const t = tx as unknown as Db;
            await lockedJob(t, id);
            const created = await createRun(t, id, 'manual', { requestedBy: caller.id });
            if (created === null) throw new AppError(409, SCHEDULER_ERRORS.alreadyRunning);
            await audit(t, request, { action: 'scheduled_job.run', entity: 'scheduled_job', entityId: id, after: { run_id: created, trigger: 'manual' } });
            return created;
          });
          await dispatchRun(ctx, runId, send(request), request.log, instanceOf(request));
          return reply.code(201).send(ok({ run: await readRun(ctx.database, runId) }));
        },
      );

      for (const command of ['pause', 'resume'] as const) {
        app.post(
          `${jobsDef.path}/:id/actions/${command}`,
          {
            config: { auth: WRITE },
            bodyLimit: 1024,
            schema: {
              tags,
              summary: command === 'pause' ? 'Pause a job (it keeps its definition; no next run)' : 'Resume a paused job (next run from now)',
              description: "Send the row's `version`. A stale version answers 409 resource.conflict with data {current}. Pausing a paused job (or resuming an enabled one) changes nothing and answers the row.",
              params: idParamsSchema,
              body: versionBody,
              response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
            },
          },
          async (request) => {
            const id = request.params.id;
            const caller = callerOf(request);
            const enabled = command === 'resume';
            await ctx.database.db.transaction(async (tx) => {
              const t = tx as unknown as Db;
              const before = await lockedJob(t, id);
              if (before.enabled === enabled) return;
              if (before.version !== request.body.version) {
                const [by] = before.updatedBy === null ? [] : await t.select({ name: users.name }).from(users).where(eq(users.id, before.updatedBy));
                throw new AppError(409, 'resource.conflict', {
                  data: { current: { id: before.id, version: before.version, enabled: before.enabled, updated_at: before.updatedAt.toISOString() } },
                  params: { name: by?.name ?? '?', at: before.updatedAt.toISOString() },
                });
              }
              const next = nextRunOf({ cron: before.cron, timezone: before.timezone, enabled });
              await t
                .update(scheduledJobs)
                .set({ enabled, nextRunAt: next, version: sql`${scheduledJobs.version} + 1`, updatedAt: sql`now()`, updatedBy: caller.id })
                .where(and(eq(scheduledJobs.id, id), eq(scheduledJobs.version, before.version)));
              await audit(t, request, {
                action: `scheduled_job.${command}`,
                entity: 'scheduled_job',
                entityId: id,
                before: { enabled: before.enabled, next_run_at: before.nextRunAt?.toISOString() ?? null, version: before.version },
                after: { enabled, next_run_at: next?.toISOString() ?? null, version: before.version + 1 },
              });
            });
            const [row] = await query(ctx.database, 'SELECT id, enabled, next_run_at, version FROM scheduled_jobs WHERE id = $1', [id]);
            return ok(row);
          },
        );
      }

      app.get(
        `${jobsDef.path}/:id/runs`,
        {
          config: { auth: READ },
          schema: {
            tags,
            summary: "A job's runs, newest first",
            description: 'page (default 1), page_size (default 20, at most 100), status (queued|running|succeeded|failed). Logs are in the one-run answer.',
            params: idParamsSchema,
            querystring: z.strictObject({
              page: z.coerce.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(100_000, 'error.invalid_value').default(1),
              page_size: z.coerce.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(100, 'error.invalid_value').default(20),
              status: z.enum(RUN_STATUSES, { error: 'error.invalid_value' }).optional(),
            }),
            response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
          },
        },
        async (request) => {
          const id = request.params.id;
          const [job] = await ctx.database.db.select({ id: scheduledJobs.id }).from(scheduledJobs).where(eq(scheduledJobs.id, id));
          if (!job) throw notFound('resource.not_found');
          const { page, page_size, status } = request.query;
          const { items, total } = await listRuns(ctx.database, id, page, page_size, status);
          return ok({ items, total, page, page_size });
        },
      );

      app.get(
        '/v1/scheduler-api/runs/:id',
        {
          config: { auth: READ },
          schema: { tags, summary: 'One run with its log', params: idParamsSchema, response: { 404: errorEnvelopeSchema } },
        },
        async (request) => {
          const run = await readRun(ctx.database, request.params.id);
          if (!run) throw notFound('resource.not_found');
          return ok(run);
        },
      );

      app.post(
        '/v1/scheduler-api/runs/:id/retry',
        {
          config: { auth: WRITE },
          bodyLimit: 1024,
          schema: {
            tags,
            summary: 'Retry a failed run (a new run of its job)',
            description: '201 {run}. 409 scheduler.run_not_failed unless the run failed; 409 scheduler.already_running while the job has a queued or running run.',
            params: idParamsSchema,
            body: z.strictObject({}).optional(),
            response: { 201: z.object({ status: z.string(), message: z.string(), data: z.unknown() }), 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
          },
        },
        async (request, reply) => {
          const failed = await readRun(ctx.database, request.params.id);
          if (!failed) throw notFound('resource.not_found');
          if (failed.status !== 'failed') throw new AppError(409, SCHEDULER_ERRORS.notFailed);
          const caller = callerOf(request);
          const runId = await ctx.database.db.transaction(async (tx) => {
            const t = tx as unknown as Db;
            await lockedJob(t, failed.job_id);
            const created = await createRun(t, failed.job_id, 'retry', { requestedBy: caller.id, retryOf: failed.id });
            if (created === null) throw new AppError(409, SCHEDULER_ERRORS.alreadyRunning);
            await audit(t, request, { action: 'scheduled_job.retry', entity: 'scheduled_job', entityId: failed.job_id, after: { run_id: created, retry_of: failed.id } });
            return created;
          });
          await dispatchRun(ctx, runId, send(request), request.log, instanceOf(request));
          return reply.code(201).send(ok({ run: await readRun(ctx.database, runId) }));
        },
      );
    },
  });
}
