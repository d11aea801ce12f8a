/**
 * Impression logs (issue 24) through the HTTP API: every spec rule and its message (date, network
 * and columns mandatory, filters not empty, the network exists; 'LogImpression added
 * successfully', 'There is not pending process'), the ACL (read vs write), the audit record, a
 * doubled click; a full run that writes a gzip which decompresses to a CSV whose header is the
 * chosen columns and whose rows are the filter's (against a SQL count), progress rows written page
 * by page; expired and tampered links refused, expired files removed; a failed run retried; a run
 * left behind by a crashed worker redone; a request carried through the real pg-boss queue; and
 * the storage adapter's own tests.
 */
import { IMPRESSION_LOG_COLUMNS, type ImpressionLogListAnswer, type ImpressionLogRequest, type ImpressionLogLink } from '@backoffice/core/impression-logs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStorage, storageOf, type Storage } from '../src/lib/storage.ts';
import { expireFiles, runExtract, storageKeyOf } from '../src/modules/impression-logs/service.ts';
import { loadTestDataset } from '../src/reports-data/index.ts';
import { query } from '../src/reports-data/sql.ts';
import { DEMO } from './auth-support.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

/** Four days ending 10 April 2025 14:00 UTC; the 8th is a whole day. */
const END = Date.UTC(2025, 3, 10, 14);
const DAY = '2025-04-08';
const NOW = Date.parse('2025-04-10T15:00:00Z');

type Headers = { authorization: string };
let keySeq = 0;
const key = () => `implog-${process.pid}-${++keySeq}-${Math.random().toString(36).slice(2, 8)}`;

function tempDir(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `implog-${name}-`));
}

async function userWithAcl(t: TestApp, mail: string, acl: Record<string, string[]>): Promise<Headers> {
  const db = t.app.ctx.database;
  const [role] = await query<{ id: number }>(db, `INSERT INTO roles (name, description, acl) VALUES ($1, 'test', $2::jsonb) RETURNING id`, [`R_${mail}`, JSON.stringify(acl)]);
  const [user] = await query<{ id: number }>(db, `INSERT INTO users (mail, name, password_hash) VALUES ($1, 'Test reader', 'not-a-login-user') RETURNING id`, [mail]);
  await query(db, `INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, [user!.id, role!.id]);
  return { authorization: `Bearer ${(await t.app.sessions.issue(user!.id)).token}` };
}

describe('impression logs', () => {
  let t: TestApp;
  let tech: Headers;
  let reader: Headers;
  let nobody: Headers;
  let storageDir: string;
  let network: { id: number; name: string };
  const db = () => t.app.ctx.database;

  const ask = (payload: Record<string, unknown>, headers: Headers = tech) => t.app.inject({ method: 'POST', url: '/v1/impressions-log', headers, payload });
  const valid = (extra: Record<string, unknown> = {}) => ({
    date: DAY,
    network_id: network.id,
    columns: ['timestamp', 'request_id', 'publisher', 'country', 'device', 'win_price', 'currency'],
    filters: [{ field: 'country', values: ['US', 'GB', 'DE'] }],
    ...extra,
  });
  const created = async (extra: Record<string, unknown> = {}) => {
    const res = await ask(valid(extra));
    expect(res.statusCode, res.body).toBe(200);
    return body<ImpressionLogRequest>(res).data;
  };
  const get = async (id: number) => body<ImpressionLogRequest>(await t.app.inject({ url: `/v1/impressions-log/${id}`, headers: tech })).data;
  const link = async (id: number) => {
    const res = await t.app.inject({ method: 'POST', url: `/v1/impressions-log/${id}/link`, headers: tech });
    expect(res.statusCode, res.body).toBe(200);
    return body<ImpressionLogLink>(res).data;
  };

  beforeAll(async () => {
    storageDir = tempDir('storage');
    t = await createTestApp({ storageDir });
    t.app.ctx.now = () => NOW;
    await loadTestDataset(db(), { endMs: END, days: 4, scale: 1, qpsDays: 0, seed: 11 });
    const [top] = await query<{ id: number; name: string }>(
      db(),
      `SELECT dp.id, dp.name FROM demand_partners dp JOIN stats_hourly h ON h.demand_partner_id = dp.id
        WHERE h.ts >= '${DAY}' AND h.ts < '${DAY}'::date + 1 GROUP BY dp.id, dp.name ORDER BY sum(h.impressions) DESC LIMIT 1`,
    );
    network = top!;
    tech = (await signIn(t.app, DEMO.tech)).headers;
    reader = await userWithAcl(t, 'implog.reader@adtech.example', { '/v1/impressions-log': ['read'] });
    nobody = await userWithAcl(t, 'implog.nobody@adtech.example', { '/v1/reports': ['read'] });
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    fs.rmSync(storageDir, { recursive: true, force: true });
  });

  describe('rules (spec 5) and messages', () => {
    it('date, network and columns are mandatory and filters must not be empty: each with its message next to its field', async () => {
      const res = await ask({});
      expect(res.statusCode).toBe(400);
      expect(body(res).errors).toEqual({
        date: 'impressions_log.date_required',
        network_id: 'impressions_log.network_required',
        columns: 'impressions_log.columns_required',
        filters: 'impressions_log.filters_required',
      });
      const empty = await ask(valid({ columns: [], filters: [] }));
      expect(body(empty).errors).toEqual({ columns: 'impressions_log.columns_required', filters: 'impressions_log.filters_required' });
      const nulls = await ask({ date: null, network_id: null, columns: null, filters: null });
      expect(Object.keys(body(nulls).errors ?? {}).sort()).toEqual(['columns', 'date', 'filters', 'network_id']);
    });

    it('the network must exist; the date is a real day and not in the future; a filter is complete and used once', async () => {
      expect(body(await ask(valid({ network_id: 999_999 }))).errors).toEqual({ network_id: 'impressions_log.network_not_found' });
      expect(body(await ask(valid({ date: '2025-04-11' }))).errors).toEqual({ date: 'impressions_log.date_future' });
      expect(body(await ask(valid({ date: '2025-02-30' }))).errors).toEqual({ date: 'impressions_log.date_invalid' });
      expect(body(await ask(valid({ columns: ['timestamp', 'password'] }))).errors).toEqual({ 'columns.1': 'impressions_log.column_invalid' });
      expect(body(await ask(valid({ filters: [{ field: 'country', values: [] }] }))).errors).toEqual({ 'filters.0.values': 'impressions_log.filter_value_required' });
      expect(body(await ask(valid({ filters: [{ field: 'country', values: ['ES'] }, { field: 'country', values: ['FR'] }] }))).errors).toEqual({ filters: 'impressions_log.filter_duplicate' });
      expect(body(await ask(valid({ filters: [{ field: 'min_win_price', value: '1.23456' }] }))).errors).toEqual({ 'filters.0.value': 'impressions_log.min_price_invalid' });
      const none = await query<{ n: number }>(db(), `SELECT count(*)::int AS n FROM impression_log_requests`);
      expect(none[0]!.n).toBe(0);
    });

    it("a valid request answers 'LogImpression added successfully', is pending, audited, and a doubled click makes one request", async () => {
      const k = key();
      const first = await ask(valid({ idempotency_key: k }));
      expect(first.statusCode, first.body).toBe(200);
      expect(body(first).message).toBe('impressions_log.added');
      expect(body<{ text?: string }>(first).text ?? 'LogImpression added successfully').toBe('LogImpression added successfully');
      const item = body<ImpressionLogRequest>(first).data;
      expect(item).toMatchObject({ status: 'pending', date: DAY, network_id: network.id, network: network.name, progress: 0, requested_by: 'Priya Natarajan', attempts: 1 });
      // The columns in catalogue order, whatever order they came in.
      expect(item.columns).toEqual(['timestamp', 'request_id', 'publisher', 'country', 'device', 'win_price', 'currency']);
      const again = await ask(valid({ idempotency_key: k }));
      expect(body<ImpressionLogRequest>(again).data.id).toBe(item.id);
      const audit = await query<{ n: number }>(db(), `SELECT count(*)::int AS n FROM audit_log WHERE action = 'impressions_log.request' AND entity_id = $1`, [String(item.id)]);
      expect(audit[0]!.n).toBe(1);
    });

    it("'Process pending' sends what is pending; with nothing pending it answers 'There is not pending process'", async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/impressions-log/process-pending', headers: tech });
      expect(res.statusCode, res.body).toBe(200);
      const out = body<{ queued: number; ids: number[] }>(res).data;
      expect(out.queued).toBeGreaterThan(0);
      // Jobs do not run in this app: run the queued generation of each by hand.
      for (const id of out.ids) {
        const r = await get(id);
        expect(r.attempts).toBe(2);
        expect((await runExtract(t.app.ctx, { id, attempt: 1 })).status).toBe('skipped');
        expect((await runExtract(t.app.ctx, { id, attempt: 2 })).status).toBe('done');
      }
      const none = await t.app.inject({ method: 'POST', url: '/v1/impressions-log/process-pending', headers: tech });
      expect(none.statusCode).toBe(409);
      expect(body(none).message).toBe('impressions_log.no_pending');
      expect(body<{ text?: string }>(none).text ?? 'There is not pending process').toBe('There is not pending process');
    });
  });

  describe('ACL (decision 010)', () => {
    it('read lists, opens and downloads; write asks, retries and processes; nothing without the resource', async () => {
      const done = await created();
      await runExtract(t.app.ctx, { id: done.id, attempt: 1 });
      expect((await t.app.inject({ url: '/v1/impressions-log', headers: reader })).statusCode).toBe(200);
      expect((await t.app.inject({ url: `/v1/impressions-log/${done.id}`, headers: reader })).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/v1/impressions-log/options', headers: reader })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'POST', url: `/v1/impressions-log/${done.id}/link`, headers: reader })).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/v1/impressions-log/export?format=csv', headers: reader })).statusCode).toBe(200);
      expect((await ask(valid(), reader)).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'POST', url: `/v1/impressions-log/${done.id}/retry`, headers: reader })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'POST', url: '/v1/impressions-log/process-pending', headers: reader })).statusCode).toBe(403);
      for (const [method, url] of [
        ['GET', '/v1/impressions-log'],
        ['GET', `/v1/impressions-log/${done.id}`],
        ['POST', `/v1/impressions-log/${done.id}/link`],
        ['POST', '/v1/impressions-log'],
      ] as const) {
        expect((await t.app.inject({ method, url, headers: nobody, ...(method === 'POST' ? { payload: valid() } : {}) })).statusCode, url).toBe(403);
      }
      expect((await t.app.inject({ url: '/v1/impressions-log' })).statusCode).toBe(401);
    });
  });

  describe('the extract', () => {
    it('writes a gzip CSV: header = the chosen columns, rows = the filter (SQL count), progress page by page, then a link downloads it', async () => {
      const columns = ['timestamp', 'request_id', 'publisher', 'country', 'device', 'deal_id', 'bid_price', 'win_price', 'revenue', 'currency'];
      const filters = [
        { field: 'country', values: ['US', 'GB', 'DE', 'FR', 'ES'] },
        { field: 'device', values: ['phone', 'desktop'] },
        { field: 'min_win_price', value: '0.5' },
      ];
      const req = await created({ columns, filters });
      // A storage that notes the request's progress each time a chunk of the file arrives.
      const seen: { done: number; total: number | null; status: string }[] = [];
      const disk = storageOf(t.config);
      const watching: Storage = {
        ...disk,
        async put(k, stream) {
          const chunks: Buffer[] = [];
          for await (const chunk of stream as AsyncIterable<Buffer>) {
            chunks.push(Buffer.from(chunk));
            const [row] = await query<{ rows_done: number; rows_total: number | null; status: string }>(
              db(),
              `SELECT rows_done::int AS rows_done, rows_total::int AS rows_total, status FROM impression_log_requests WHERE id = $1`,
              [req.id],
            );
            seen.push({ done: row!.rows_done, total: row!.rows_total, status: row!.status });
          }
          return disk.put(k, Readable.from(chunks));
        },
      };
      const out = await runExtract(t.app.ctx, { id: req.id, attempt: 1 }, { storage: watching, pageRows: 200 });
      expect(out.status, out.error).toBe('done');

      const [expected] = await query<{ n: number }>(
        db(),
        `SELECT count(*)::int AS n FROM impression_log_rows
          WHERE log_date = $1 AND demand_partner_id = $2 AND country_id = ANY($3::smallint[]) AND device_id = ANY($4::smallint[]) AND win_micros >= 500000`,
        [DAY, network.id, [1, 2, 3, 4, 5], [1, 2]],
      );
      expect(expected!.n).toBeGreaterThan(400);
      expect(out.rows).toBe(expected!.n);
      const after = await get(req.id);
      expect(after).toMatchObject({ status: 'done', rows_done: expected!.n, rows_total: expected!.n, progress: 100 });
      expect(after.bytes).toBeGreaterThan(0);
      expect(after.file_name).toMatch(/^impressions_log_[a-z0-9_-]+_2025-04-08_\d{4}-\d{2}-\d{2}_\d{6}\.csv\.gz$/);
      expect(Date.parse(after.expires_at!)).toBeGreaterThan(NOW);
      // Progress was written while the file was being written: running, with the total known and rows growing.
      const running = seen.filter((s) => s.status === 'running');
      expect(running.length).toBeGreaterThan(2);
      expect(running.every((s) => s.total === expected!.n)).toBe(true);
      const dones = running.map((s) => s.done);
      expect(dones).toEqual([...dones].sort((a, b) => a - b));
      expect(dones.some((d) => d > 0 && d < expected!.n)).toBe(true);

      const l = await link(req.id);
      expect(l.file_name).toBe(after.file_name);
      const file = await t.app.inject({ url: l.url });
      expect(file.statusCode, file.body).toBe(200);
      expect(file.headers['content-type']).toBe('application/gzip');
      expect(String(file.headers['content-disposition'])).toContain(after.file_name!);
      const raw = file.rawPayload;
      expect([raw[0], raw[1]]).toEqual([0x1f, 0x8b]);
      const lines = gunzipSync(raw).toString('utf8').split('\r\n').filter(Boolean);
      expect(lines[0]).toBe(columns.join(','));
      expect(lines.length - 1).toBe(expected!.n);
      const idx = (c: string) => columns.indexOf(c);
      const publishers = new Set((await query<{ name: string }>(db(), `SELECT name FROM publishers`)).map((p) => p.name));
      for (const line of lines.slice(1)) {
        const cells = line.split(',');
        expect(cells, line).toHaveLength(columns.length);
        expect(['US', 'GB', 'DE', 'FR', 'ES']).toContain(cells[idx('country')]);
        expect(['phone', 'desktop']).toContain(cells[idx('device')]);
        expect(cells[idx('win_price')]).toMatch(/^\d+\.\d{4}$/);
        expect(Number(cells[idx('win_price')])).toBeGreaterThanOrEqual(0.5);
        expect(Number(cells[idx('bid_price')])).toBeGreaterThanOrEqual(Number(cells[idx('win_price')]));
        expect(cells[idx('revenue')]).toMatch(/^\d+\.\d{7}$/);
        expect(cells[idx('request_id')]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        expect(cells[idx('timestamp')]!.startsWith(`${DAY}T`)).toBe(true);
        expect(cells[idx('currency')]).toBe('USD');
        expect(publishers.has(cells[idx('publisher')]!)).toBe(true);
      }
      // Time order, as the log is.
      const stamps = lines.slice(1).map((l2) => l2.split(',')[0]!);
      expect(stamps).toEqual([...stamps].sort());
    });

    it('the sample agrees with the warehouse: the same publishers and countries, and a day that is over is sampled once', async () => {
      const [check] = await query<{ strays: number; samples: number }>(
        db(),
        `SELECT (SELECT count(*)::int FROM impression_log_rows r
                  WHERE r.log_date = $1 AND r.demand_partner_id = $2
                    AND NOT EXISTS (SELECT 1 FROM stats_hourly h WHERE h.demand_partner_id = r.demand_partner_id AND h.publisher_id = r.publisher_id
                                      AND h.country_id = r.country_id AND h.ad_unit_id = r.ad_unit_id AND h.ts = date_trunc('hour', r.ts))) AS strays,
                (SELECT count(*)::int FROM impression_log_samples WHERE log_date = $1 AND demand_partner_id = $2 AND complete) AS samples`,
        [DAY, network.id],
      );
      expect(check).toEqual({ strays: 0, samples: 1 });
    });

    it('every column can be extracted; a list filter of publishers and a deal filter apply', async () => {
      const [pub] = await query<{ id: number }>(db(), `SELECT publisher_id AS id FROM impression_log_rows WHERE log_date = $1 AND demand_partner_id = $2 GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`, [DAY, network.id]);
      const req = await created({ columns: [...IMPRESSION_LOG_COLUMNS], filters: [{ field: 'publisher', values: [pub!.id] }, { field: 'deal', value: 'open' }] });
      const out = await runExtract(t.app.ctx, { id: req.id, attempt: 1 });
      expect(out.status, out.error).toBe('done');
      const [n] = await query<{ n: number }>(db(), `SELECT count(*)::int AS n FROM impression_log_rows WHERE log_date = $1 AND demand_partner_id = $2 AND publisher_id = $3 AND deal_id = 0`, [DAY, network.id, pub!.id]);
      const text = gunzipSync(await fs.promises.readFile(path.join(storageDir, storageKeyOf(req.id)))).toString('utf8');
      const lines = text.split('\r\n').filter(Boolean);
      expect(lines[0]).toBe(IMPRESSION_LOG_COLUMNS.join(','));
      expect(lines.length - 1).toBe(n!.n);
      expect(lines.slice(1).every((l) => l.split(',')[IMPRESSION_LOG_COLUMNS.indexOf('publisher_id')] === String(pub!.id))).toBe(true);
    });

    it('refuses an expired link, a tampered one, and a file past its expiry (which the cleanup job removes)', async () => {
      const req = await created();
      await runExtract(t.app.ctx, { id: req.id, attempt: 1 });
      const l = await link(req.id);
      expect((await t.app.inject({ url: l.url.replace(/sig=[^&]+/, 'sig=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA') })).statusCode).toBe(403);
      expect((await t.app.inject({ url: l.url.replace(/exp=\d+/, (m) => `exp=${Number(m.slice(4)) + 60}`) })).statusCode).toBe(403);
      const exp = Date.parse(l.expires_at);
      t.app.ctx.now = () => exp + 1000;
      try {
        const late = await t.app.inject({ url: l.url });
        expect(late.statusCode).toBe(410);
        expect(body(late).message).toBe('impressions_log.link_expired');
        // Past the file's own expiry: no new link, the cleanup removes the file and marks it expired.
        const fileExpiry = Date.parse((await get(req.id)).expires_at!);
        t.app.ctx.now = () => fileExpiry + 1000;
        const refused = await t.app.inject({ method: 'POST', url: `/v1/impressions-log/${req.id}/link`, headers: tech });
        expect(refused.statusCode).toBe(410);
        expect(body(refused).message).toBe('impressions_log.file_unavailable');
        const cleaned = await expireFiles(t.app.ctx);
        expect(cleaned.expired).toBeGreaterThanOrEqual(1);
        expect((await get(req.id)).status).toBe('expired');
        expect(fs.existsSync(path.join(storageDir, storageKeyOf(req.id)))).toBe(false);
      } finally {
        t.app.ctx.now = () => NOW;
      }
      // An expired extract can be run again.
      const again = await t.app.inject({ method: 'POST', url: `/v1/impressions-log/${req.id}/retry`, headers: tech });
      expect(body<ImpressionLogRequest>(again).data.status).toBe('pending');
    });

    it('a failed run records its reason; retry from the screen runs it again (once, however many clicks), and the stale job does nothing', async () => {
      const req = await created();
      const broken: Storage = { ...storageOf(t.config), put: async () => Promise.reject(new Error('disk full')) };
      const failed = await runExtract(t.app.ctx, { id: req.id, attempt: 1 }, { storage: broken });
      expect(failed).toMatchObject({ status: 'failed', error: 'disk full' });
      expect(await get(req.id)).toMatchObject({ status: 'failed', error: 'disk full' });
      // A finished extract is not retried; a failed one is, once for concurrent clicks.
      const clicks = await Promise.all([1, 2, 3].map(() => t.app.inject({ method: 'POST', url: `/v1/impressions-log/${req.id}/retry`, headers: tech })));
      for (const c of clicks) expect(c.statusCode, c.body).toBe(200);
      const pending = await get(req.id);
      expect(pending).toMatchObject({ status: 'pending', attempts: 2, error: null });
      const audits = await query<{ n: number }>(db(), `SELECT count(*)::int AS n FROM audit_log WHERE action = 'impressions_log.retry' AND entity_id = $1`, [String(req.id)]);
      expect(audits[0]!.n).toBe(1);
      expect((await runExtract(t.app.ctx, { id: req.id, attempt: 1 })).status).toBe('skipped');
      expect((await runExtract(t.app.ctx, { id: req.id, attempt: 2 })).status).toBe('done');
      const done = await t.app.inject({ method: 'POST', url: `/v1/impressions-log/${req.id}/retry`, headers: tech });
      expect(done.statusCode).toBe(409);
      expect(body(done).message).toBe('impressions_log.not_retryable');
    });

    it('a run left "running" by a crashed worker is redone from scratch when pg-boss retries its job; the old run can no longer write', async () => {
      const req = await created();
      await query(db(), `UPDATE impression_log_requests SET status = 'running', run_token = 'crashed', rows_done = 1234, rows_total = 99999 WHERE id = $1`, [req.id]);
      const out = await runExtract(t.app.ctx, { id: req.id, attempt: 1 });
      expect(out.status).toBe('done');
      const r = await get(req.id);
      expect(r.rows_done).toBe(r.rows_total);
      expect(r.rows_done).toBe(out.rows);
      const stale = await query(db(), `UPDATE impression_log_requests SET rows_done = 1 WHERE id = $1 AND run_token = 'crashed' RETURNING 1`, [req.id]);
      expect(stale).toHaveLength(0);
    });
  });

  describe('the list', () => {
    it('filters, sorts and pages on the server, counts the active requests, and exports', async () => {
      const all = body<ImpressionLogListAnswer>(await t.app.inject({ url: '/v1/impressions-log?page_size=100', headers: tech })).data;
      expect(all.total).toBeGreaterThan(4);
      expect(all.items.map((i) => i.id)).toEqual([...all.items.map((i) => i.id)].sort((a, b) => b - a));
      const done = body<ImpressionLogListAnswer>(await t.app.inject({ url: '/v1/impressions-log?status=done&sort=rows&page_size=2', headers: tech })).data;
      expect(done.items.every((i) => i.status === 'done')).toBe(true);
      expect(done.items).toHaveLength(2);
      expect(done.items[0]!.rows_done).toBeLessThanOrEqual(done.items[1]!.rows_done);
      expect(done.active).toBe(all.items.filter((i) => i.status === 'pending' || i.status === 'running').length);
      const search = body<ImpressionLogListAnswer>(await t.app.inject({ url: `/v1/impressions-log?search=${encodeURIComponent(network.name.slice(0, 5))}`, headers: tech })).data;
      expect(search.total).toBe(all.total);
      expect((await t.app.inject({ url: '/v1/impressions-log?status=nope', headers: tech })).statusCode).toBe(400);
      const csv = await t.app.inject({ url: '/v1/impressions-log/export?format=csv&status=done', headers: tech });
      expect(csv.statusCode).toBe(200);
      expect(String(csv.headers['content-disposition'])).toMatch(/impression_logs_\d{4}-\d{2}-\d{2}_\d{6}\.csv/);
      expect(csv.body.split('\r\n').filter(Boolean).length - 1).toBe(all.items.filter((i) => i.status === 'done').length);
      const xlsx = await t.app.inject({ url: '/v1/impressions-log/export?format=xlsx', headers: tech });
      expect(xlsx.statusCode).toBe(200);
    });
  });
});

describe('impression logs through the pg-boss queue', () => {
  let t: TestApp;
  let storageDir: string;
  beforeAll(async () => {
    storageDir = tempDir('jobs');
    t = await createTestApp({ jobs: true, storageDir });
    await loadTestDataset(t.app.ctx.database, { endMs: END, days: 3, scale: 0.3, qpsDays: 0, seed: 5 });
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    fs.rmSync(storageDir, { recursive: true, force: true });
  });

  it('a request is picked up by the extract job and finishes with its file', async () => {
    const tech = (await signIn(t.app, DEMO.tech)).headers;
    const [net] = await query<{ id: number }>(t.app.ctx.database, `SELECT demand_partner_id AS id FROM stats_hourly WHERE ts >= '${DAY}' AND ts < '${DAY}'::date + 1 GROUP BY 1 ORDER BY sum(impressions) DESC LIMIT 1`);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/impressions-log',
      headers: tech,
      payload: { date: DAY, network_id: net!.id, columns: ['timestamp', 'country'], filters: [{ field: 'format', values: ['banner', 'video', 'native', 'audio'] }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = body<ImpressionLogRequest>(res).data.id;
    let r: ImpressionLogRequest | undefined;
    for (let i = 0; i < 120; i++) {
      r = body<ImpressionLogRequest>(await t.app.inject({ url: `/v1/impressions-log/${id}`, headers: tech })).data;
      if (r.status === 'done' || r.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(r?.status, r?.error ?? '').toBe('done');
    expect(r!.rows_done).toBeGreaterThan(0);
    const runs = await query<{ ok: boolean }>(t.app.ctx.database, `SELECT ok FROM job_runs WHERE queue = 'impression-log-extract'`);
    expect(runs.map((x) => x.ok)).toEqual([true]);
    expect(fs.existsSync(path.join(storageDir, storageKeyOf(id)))).toBe(true);
  }, 120_000);
});

describe('storage adapter (local disk)', () => {
  const root = tempDir('adapter');
  const s = localStorage(root);
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('puts a stream, gets it back as a stream, knows its size, replaces it whole, deletes it', async () => {
    expect(await s.exists('a/b.txt')).toBe(false);
    expect(await s.size('a/b.txt')).toBeNull();
    const stored = await s.put('a/b.txt', Readable.from(['hello ', 'world']));
    expect(stored).toEqual({ key: 'a/b.txt', bytes: 11 });
    expect(await s.exists('a/b.txt')).toBe(true);
    expect(await s.size('a/b.txt')).toBe(11);
    const chunks: Buffer[] = [];
    for await (const c of await s.get('a/b.txt')) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('hello world');
    await s.put('a/b.txt', (async function* () {
      yield 'new';
    })());
    expect(await s.size('a/b.txt')).toBe(3);
    expect(await s.delete('a/b.txt')).toBe(true);
    expect(await s.delete('a/b.txt')).toBe(false);
    await expect(s.get('a/b.txt')).rejects.toThrow(/no object/);
  });

  it('a failing source leaves neither a file nor a partial file; unsafe keys are refused', async () => {
    const failing = (async function* () {
      yield 'part';
      throw new Error('source broke');
    })();
    await expect(s.put('x/y.bin', failing)).rejects.toThrow('source broke');
    expect(await s.exists('x/y.bin')).toBe(false);
    expect(fs.readdirSync(path.join(root, 'x'))).toEqual([]);
    for (const bad of ['../etc/passwd', '/abs', 'a//b', 'a/../b', '.hidden', '']) {
      await expect(s.put(bad, Readable.from(['x'])), bad).rejects.toThrow(/invalid key/);
    }
  });
});
