/**
 * The impression-log jobs (pg-boss):
 * - impression-log-extract: writes one request's extract (service.runExtract). The queue has a
 *   heartbeat: when the server stops mid-extract, the job's heartbeat lapses, pg-boss fails it
 *   and retries it, and the handler restarts the file from scratch.
 * - impression-log-cleanup (every 15 minutes): expired files are removed and their requests marked
 *   expired.
 */
import type { Job } from 'pg-boss';
import type { JobDefinition } from '../../jobs/types.ts';
import { CLEANUP_QUEUE, EXTRACT_QUEUE, expireFiles, runExtract, type ExtractJobData } from './service.ts';

export const impressionLogExtractJob: JobDefinition<ExtractJobData> = {
  queue: EXTRACT_QUEUE,
  pollingIntervalSeconds: 1,
  queueOptions: { heartbeatSeconds: 30, expireInSeconds: 3600, retryLimit: 3, retryDelay: 5 },
  async handle(job: Job<ExtractJobData>, jc) {
    const out = await runExtract(jc.ctx, { id: Number(job.data.id), attempt: Number(job.data.attempt) });
    if (out.status === 'failed') jc.log.warn(out, 'impression logs: extract failed');
    return out;
  },
};

export const impressionLogCleanupJob: JobDefinition = {
  queue: CLEANUP_QUEUE,
  cron: '*/15 * * * *',
  pollingIntervalSeconds: 30,
  async handle(_job, jc) {
    return expireFiles(jc.ctx);
  },
};
