/**
 * Firewall background work:
 * - firewall-expire (pg-boss): every minute, and once per entry a second after its expiry, marks
 *   expired entries DISABLED ('expired') and rebuilds the allow-list. Runs once across instances;
 *   the sweep is idempotent (locked rows, status re-checked), so a retry or an overlap is harmless.
 * - firewall-reconcile (local, every instance, nginx adapter only): rewrites this host's include
 *   file from the database when it differs, so instances on several hosts converge.
 */
import type { JobDefinition, LocalTask } from '../../jobs/types.ts';
import { FIREWALL_EXPIRE_QUEUE, firewallServiceFor } from './service.ts';

export const firewallExpireJob: JobDefinition<{ entryId?: number }> = {
  queue: FIREWALL_EXPIRE_QUEUE,
  cron: '* * * * *',
  pollingIntervalSeconds: 1,
  // A sweep is quick; a stuck one is retried after a minute.
  queueOptions: { expireInSeconds: 60, retryLimit: 2, retryDelay: 5 },
  async handle(job, jc) {
    const service = firewallServiceFor(jc.ctx);
    const expired = await service.expireDue();
    const applied = await service.rebuild(jc.log);
    if (expired.length > 0) jc.log.info({ expired, applied: applied.ok }, 'firewall: expired entries removed');
    return {
      entryId: job.data?.entryId ?? null,
      expired,
      applied: applied.ok,
      error: applied.ok ? null : applied.key,
      instance: jc.instanceId,
    };
  },
};

export const firewallReconcileTask: LocalTask = {
  name: 'firewall-reconcile',
  intervalMs: 60_000,
  runAtStart: true,
  enabled: (ctx) => ctx.config.firewallAdapter !== 'none',
  async run(jc) {
    await firewallServiceFor(jc.ctx).rebuild(jc.log);
  },
};
