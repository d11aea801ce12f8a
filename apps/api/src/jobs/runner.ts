/**
 * Background jobs on pg-boss, on the same database as everything else: PGlite through pg-boss's
 * PGlite adapter (one connection, shared with Drizzle), or PostgreSQL with its own small pool.
 * buildApp creates the runner when config.jobs is true, starts it when the app is ready and stops it
 * when the app closes (before the database closes).
 *
 * Every handler execution is recorded in job_runs (queue, job id, instance, times, outcome), so it
 * can be seen which instance ran what; pg-boss hands each job to one worker only.
 */
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import crypto from 'node:crypto';
import os from 'node:os';
import { PgBoss, fromPglite, type Job, type SendOptions } from 'pg-boss';
import type { AppContext } from '../context.ts';
import { jobRuns } from '../db/schema.ts';
import { jobDefinitions, localTasks } from './registry.ts';
import type { JobContext, JobDefinition, LocalTask } from './types.ts';

/** pg-boss keeps its tables in this schema. */
export const PGBOSS_SCHEMA = 'pgboss';

export interface JobRunner {
  readonly instanceId: string;
  /** True between a successful start() and stop(). */
  readonly running: boolean;
  /** How long start() took (pg-boss start + queues + schedules + workers), in ms. */
  readonly startupMs: number | null;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Enqueue a job; null when the runner is not running (the job is then not sent). */
  send(queue: string, data: object, options?: SendOptions): Promise<string | null>;
  /** The pg-boss instance (inspection in tests and tools); throws when not running. */
  boss(): PgBoss;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Background jobs; null when config.jobs is false. */
    jobs: JobRunner | null;
  }
}

export interface RunnerOptions {
  definitions?: readonly JobDefinition[];
  tasks?: readonly LocalTask[];
}

export function createJobRunner(ctx: AppContext, log: FastifyBaseLogger, opts: RunnerOptions = {}): JobRunner {
  const definitions = opts.definitions ?? jobDefinitions;
  const tasks = (opts.tasks ?? localTasks).filter((t) => !t.enabled || t.enabled(ctx));
  const instanceId = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  const { database, config } = ctx;
  let boss: PgBoss | null = null;
  let running = false;
  let startupMs: number | null = null;
  const timers: NodeJS.Timeout[] = [];
  const taskRuns = new Set<Promise<void>>();
  const busyTasks = new Set<string>();

  const send: JobContext['send'] = async (queue, data, options) => {
    if (!boss || !running) {
      log.warn({ queue }, 'jobs: not running, job not sent');
      return null;
    }
    return options ? boss.send(queue, data, options) : boss.send(queue, data);
  };
  const jc: JobContext = { ctx, log, instanceId, send };

  async function runJob(def: JobDefinition, job: Job<object>): Promise<object | null> {
    const [run] = await database.db
      .insert(jobRuns)
      .values({ queue: def.queue, jobId: job.id, instance: instanceId })
      .returning({ id: jobRuns.id });
    try {
      const output = (await def.handle(job, jc)) ?? null;
      await database.db.update(jobRuns).set({ finishedAt: new Date(), ok: true, output }).where(eq(jobRuns.id, run!.id));
      return output;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.error({ err, queue: def.queue, jobId: job.id }, 'jobs: handler failed');
      await database.db
        .update(jobRuns)
        .set({ finishedAt: new Date(), ok: false, error: message.slice(0, 2000) })
        .where(eq(jobRuns.id, run!.id))
        .catch(() => undefined);
      throw err;
    }
  }

  function runTask(task: LocalTask): void {
    // Never two runs of the same task at once in this process.
    if (busyTasks.has(task.name)) return;
    busyTasks.add(task.name);
    const p = (async () => {
      try {
        await task.run(jc);
      } catch (err) {
        log.error({ err, task: task.name }, 'jobs: local task failed');
      } finally {
        busyTasks.delete(task.name);
      }
    })();
    taskRuns.add(p);
    void p.finally(() => taskRuns.delete(p));
  }

  return {
    instanceId,
    get running() {
      return running;
    },
    get startupMs() {
      return startupMs;
    },
    async start() {
      if (boss) return;
      const started = performance.now();
      const common = {
        schema: PGBOSS_SCHEMA,
        // Keep maintenance light; pg-boss's own defaults suit a server.
        superviseIntervalSeconds: 60,
      };
      if (database.kind === 'pglite') {
        boss = new PgBoss({ ...common, db: fromPglite(database.pglite!), backend: 'pglite' });
      } else {
        boss = new PgBoss({ ...common, connectionString: config.databaseUrl!, max: 4, application_name: 'backoffice-jobs' });
      }
      boss.on('error', (err) => log.error({ err }, 'jobs: pg-boss error'));
      boss.on('warning', (warning) => log.warn({ warning }, 'jobs: pg-boss warning'));
      try {
        await boss.start();
        for (const def of definitions) {
          await boss.createQueue(def.queue, def.queueOptions ?? {});
          if (def.cron) await boss.schedule(def.queue, def.cron, null, { tz: 'UTC' });
          await boss.work<object>(
            def.queue,
            { batchSize: 1, pollingIntervalSeconds: def.pollingIntervalSeconds ?? 2 },
            async ([job]) => (job ? runJob(def, job) : null),
          );
        }
      } catch (err) {
        await boss.stop({ graceful: false, close: true }).catch(() => undefined);
        boss = null;
        throw err;
      }
      running = true;
      for (const task of tasks) {
        if (task.runAtStart) runTask(task);
        const timer = setInterval(() => runTask(task), task.intervalMs);
        timer.unref();
        timers.push(timer);
      }
      startupMs = Math.round(performance.now() - started);
      log.info({ instanceId, ms: startupMs, queues: definitions.map((d) => d.queue), tasks: tasks.map((t) => t.name) }, 'jobs: started');
    },
    async stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
      await Promise.allSettled([...taskRuns]);
      const current = boss;
      boss = null;
      running = false;
      if (current) {
        // Graceful: workers finish the job in hand (bounded), then pg-boss closes its own pool.
        await current.stop({ graceful: true, close: true, timeout: 10_000 });
      }
    },
    send,
    boss() {
      if (!boss) throw new Error('jobs are not running');
      return boss;
    },
  };
}
