/**
 * dataviewer-schedules-due (pg-boss, every minute, once across instances): sends the saved
 * DataViewers whose schedule is due. Each schedule is claimed with a conditional UPDATE (see
 * repo.claimNextDue) before it is sent, so an overlapping run, a retry or another instance never
 * sends the same occurrence twice; a claim left by a crashed run lapses after CLAIM_MINUTES.
 */
import type { JobDefinition } from '../../jobs/types.ts';
import { runDueSchedules } from './service.ts';

export const DATAVIEWER_SCHEDULES_QUEUE = 'dataviewer-schedules-due';

export const dataviewerSchedulesJob: JobDefinition = {
  queue: DATAVIEWER_SCHEDULES_QUEUE,
  cron: '* * * * *',
  pollingIntervalSeconds: 5,
  // Reports and mail can take a while; the claims make a retry harmless.
  queueOptions: { expireInSeconds: 15 * 60, retryLimit: 1, retryDelay: 30 },
  async handle(_job, jc) {
    const sent = await runDueSchedules(jc.ctx, jc.instanceId, jc.log);
    if (sent.length > 0) jc.log.info({ sent }, 'dataviewer schedules: sent');
    return { sent, instance: jc.instanceId };
  },
};
