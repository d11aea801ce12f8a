/**
 * discrepancy-run (pg-boss): compares one request (`runDiscrepancy`, idempotent: it resumes at
 * the first day not done and leaves a request in any other state alone). A job lost with a
 * process is delivered again by pg-boss after its expiry; `discrepancy-sweep` (every minute)
 * enqueues requests left queued without a job (sent while jobs were off) or running with no
 * progress for ten minutes.
 */
import type { JobDefinition } from '../../jobs/types.ts';
import { DISCREPANCY_QUEUE, runDiscrepancy, staleQueued } from './service.ts';

export const discrepancyRunJob: JobDefinition<{ id: number }> = {
  queue: DISCREPANCY_QUEUE,
  pollingIntervalSeconds: 1,
  queueOptions: { expireInSeconds: 1800, retryLimit: 2, retryDelay: 30 },
  async handle(job, jc) {
    const id = Number(job.data.id);
    const out = await runDiscrepancy(jc.ctx.database, id);
    if (out) jc.log.info({ id, ...out }, 'discrepancy: run finished');
    return out;
  },
};

export const discrepancySweepJob: JobDefinition = {
  queue: 'discrepancy-sweep',
  cron: '* * * * *',
  pollingIntervalSeconds: 30,
  queueOptions: { expireInSeconds: 120, retryLimit: 0 },
  async handle(_job, jc) {
    const ids = await staleQueued(jc.ctx.database);
    for (const id of ids) await jc.send(DISCREPANCY_QUEUE, { id }, { singletonKey: `discrepancy-${id}` });
    return { enqueued: ids };
  },
};
