/**
 * The scheduler (`/utils/scheduler`), on PGlite or PostgreSQL: who may see and change jobs (the
 * permission resource and the `scheduler` protected area), validation messages, next runs across
 * daylight-saving changes, the dispatch's claim under concurrent ticks, real task runs with their
 * log and duration, failures on the dashboard, retry, pause/resume, stale edits, audit entries and
 * a run that survives a restart (pg-boss on the same database).
 */
import type { SchedulerPreview, SchedulerRun } from '@backoffice/core/scheduler';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { roles, userRoles, users } from '../src/db/schema.ts';
import { createRun, SCHEDULER_RUN_QUEUE, tick } from '../src/modules/scheduler/service.ts';
import { query } from '../src/reports-data/sql.ts';
import { baseTestConfig } from './db-template.ts';
import { countAudit, dbOf, entryById, expireNow, userWithAcl, waitFor } from './firewall-fixtures.ts';
import { body, createTestApp, freshDatabase, signIn, type TestApp } from './helpers.ts';
import { eq } from 'drizzle-orm';

type Headers = { authorization: string };
type JobRow = { id: number; version: number; name: string; enabled: boolean; next_run_at: string | null; last_status: string | null; owner_id: number | null };

const JOBS = '/v1/scheduler-api/jobs';

const silentLog = { warn: () => undefined, info: () => undefined, error: () => undefined } as never;

/** A user holding a demo role (the demo set has no scheduler admin person). */
async function userWithRole(app: FastifyInstance, mail: string, role: string): Promise<Headers> {
  const db = dbOf(app);
  const [r] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, role));
  const [user] = await db.insert(users).values({ mail, name: 'Iñaki Etxeberria', passwordHash: 'not-a-login-user' }).returning();
  await db.insert(userRoles).values({ userId: user!.id, roleId: r!.id });
  const { token } = await app.sessions.issue(user!.id);
  return { authorization: `Bearer ${token}` };
}

async function waitForRun(app: FastifyInstance, headers: Headers, runId: number, timeoutMs = 15_000): Promise<SchedulerRun> {
  return waitFor(
    async () => {
      const res = await app.inject({ method: 'GET', url: `/v1/scheduler-api/runs/${runId}`, headers });
      const run = body<SchedulerRun>(res).data;
      return run.status === 'succeeded' || run.status === 'failed' ? run : null;
    },
    timeoutMs,
    `run ${runId} to finish`,
  );
}

describe('scheduler API', () => {
  let t: TestApp;
  let admin: Headers;
  let schedAdmin: Headers;
  let viewer: Headers;
  let noRole: Headers;
  let tech: Headers;
  let firewallJob: JobRow;

  const create = (payload: object, headers = schedAdmin) => t.app.inject({ method: 'POST', url: JOBS, headers, payload });

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signIn(t.app, 'admin@adtech.example')).headers;
    viewer = (await signIn(t.app, 'scheduler.viewer@adtech.example')).headers;
    noRole = (await signIn(t.app, 'marketing@adtech.example')).headers;
    tech = (await signIn(t.app, 'tech@adtech.example')).headers;
    schedAdmin = await userWithRole(t.app, 'scheduler.admin@adtech.example', 'SCHEDULER_ADMIN');
    const res = await create({ name: 'Firewall sweep', cron: '0 * * * *', timezone: 'UTC', task_type: 'firewall.expire', params: {} });
    expect(res.statusCode).toBe(201);
    firewallJob = body<JobRow>(res).data;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a scheduler admin creates a job: owner, next run from the expression, audit entry', async () => {
    expect(firewallJob.enabled).toBe(true);
    expect(firewallJob.owner_id).toBeTypeOf('number');
    const next = Date.parse(firewallJob.next_run_at!);
    expect(next).toBeGreaterThan(Date.now());
    expect(next - Date.now()).toBeLessThanOrEqual(3600_000);
    expect(new Date(next).getUTCMinutes()).toBe(0);
    expect(await countAudit(t.app, 'scheduled_job.create', firewallJob.id)).toBe(1);
    const list = await t.app.inject({ method: 'GET', url: `${JOBS}?f[task_type]=firewall.expire`, headers: viewer });
    expect(list.statusCode).toBe(200);
    expect(body<{ items: JobRow[] }>(list).data.items.map((j) => j.id)).toContain(firewallJob.id);
  });

  it('viewers read but every write answers 403; no permission, or the ACL bypass, cannot even read', async () => {
    const id = firewallJob.id;
    const writes = [
      { method: 'POST', url: JOBS, payload: { name: 'x', cron: '* * * * *', task_type: 'firewall.expire', params: {} } },
      { method: 'PUT', url: `${JOBS}/${id}`, payload: { name: 'x', cron: '* * * * *', timezone: 'UTC', task_type: 'firewall.expire', params: {}, enabled: true, version: 1 } },
      { method: 'DELETE', url: `${JOBS}/${id}` },
      { method: 'POST', url: `${JOBS}/${id}/actions/run`, payload: {} },
      { method: 'POST', url: `${JOBS}/${id}/actions/pause`, payload: { version: 1 } },
      { method: 'POST', url: `${JOBS}/${id}/actions/resume`, payload: { version: 1 } },
      { method: 'POST', url: '/v1/scheduler-api/runs/1/retry', payload: {} },
    ] as const;
    for (const w of writes) {
      const res = await t.app.inject({ ...w, headers: viewer } as never);
      expect(res.statusCode, `${w.method} ${w.url}`).toBe(403);
    }
    for (const url of [`${JOBS}`, `${JOBS}/${id}`, `${JOBS}/${id}/runs`, `${JOBS}/${id}/history`, '/v1/scheduler-api/preview?cron=*%20*%20*%20*%20*']) {
      expect((await t.app.inject({ method: 'GET', url, headers: viewer })).statusCode, url).toBe(200);
      expect((await t.app.inject({ method: 'GET', url, headers: noRole })).statusCode, url).toBe(403);
      // TECH reads everything unprotected through the bypass marker; the scheduler is protected.
      expect((await t.app.inject({ method: 'GET', url, headers: tech })).statusCode, url).toBe(403);
    }
    // The API permission without the `scheduler` area is not enough (the protected area is honoured).
    const half = await userWithAcl(t.app, 'half.scheduler@adtech.example', { '/v1/scheduler-api': ['read', 'write'] });
    expect((await t.app.inject({ method: 'GET', url: JOBS, headers: half.headers })).statusCode).toBe(403);
    expect((await create({ name: 'y', cron: '* * * * *', task_type: 'firewall.expire', params: {} }, half.headers)).statusCode).toBe(403);
    // ADMIN may.
    expect((await t.app.inject({ method: 'GET', url: JOBS, headers: admin })).statusCode).toBe(200);
  });

  it('refuses bad input with the message key next to the field, writing nothing', async () => {
    const base = { name: 'Bad one', cron: '0 7 * * *', timezone: 'Europe/Madrid', task_type: 'billing.build_rows', params: { side: 'ssp' } };
    const cases: [object, Record<string, string>][] = [
      [{ cron: '61 * * * *' }, { cron: 'scheduler.cron_invalid' }],
      [{ cron: '* * * *' }, { cron: 'scheduler.cron_invalid' }],
      [{ cron: '0 0 30 2 *' }, { cron: 'scheduler.cron_never' }],
      [{ cron: '' }, { cron: 'scheduler.cron_required' }],
      [{ timezone: 'Europe/Atlantis' }, { timezone: 'scheduler.timezone_invalid' }],
      [{ name: '  ' }, { name: 'scheduler.name_required' }],
      [{ task_type: 'coffee.make' }, { task_type: 'scheduler.task_type_required' }],
      [{ params: { side: 'both' } }, { 'params.side': 'scheduler.params.side_invalid' }],
      [{ task_type: 'dataviewer.send', params: { dataviewer_id: 1, recipients: [] } }, { 'params.recipients': 'scheduler.params.recipients_required' }],
      [{ task_type: 'dataviewer.send', params: { dataviewer_id: 1, recipients: ['ana@adtech.example', 'not-a-mail'] } }, { 'params.recipients.1': 'scheduler.params.recipient_invalid' }],
      [{ task_type: 'dataviewer.send', params: { dataviewer_id: 999999, recipients: ['ana@adtech.example'] } }, { 'params.dataviewer_id': 'scheduler.params.dataviewer_unknown' }],
      [{ task_type: 'discrepancy.run', params: { date_offset: -1, date: '2026-11-01' } }, { 'params.date': 'scheduler.params.date_required' }],
      [{ task_type: 'ads_txt.check', params: { publisher_id: 0 } }, { 'params.publisher_id': 'scheduler.params.publisher_invalid' }],
    ];
    const before = await dbOf(t.app).execute(sql`select count(*)::int as n from scheduled_jobs`);
    for (const [patch, errors] of cases) {
      const res = await create({ ...base, ...patch });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(body(res).errors, JSON.stringify(patch)).toMatchObject(errors);
    }
    const after = await dbOf(t.app).execute(sql`select count(*)::int as n from scheduled_jobs`);
    expect((after as { rows: { n: number }[] }).rows[0]!.n).toBe((before as { rows: { n: number }[] }).rows[0]!.n);
    // The same name twice is a field error too.
    expect(body((await create({ ...base, name: 'Firewall sweep' }))).errors).toEqual({ name: 'scheduler.name_taken' });
  });

  it('computes next runs across daylight-saving changes (Madrid and New York), in words in both languages', async () => {
    const preview = async (cron: string, timezone: string, from: string, lang = 'en') =>
      body<SchedulerPreview>(
        await t.app.inject({ method: 'GET', url: `/v1/scheduler-api/preview?cron=${encodeURIComponent(cron)}&timezone=${encodeURIComponent(timezone)}&from=${from}`, headers: { ...viewer, 'accept-language': lang } }),
      ).data;
    // Madrid, 29 March 2026: 02:00 CET jumps to 03:00 CEST; 02:30 does not exist and runs at 03:00.
    const spring = await preview('30 2 * * *', 'Europe/Madrid', '2026-03-27T12:00:00Z');
    expect(spring.next_runs).toEqual(['2026-03-28T01:30:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z', '2026-03-31T00:30:00.000Z', '2026-04-01T00:30:00.000Z']);
    expect(spring.words).toBe('At 02:30');
    // Madrid, 25 October 2026: 03:00 CEST goes back to 02:00 CET; 02:30 happens twice and runs once.
    const autumn = await preview('30 2 * * *', 'Europe/Madrid', '2026-10-23T12:00:00Z', 'es');
    expect(autumn.next_runs.slice(0, 3)).toEqual(['2026-10-24T00:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
    expect(autumn.words).toBe('A las 02:30');
    // New York: 8 March 2026 (02:00 EST -> 03:00 EDT) and 1 November 2026 (02:00 EDT -> 01:00 EST).
    const nySpring = await preview('30 2 * * *', 'America/New_York', '2026-03-06T12:00:00Z');
    expect(nySpring.next_runs.slice(0, 3)).toEqual(['2026-03-07T07:30:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z']);
    const nyAutumn = await preview('30 1 * * *', 'America/New_York', '2026-10-30T12:00:00Z');
    expect(nyAutumn.next_runs.slice(0, 3)).toEqual(['2026-10-31T05:30:00.000Z', '2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
    const bad = await preview('99 * * * *', 'Europe/Madrid', '2026-03-27T12:00:00Z');
    expect(bad).toEqual({ valid: false, error: 'scheduler.cron_invalid', words: null, next_runs: [] });
    // A job saved now has the preview's first run as its next run.
    const res = await create({ name: 'Nightly 02:30 Madrid', cron: '30 2 * * *', timezone: 'Europe/Madrid', task_type: 'firewall.expire', params: {} });
    const job = body<JobRow>(res).data;
    const now = await preview('30 2 * * *', 'Europe/Madrid', new Date(Date.parse(job.next_run_at!) - 60_000).toISOString());
    expect(now.next_runs[0]).toBe(job.next_run_at);
  });

  it('two concurrent ticks claim a due occurrence once', async () => {
    const res = await create({ name: 'Every minute', cron: '* * * * *', timezone: 'UTC', task_type: 'firewall.expire', params: {} });
    const job = body<JobRow>(res).data;
    await dbOf(t.app).execute(sql`update scheduled_jobs set next_run_at = now() - interval '1 minute' where id = ${job.id}`);
    const sent: number[] = [];
    const send = async (_q: string, data: object) => {
      sent.push((data as { runId: number }).runId);
      return 'job';
    };
    const [a, b] = await Promise.all([tick(t.app.ctx, send, silentLog), tick(t.app.ctx, send, silentLog)]);
    const mine = [...a.queued, ...b.queued];
    expect(mine).toHaveLength(1);
    expect(sent).toContain(mine[0]);
    const runs = await dbOf(t.app).execute(sql`select count(*)::int as n from scheduled_job_runs where job_id = ${job.id}`);
    expect((runs as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
    const row = body<JobRow>(await t.app.inject({ method: 'GET', url: `${JOBS}/${job.id}`, headers: viewer })).data;
    expect(Date.parse(row.next_run_at!)).toBeGreaterThan(Date.now());
    expect(row.last_status).toBe('queued');
    // A third tick finds nothing due; with a run still queued the next occurrence would be skipped, not stacked.
    expect((await tick(t.app.ctx, send, silentLog)).queued).not.toContain(job.id);
  });

  it('run now executes the real task, records duration and log, once under double clicks', async () => {
    const fw = await t.app.inject({ method: 'POST', url: '/v1/firewall/ip', headers: admin, payload: { ip: '192.0.2.77' } });
    const entry = body<{ entry: { id: number } }>(fw).data.entry;
    await expireNow(t.app, entry.id);
    const res = await t.app.inject({ method: 'POST', url: `${JOBS}/${firewallJob.id}/actions/run`, headers: schedAdmin, payload: {} });
    expect(res.statusCode).toBe(201);
    const queued = body<{ run: SchedulerRun }>(res).data.run;
    expect(queued.trigger).toBe('manual');
    const run = await waitForRun(t.app, viewer, queued.id);
    expect(run.status).toBe('succeeded');
    expect(run.progress).toBe(100);
    expect(run.duration_ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(run.finished_at!)).toBeGreaterThanOrEqual(Date.parse(run.started_at!));
    expect(run.log).toContain('Disabling expired allow-list entries');
    expect(run.log).toContain(`Expired 1 entry: #${entry.id}`);
    expect(run.log).toMatch(/Succeeded\n$/);
    expect((await entryById(t.app, entry.id))?.status).toBe('DISABLED');
    expect(await countAudit(t.app, 'scheduled_job.run', firewallJob.id)).toBe(1);
    const runs = body<{ items: SchedulerRun[]; total: number }>(await t.app.inject({ method: 'GET', url: `${JOBS}/${firewallJob.id}/runs`, headers: viewer })).data;
    expect(runs.items[0]!.id).toBe(run.id);
    expect(runs.items[0]!.requested_by.name).toBe('Iñaki Etxeberria');
    // While a run is queued, "run now" answers 409 (a double click makes one run).
    const held = await createRun(dbOf(t.app), firewallJob.id, 'manual');
    expect(held).toBeTypeOf('number');
    expect(await createRun(dbOf(t.app), firewallJob.id, 'manual')).toBeNull();
    const again = await t.app.inject({ method: 'POST', url: `${JOBS}/${firewallJob.id}/actions/run`, headers: schedAdmin, payload: {} });
    expect(again.statusCode).toBe(409);
    expect(body(again).message).toBe('scheduler.already_running');
    await dbOf(t.app).execute(sql`update scheduled_job_runs set status = 'failed', finished_at = now(), error = 'cancelled by the test' where id = ${held}`);
  });

  it('a discrepancy run requests a review of the days the partners reported, once per run', async () => {
    const db = dbOf(t.app);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const partners = await query<{ id: number }>(
      t.app.ctx.database,
      `insert into demand_partners (name, side, reporting) values ('Lumen Exchange', 'ssp', 'manual'), ('Brisa Ads', 'ssp', 'api') returning id`,
    );
    const [reporting, silent] = partners.map((p) => Number(p.id)) as [number, number];
    await db.execute(sql`delete from partner_stats where day >= date_trunc('month', ${yesterday}::date)`);
    await db.execute(sql`insert into partner_stats (day, demand_partner_id, impressions, revenue, currency, source) values (${yesterday}::date, ${reporting}, 120000, '345.678900', 'USD', 'manual')`);
    const res = await create({ name: 'Nightly discrepancy', cron: '30 6 * * *', timezone: 'UTC', task_type: 'discrepancy.run', params: { date_offset: -1, date: null, network_ids: [reporting, silent] } });
    expect(res.statusCode).toBe(201);
    const job = body<JobRow>(res).data;
    const started = await t.app.inject({ method: 'POST', url: `${JOBS}/${job.id}/actions/run`, headers: schedAdmin, payload: {} });
    const run = await waitForRun(t.app, viewer, body<{ run: SchedulerRun }>(started).data.run.id);
    expect(run.status, run.log).toBe('succeeded');
    expect(run.log).toContain(`No reported figures for network(s) ${silent}: left out`);
    const requestId = Number(/Requested: discrepancy #(\d+)/.exec(run.log ?? '')?.[1] ?? NaN);
    const request = body<{ id: number; date: string; state: string; networks: { id: number }[] }>(await t.app.inject({ method: 'GET', url: `/v1/discrepancy/requests/${requestId}`, headers: admin })).data;
    expect(request.date).toBe(yesterday);
    expect(['queued', 'running', 'ready']).toContain(request.state);
    expect(request.networks.map((n) => n.id)).toEqual([reporting]);
    // The same run asked again (a retried worker) makes no second request.
    const [again] = await query<{ n: number }>(t.app.ctx.database, `select count(*)::int as n from discrepancy_requests where idem_key = $1`, [`scheduler-run-${run.id}`]);
    expect(again!.n).toBe(1);
  });

  it('a failed task records the failure, shows on the dashboard, and is retried as a new run', async () => {
    const dv = await t.app.inject({
      method: 'POST',
      url: '/v1/reports/dataviewers',
      headers: admin,
      payload: { name: 'Revenue to sales', definition: { range: { start: '2026-03-01', end: '2026-03-31' }, timezone: 'Europe/Madrid', dimensions: ['day'], metrics: ['revenue'], filters: [], sort: [] } },
    });
    expect(dv.statusCode).toBe(201);
    const dvId = body<{ id: number }>(dv).data.id;
    const res = await create({ name: 'Send revenue', cron: '0 7 * * *', timezone: 'Europe/Madrid', task_type: 'dataviewer.send', params: { dataviewer_id: dvId, recipients: ['Sales@AdTech.example'] } });
    expect(res.statusCode).toBe(201);
    const job = body<JobRow & { params: Record<string, unknown> }>(res).data;
    expect(job.params).toEqual({ dataviewer_id: dvId, recipients: ['sales@adtech.example'], format: 'xlsx', range_preset: 'yesterday' });
    // It works while the DataViewer exists (an empty report mails "export empty")…
    const ok1 = body<{ run: SchedulerRun }>(await t.app.inject({ method: 'POST', url: `${JOBS}/${job.id}/actions/run`, headers: schedAdmin, payload: {} })).data.run;
    const good = await waitForRun(t.app, viewer, ok1.id);
    expect(good.status, good.log).toBe('succeeded');
    expect(good.log).toContain('sales@adtech.example');
    // …and fails once it is gone.
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/reports/dataviewers/${dvId}`, headers: admin })).statusCode).toBe(200);
    const bad1 = body<{ run: SchedulerRun }>(await t.app.inject({ method: 'POST', url: `${JOBS}/${job.id}/actions/run`, headers: schedAdmin, payload: {} })).data.run;
    const failed = await waitForRun(t.app, viewer, bad1.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('report.not_found');
    expect(failed.log).toContain('Failed: report.not_found');
    const jobNow = body<JobRow>(await t.app.inject({ method: 'GET', url: `${JOBS}/${job.id}`, headers: viewer })).data;
    expect(jobNow.last_status).toBe('failed');

    type Waiting = { kind: string; count: number; items: { id: number; job_id: number; link: string }[] };
    const dash = async (headers: Headers) =>
      body<{ waiting: Waiting[] }>(await t.app.inject({ method: 'GET', url: '/v1/dashboard?sections=waiting&timezone=Europe/Madrid', headers })).data.waiting.find((w) => w.kind === 'scheduler_failures')!;
    const seen = await dash(viewer);
    expect(seen.count).toBeGreaterThanOrEqual(1);
    expect(seen.items).toContainEqual(expect.objectContaining({ id: failed.id, job_id: job.id, link: `/utils/scheduler/${job.id}` }));
    expect((await dash(noRole)).count).toBe(0);

    // Retry: a new run of the same job; only failed runs can be retried.
    expect((await t.app.inject({ method: 'POST', url: `/v1/scheduler-api/runs/${good.id}/retry`, headers: schedAdmin, payload: {} })).statusCode).toBe(409);
    const retry = await t.app.inject({ method: 'POST', url: `/v1/scheduler-api/runs/${failed.id}/retry`, headers: schedAdmin, payload: {} });
    expect(retry.statusCode).toBe(201);
    const second = body<{ run: SchedulerRun }>(retry).data.run;
    expect(second).toMatchObject({ trigger: 'retry', retry_of: failed.id, job_id: job.id });
    expect((await waitForRun(t.app, viewer, second.id)).status).toBe('failed');
    expect(await countAudit(t.app, 'scheduled_job.retry', job.id)).toBe(1);
  });

  it('pause and resume keep the definition; stale versions answer 409; every change is audited', async () => {
    const url = `${JOBS}/${firewallJob.id}`;
    const current = body<JobRow>(await t.app.inject({ method: 'GET', url, headers: viewer })).data;
    const paused = await t.app.inject({ method: 'POST', url: `${url}/actions/pause`, headers: schedAdmin, payload: { version: current.version } });
    expect(paused.statusCode).toBe(200);
    const row = body<JobRow>(await t.app.inject({ method: 'GET', url, headers: viewer })).data;
    expect(row).toMatchObject({ enabled: false, next_run_at: null, version: current.version + 1, name: 'Firewall sweep' });
    const stale = await t.app.inject({ method: 'POST', url: `${url}/actions/resume`, headers: schedAdmin, payload: { version: current.version } });
    expect(stale.statusCode).toBe(409);
    const resumed = await t.app.inject({ method: 'POST', url: `${url}/actions/resume`, headers: schedAdmin, payload: { version: row.version } });
    expect(resumed.statusCode).toBe(200);
    const back = body<JobRow>(await t.app.inject({ method: 'GET', url, headers: viewer })).data;
    expect(back.enabled).toBe(true);
    expect(Date.parse(back.next_run_at!)).toBeGreaterThan(Date.now());
    // A generic edit with the old version: 409 with the current row.
    const edit = { name: 'Firewall sweep (hourly)', cron: '5 * * * *', timezone: 'UTC', task_type: 'firewall.expire', params: {}, enabled: true };
    const conflict = await t.app.inject({ method: 'PUT', url, headers: schedAdmin, payload: { ...edit, version: row.version } });
    expect(conflict.statusCode).toBe(409);
    expect(body<{ current: JobRow }>(conflict).data.current.version).toBe(back.version);
    const saved = await t.app.inject({ method: 'PUT', url, headers: schedAdmin, payload: { ...edit, version: back.version } });
    expect(saved.statusCode).toBe(200);
    expect(new Date(body<JobRow>(saved).data.next_run_at!).getUTCMinutes()).toBe(5);
    for (const action of ['pause', 'resume', 'update']) expect(await countAudit(t.app, `scheduled_job.${action}`, firewallJob.id), action).toBe(1);
    const history = body<{ action: string }[]>(await t.app.inject({ method: 'GET', url: `${url}/history`, headers: viewer })).data.map((h) => h.action);
    expect(history.slice(0, 3)).toEqual(['scheduled_job.update', 'scheduled_job.resume', 'scheduled_job.pause']);
  });

  it('deletes a job with its runs (admins only)', async () => {
    const res = await create({ name: 'Short-lived', cron: '0 3 * * *', task_type: 'ads_txt.check', params: {} });
    const job = body<JobRow>(res).data;
    await createRun(dbOf(t.app), job.id, 'manual');
    expect((await t.app.inject({ method: 'DELETE', url: `${JOBS}/${job.id}`, headers: schedAdmin })).statusCode).toBe(200);
    const runs = await dbOf(t.app).execute(sql`select count(*)::int as n from scheduled_job_runs where job_id = ${job.id}`);
    expect((runs as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
    expect(await countAudit(t.app, 'scheduled_job.delete', job.id)).toBe(1);
  });
});

describe('scheduler runs survive a restart (pg-boss on the same database)', () => {
  it('a run sent before the server stopped, and one whose worker died mid-run, complete on the next server', async () => {
    const db = await freshDatabase();
    const config = baseTestConfig({ ...db.config, jobs: true });
    let app: FastifyInstance | null = await buildApp(config);
    try {
      await app.ready();
      const headers = await userWithRole(app, 'restart.admin@adtech.example', 'SCHEDULER_ADMIN');
      const res = await app.inject({ method: 'POST', url: JOBS, headers, payload: { name: 'Survivor', cron: '0 4 * * *', timezone: 'UTC', task_type: 'firewall.expire', params: {} } });
      const job = body<JobRow>(res).data;
      // Queued and sent to pg-boss to start in 3 s; the server stops before that.
      const first = (await createRun(dbOf(app), job.id, 'manual'))!;
      expect(await app.jobs!.send(SCHEDULER_RUN_QUEUE, { runId: first }, { startAfter: 3 })).toBeTruthy();
      await app.close();
      app = null;

      app = await buildApp(config);
      await app.ready();
      const h2 = { authorization: `Bearer ${(await app.sessions.issue((await dbOf(app).select({ id: users.id }).from(users).where(eq(users.mail, 'restart.admin@adtech.example')))[0]!.id)).token}` };
      const done = await waitForRun(app, h2, first, 30_000);
      expect(done.status).toBe('succeeded');
      expect(done.attempts).toBe(1);

      // A run left "running" by a worker that died (stale heartbeat): the next tick sends it again
      // and the handler takes it over; a finished run is never redone.
      const second = (await createRun(dbOf(app), job.id, 'manual'))!;
      await dbOf(app).execute(
        sql`update scheduled_job_runs set status = 'running', attempts = 1, started_at = now() - interval '5 minutes', heartbeat_at = now() - interval '5 minutes' where id = ${second}`,
      );
      const ticked = await tick(app.ctx, (q, data) => app!.jobs!.send(q, data), silentLog);
      expect(ticked.resent).toContain(second);
      const taken = await waitForRun(app, h2, second, 30_000);
      expect(taken.status).toBe('succeeded');
      expect(taken.attempts).toBe(2);
      expect(taken.log).toContain('Taken over by');
      // Sending a finished run again does nothing.
      await app.jobs!.send(SCHEDULER_RUN_QUEUE, { runId: second });
      await new Promise((r) => setTimeout(r, 3000));
      const still = body<SchedulerRun>(await app.inject({ method: 'GET', url: `/v1/scheduler-api/runs/${second}`, headers: h2 })).data;
      expect(still.attempts).toBe(2);
    } finally {
      await app?.close();
      await db.destroy();
    }
  }, 120_000);
});
