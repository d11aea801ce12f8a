/**
 * The schedules job on real pg-boss: its queue and every-minute cron exist when jobs run, and a
 * job run sends a due schedule once (recorded in job_runs and on the schedule).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATAVIEWER_SCHEDULES_QUEUE } from '../src/modules/dataviewer-schedules/jobs.ts';
import { query } from '../src/reports-data/sql.ts';
import { readOutbox } from './dataviewer-schedules-mail.ts';
import { body, createTestApp, signIn, timeOfDayAway, type TestApp } from './helpers.ts';

async function waitFor<T>(probe: () => Promise<T | null | undefined>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('DataViewer schedules on pg-boss', () => {
  let t: TestApp;
  let outbox: string;
  beforeAll(async () => {
    outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-outbox-'));
    t = await createTestApp({ jobs: true, mailOutboxDir: outbox, mailTransport: 'file' });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(outbox, { recursive: true, force: true });
  });

  it('registers the queue with an every-minute schedule', async () => {
    const boss = t.app.jobs!.boss();
    expect((await boss.getQueues()).map((q) => q.name)).toContain(DATAVIEWER_SCHEDULES_QUEUE);
    expect(await boss.getSchedules(DATAVIEWER_SCHEDULES_QUEUE)).toMatchObject([{ cron: '* * * * *', timezone: 'UTC' }]);
  });

  it('a job run sends the due schedule (a deal that does not exist: the "Export empty" mail) and records it', async () => {
    const headers = (await signIn(t.app, 'demand.lead@adtech.example')).headers;
    const dv = await t.app.inject({
      method: 'POST',
      url: '/v1/reports/dataviewers',
      headers,
      payload: { name: 'Jobs', definition: { preset: 'yesterday', timezone: 'UTC', dimensions: ['day'], metrics: ['revenue'], filters: [{ dimension: 'deal', op: 'include', values: [999999] }] } },
    });
    const dvId = body<{ id: number }>(dv).data.id;
    // A time of day far from now: after the run its next occurrence is hours away, so the
    // every-minute cron cannot send it a second time while the test waits (a fixed 06:00 would be
    // sent again when the test runs at about 05:59 UTC).
    const created = await t.app.inject({
      method: 'POST',
      url: `/v1/reports/dataviewers/${dvId}/schedules`,
      headers,
      payload: { frequency: 'daily', time: timeOfDayAway('UTC'), timezone: 'UTC', recipients: ['ana@adtech.example'] },
    });
    const id = body<{ id: number }>(created).data.id;
    await query(t.app.ctx.database, `UPDATE dataviewer_schedules SET next_run_at = now() - interval '1 minute' WHERE id = $1`, [id]);
    await t.app.jobs!.send(DATAVIEWER_SCHEDULES_QUEUE, {});
    const row = await waitFor(async () => (await query<{ last_status: string | null; next_run_at: Date }>(t.app.ctx.database, 'SELECT last_status, next_run_at FROM dataviewer_schedules WHERE id = $1', [id])).find((r) => r.last_status));
    expect(row.last_status).toBe('empty');
    expect(new Date(row.next_run_at).getTime()).toBeGreaterThan(Date.now());
    const run = await waitFor(async () =>
      (await query<{ ok: boolean; output: { sent: { id: number }[] } }>(t.app.ctx.database, `SELECT ok, output FROM job_runs WHERE queue = $1 AND ok IS NOT NULL ORDER BY id`, [DATAVIEWER_SCHEDULES_QUEUE])).find((r) => r.output?.sent?.some((s) => s.id === id)),
    );
    expect(run.ok).toBe(true);
    const mails = readOutbox(outbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Export empty');
  });
});
