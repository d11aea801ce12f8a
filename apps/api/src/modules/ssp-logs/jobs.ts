/**
 * ssp-logs-sample (pg-boss, every minute): while sampling is on, logs the sampled auctions of the
 * minutes that ended (service.ts runSampler: idempotent per minute, resumes after a restart from
 * the setting's `last_sampled_minute`) and switches sampling off when its run ends.
 * ssp-logs-prune (daily at 04:23 UTC): deletes the logs older than SSP_LOGS_RETENTION_DAYS.
 */
import type { JobDefinition } from '../../jobs/types.ts';
import { pruneLogs, runSampler } from './service.ts';

export const SAMPLE_QUEUE = 'ssp-logs-sample';
export const PRUNE_QUEUE = 'ssp-logs-prune';

export const sspLogsSampleJob: JobDefinition = {
  queue: SAMPLE_QUEUE,
  cron: '* * * * *',
  pollingIntervalSeconds: 15,
  queueOptions: { expireInSeconds: 300, retryLimit: 2, retryDelay: 20 },
  async handle(_job, jc) {
    const result = await runSampler(jc.ctx.database, jc.ctx.now?.() ?? Date.now());
    if (result.rows > 0 || result.ended) jc.log.info(result, 'ssp-logs: sampled');
    return result;
  },
};

export const sspLogsPruneJob: JobDefinition = {
  queue: PRUNE_QUEUE,
  cron: '23 4 * * *',
  pollingIntervalSeconds: 60,
  queueOptions: { expireInSeconds: 600, retryLimit: 3, retryDelay: 300 },
  async handle(_job, jc) {
    return { deleted: await pruneLogs(jc.ctx.database, jc.ctx.now?.() ?? Date.now()) };
  },
};
