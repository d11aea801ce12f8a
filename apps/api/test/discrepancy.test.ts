/**
 * Discrepancy review (issue 24) through the HTTP API: the spec's rules and messages (date format,
 * mandatory, not older than one month, networks that exist, none twice), the CSV (extension, comma
 * and semicolon, rows with an empty value dropped, per-line errors), ACL (read vs write), the job
 * (our figures are billing's, delta % and flagging exactly at the tolerance's edge, a failure and
 * its retry), review decisions (ours, theirs, split, 409 when stale), apply (the billing row's
 * revenue network read back through the billing API, confirmed rows untouched, two at once = once),
 * the tolerance setting (409 when stale) and the dashboard's waiting entry.
 */
import type { DiscrepancyListAnswer, DiscrepancyRequestDto, DiscrepancyRowDto } from '@backoffice/core/discrepancy';
import type { BillingListAnswer } from '@backoffice/core/billing-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDiscrepancy } from '../src/modules/discrepancy/service.ts';
import { query } from '../src/reports-data/sql.ts';
import { DEMO } from './auth-support.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

type Headers = { authorization: string };
const MONTH = '2025-03';
const DATE = '2025-03-31';
let keySeq = 0;
const key = () => `disc-key-${process.pid}-${++keySeq}-${Math.random().toString(36).slice(2, 8)}`;
const days = Array.from({ length: 31 }, (_, i) => `2025-03-${String(i + 1).padStart(2, '0')}`);

describe('discrepancy review', () => {
  let t: TestApp;
  let tech: Headers;
  let admin: Headers;
  let reader: Headers;
  let finance: Headers;
  let tramuntana: number; // two products: cpc 45/day + cpm 15/day = 60/day, 30,000 impressions
  let nordlicht: number; // cpc 100/day, 50,000 impressions
  const db = () => t.app.ctx.database;

  /** Theirs = ours except where `edits` says (day → [impressions, revenue]). */
  const csvFor = (name: string, imps: number, revenue: string, edits: Record<string, [number, string]> = {}, delimiter = ',') =>
    days.map((d) => [d, name, String(edits[d]?.[0] ?? imps), edits[d]?.[1] ?? revenue].join(delimiter));
  const post = (payload: Record<string, unknown>, headers: Headers = tech) =>
    t.app.inject({ method: 'POST', url: '/v1/discrepancy/requests', headers, payload: { idempotency_key: key(), ...payload } });
  const getReq = async (id: number) => body<DiscrepancyRequestDto>(await t.app.inject({ url: `/v1/discrepancy/requests/${id}`, headers: tech })).data;
  const rowsOf = async (id: number, qs = '') => {
    const res = await t.app.inject({ url: `/v1/discrepancy/requests/${id}/rows?page_size=500${qs}`, headers: tech });
    expect(res.statusCode, res.body).toBe(200);
    return body<DiscrepancyListAnswer<DiscrepancyRowDto>>(res).data.rows;
  };
  const billingRows = async () =>
    body<BillingListAnswer>(await t.app.inject({ url: `/v1/billing/performance/rows?month=${MONTH}&page_size=500`, headers: admin })).data.rows;

  /** A request from a CSV, run by the job's handler (jobs are off in tests), answered when done. */
  const runCsv = async (lines: string[], networks: number[], delimiter = ',') => {
    const res = await post({ date: DATE, network_ids: networks, source: 'csv', csv: { file_name: 'partner-march.csv', text: [['date', 'network', 'impressions', 'revenue'].join(delimiter), ...lines].join('\n') } });
    expect(res.statusCode, res.body).toBe(201);
    expect(body(res).message).toBe('common.discrepancy_added');
    const id = body<DiscrepancyRequestDto>(res).data.id;
    expect(body<DiscrepancyRequestDto>(res).data.state).toBe('queued');
    await runDiscrepancy(db(), id);
    return getReq(id);
  };

  beforeAll(async () => {
    t = await createTestApp();
    t.app.ctx.now = () => Date.parse('2025-04-10T09:00:00Z');
    const [a] = await query<{ id: number }>(db(), `INSERT INTO demand_partners (name, side, type) VALUES ('Tramuntana Performance', 'performance', 'network') RETURNING id`);
    const [b] = await query<{ id: number }>(db(), `INSERT INTO demand_partners (name, side, type) VALUES ('Nordlicht Media', 'performance', 'network') RETURNING id`);
    tramuntana = Number(a!.id);
    nordlicht = Number(b!.id);
    const [pub] = await query<{ id: number }>(db(), `INSERT INTO publishers (name, side, seller_id, min_payout, payment_terms) VALUES ('Ofertas Costa Brava', 'performance', 'perf-1', 50, 'net30') RETURNING id`);
    await query(
      db(),
      `INSERT INTO performance_daily (day, advertiser_id, publisher_id, product, impressions, clicks, conversions, revenue_micros, cost_micros)
       SELECT d::date, x.adv, $3, x.product, x.imps, 100, 2, x.rev, x.rev / 2
       FROM generate_series('2025-02-28'::date, '2025-04-01'::date, '1 day') d,
            (VALUES ($1::int4, 'cpc', 10000, 45000000::int8), ($1, 'cpm', 20000, 15000000), ($2::int4, 'cpc', 50000, 100000000)) AS x(adv, product, imps, rev)`,
      [tramuntana, nordlicht, pub!.id],
    );
    tech = (await signIn(t.app, DEMO.tech)).headers;
    admin = (await signIn(t.app, DEMO.admin)).headers;
    finance = (await signIn(t.app, DEMO.finance)).headers;
    const [role] = await query<{ id: number }>(db(), `SELECT id FROM roles WHERE name = 'TECH_SUPPLY'`);
    const [user] = await query<{ id: number }>(db(), `INSERT INTO users (mail, name, password_hash) VALUES ('disc.reader@adtech.example', 'Reader', 'not-a-login-user') RETURNING id`);
    await query(db(), `INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, [user!.id, role!.id]);
    reader = { authorization: `Bearer ${(await t.app.sessions.issue(user!.id)).token}` };
    const res = await t.app.inject({ method: 'POST', url: '/v1/billing/performance/compute', headers: admin, payload: { month: MONTH } });
    expect(res.statusCode, res.body).toBe(200);
  }, 120_000);
  afterAll(async () => t?.close());

  it('refuses what the spec refuses, with its messages', async () => {
    const typed = { source: 'typed', figures: [{ date: '2025-03-05', network: String(tramuntana), impressions: '10', revenue: '1.5' }] };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ date: '', network_ids: [tramuntana], ...typed }, 'date', 'discrepancy.date.required'],
      [{ date: '31/03/2025', network_ids: [tramuntana], ...typed }, 'date', 'discrepancy.date.format'],
      [{ date: '2025-02-30', network_ids: [tramuntana], ...typed }, 'date', 'discrepancy.date.format'],
      [{ date: '2025-03-09', network_ids: [tramuntana], ...typed }, 'date', 'discrepancy.date.too_old'],
      [{ date: '2025-04-11', network_ids: [tramuntana], ...typed }, 'date', 'discrepancy.date.future'],
      [{ date: DATE, network_ids: [], ...typed }, 'network_ids', 'common.no_networks_added'],
      [{ date: DATE, network_ids: [tramuntana, tramuntana], ...typed }, 'network_ids', 'discrepancy.networks.duplicate'],
      [{ date: DATE, network_ids: [999_999], ...typed }, 'network_ids', 'discrepancy.network.not_found'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await post(payload);
      expect(res.statusCode, `${JSON.stringify(payload)} ${res.body}`).toBe(400);
      expect(body(res).errors?.[field] ?? body(res).message, JSON.stringify(payload)).toBe(message);
    }
    // The day one month back is still allowed (10 March for 10 April).
    expect((await post({ date: '2025-03-10', network_ids: [tramuntana], ...typed })).statusCode).toBe(201);
    // Wrong extension: 'Please, provide a valid CSV.'
    const bad = await post({ date: DATE, network_ids: [tramuntana], source: 'csv', csv: { file_name: 'report.xlsx', text: 'date,network,impressions,revenue\n' } });
    expect(bad.statusCode).toBe(400);
    expect(body(bad).message).toBe('upload.csv.invalid');
    expect(body(bad).text).toBe('Please, provide a valid CSV.');
    // Lines with errors are each named (line number, field, key); nothing is stored.
    const before = await query<{ n: number }>(db(), `SELECT count(*)::int AS n FROM discrepancy_requests`);
    const lines = await post({
      date: DATE,
      network_ids: [tramuntana],
      source: 'csv',
      csv: { file_name: 'p.csv', text: `date,network,impressions,revenue\n2025-02-28,${tramuntana},1,1\n2025-03-02,Unknown Ads,1,1\n2025-03-03,${tramuntana},1.5,x\n2025-03-04,${tramuntana},1,1\n2025-03-04,tramuntana performance,2,2` },
    });
    expect(lines.statusCode).toBe(400);
    expect(body<{ lines: { line: number; field: string; key: string }[] }>(lines).data.lines).toEqual([
      { line: 2, field: 'date', key: 'discrepancy.figures.date_outside' },
      { line: 3, field: 'network', key: 'discrepancy.figures.network_not_requested' },
      { line: 4, field: 'impressions', key: 'discrepancy.figures.impressions_invalid' },
      { line: 4, field: 'revenue', key: 'discrepancy.figures.revenue_invalid' },
      { line: 6, field: 'date', key: 'discrepancy.figures.duplicate' },
    ]);
    expect((await query<{ n: number }>(db(), `SELECT count(*)::int AS n FROM discrepancy_requests`))[0]!.n).toBe(before[0]!.n);
    // A requested network without any figure is refused by name.
    const missing = await post({ date: DATE, network_ids: [tramuntana, nordlicht], ...typed });
    expect(body(missing).message).toBe('discrepancy.figures.network_missing');
    expect(body(missing).text).toContain('Nordlicht Media');
  });

  it('enforces the ACL: read sees, write changes; without the permission nothing', async () => {
    expect((await t.app.inject({ url: '/v1/discrepancy/requests', headers: reader })).statusCode).toBe(200);
    expect((await post({ date: DATE, network_ids: [tramuntana], source: 'typed', figures: [] }, reader)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: '/v1/discrepancy/settings', headers: reader, payload: { tolerance_pct: '5', version: 0 } })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/v1/discrepancy/requests', headers: finance })).statusCode).toBe(403);
  });

  it('reads comma and semicolon CSVs alike, drops rows with an empty value, and flags exactly beyond the tolerance', async () => {
    const comma = await runCsv(
      [
        ...csvFor(String(tramuntana), 30000, '60', { '2025-03-05': [30000, '54'], '2025-03-06': [30000, '53.999999'], '2025-03-07': [27000, '60'], '2025-03-08': [26999, '60'] }),
        `2025-03-09,${tramuntana},,60`,
      ],
      [tramuntana],
    );
    expect(comma.state).toBe('ready');
    expect(comma.progress).toEqual({ done: 31, total: 31 });
    expect(comma.counts).toEqual({ rows: 31, flagged: 2, undecided: 2 });
    const rows = await rowsOf(comma.id);
    const byDay = new Map(rows.map((r) => [r.day, r]));
    // Our figure is billing's: both products summed.
    expect(byDay.get('2025-03-01')).toMatchObject({ ours_impressions: 30000, ours_revenue: '60.000000', theirs_revenue: '60.000000', revenue_delta_pct: '0.00', flagged: false });
    // (60 − 54) / 60 = 10.00 %: at the tolerance, not beyond it.
    expect(byDay.get('2025-03-05')).toMatchObject({ revenue_delta_pct: '10.00', flagged: false });
    expect(byDay.get('2025-03-06')).toMatchObject({ revenue_delta_pct: '10.00', flagged: true });
    expect(byDay.get('2025-03-07')).toMatchObject({ impressions_delta_pct: '10.00', flagged: false });
    expect(byDay.get('2025-03-08')).toMatchObject({ impressions_delta_pct: '10.00', flagged: true });
    // The line with an empty value was dropped: the 9th is the partner's original 60.
    expect(byDay.get('2025-03-09')!.theirs_impressions).toBe(30000);

    const semi = await runCsv(csvFor('Nordlicht Media', 50000, '100,5', { '2025-03-10': [50000, '80'] }, ';'), [nordlicht], ';');
    expect(semi.counts).toEqual({ rows: 31, flagged: 1, undecided: 1 });
    const r10 = (await rowsOf(semi.id, '&filter=flagged'))[0]!;
    expect(r10).toMatchObject({ day: '2025-03-10', theirs_revenue: '80.000000', revenue_delta_pct: '20.00', flagged: true });
    // A decimal comma inside a semicolon file: 100,5 → 100.5, delta (100 − 100.5) / 100 = −0.50 %.
    expect((await rowsOf(semi.id)).find((r) => r.day === '2025-03-01')).toMatchObject({ theirs_revenue: '100.500000', revenue_delta_pct: '-0.50' });
  });

  it('reviews: accept theirs, ours, a split; 409 when stale; reviewed once every flagged row is decided; the dashboard counts what waits', async () => {
    const req = await runCsv(csvFor(String(tramuntana), 30000, '60', { '2025-03-11': [30000, '40'], '2025-03-12': [30000, '30'], '2025-03-13': [30000, '90'] }), [tramuntana]);
    const flagged = await rowsOf(req.id, '&filter=flagged');
    expect(flagged.map((r) => r.day)).toEqual(['2025-03-11', '2025-03-12', '2025-03-13']);
    const dash = body<{ waiting: { kind: string; count: number }[] }>(await t.app.inject({ url: '/v1/dashboard?sections=waiting', headers: tech })).data;
    expect(dash.waiting.find((w) => w.kind === 'discrepancies')!.count).toBeGreaterThanOrEqual(3);
    // Someone who cannot read discrepancies is told nothing about them.
    const other = body<{ waiting: { kind: string; count: number }[] }>(await t.app.inject({ url: '/v1/dashboard?sections=waiting', headers: finance })).data;
    expect(other.waiting.find((w) => w.kind === 'discrepancies')!.count).toBe(0);
    const decide = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: `/v1/discrepancy/requests/${req.id}/decisions`, headers: tech, payload });
    const [d11, d12, d13] = flagged;
    let res = await decide({ rows: [{ id: d11!.id, version: d11!.version }], decision: 'theirs' });
    expect(res.statusCode, res.body).toBe(200);
    // Stale version: 409 with the current row.
    res = await decide({ rows: [{ id: d11!.id, version: d11!.version }], decision: 'ours' });
    expect(res.statusCode).toBe(409);
    expect(body(res).message).toBe('discrepancy.row_changed');
    // A split: an agreed amount must lie between ours (60) and theirs (30).
    res = await decide({ rows: [{ id: d12!.id, version: d12!.version }], decision: 'split', amount: '29.99' });
    expect(body(res).errors?.amount).toBe('discrepancy.split.amount_between');
    res = await decide({ rows: [{ id: d12!.id, version: d12!.version }], decision: 'split', split_pct: '33.33' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await getReq(req.id)).state).toBe('ready');
    res = await decide({ rows: [{ id: d13!.id, version: d13!.version }], decision: 'ours' });
    expect(body<{ request: DiscrepancyRequestDto }>(res).data.request.state).toBe('reviewed');
    const after = new Map((await rowsOf(req.id, '&filter=flagged')).map((r) => [r.day, r]));
    expect(after.get('2025-03-11')).toMatchObject({ decision: 'theirs', accepted_revenue: '40.000000' });
    // 60 + (30 − 60) × 33.33 % = 60 − 9.999 = 50.001
    expect(after.get('2025-03-12')).toMatchObject({ decision: 'split', accepted_revenue: '50.001000' });
    expect(after.get('2025-03-13')).toMatchObject({ decision: 'ours', accepted_revenue: '60.000000' });
    await query(db(), `DELETE FROM discrepancy_requests WHERE id = $1`, [req.id]);
  });

  it("applies: the partner's accepted revenue becomes its billing rows' revenue network (read through billing), once; confirmed rows untouched", async () => {
    const before = await billingRows();
    const tRows = before.filter((r) => r.counterparty.id === tramuntana);
    const nRow = before.find((r) => r.counterparty.id === nordlicht)!;
    expect(tRows.map((r) => [r.product, r.revenue_ours])).toEqual(expect.arrayContaining([['cpc', '1395.00'], ['cpm', '465.00']]));
    // Nordlicht's row is confirmed: the review of its figures must leave it alone.
    await query(db(), `UPDATE billing_rows SET state = 'confirmed' WHERE id = $1`, [nRow.id]);

    const req = await runCsv(
      [...csvFor(String(tramuntana), 30000, '60', { '2025-03-20': [30000, '20'] }), ...csvFor(String(nordlicht), 50000, '100', { '2025-03-21': [50000, '70'] })],
      [tramuntana, nordlicht],
    );
    const flagged = await rowsOf(req.id, '&filter=flagged');
    expect(flagged).toHaveLength(2);
    // Applying before every flagged row is decided is refused.
    let res = await t.app.inject({ method: 'POST', url: `/v1/discrepancy/requests/${req.id}/apply`, headers: tech, payload: { version: req.version } });
    expect(body(res).message).toBe('discrepancy.not_appliable');
    res = await t.app.inject({ method: 'POST', url: `/v1/discrepancy/requests/${req.id}/decisions`, headers: tech, payload: { rows: flagged.map((r) => ({ id: r.id, version: r.version })), decision: 'theirs' } });
    expect(res.statusCode, res.body).toBe(200);
    const reviewed = body<{ request: DiscrepancyRequestDto }>(res).data.request;
    // Two clicks at once: applied once (one audit entry per billing row).
    const [a, b] = await Promise.all(
      [0, 1].map(() => t.app.inject({ method: 'POST', url: `/v1/discrepancy/requests/${req.id}/apply`, headers: tech, payload: { version: reviewed.version } })),
    );
    expect([a!.statusCode, b!.statusCode]).toEqual([200, 200]);
    expect([body<{ already: boolean }>(a!).data.already, body<{ already: boolean }>(b!).data.already].sort()).toEqual([false, true]);
    const applied = await getReq(req.id);
    expect(applied.state).toBe('applied');
    const outcome = new Map(applied.apply_result!.map((o) => [o.network_id, o]));
    expect(outcome.get(tramuntana)).toMatchObject({ ok: true, delta: '-40.000000' });
    expect(outcome.get(nordlicht)).toMatchObject({ ok: false, reason: 'discrepancy.skip.confirmed' });
    expect(outcome.get(nordlicht)!.rows.map((r) => r.id)).toEqual([nRow.id]);

    // Month 1860 − 40 = 1820, spread in proportion: cpc 1395 − 30 = 1365, cpm 465 − 10 = 455.
    const now = await billingRows();
    const cpc = now.find((r) => r.counterparty.id === tramuntana && r.product === 'cpc')!;
    const cpm = now.find((r) => r.counterparty.id === tramuntana && r.product === 'cpm')!;
    expect([cpc.revenue_network, cpm.revenue_network]).toEqual(['1365.00', '455.00']);
    expect(cpc.revenue_gross).toBe('1365.00');
    expect(now.find((r) => r.id === nRow.id)).toMatchObject({ revenue_network: null, state: 'confirmed' });
    const audits = await query<{ n: number }>(db(), `SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing_rows.discrepancy' AND entity_id = $1`, [String(cpc.id)]);
    expect(audits[0]!.n).toBe(1);
    // The billing row's history says where the figure came from.
    const detail = body<{ history: { action: string; after: { discrepancy_request?: number } }[] }>(await t.app.inject({ url: `/v1/billing/performance/rows/${cpc.id}`, headers: admin })).data;
    expect(detail.history[0]).toMatchObject({ action: 'billing_rows.discrepancy', after: { discrepancy_request: req.id } });
    // Reviewing an applied request is refused.
    res = await t.app.inject({ method: 'POST', url: `/v1/discrepancy/requests/${req.id}/decisions`, headers: tech, payload: { rows: [{ id: flagged[0]!.id, version: flagged[0]!.version + 1 }], decision: 'ours' } });
    expect(body(res).message).toBe('discrepancy.not_reviewable');
  });

  it('a failed job says why, and a retry from the screen resumes it to the same result', async () => {
    const res = await post({ date: DATE, network_ids: [nordlicht], source: 'typed', figures: days.map((d) => ({ date: d, network: 'Nordlicht Media', impressions: '50000', revenue: d === '2025-03-15' ? '50' : '100' })) });
    const id = body<DiscrepancyRequestDto>(res).data.id;
    await query(db(), `ALTER TABLE performance_daily RENAME TO performance_daily_away`);
    try {
      await runDiscrepancy(db(), id);
    } finally {
      await query(db(), `ALTER TABLE performance_daily_away RENAME TO performance_daily`);
    }
    const failed = await getReq(id);
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatch(/performance_daily/);
    expect(failed.actions.retry).toBe(true);
    expect((await t.app.inject({ method: 'POST', url: `/v1/discrepancy/requests/${id}/retry`, headers: reader })).statusCode).toBe(403);
    const retried = await t.app.inject({ method: 'POST', url: `/v1/discrepancy/requests/${id}/retry`, headers: tech });
    expect(body<DiscrepancyRequestDto>(retried).data.state).toBe('queued');
    // A second run of the same job (a duplicate delivery) finds it done and changes nothing.
    await runDiscrepancy(db(), id);
    expect(await runDiscrepancy(db(), id)).toBeNull();
    const done = await getReq(id);
    expect(done).toMatchObject({ state: 'ready', attempts: 2, counts: { rows: 31, flagged: 1, undecided: 1 } });
  });

  it('keeps the tolerance as a versioned setting; a request keeps the tolerance it was made with', async () => {
    const s = body<{ tolerance_pct: string; version: number }>(await t.app.inject({ url: '/v1/discrepancy/settings', headers: reader })).data;
    expect(s.tolerance_pct).toBe('10');
    let res = await t.app.inject({ method: 'PUT', url: '/v1/discrepancy/settings', headers: tech, payload: { tolerance_pct: '101', version: s.version } });
    expect(body(res).errors?.tolerance_pct).toBe('discrepancy.tolerance_invalid');
    res = await t.app.inject({ method: 'PUT', url: '/v1/discrepancy/settings', headers: tech, payload: { tolerance_pct: '25', version: s.version } });
    expect(body(res).data).toEqual({ tolerance_pct: '25', version: s.version + 1 });
    res = await t.app.inject({ method: 'PUT', url: '/v1/discrepancy/settings', headers: tech, payload: { tolerance_pct: '5', version: s.version } });
    expect(res.statusCode).toBe(409);
    const req = await runCsv(csvFor(String(nordlicht), 50000, '100', { '2025-03-03': [50000, '80'] }), [nordlicht]);
    expect(req).toMatchObject({ tolerance_pct: '25', state: 'reviewed', counts: { flagged: 0 } });
    const list = body<DiscrepancyListAnswer<DiscrepancyRequestDto>>(await t.app.inject({ url: '/v1/discrepancy/requests?state=reviewed', headers: reader })).data;
    expect(list.rows.map((r) => r.id)).toContain(req.id);
    const found = body<DiscrepancyListAnswer<DiscrepancyRequestDto>>(await t.app.inject({ url: '/v1/discrepancy/requests?search=nordl', headers: reader })).data;
    expect(found.rows.length).toBeGreaterThan(0);
    expect(found.rows.every((r) => r.networks.some((n) => n.name === 'Nordlicht Media'))).toBe(true);
    const none = await t.app.inject({ url: '/v1/discrepancy/requests?search=zzz-nothing', headers: reader });
    expect(body<DiscrepancyListAnswer<DiscrepancyRequestDto>>(none).data.total).toBe(0);
    expect(body(none).message).toBe('common.no_discrepancy_requests');
    const exp = await t.app.inject({ url: `/v1/discrepancy/requests/${req.id}/rows/export?format=csv`, headers: reader });
    expect(exp.statusCode).toBe(200);
    expect(exp.headers['content-disposition']).toMatch(new RegExp(`discrepancy_${req.id}_\\d{4}-\\d{2}-\\d{2}_\\d{6}\\.csv`));
  });
});
