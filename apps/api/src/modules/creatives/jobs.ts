/**
 * creatives-resize-cleanup (pg-boss, every 10 minutes): resize results past their expiry lose
 * their files in the storage adapter, then their rows (service.expireResults).
 */
import type { JobDefinition } from '../../jobs/types.ts';
import { CLEANUP_QUEUE, expireResults } from './service.ts';

export const creativesResizeCleanupJob: JobDefinition = {
  queue: CLEANUP_QUEUE,
  cron: '*/10 * * * *',
  pollingIntervalSeconds: 30,
  async handle(_job, jc) {
    return expireResults(jc.ctx, jc.ctx.now?.() ?? Date.now());
  },
};
