/**
 * The scheduler's pg-boss jobs (docs/decisions/031-scheduler.md):
 * - `scheduler.tick`, every minute, once across instances: claims the due jobs and queues their runs;
 * - `scheduler.run` {runId}: runs one run. Its state is in scheduled_job_runs, so a run whose worker
 *   stopped (a restart) is finished by pg-boss's retry of the job (the handler takes a run over once
 *   its heartbeat is stale and never redoes a finished one).
 */
import type { JobDefinition } from '../../jobs/types.ts';
import { executeRun, SCHEDULER_RUN_QUEUE, SCHEDULER_TICK_QUEUE, STALE_SECONDS, tick } from './service.ts';

export const schedulerTickJob: JobDefinition = {
  queue: SCHEDULER_TICK_QUEUE,
  cron: '* * * * *',
  pollingIntervalSeconds: 2,
  queueOptions: { expireInSeconds: 120, retryLimit: 1, retryDelay: 10 },
  async handle(_job, jc) {
    const done = await tick(jc.ctx, (queue, data) => jc.send(queue, data), jc.log);
    if (done.queued.length > 0 || done.skipped.length > 0) jc.log.info(done, 'scheduler: dispatched');
    return { ...done, instance: jc.instanceId };
  },
};

export const schedulerRunJob: JobDefinition<{ runId?: number }> = {
  queue: SCHEDULER_RUN_QUEUE,
  pollingIntervalSeconds: 1,
  // A worker that dies leaves its pg-boss job active until it expires; the retry then finds the
  // run's heartbeat stale and finishes it. Long tasks keep their heartbeat fresh while they work.
  queueOptions: { expireInSeconds: 30 * 60, retryLimit: 3, retryDelay: STALE_SECONDS, retryBackoff: false },
  async handle(job, jc) {
    const runId = Number(job.data?.runId);
    if (!Number.isInteger(runId) || runId < 1) return { skipped: 'no run id' };
    return executeRun(jc.ctx, runId, jc.instanceId, jc.log);
  },
};
