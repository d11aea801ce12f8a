/**
 * Scale-out (issue 2): two API instances (two buildApp calls, jobs on) listening on real ports on
 * ONE PostgreSQL database behave as one: a token from A works on B, failed sign-ins spread over A
 * and B hit the per-mail limit together, a firewall entry made on A is listed on B, and expiry
 * jobs run exactly once across both (job_runs, audit log). PostgreSQL only (TEST_DATABASE_URL):
 * PGlite is an in-process database that one process opens at a time.
 */
import type { FirewallEntryItem, FirewallEntryRow } from '@backoffice/core/firewall';
import type { Page } from '@backoffice/core/resources/define';
import { inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { auditLog, jobRuns } from '../src/db/schema.ts';
import { FIREWALL_EXPIRE_QUEUE } from '../src/modules/firewall/service.ts';
import { awayFromWindowEdge } from './auth-support.ts';
import { baseTestConfig, testDatabaseUrl } from './db-template.ts';
import { dbOf, expireNow, waitFor } from './firewall-fixtures.ts';
import { DEMO_PASSWORD, freshDatabase, type TestDb } from './helpers.ts';

type FirewallEntryPage = Page<FirewallEntryRow>;

const PG = testDatabaseUrl();
if (!PG) {
  console.warn('[scale-out] SKIPPED: needs PostgreSQL (TEST_DATABASE_URL); PGlite is a single-process database, so two instances cannot share it.');
}

type Envelope<T> = { status: string; message: string; data: T; text?: string };

describe.skipIf(!PG)('scale-out: two instances on one PostgreSQL database', () => {
  let db: TestDb;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let urlA: string;
  let urlB: string;

  async function call<T>(base: string, path: string, init: { method?: string; token?: string; body?: unknown } = {}) {
    const res = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Envelope<T> };
  }

  const login = (base: string, email: string, password = DEMO_PASSWORD) =>
    call<{ token: string; id: number }>(base, '/v1/login', { method: 'POST', body: { email, password } });

  beforeAll(async () => {
    db = await freshDatabase();
    const config = baseTestConfig({ ...db.config, jobs: true });
    // Two instances on the same database, started together as a deployment would.
    [a, b] = await Promise.all([buildApp(config), buildApp(config)]);
    await Promise.all([a.ready(), b.ready()]);
    urlA = await a.listen({ port: 0, host: '127.0.0.1' });
    urlB = await b.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await db?.destroy();
  });

  it('both instances run jobs, with one shared schedule', async () => {
    expect(a.jobs!.running && b.jobs!.running).toBe(true);
    expect(a.jobs!.instanceId).not.toBe(b.jobs!.instanceId);
    console.log(`[scale-out] pg-boss start-up on PostgreSQL: A ${a.jobs!.startupMs} ms, B ${b.jobs!.startupMs} ms`);
    expect(await a.jobs!.boss().getSchedules(FIREWALL_EXPIRE_QUEUE)).toHaveLength(1);
  });

  it('a token signed in on A works on B; refreshed on B, the old one has ended on A; logged out on A, ended on B', async () => {
    const session = await login(urlA, 'finance@adtech.example');
    expect(session.status).toBe(200);
    const refreshed = await call<{ id: number; token: string }>(urlB, '/v1/login/refresh', { token: session.body.data.token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data.id).toBe(session.body.data.id);
    const ip = await call<{ ip_origin: string }>(urlA, '/v1/firewall/ip', { token: refreshed.body.data.token });
    expect(ip.body.data).toEqual({ ip_origin: '127.0.0.1' });
    // Sessions are rows in the shared database (IDENTITY_CACHE_MS is 0 in tests).
    expect((await call(urlA, '/v1/firewall/ip', { token: session.body.data.token })).status).toBe(401);
    expect((await call(urlA, '/v1/logout', { method: 'POST', token: refreshed.body.data.token })).status).toBe(200);
    expect((await call(urlB, '/v1/firewall/ip', { token: refreshed.body.data.token })).status).toBe(401);
  });

  it('failed sign-ins from one address spread over A and B hit the address+account limit together', async () => {
    const mail = 'demand.lead@adtech.example';
    const { loginMaxPerMail: max, loginWindowSec } = baseTestConfig();
    // Sliding windows: attempts near a clock window's end still count after it; staying away from
    // the end keeps the count simple (all in one window).
    await awayFromWindowEdge(loginWindowSec, 20_000);
    for (let i = 0; i < max; i++) {
      const res = await login(i % 2 === 0 ? urlA : urlB, mail, 'wrong-password');
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    const limited = await login(max % 2 === 0 ? urlA : urlB, mail, 'wrong-password');
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe('auth.too_many_attempts');
    // Blocked on both instances, even with the right password.
    expect((await login(urlA, mail)).status).toBe(429);
    expect((await login(urlB, mail)).status).toBe(429);
  });

  it('a firewall entry created on A is listed on B', async () => {
    const admin = (await login(urlA, 'admin@adtech.example')).body.data.token;
    const made = await call<{ update_db_ip: string; update_firewall_ip: string; entry: FirewallEntryItem }>(urlA, '/v1/firewall/ip', {
      method: 'POST',
      token: admin,
      body: { ip: '192.0.2.30', type: 'HOUR_2' },
    });
    expect(made.body.data).toMatchObject({ update_db_ip: 'OK', update_firewall_ip: 'OK' });
    const listed = await call<FirewallEntryPage>(urlB, '/v1/firewall/entries?page_size=100', { token: admin });
    expect(listed.body.data.items.find((i) => i.id === made.body.data.entry.id)).toMatchObject({ ip: '192.0.2.30', status: 'ACTIVE' });
    // Disabled on B: seen disabled on A.
    await call(urlB, `/v1/firewall/entries/${made.body.data.entry.id}/disable`, { method: 'POST', token: admin, body: {} });
    const onA = await call<FirewallEntryPage>(urlA, '/v1/firewall/entries?f[status]=DISABLED&page_size=100', { token: admin });
    expect(onA.body.data.items.map((i) => i.id)).toContain(made.body.data.entry.id);
  });

  it('expiry jobs run exactly once across both instances, and each expired entry is handled once', async () => {
    const admin = (await login(urlB, 'admin@adtech.example')).body.data.token;
    const entryIds: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await call<{ entry: FirewallEntryItem }>(i % 2 ? urlA : urlB, '/v1/firewall/ip', { method: 'POST', token: admin, body: { ip: `198.51.100.${100 + i}` } });
      entryIds.push(res.body.data.entry.id);
    }
    for (const id of entryIds) await expireNow(a, id);
    // 12 jobs sent from both instances at once; both instances work the queue.
    const jobIds = (
      await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).jobs!.send(FIREWALL_EXPIRE_QUEUE, { entryId: entryIds[i % entryIds.length]! })))
    ).filter((id): id is string => Boolean(id));
    expect(jobIds).toHaveLength(12);

    const runs = await waitFor(async () => {
      const rows = await dbOf(a).select().from(jobRuns).where(inArray(jobRuns.jobId, jobIds));
      return rows.filter((r) => r.finishedAt).length === jobIds.length ? rows : null;
    }, 30_000, 'all 12 expiry jobs to run');

    // Each job ran exactly once (one recorded execution per job id), successfully.
    expect(runs).toHaveLength(12);
    expect(new Set(runs.map((r) => r.jobId)).size).toBe(12);
    expect(runs.every((r) => r.ok)).toBe(true);
    const byInstance = new Map<string, number>();
    for (const r of runs) byInstance.set(r.instance, (byInstance.get(r.instance) ?? 0) + 1);
    console.log(`[scale-out] 12 expiry jobs ran on: ${[...byInstance].map(([k, n]) => `${k} x${n}`).join(', ')}`);
    for (const instance of byInstance.keys()) expect([a.jobs!.instanceId, b.jobs!.instanceId]).toContain(instance);

    // Concurrent sweeps never handle an entry twice: each expired entry appears in exactly one
    // run's output and has exactly one audit record. The sweeps are these 12 jobs and, when its
    // minute lands while they run, the every-minute cron sweep (same handler): all runs of the queue
    // count (the entries are new, so no earlier run can name them).
    const handledIn = (rows: { output: unknown }[]) =>
      rows.flatMap((r) => (r.output as { expired?: number[] } | null)?.expired ?? []).filter((id) => entryIds.includes(id));
    const allRuns = await waitFor(async () => {
      const rows = await dbOf(a).select().from(jobRuns).where(sql`${jobRuns.queue} = ${FIREWALL_EXPIRE_QUEUE} and ${jobRuns.finishedAt} is not null`);
      return new Set(handledIn(rows)).size === entryIds.length ? rows : null;
    }, 30_000, 'every entry expired by a recorded run');
    const handled = handledIn(allRuns);
    expect(handled.sort((x, y) => x - y)).toEqual([...entryIds].sort((x, y) => x - y));
    const audits = await dbOf(b)
      .select({ entityId: auditLog.entityId, n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(sql`${auditLog.action} = 'firewall.expire' and ${auditLog.entityId} in (${sql.join(entryIds.map((id) => sql`${String(id)}`), sql`, `)})`)
      .groupBy(auditLog.entityId);
    expect(audits).toHaveLength(entryIds.length);
    expect(audits.every((r) => r.n === 1)).toBe(true);
  });
});
