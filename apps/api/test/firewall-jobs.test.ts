/**
 * Background jobs (pg-boss) with the firewall expiry job, on PGlite or PostgreSQL: start-up and
 * clean shutdown, the cron schedule, a delayed job per entry at its expiry, and expiry through a
 * real job run (recorded in job_runs, audit-logged once).
 */
import type { FirewallEntryItem } from '@backoffice/core/firewall';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRuns } from '../src/db/schema.ts';
import { FIREWALL_EXPIRE_QUEUE } from '../src/modules/firewall/service.ts';
import { countAudit, dbOf, entryById, expireNow, waitFor } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

describe('background jobs: firewall expiry on pg-boss', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let readyMs: number;

  beforeAll(async () => {
    const started = performance.now();
    t = await createTestApp({ jobs: true });
    readyMs = Math.round(performance.now() - started);
    admin = (await signIn(t.app, 'admin@adtech.example')).headers;
  });
  afterAll(async () => {
    if (!t) return;
    const started = performance.now();
    await t.close();
    const ms = Math.round(performance.now() - started);
    console.log(`[jobs] app.close() with pg-boss running took ${ms} ms`);
    expect(ms).toBeLessThan(12_000);
  });

  it('starts pg-boss with the app when JOBS is on, quickly', async () => {
    const jobs = t.app.jobs!;
    expect(jobs.running).toBe(true);
    const kind = t.app.ctx.database.kind;
    console.log(`[jobs] pg-boss start-up on ${kind}: ${jobs.startupMs} ms (whole createTestApp: ${readyMs} ms)`);
    expect(jobs.startupMs).toBeLessThan(10_000);
    const queues = (await jobs.boss().getQueues()).map((q) => q.name);
    expect(queues).toEqual(expect.arrayContaining([FIREWALL_EXPIRE_QUEUE, 'jobs-prune-runs']));
  });

  it('schedules the expiry sweep every minute (UTC)', async () => {
    const schedules = await t.app.jobs!.boss().getSchedules(FIREWALL_EXPIRE_QUEUE);
    expect(schedules).toHaveLength(1);
    expect(schedules[0]).toMatchObject({ name: FIREWALL_EXPIRE_QUEUE, cron: '* * * * *', timezone: 'UTC' });
  });

  it('an allow-listed entry gets a delayed expiry job a second after it expires', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/firewall/ip', headers: admin, payload: { ip: '192.0.2.200', type: 'HOUR_3' } });
    const entry = body<{ entry: FirewallEntryItem }>(res).data.entry;
    const jobs = await t.app.jobs!.boss().findJobs<{ entryId: number }>(FIREWALL_EXPIRE_QUEUE, { data: { entryId: entry.id } });
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.state).toBe('created');
    expect(new Date(jobs[0]!.startAfter).getTime() - Date.parse(entry.expires_at!)).toBe(1000);
  });

  it('the job expires the entry: DISABLED (expired), one audit record, one recorded run', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/firewall/ip', headers: admin, payload: { ip: '192.0.2.201' } });
    const entry = body<{ entry: FirewallEntryItem }>(res).data.entry;
    await expireNow(t.app, entry.id);
    const jobId = await t.app.jobs!.send(FIREWALL_EXPIRE_QUEUE, { entryId: entry.id });
    expect(jobId).toBeTruthy();
    const row = await waitFor(async () => {
      const e = await entryById(t.app, entry.id);
      return e?.status === 'DISABLED' ? e : null;
    }, 15_000, 'the expiry job');
    expect(row.disabledReason).toBe('expired');
    expect(await countAudit(t.app, 'firewall.expire', entry.id)).toBe(1);
    const runs = await waitFor(async () => {
      const r = await dbOf(t.app).select().from(jobRuns).where(eq(jobRuns.jobId, jobId!));
      return r.length === 1 && r[0]!.finishedAt ? r : null;
    }, 5000, 'the job run record');
    expect(runs[0]).toMatchObject({ queue: FIREWALL_EXPIRE_QUEUE, ok: true, instance: t.app.jobs!.instanceId });
    expect(runs[0]!.output).toMatchObject({ entryId: entry.id, applied: true });
    // Exactly one sweep expired it: this job, or the every-minute cron sweep (same handler, no
    // entryId) when its minute happened to land between expireNow and this job.
    const handlers = await waitFor(async () => {
      const r = await dbOf(t.app).select().from(jobRuns).where(eq(jobRuns.queue, FIREWALL_EXPIRE_QUEUE));
      const h = r.filter((x) => x.finishedAt && (x.output as { expired?: number[] } | null)?.expired?.includes(entry.id));
      return h.length > 0 ? h : null;
    }, 5000, 'the run that expired the entry');
    expect(handlers).toHaveLength(1);
    const [handler] = handlers;
    if (handler!.jobId !== jobId) expect(handler!.output).toMatchObject({ entryId: null, expired: [entry.id] });
    expect(runs[0]!.output).toMatchObject({ expired: handler!.jobId === jobId ? [entry.id] : [] });
  });

  it('a re-requested entry is not expired by its old job', async () => {
    const first = body<{ entry: FirewallEntryItem }>(
      await t.app.inject({ method: 'POST', url: '/v1/firewall/ip', headers: admin, payload: { ip: '192.0.2.202' } }),
    ).data.entry;
    await t.app.inject({ method: 'POST', url: '/v1/firewall/ip', headers: admin, payload: { ip: '192.0.2.202', type: 'HOUR_6' } });
    const jobId = await t.app.jobs!.send(FIREWALL_EXPIRE_QUEUE, { entryId: first.id });
    await waitFor(async () => {
      const r = await dbOf(t.app).select().from(jobRuns).where(eq(jobRuns.jobId, jobId!));
      return r[0]?.finishedAt ? r : null;
    }, 15_000, 'the job run');
    expect((await entryById(t.app, first.id))!.status).toBe('ACTIVE');
  });
});
