/**
 * E-mail schedules of saved DataViewers through HTTP: validation (400 + key, nothing written),
 * ownership (owner/ADMIN change, shared roles read, others 404/403), audit, the due job (report
 * rows attached as in the export, empty report, last/next run), exactly-once claims, send now.
 */
import { nextRunAt, type ScheduleSettings } from '@backoffice/core/dataviewer-schedules';
import ExcelJS from 'exceljs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Job } from 'pg-boss';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dataviewerSchedulesJob } from '../src/modules/dataviewer-schedules/jobs.ts';
import type { JobContext } from '../src/jobs/types.ts';
import { loadTestDataset } from '../src/reports-data/index.ts';
import { query } from '../src/reports-data/sql.ts';
import { readOutbox } from './dataviewer-schedules-mail.ts';
import { body, createTestApp, isoWeekdayAway, signIn, timeOfDayAway, type TestApp } from './helpers.ts';

interface Schedule extends ScheduleSettings {
  id: number;
  dataviewer_id: number;
  next_run_at: string | null;
  last_run: { at: string; status: string; rows: number | null; error: string | null; range: { start: string; end: string } | null } | null;
  can_edit: boolean;
  created_by: { id: number; name: string };
}

const HOUR = 3600_000;
const definition = {
  timezone: 'UTC',
  preset: 'yesterday',
  dimensions: ['day', 'demand_partner'],
  metrics: ['revenue', 'impressions', 'win_rate'],
  filters: [],
  sort: [{ field: 'revenue', dir: 'desc' }],
};
const valid = { frequency: 'daily', time: '08:00', timezone: 'Europe/Madrid', range_preset: 'yesterday', format: 'csv', recipients: ['ana@adtech.example'] };

describe('DataViewer schedules', () => {
  let t: TestApp;
  let outbox: string;
  let lead: Record<string, string>;
  let finance: Record<string, string>;
  let ssp: Record<string, string>;
  let admin: Record<string, string>;
  let marketing: Record<string, string>;
  let financeRoleId: number;
  let dvId: number;
  let emptyDvId: number;

  const jc = (instanceId: string): JobContext => ({ ctx: t.app.ctx, log: t.app.log, instanceId, send: async () => null });
  const runJob = (instanceId = 'test-a') => dataviewerSchedulesJob.handle({ id: 'j', name: 'x', data: {} } as Job<object>, jc(instanceId)) as Promise<{ sent: { id: number; status: string; rows: number | null }[] }>;
  const url = (id = dvId) => `/v1/reports/dataviewers/${id}/schedules`;
  const create = (payload: unknown, headers = lead, id = dvId) => t.app.inject({ method: 'POST', url: url(id), payload: payload as object, headers });
  const patch = (sid: number, payload: unknown, headers = lead, id = dvId) => t.app.inject({ method: 'PATCH', url: `${url(id)}/${sid}`, payload: payload as object, headers });
  const count = async () => Number((await query<{ n: number }>(t.app.ctx.database, 'SELECT count(*)::int AS n FROM dataviewer_schedules'))[0]!.n);
  const audits = async (action: string) =>
    Number((await query<{ n: number }>(t.app.ctx.database, `SELECT count(*)::int AS n FROM audit_log WHERE entity = 'dataviewer_schedule' AND action = $1`, [action]))[0]!.n);
  /** Makes a schedule due `msAgo` ago; answers the instant it is now due at (the occurrence the job runs). */
  const makeDue = async (id: number, msAgo = 60_000) => {
    const [row] = await query<{ next_run_at: string | Date }>(
      t.app.ctx.database,
      `UPDATE dataviewer_schedules SET next_run_at = now() - make_interval(secs => $2::int) WHERE id = $1 RETURNING next_run_at`,
      [id, Math.round(msAgo / 1000)],
    );
    return new Date(row!.next_run_at).getTime();
  };
  const clearSchedules = () => query(t.app.ctx.database, 'DELETE FROM dataviewer_schedules');

  beforeAll(async () => {
    outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-outbox-'));
    t = await createTestApp({ mailOutboxDir: outbox, mailTransport: 'file' });
    // Three days of data up to the current hour: "yesterday" always has rows.
    await loadTestDataset(t.app.ctx.database, { endMs: Math.floor(Date.now() / HOUR) * HOUR, days: 3, scale: 0.1, qpsDays: 0, seed: 4 });
    lead = (await signIn(t.app, 'demand.lead@adtech.example')).headers;
    const f = await signIn(t.app, 'finance@adtech.example');
    finance = f.headers;
    financeRoleId = Number(f.session.roles[0]!.id);
    ssp = (await signIn(t.app, 'ssp.lead@adtech.example')).headers;
    admin = (await signIn(t.app, 'admin@adtech.example')).headers;
    marketing = (await signIn(t.app, 'marketing@adtech.example')).headers;
    const dv = await t.app.inject({ method: 'POST', url: '/v1/reports/dataviewers', payload: { name: 'Partners yesterday', definition, shared_role_ids: [financeRoleId] }, headers: lead });
    dvId = body<{ id: number }>(dv).data.id;
    // Deal 999999 does not exist: no rows.
    const empty = await t.app.inject({
      method: 'POST',
      url: '/v1/reports/dataviewers',
      payload: { name: 'Nothing', definition: { ...definition, filters: [{ dimension: 'deal', op: 'include', values: [999999] }] } },
      headers: lead,
    });
    emptyDvId = body<{ id: number }>(empty).data.id;
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(outbox, { recursive: true, force: true });
  });
  beforeEach(() => {
    for (const f of fs.readdirSync(outbox)) fs.rmSync(path.join(outbox, f));
  });

  it('rejects every invalid field with a 400, a dvs key and its text, writing nothing', async () => {
    await clearSchedules();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ frequency: 'hourly' }, 'dvs.frequency_invalid', 'frequency'],
      [{ frequency: 'weekly' }, 'dvs.weekday_required', 'weekday'],
      [{ frequency: 'weekly', weekday: 0 }, 'dvs.weekday_required', 'weekday'],
      [{ frequency: 'monthly' }, 'dvs.month_day_required', 'month_day'],
      [{ frequency: 'monthly', month_day: 32 }, 'dvs.month_day_required', 'month_day'],
      [{ time: '25:00' }, 'dvs.time_invalid', 'time'],
      [{ time: undefined }, 'dvs.time_invalid', 'time'],
      [{ timezone: 'Europe/Atlantis' }, 'dvs.timezone_invalid', 'timezone'],
      [{ range_preset: 'all_time' }, 'dvs.range_invalid', 'range_preset'],
      [{ format: 'pdf' }, 'dvs.format_invalid', 'format'],
      [{ recipients: [] }, 'dvs.recipients_required', 'recipients'],
      [{ recipients: undefined }, 'dvs.recipients_required', 'recipients'],
      [{ recipients: ['someone'] }, 'dvs.recipient_invalid', 'recipients.0'],
      [{ recipients: ['ana@adtech.example', 'x@gmail.com'] }, 'dvs.recipient_not_company', 'recipients.1'],
      [{ recipients: Array.from({ length: 21 }, (_, i) => `u${i}@adtech.example`) }, 'dvs.recipients_too_many', 'recipients'],
      [{ enabled: 'yes' }, 'dvs.enabled_invalid', 'enabled'],
    ];
    for (const [change, key, field] of cases) {
      const res = await create({ ...valid, ...change });
      expect(res.statusCode, key).toBe(400);
      const b = body(res);
      expect(b.message, JSON.stringify(change)).toBe(key);
      expect(b.errors?.[field], JSON.stringify(change)).toBe(key);
      expect(b.text).not.toBe(key);
    }
    const es = await t.app.inject({ method: 'POST', url: url(), payload: { ...valid, recipients: ['x@gmail.com'] }, headers: { ...lead, 'accept-language': 'es' } });
    expect(body(es).text).toBe('Solo las direcciones de la empresa pueden recibir informes');
    const unknown = await create({ ...valid, cc: ['x@adtech.example'] });
    expect(unknown.statusCode).toBe(400);
    expect(await count()).toBe(0);
    expect(await audits('create')).toBe(0);
  });

  it('creates, lists, changes, pauses and deletes with the owner; audit records every change', async () => {
    await clearSchedules();
    const before = Date.now();
    const res = await create({ ...valid, recipients: ['Ana@AdTech.example', 'ana@adtech.example', 'bo@ssp.example'], weekday: 4 });
    const after = Date.now();
    expect(res.statusCode).toBe(201);
    const s = body<Schedule>(res).data;
    expect(s).toMatchObject({ dataviewer_id: dvId, frequency: 'daily', weekday: null, time: '08:00', enabled: true, recipients: ['ana@adtech.example', 'bo@ssp.example'], last_run: null, can_edit: true });
    expect(s.created_by.name).toBe('Lucía Fernández');
    const next = Date.parse(s.next_run_at!);
    expect(next).toBe(nextRunAt({ ...s }, next - 1));
    // The first 08:00 (Madrid) after the moment the server created it, somewhere between before and
    // after (both values are the same unless 08:00 came in between).
    expect([nextRunAt(s, before), nextRunAt(s, after)]).toContain(next);
    expect(next).toBeGreaterThan(before);
    expect(next - before).toBeLessThanOrEqual(24 * HOUR + HOUR);

    // A weekday three days ahead (Madrid): its next run cannot come while the test runs, so pausing
    // and resuming below must give the same next run (a run in between would move it a week on).
    const weekday = isoWeekdayAway('Europe/Madrid', 3);
    const weekly = await patch(s.id, { frequency: 'weekly', weekday, time: '07:15', format: 'xlsx' });
    expect(weekly.statusCode).toBe(200);
    const w = body<Schedule>(weekly).data;
    expect(w).toMatchObject({ frequency: 'weekly', weekday, time: '07:15', format: 'xlsx' });
    // 07:15 in Madrid is on the same day in UTC (getUTCDay: Sunday = 0).
    expect(new Date(w.next_run_at!).getUTCDay()).toBe(weekday % 7);

    // The merged schedule is validated: monthly needs its day; nothing changes.
    const bad = await patch(s.id, { frequency: 'monthly' });
    expect(bad.statusCode).toBe(400);
    expect(body(bad).message).toBe('dvs.month_day_required');
    const badType = await patch(s.id, { time: 7 });
    expect(body(badType).message).toBe('dvs.time_invalid');

    const paused = body<Schedule>(await patch(s.id, { enabled: false })).data;
    expect(paused).toMatchObject({ enabled: false, next_run_at: null, frequency: 'weekly' });
    const resumed = body<Schedule>(await patch(s.id, { enabled: true })).data;
    expect(resumed.next_run_at).toBe(w.next_run_at);

    const list = await t.app.inject({ url: url(), headers: lead });
    expect(body<Schedule[]>(list).data.map((x) => x.id)).toEqual([s.id]);

    const del = await t.app.inject({ method: 'DELETE', url: `${url()}/${s.id}`, headers: lead });
    expect(body(del).data).toEqual({ id: s.id, deleted: true });
    expect((await t.app.inject({ method: 'DELETE', url: `${url()}/${s.id}`, headers: lead })).statusCode).toBe(404);
    expect(await audits('create')).toBe(1);
    expect(await audits('update')).toBe(3);
    expect(await audits('delete')).toBe(1);
  });

  it('lets shared roles read, only owner or ADMIN change, hides it from others', async () => {
    await clearSchedules();
    const s = body<Schedule>(await create(valid)).data;
    // finance: the DataViewer is shared with its role.
    const seen = await t.app.inject({ url: url(), headers: finance });
    expect(seen.statusCode).toBe(200);
    expect(body<Schedule[]>(seen).data).toMatchObject([{ id: s.id, can_edit: false }]);
    for (const res of [
      await create(valid, finance),
      await patch(s.id, { enabled: false }, finance),
      await t.app.inject({ method: 'DELETE', url: `${url()}/${s.id}`, headers: finance }),
      await t.app.inject({ method: 'POST', url: `${url()}/${s.id}/send`, headers: finance }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(body(res).message).toBe('auth.forbidden');
    }
    // ssp: not shared, so the DataViewer does not exist for them.
    expect((await t.app.inject({ url: url(), headers: ssp })).statusCode).toBe(404);
    expect((await patch(s.id, { enabled: false }, ssp)).statusCode).toBe(404);
    // marketing: no reports permission at all.
    expect((await t.app.inject({ url: url(), headers: marketing })).statusCode).toBe(403);
    expect((await t.app.inject({ url: url() })).statusCode).toBe(401);
    // ADMIN may change anyone's.
    const byAdmin = await patch(s.id, { time: '09:30' }, admin);
    expect(byAdmin.statusCode).toBe(200);
    expect(body<Schedule>(byAdmin).data).toMatchObject({ time: '09:30', can_edit: true });
    expect((await create(valid, admin)).statusCode).toBe(201);
    // A schedule of another DataViewer is not found through this one.
    expect((await patch(s.id, { time: '10:00' }, lead, emptyDvId)).statusCode).toBe(404);
    expect(await count()).toBe(2);
  });

  it('limits the schedules of one DataViewer', async () => {
    await clearSchedules();
    for (let i = 0; i < 10; i++) expect((await create(valid)).statusCode).toBe(201);
    const res = await create(valid);
    expect(res.statusCode).toBe(400);
    expect(body(res).message).toBe('dvs.too_many_schedules');
    expect(await count()).toBe(10);
  });

  it('the job mails due schedules with the report attached as the export writes it, then schedules the next run', async () => {
    await clearSchedules();
    // Times of day far from now: no occurrence of either comes while the test runs (a fixed 08:00
    // would make the second one due, or move the first one's next run, at about 08:00).
    const s = body<Schedule>(await create({ ...valid, time: timeOfDayAway('UTC'), timezone: 'UTC', recipients: ['ana@adtech.example', 'bo@ssp.example'] })).data;
    const notDue = body<Schedule>(await create({ ...valid, time: timeOfDayAway('Europe/Madrid') })).data;
    const dueMs = await makeDue(s.id);
    const before = Date.now();
    const out = await runJob();
    expect(out.sent).toHaveLength(1);
    expect(out.sent[0]).toMatchObject({ id: s.id, status: 'ok' });

    const mails = readOutbox(outbox);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.headers.to).toBe('ana@adtech.example, bo@ssp.example');
    expect(mail.headers.from).toContain('no-reply@adtech.example');
    expect(mail.headers.subject).toContain('Partners yesterday');
    expect(mail.attachments).toHaveLength(1);
    const file = mail.attachments[0]!;
    expect(file.filename).toMatch(/^dataviewer_\d{4}-\d{2}-\d{2}_\d{6}\.csv$/);
    expect(file.contentType).toBe('text/csv');

    const [after] = body<Schedule[]>(await t.app.inject({ url: url(), headers: lead })).data.filter((x) => x.id === s.id);
    // Yesterday in UTC as of the occurrence that ran (its due time, a minute before makeDue), not
    // as of this test's clock now: the two are different days just after midnight UTC.
    const yesterday = new Date(dueMs - 86_400_000).toISOString().slice(0, 10);
    expect(after!.last_run).toMatchObject({ status: 'ok', error: null, range: { start: yesterday, end: yesterday } });

    // The attachment is what the export answers for the same report and dates.
    const exp = await t.app.inject({
      method: 'POST',
      url: '/v1/reports/dataviewer/export?format=csv',
      payload: { ...definition, preset: undefined, range: after!.last_run!.range },
      headers: lead,
    });
    expect(exp.statusCode).toBe(200);
    expect(file.content.toString('utf8')).toBe(exp.body);
    const lines = file.content.toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('\uFEFFDay,Demand partner,Demand partner ID,Revenue,Impressions,Win rate');
    expect(lines.length).toBeGreaterThan(2);
    expect(after!.last_run!.rows).toBe(lines.length - 1);
    expect(mail.text).toContain(`${lines.length - 1} rows`);

    expect(Date.parse(after!.last_run!.at)).toBeGreaterThanOrEqual(before - 1000);
    expect(after!.next_run_at).toBe(new Date(nextRunAt(after!, Date.now())).toISOString());
    expect(Date.parse(after!.next_run_at!)).toBeGreaterThan(Date.now());
    // Nothing left due: a second run sends nothing.
    expect((await runJob()).sent).toHaveLength(0);
    expect(readOutbox(outbox)).toHaveLength(1);
    const untouched = body<Schedule[]>(await t.app.inject({ url: url(), headers: lead })).data.find((x) => x.id === notDue.id)!;
    expect(untouched.last_run).toBeNull();
  });

  it('mails "Export empty" without an attachment when the report has no rows', async () => {
    await clearSchedules();
    const s = body<Schedule>(await create({ ...valid, recipients: ['ana@adtech.example'] }, lead, emptyDvId)).data;
    await makeDue(s.id);
    expect((await runJob()).sent).toMatchObject([{ id: s.id, status: 'empty', rows: 0 }]);
    const [mail] = readOutbox(outbox);
    expect(mail!.attachments).toHaveLength(0);
    expect(mail!.text).toContain('Export empty');
    expect(mail!.text).toContain('Nothing');
    const [after] = body<Schedule[]>(await t.app.inject({ url: url(emptyDvId), headers: lead })).data;
    expect(after!.last_run).toMatchObject({ status: 'empty', rows: 0 });
  });

  it('sends each due schedule exactly once with two concurrent runs, and skips live claims', async () => {
    await clearSchedules();
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push(body<Schedule>(await create({ ...valid, recipients: [`u${i}@adtech.example`] }, lead, i % 2 ? emptyDvId : dvId)).data.id);
    for (const id of ids) await makeDue(id);
    // A fifth one is held by a live claim of another instance; a sixth by a lapsed one.
    const held = body<Schedule>(await create(valid)).data.id;
    const lapsed = body<Schedule>(await create(valid)).data.id;
    await makeDue(held);
    await makeDue(lapsed);
    await query(t.app.ctx.database, `UPDATE dataviewer_schedules SET claimed_until = now() + interval '5 minutes', claimed_by = 'other' WHERE id = $1`, [held]);
    await query(t.app.ctx.database, `UPDATE dataviewer_schedules SET claimed_until = now() - interval '1 minute', claimed_by = 'crashed' WHERE id = $1`, [lapsed]);

    const [a, b] = await Promise.all([runJob('instance-a'), runJob('instance-b')]);
    const sent = [...a.sent, ...b.sent].map((x) => x.id).sort((x, y) => x - y);
    expect(sent).toEqual([...ids, lapsed].sort((x, y) => x - y));
    expect(readOutbox(outbox)).toHaveLength(5);
    const rows = await query<{ id: number; claimed_by: string | null; last_status: string | null }>(t.app.ctx.database, 'SELECT id, claimed_by, last_status FROM dataviewer_schedules');
    expect(rows.find((r) => r.id === held)).toMatchObject({ claimed_by: 'other', last_status: null });
    expect(rows.filter((r) => r.id !== held).every((r) => r.claimed_by === null && r.last_status !== null)).toBe(true);
  });

  it('sends now as XLSX without moving the next run, and refuses while a run holds it', async () => {
    await clearSchedules();
    const s = body<Schedule>(await create({ ...valid, timezone: 'UTC', format: 'xlsx' })).data;
    const res = await t.app.inject({ method: 'POST', url: `${url()}/${s.id}/send`, headers: lead });
    expect(res.statusCode).toBe(200);
    const after = body<Schedule>(res).data;
    expect(after.next_run_at).toBe(s.next_run_at);
    expect(after.last_run).toMatchObject({ status: 'ok' });
    const [mail] = readOutbox(outbox);
    const file = mail!.attachments[0]!;
    expect(file.filename).toMatch(/\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.content as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('DataViewer')!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Day', 'Demand partner', 'Demand partner ID', 'Revenue', 'Impressions', 'Win rate']);
    expect(sheet.rowCount - 1).toBe(after.last_run!.rows);
    expect(typeof sheet.getRow(2).getCell(4).value).toBe('number');
    expect(await audits('send')).toBeGreaterThanOrEqual(1);

    await query(t.app.ctx.database, `UPDATE dataviewer_schedules SET claimed_until = now() + interval '5 minutes', claimed_by = 'other' WHERE id = $1`, [s.id]);
    const busy = await t.app.inject({ method: 'POST', url: `${url()}/${s.id}/send`, headers: lead });
    expect(busy.statusCode).toBe(409);
    expect(body(busy).message).toBe('dvs.busy');
  });

  it('deleting the DataViewer deletes its schedules', async () => {
    await clearSchedules();
    const dv = await t.app.inject({ method: 'POST', url: '/v1/reports/dataviewers', payload: { name: 'Short-lived', definition }, headers: lead });
    const id = body<{ id: number }>(dv).data.id;
    expect((await create(valid, lead, id)).statusCode).toBe(201);
    await t.app.inject({ method: 'DELETE', url: `/v1/reports/dataviewers/${id}`, headers: lead });
    expect(await count()).toBe(0);
    expect((await t.app.inject({ url: url(id), headers: lead })).statusCode).toBe(404);
  });
});
