/**
 * SSP logs (`/v1/ssp-logs`) through the HTTP API: the demo sample and every stored
 * BidRequest/BidResponse against the IAB's OpenRTB 2.6 schemas; the searches (request id, publisher,
 * partner, outcome, the window's boundaries: from inclusive, to exclusive), sort and pages; one log;
 * the export without the JSON; the ACL (read vs write on the hidden parametrization); the setting's
 * rules (each refused with its key, nothing stored), 409 when stale, its audit and history; the
 * sampler on a fixed clock (only in-scope partners, roughly at the rate, each minute once, stopping
 * when the run ends, through the job too); the retention.
 */
import type { SamplingSetting, SamplingStatus, SspLogDetail, SspLogsAnswer } from '@backoffice/core/ssp-logs';
import { openRtbProblems } from '@backoffice/core/standards/openrtb-auction-schema';
import type { HistoryEntry } from '@backoffice/core/resources/define';
import type { Job } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobContext } from '../src/jobs/types.ts';
import { sspLogsSampleJob } from '../src/modules/ssp-logs/jobs.ts';
import { seedSspLogsDemo } from '../src/modules/ssp-logs/demo.ts';
import { pruneLogs, runSampler } from '../src/modules/ssp-logs/service.ts';
import { query } from '../src/reports-data/sql.ts';
import { userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

const BASE = '/v1/ssp-logs';
const PARAM = `${BASE}/parametrization`;
/** The fixed clock: 2026-03-10 10:00:20 UTC. */
const T0 = Date.UTC(2026, 2, 10, 10, 0, 20);
const MIN = 60_000;

describe('ssp logs', () => {
  let t: TestApp;
  let tech: Record<string, string>;
  let reader: Record<string, string>;
  let none: Record<string, string>;
  let clock = T0;
  const partners: number[] = [];
  const pubs: number[] = [];
  const db = () => t.app.ctx.database;

  beforeAll(async () => {
    t = await createTestApp();
    t.app.ctx.now = () => clock;
    tech = (await signIn(t.app, 'tech@adtech.example')).headers;
    reader = (await userWithAcl(t.app, 'ssplogs.reader@adtech.example', { '/v1/ssp-logs': ['read'] })).headers;
    none = (await userWithAcl(t.app, 'ssplogs.none@adtech.example', { '/v1/impressions-log': ['read'] })).headers;
    // Inventory: two publishers (a site and an app), banner / video / native ad units, three SSP partners, a deal, a floor.
    const pubRows = await query<{ id: number }>(
      db(),
      `INSERT INTO publishers (name, side, seller_id, seller_domain) VALUES ('Diario Levante Digital', 'ssp', 'pub-9001', 'diariolevante.example'), ('Runa Games Studio', 'ssp', 'pub-9002', 'runagames.example') RETURNING id`,
    );
    pubs.push(...pubRows.map((r) => r.id));
    const [site] = await query<{ id: number }>(db(), `INSERT INTO sites (publisher_id, name, environment_id) VALUES ($1, 'www.diariolevante.example', 1) RETURNING id`, [pubs[0]]);
    const [app] = await query<{ id: number }>(db(), `INSERT INTO sites (publisher_id, name, environment_id) VALUES ($1, 'com.runagames.puzzle', 2) RETURNING id`, [pubs[1]]);
    await query(
      db(),
      `INSERT INTO ad_units (site_id, name, format_id, size_id) VALUES ($1, 'dl_home_mpu', 1, 1), ($1, 'dl_article_video', 2, 9), ($1, 'dl_feed_native', 3, 12), ($2, 'rg_interstitial', 1, 3), ($2, 'rg_rewarded', 2, 10)`,
      [site!.id, app!.id],
    );
    const partnerRows = await query<{ id: number }>(
      db(),
      `INSERT INTO demand_partners (name, side, status, timeout_ms, media_types, default_floor, endpoint_url) VALUES
        ('Nimbus Test Exchange', 'ssp', 'live', 250, '["banner","video","native"]', 0.40, 'https://nimbus.test.example/rtb'),
        ('Helios Test Bidder', 'ssp', 'live', 300, '["banner","video"]', 0.50, 'https://helios.test.example/rtb'),
        ('Kappa Test Media', 'ssp', 'testing', 200, '["banner","native"]', 0.25, 'https://kappa.test.example/rtb'),
        ('Paused Test DSP', 'ssp', 'paused', 300, '["banner"]', 0.30, 'https://paused.test.example/rtb')
       RETURNING id`,
    );
    partners.push(...partnerRows.map((r) => r.id));
    await query(db(), `INSERT INTO deals (demand_partner_id, code, name, type, bidfloor, bidfloorcur, auction_type) VALUES ($1, 'NMB-TEST-PMP-1', 'Nimbus news PMP', 'pmp', 2.5, 'USD', 1)`, [partners[0]]);
    await query(db(), `INSERT INTO supply_endpoints (name, region) VALUES ('rtb-eu-west-test', 'eu') ON CONFLICT DO NOTHING`);
    expect(await seedSspLogsDemo(db(), T0 - 10 * MIN)).toBeGreaterThan(1000);
    expect(await seedSspLogsDemo(db(), T0)).toBe(0);
  });
  afterAll(async () => t?.close());

  const get = async <T>(url: string, headers = tech) => {
    const res = await t.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode, res.body).toBe(200);
    return body<T>(res).data;
  };
  const list = (qs = '', headers = tech) => get<SspLogsAnswer>(`${BASE}${qs}`, headers);
  const setting = () => get<SamplingSetting>(PARAM);
  const put = (payload: Record<string, unknown>, headers = tech) => t.app.inject({ method: 'PUT', url: PARAM, headers, payload });

  it('stores only valid OpenRTB 2.6 pairs, from the seeded inventory (the demo sample)', async () => {
    const rows = await query<{ bid_request: unknown; bid_response: unknown; outcome: string; partner_id: number; deal_id: string | null; media_type: string }>(
      db(),
      'SELECT bid_request, bid_response, outcome, partner_id, deal_id, media_type FROM ssp_auction_logs',
    );
    expect(rows.length).toBeGreaterThan(1000);
    for (const r of rows) {
      expect(openRtbProblems('request', r.bid_request)).toEqual([]);
      if (r.bid_response !== null) expect(openRtbProblems('response', r.bid_response)).toEqual([]);
      else expect(['no_bid', 'timeout', 'error']).toContain(r.outcome);
    }
    // Only live and testing partners; every media type; the deal shows up in pmp and bids.
    expect(new Set(rows.map((r) => r.partner_id))).not.toContain(partners[3]);
    expect(new Set(rows.map((r) => r.media_type))).toEqual(new Set(['banner', 'video', 'native']));
    expect(rows.some((r) => r.deal_id === 'NMB-TEST-PMP-1')).toBe(true);
  });

  it('lists newest first, pages, and searches by request id, publisher, partner, outcome and window', async () => {
    const first = await list('?page_size=10');
    expect(first.items).toHaveLength(10);
    expect(first.total).toBeGreaterThan(1000);
    const times = first.items.map((r) => r.logged_at);
    expect([...times].sort().reverse()).toEqual(times);
    const second = await list('?page_size=10&page=2');
    expect(second.total).toBe(first.total);
    expect(second.items.map((r) => r.id).filter((id) => first.items.some((f) => f.id === id))).toEqual([]);
    expect(second.items[0]!.logged_at <= first.items[9]!.logged_at).toBe(true);

    const one = first.items[3]!;
    const byRequest = await list(`?request_id=${one.request_id}`);
    expect(byRequest.items.map((r) => r.id)).toEqual([one.id]);
    expect((await list('?request_id=not-a-request')).total).toBe(0);

    const byPub = await list(`?publisher_id=${pubs[1]}&page_size=100`);
    expect(byPub.total).toBeGreaterThan(0);
    expect(byPub.items.every((r) => r.publisher.id === pubs[1] && r.environment === 'app' && r.publisher.name === 'Runa Games Studio')).toBe(true);
    const byPartner = await list(`?partner_id=${partners[1]}&outcome=won&page_size=100`);
    expect(byPartner.total).toBeGreaterThan(0);
    expect(byPartner.items.every((r) => r.partner.id === partners[1] && r.outcome === 'won' && r.bid_price !== null && r.clearing_price !== null)).toBe(true);

    // Window: from inclusive, to exclusive, at the exact instant of a row.
    const at = one.logged_at;
    expect((await list(`?from=${encodeURIComponent(at)}&to=${encodeURIComponent(new Date(Date.parse(at) + 1).toISOString())}`)).items.map((r) => r.id)).toContain(one.id);
    expect((await list(`?to=${encodeURIComponent(at)}&page_size=100`)).items.map((r) => r.id)).not.toContain(one.id);
    const [{ n }] = (await query<{ n: string }>(db(), `SELECT count(*)::text AS n FROM ssp_auction_logs WHERE partner_id = $1 AND logged_at >= $2::timestamptz - interval '6 hours' AND logged_at < $2::timestamptz`, [partners[0], at])) as [{ n: string }];
    const windowed = await list(`?partner_id=${partners[0]}&from=${encodeURIComponent(new Date(Date.parse(at) - 6 * 3600_000).toISOString())}&to=${encodeURIComponent(at)}`);
    expect(windowed.total).toBe(Number(n));

    const byLatency = await list('?sort=-latency&page_size=5');
    expect(byLatency.items.map((r) => r.latency_ms)).toEqual([...byLatency.items.map((r) => r.latency_ms)].sort((a, b) => b - a));

    for (const [qs, field, key] of [
      ['?from=2026-01-01', 'from', 'ssp_logs.window_invalid'],
      ['?from=2026-03-10T10:00:00Z&to=2026-03-10T09:00:00Z', 'to', 'ssp_logs.window_order'],
      ['?outcome=maybe', 'outcome', 'error.invalid_value'],
      ['?publisher_id=abc', 'publisher_id', 'error.invalid_id'],
      ['?sort=price', 'sort', 'resource.sort_unknown'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `${BASE}${qs}`, headers: tech });
      expect(res.statusCode, qs).toBe(400);
      expect(body(res).errors?.[field], qs).toBe(key);
    }
  });

  it('answers one log with its pair, 404 for an unknown id; exports without the JSON', async () => {
    const [row] = (await list('?outcome=won&page_size=1')).items;
    const log = await get<SspLogDetail>(`${BASE}/${row!.id}`);
    expect((log.bid_request as { id: string }).id).toBe(row!.request_id);
    expect((log.bid_response as { id: string }).id).toBe(row!.request_id);
    const [noBid] = (await list('?outcome=no_bid&page_size=1')).items;
    expect((await get<SspLogDetail>(`${BASE}/${noBid!.id}`)).bid_response).toBeNull();
    const missing = await t.app.inject({ method: 'GET', url: `${BASE}/999999999`, headers: tech });
    expect(missing.statusCode).toBe(404);
    expect(body(missing).message).toBe('ssp_logs.not_found');

    const csv = await t.app.inject({ method: 'GET', url: `${BASE}/export?format=csv&partner_id=${partners[0]}`, headers: { ...tech, 'accept-language': 'es' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/ssp_logs_\d{4}-\d{2}-\d{2}_\d{6}\.csv/);
    expect(csv.body).toContain('ID de petición');
    expect(csv.body).toContain('Nimbus Test Exchange');
    expect(csv.body).not.toContain('"imp"');
    const lines = csv.body.trim().split('\n').length - 1;
    expect(lines).toBe((await list(`?partner_id=${partners[0]}`)).total);
    const xlsx = await t.app.inject({ method: 'GET', url: `${BASE}/export?format=xlsx`, headers: tech });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toMatch(/spreadsheetml/);
  });

  it('enforces the ACL: read for the logs; write on the parametrization to change it', async () => {
    expect((await list('?page_size=1', reader)).total).toBeGreaterThan(0);
    expect((await get<SamplingSetting>(PARAM, reader)).version).toBeGreaterThan(0);
    expect((await get<SamplingStatus>(`${BASE}/status`, reader)).retention_days).toBe(7);
    const current = await setting();
    const refused = await put({ ...editable(current), sample_rate_pct: 30, version: current.version }, reader);
    expect(refused.statusCode).toBe(403);
    for (const url of [BASE, PARAM, `${BASE}/status`, `${BASE}/lookups`, `${BASE}/export`])
      expect((await t.app.inject({ method: 'GET', url, headers: none })).statusCode, url).toBe(403);
    expect((await setting()).version).toBe(current.version);
    // A role with write on the parametrization alone may change it but not read the logs.
    const paramOnly = (await userWithAcl(t.app, 'ssplogs.param@adtech.example', { '/v1/ssp-logs/parametrization': ['read', 'write'] })).headers;
    expect((await t.app.inject({ method: 'GET', url: BASE, headers: paramOnly })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: PARAM, headers: paramOnly })).statusCode).toBe(200);
  });

  const editable = (s: SamplingSetting) => ({
    active: s.active,
    sample_rate_pct: s.sample_rate_pct,
    duration_mode: s.duration_mode,
    duration_minutes: s.duration_minutes,
    until: s.until,
    partner_scope: s.partner_scope,
    partner_ids: s.partner_ids,
  });

  it('refuses a bad setting with the field and its key, storing nothing', async () => {
    const current = await setting();
    const base = { ...editable(current), active: true, sample_rate_pct: 20, duration_mode: 'minutes', duration_minutes: 60, partner_scope: 'all', partner_ids: [], version: current.version };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ sample_rate_pct: 101 }, 'sample_rate_pct', 'ssp_logs.param.rate_range'],
      [{ sample_rate_pct: -1 }, 'sample_rate_pct', 'ssp_logs.param.rate_range'],
      [{ sample_rate_pct: 12.5 }, 'sample_rate_pct', 'ssp_logs.param.rate_range'],
      [{ sample_rate_pct: 0 }, 'sample_rate_pct', 'ssp_logs.param.rate_zero_active'],
      [{ duration_minutes: 14 }, 'duration_minutes', 'ssp_logs.param.duration_range'],
      [{ duration_minutes: 1441 }, 'duration_minutes', 'ssp_logs.param.duration_range'],
      [{ duration_minutes: null }, 'duration_minutes', 'ssp_logs.param.duration_range'],
      [{ duration_mode: 'until', until: 'tomorrow' }, 'until', 'ssp_logs.param.until_invalid'],
      [{ duration_mode: 'until', until: new Date(T0 - MIN).toISOString() }, 'until', 'ssp_logs.param.until_past'],
      [{ duration_mode: 'until', until: new Date(T0 + 8 * 86_400_000).toISOString() }, 'until', 'ssp_logs.param.until_too_far'],
      [{ partner_scope: 'partners', partner_ids: [] }, 'partner_ids', 'ssp_logs.param.partners_required'],
      [{ partner_scope: 'partners', partner_ids: [partners[0], 99_999_999] }, 'partner_ids', 'ssp_logs.param.partner_unknown'],
      [{ partner_scope: 'partners', partner_ids: [partners[3]] }, 'partner_ids', 'ssp_logs.param.partner_unknown'],
      [{ partner_scope: 'some' }, 'partner_scope', 'ssp_logs.param.scope_required'],
    ];
    for (const [patch, field, key] of cases) {
      const res = await put({ ...base, ...patch });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(body(res).errors?.[field], JSON.stringify(patch)).toBe(key);
    }
    const es = await t.app.inject({ method: 'PUT', url: PARAM, headers: { ...tech, 'accept-language': 'es' }, payload: { ...base, sample_rate_pct: 101 } });
    expect(body(es).errors?.sample_rate_pct).toBe('ssp_logs.param.rate_range');
    expect((await setting()).version).toBe(current.version);
    // Switched off, a past `until` is kept as written (nothing runs).
    const off = await put({ ...base, active: false, sample_rate_pct: 0, version: current.version });
    expect(off.statusCode, off.body).toBe(200);
  });

  it('saves with the version (409 when stale), audits each change and lists them in the history', async () => {
    const current = await setting();
    const saved = await put({ ...editable(current), active: false, sample_rate_pct: 35, partner_scope: 'partners', partner_ids: [partners[1], partners[0]], version: current.version });
    expect(saved.statusCode, saved.body).toBe(200);
    const after = body<SamplingSetting>(saved).data;
    expect(after).toMatchObject({ version: current.version + 1, sample_rate_pct: 35, partner_scope: 'partners', partner_ids: [partners[0]!, partners[1]!].sort((a, b) => a - b), sampling: false });
    expect(after.partners.map((p) => p.name).sort()).toEqual(['Helios Test Bidder', 'Nimbus Test Exchange']);
    const stale = await put({ ...editable(current), sample_rate_pct: 50, version: current.version });
    expect(stale.statusCode).toBe(409);
    expect(body(stale).message).toBe('resource.conflict');
    expect((body<{ current: SamplingSetting }>(stale).data.current).sample_rate_pct).toBe(35);
    const history = await get<HistoryEntry[]>(`${PARAM}/history`);
    expect(history[0]!.action).toBe('ssp_logs.parametrization_update');
    expect(history[0]!.actor.name).toBe('Priya Natarajan');
    expect(history[0]!.changes.sample_rate_pct).toEqual([current.sample_rate_pct, 35]);
    // Two people saving at once from the same version: one wins, the other gets 409.
    const v = after.version;
    const both = await Promise.all([put({ ...editable(after), sample_rate_pct: 40, version: v }), put({ ...editable(after), sample_rate_pct: 45, version: v })]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('samples only the partners in scope, at about the rate, each minute once, and stops when the run ends', async () => {
    clock = T0;
    const before = await setting();
    const start = await put({ active: true, sample_rate_pct: 50, duration_mode: 'minutes', duration_minutes: 15, partner_scope: 'partners', partner_ids: [partners[0], partners[2]], version: before.version });
    expect(start.statusCode, start.body).toBe(200);
    const run = body<SamplingSetting>(start).data;
    expect(run).toMatchObject({ sampling: true, started_at: new Date(T0).toISOString(), ends_at: new Date(T0 + 15 * MIN).toISOString(), sampled_rows: 0 });
    expect((await get<SamplingStatus>(`${BASE}/status`, reader)).sampling).toBe(true);
    const sampled = async () =>
      query<{ partner_id: number; logged_at: Date }>(db(), `SELECT partner_id, logged_at FROM ssp_auction_logs WHERE source = 'sampler'`);

    // Five minutes later: the minutes that ended (10:00 from :20, 10:01 … 10:04).
    const r1 = await runSampler(db(), T0 + 5 * MIN);
    expect(r1).toMatchObject({ minutes: 5, ended: false, active: true });
    const rows1 = await sampled();
    expect(rows1.length).toBe(r1.rows);
    expect(new Set(rows1.map((r) => r.partner_id))).toEqual(new Set([partners[0], partners[2]]));
    // 2 partners x 40 requests a minute x (4 + 40/60 minutes) x 50 % ≈ 187.
    const expected = 2 * 40 * (4 + 40 / 60) * 0.5;
    expect(r1.rows).toBeGreaterThan(expected * 0.75);
    expect(r1.rows).toBeLessThan(expected * 1.25);
    expect(rows1.every((r) => r.logged_at.getTime() >= T0)).toBe(true);
    // The same moment again (a retried job): nothing twice.
    expect(await runSampler(db(), T0 + 5 * MIN + 30_000)).toMatchObject({ minutes: 0, rows: 0 });
    expect((await sampled()).length).toBe(rows1.length);
    expect((await setting()).sampled_rows).toBe(rows1.length);

    // Through the job, after the end (10:15:20): the rest of the run, then off.
    clock = T0 + 16 * MIN;
    const job = await sspLogsSampleJob.handle({ id: 'test', name: 'ssp-logs-sample', data: {} } as unknown as Job<object>, { ctx: t.app.ctx, log: t.app.log, instanceId: 'test', send: async () => null } as JobContext);
    expect(job).toMatchObject({ ended: true, active: false });
    const rows2 = await sampled();
    expect(rows2.length).toBeGreaterThan(rows1.length);
    expect(rows2.every((r) => r.logged_at.getTime() >= T0 && r.logged_at.getTime() < T0 + 15 * MIN)).toBe(true);
    expect(new Set(rows2.map((r) => r.partner_id))).toEqual(new Set([partners[0], partners[2]]));
    const ratio = rows2.length / (2 * 40 * 15);
    expect(ratio).toBeGreaterThan(0.4);
    expect(ratio).toBeLessThan(0.6);
    const ended = await setting();
    expect(ended).toMatchObject({ active: false, sampling: false, sampled_rows: rows2.length });
    // Later runs log nothing more.
    expect(await runSampler(db(), T0 + 30 * MIN)).toMatchObject({ minutes: 0, rows: 0, active: false });
    expect((await sampled()).length).toBe(rows2.length);
    const history = await get<HistoryEntry[]>(`${PARAM}/history`);
    expect(history[0]!.action).toBe('ssp_logs.sampling_ended');
    expect(history[0]!.actor.id).toBeNull();
    // Every sampled pair is valid OpenRTB 2.6 too.
    for (const r of await query<{ bid_request: unknown; bid_response: unknown }>(db(), `SELECT bid_request, bid_response FROM ssp_auction_logs WHERE source = 'sampler'`)) {
      expect(openRtbProblems('request', r.bid_request)).toEqual([]);
      if (r.bid_response !== null) expect(openRtbProblems('response', r.bid_response)).toEqual([]);
    }
  });

  it('prunes logs older than the retention', async () => {
    const [{ id } = { id: 0 }] = await query<{ id: number }>(db(), `SELECT id FROM ssp_auction_logs ORDER BY id LIMIT 1`);
    await query(db(), `UPDATE ssp_auction_logs SET logged_at = $2::timestamptz WHERE id = $1`, [id, new Date(T0 - 8 * 86_400_000).toISOString()]);
    const total = (await list('?page_size=1')).total;
    expect(await pruneLogs(db(), T0)).toBe(1);
    expect((await list('?page_size=1')).total).toBe(total - 1);
    expect(await pruneLogs(db(), T0)).toBe(0);
  });
});
