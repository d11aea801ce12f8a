/**
 * What a background job is. Two kinds:
 * - a queued job (pg-boss): runs exactly once across every instance that works the queue; it can
 *   recur on a cron schedule (one job per occurrence for the whole cluster) and be sent on demand,
 *   also delayed (`startAfter`);
 * - a local task: runs on a timer in EVERY instance that runs jobs (for state that lives on each
 *   host, such as an nginx include file).
 * Add new ones to the lists in registry.ts.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Job, Queue, SendOptions } from 'pg-boss';
import type { AppContext } from '../context.ts';

export interface JobContext {
  ctx: AppContext;
  log: FastifyBaseLogger;
  /** This process's id (host:pid:random), recorded in job_runs. */
  instanceId: string;
  /** Enqueue another job. */
  send(queue: string, data: object, options?: SendOptions): Promise<string | null>;
}

export interface JobDefinition<T extends object = object> {
  /** pg-boss queue name (letters, digits, - _ . /). */
  queue: string;
  /** Queue options (retries, expiry, retention...). */
  queueOptions?: Omit<Queue, 'name'>;
  /** Recurring schedule (cron, UTC), one job per occurrence across the cluster. */
  cron?: string;
  /** Seconds between polls when idle (pg-boss default 2). */
  pollingIntervalSeconds?: number;
  /** The handler. Must be idempotent: a job that fails or times out is retried. Its result is stored. */
  handle(job: Job<T>, jc: JobContext): Promise<object | null | void>;
}

export interface LocalTask {
  name: string;
  intervalMs: number;
  /** Run once as soon as jobs start. */
  runAtStart?: boolean;
  /** Whether this instance needs it (for example only with the nginx adapter). */
  enabled?(ctx: AppContext): boolean;
  run(jc: JobContext): Promise<void>;
}
