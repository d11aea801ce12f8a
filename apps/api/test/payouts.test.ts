/**
 * Publisher payouts (issue 23) through the HTTP API: a month computed from the warehouse (equal to
 * billing's supply figures and the raw hourly fact, converted at the month's rate); every payout
 * rule of spec 5 with a fixed clock (day 14 against day 15), the verification code (wrong, reused,
 * expired, for another selection), the blockers (minimum, billing info), the alerts and their
 * thresholds; 20 concurrent approvals approve each payout once; no rollback after approval; paid by
 * hand and by a payment CSV; the SEPA file valid against pain.001.001.03.xsd; carrying a month
 * under the minimum; the statement PDF; export; ACL.
 */
import fs from 'node:fs';
import { payoutAlerts, type PayoutDto, type PayoutImportAnswer, type PayoutListAnswer, type PayoutRun, type PayoutVerification } from '@backoffice/core/payouts';
import { validateXML } from 'xmllint-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTestDataset } from '../src/reports-data/index.ts';
import { query } from '../src/reports-data/sql.ts';
import { DEMO } from './auth-support.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

/** 45 days ending 10 April 2025 14:00 UTC: all of March 2025 and part of February. */
const END = Date.UTC(2025, 3, 10, 14);
const DATA = { endMs: END, days: 45, scale: 0.05, qpsDays: 0, seed: 7 };
const MONTH = '2025-03';
const PREVIOUS = '2025-02';
/** USD per EUR in March (EUR payouts of the USD warehouse). */
const USD_RATE = '1.0807';
const SEPA_XSD = '/work/shared/standards/sepa/pain.001.001.03.xsd';

type Headers = { authorization: string };
let keySeq = 0;
const key = () => `payout-key-${process.pid}-${++keySeq}-${Math.random().toString(36).slice(2, 8)}`;
const at = (iso: string) => () => Date.parse(iso);

describe('payouts', () => {
  let t: TestApp;
  let finance: Headers;
  let sspHead: Headers;
  const db = () => t.app.ctx.database;

  const list = async (qs: string, headers: Headers = finance) => {
    const res = await t.app.inject({ url: `/v1/payouts/ssp?month=${MONTH}&page_size=500${qs}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return body<PayoutListAnswer>(res).data;
  };
  const get = async (id: number) => {
    const res = await t.app.inject({ url: `/v1/payouts/ssp/${id}`, headers: finance });
    expect(res.statusCode, res.body).toBe(200);
    return body<{ payout: PayoutDto; history: { action: string }[] }>(res).data;
  };
  const ref = (p: PayoutDto) => ({ id: p.id, version: p.version });
  const code = async (ids: number[], headers: Headers = finance) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/payouts/ssp/verification', headers, payload: { ids } });
    expect(res.statusCode, res.body).toBe(200);
    return body<PayoutVerification>(res).data;
  };
  const confirm = (rows: PayoutDto[], v: PayoutVerification, extra: Record<string, unknown> = {}, headers: Headers = finance) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/payouts/ssp/confirm',
      headers,
      payload: { rows: rows.map(ref), comment: 'Checked against the warehouse', verification_id: v.id, code: v.code, idempotency_key: key(), ...extra },
    });
  const act = (action: string, rows: { id: number; version: number }[], extra: Record<string, unknown> = {}, headers: Headers = finance) =>
    t.app.inject({ method: 'POST', url: '/v1/payouts/ssp/actions', headers, payload: { action, rows, idempotency_key: key(), ...extra } });
  /** Payouts that can be confirmed (billing info, over the minimum, no alerts), biggest first. */
  const confirmable = async (n: number) => (await list('&state=pending&sort=-payout')).rows.filter((p) => p.blockers.length === 0 && p.alerts.length === 0).slice(0, n);

  beforeAll(async () => {
    t = await createTestApp();
    t.app.ctx.now = at('2025-04-20T09:00:00Z');
    await loadTestDataset(db(), DATA);
    finance = (await signIn(t.app, DEMO.finance)).headers;
    // The head of SSP supply reads payouts and changes nothing.
    const [role] = await query<{ id: number }>(db(), `SELECT id FROM roles WHERE name = 'SSP_SUPPLY_HEAD'`);
    const [user] = await query<{ id: number }>(db(), `INSERT INTO users (mail, name, password_hash) VALUES ('payouts.head@adtech.example', 'Head', 'not-a-login-user') RETURNING id`);
    await query(db(), `INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, [user!.id, role!.id]);
    sspHead = { authorization: `Bearer ${(await t.app.sessions.issue(user!.id)).token}` };
    for (const month of [PREVIOUS, MONTH]) {
      const res = await t.app.inject({ method: 'PUT', url: '/v1/billing/rates', headers: finance, payload: { month, currency: 'USD', rate: USD_RATE } });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Billing information for all publishers but the last three: the demo companies with an IBAN.
    await query(
      db(),
      `WITH c AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM companies WHERE iban IS NOT NULL),
            p AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM publishers WHERE side = 'ssp' AND id NOT IN (SELECT id FROM publishers WHERE side = 'ssp' ORDER BY id DESC LIMIT 3))
       UPDATE publishers pb SET company_id = c.id, revenue_share_pct = 90, min_payout = 10 FROM p JOIN c ON c.n = (p.n - 1) % (SELECT count(*) FROM c) + 1 WHERE pb.id = p.id`,
    );
    for (const month of [PREVIOUS, MONTH]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/payouts/ssp/compute', headers: finance, payload: { month } });
      expect(res.statusCode, res.body).toBe(200);
    }
  }, 240_000);
  afterAll(async () => t?.close());

  it("computes the month from the warehouse: each publisher's earnings are billing's supply figure and the raw fact, at the month's rate", async () => {
    const answer = await list('');
    expect(answer.total).toBeGreaterThan(10);
    const raw = await query<{ id: number; payout: string; gross: string }>(
      db(),
      `SELECT publisher_id AS id, round(sum(cost_micros)::numeric * round(1 / ${USD_RATE}::numeric, 6) / 1000000, 2)::text AS payout,
              round(sum(revenue_micros)::numeric * round(1 / ${USD_RATE}::numeric, 6) / 1000000, 2)::text AS gross
       FROM stats_hourly WHERE ts >= '2025-03-01T00:00:00Z' AND ts < '2025-04-01T00:00:00Z' GROUP BY publisher_id`,
    );
    const byId = new Map(answer.rows.map((p) => [p.id_user, p]));
    for (const r of raw) {
      const p = byId.get(Number(r.id))!;
      expect(p, `publisher ${r.id}`).toBeDefined();
      expect([p.new_revenue, p.revenue_gross]).toEqual([r.payout, r.gross]);
      expect(p.currency).toBe('EUR');
      expect([p.from_date, p.to_date]).toEqual(['2025-03-01', '2025-03-31']);
    }
    // Billing's supply rows of the month (USD, per format) give the same figure per publisher.
    const billed = await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/compute', headers: finance, payload: { month: MONTH } });
    expect(billed.statusCode).toBe(200);
    const supply = await query<{ id: number; eur: string }>(
      db(),
      `SELECT counterparty_id AS id, round(sum(revenue_ours) * round(1 / ${USD_RATE}::numeric, 6), 2)::text AS eur FROM billing_rows
       WHERE side = 'ssp' AND kind = 'supply' AND month = $1 GROUP BY counterparty_id`,
      [MONTH],
    );
    for (const s of supply) expect(byId.get(Number(s.id))?.new_revenue, `publisher ${s.id}`).toBe(s.eur);
    // Totals are the rows' sums; the spec's columns are there.
    const sum = answer.rows.reduce((s, p) => s + Math.round(Number(p.payout) * 100), 0);
    expect(Math.round(Number(answer.totals.by_currency[0]!.payout) * 100)).toBe(sum);
    for (const col of ['id_user', 'name', 'from_date', 'to_date', 'payment_terms', 'payout', 'new_revenue', 'comments', 'revenue_gross']) expect(answer.rows[0]).toHaveProperty(col);
    // Recomputing changes nothing; a month not started is refused.
    const again = await t.app.inject({ method: 'POST', url: '/v1/payouts/ssp/compute', headers: finance, payload: { month: MONTH } });
    expect(body<{ inserted: number; updated: number }>(again).data.inserted).toBe(0);
    expect((await list('')).rows.map((p) => [p.id, p.version])).toEqual(answer.rows.map((p) => [p.id, p.version]));
    const future = await t.app.inject({ method: 'POST', url: '/v1/payouts/ssp/compute', headers: finance, payload: { month: '2025-05' } });
    expect(body(future).errors?.month).toBe('payout.month_future');
  });

  it('refuses a month without its exchange rate, naming it', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/payouts/ssp/compute', headers: finance, payload: { month: '2025-01' } });
    expect(res.statusCode).toBe(422);
    expect(body(res).message).toBe('payout.rate_missing');
  });

  it('before the 15th the previous month cannot be confirmed; from the 15th it can; never the current month', async () => {
    const [p] = await confirmable(1);
    t.app.ctx.now = at('2025-04-14T23:59:00Z');
    const early = await confirm([p!], await code([p!.id]));
    expect(early.statusCode).toBe(422);
    expect(body(early).message).toBe('payout.too_early');
    expect((await get(p!.id)).payout.state).toBe('pending');
    expect((await list('')).confirm_month_error).toBe('payout.too_early');

    t.app.ctx.now = at('2025-04-15T00:00:01Z');
    expect((await list('')).confirm_month_error).toBeNull();
    const ok = await confirm([p!], await code([p!.id]));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(body<PayoutRun>(ok).data.applied).toBe(1);
    expect((await get(p!.id)).payout.state).toBe('confirmed');

    // April (the current month) is never confirmable.
    const april = await t.app.inject({ url: '/v1/payouts/ssp?month=2025-04', headers: finance });
    expect(body<PayoutListAnswer>(april).data.confirm_month_error).toBe('payout.month_not_over');
    t.app.ctx.now = at('2025-04-20T09:00:00Z');
  });

  it('needs a selection and a comment of 10 characters: errors, nothing changes', async () => {
    const [p] = await confirmable(1);
    const v = await code([p!.id]);
    const none = await t.app.inject({ method: 'POST', url: '/v1/payouts/ssp/confirm', headers: finance, payload: { rows: [], comment: 'Long enough comment', verification_id: v.id, code: v.code, idempotency_key: key() } });
    expect(none.statusCode).toBe(400);
    expect(body(none).errors?.rows).toBe('payout.none_selected');
    const short = await confirm([p!], v, { comment: 'Too short' });
    expect(short.statusCode).toBe(400);
    expect(body(short).errors?.comment).toBe('payout.comment_short');
    expect((await get(p!.id)).payout).toMatchObject({ state: 'pending', version: p!.version });
    // The code was not spent by the refused requests.
    expect((await confirm([p!], v)).statusCode).toBe(200);
  });

  it('checks the verification code: wrong, reused, expired, for another selection, another person', async () => {
    const [a, b] = await confirmable(2);
    const v = await code([a!.id]);
    const wrong = await confirm([a!], { ...v, code: v.code === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(422);
    expect(body(wrong).errors?.code).toBe('payout.code_wrong');
    expect((await get(a!.id)).payout.state).toBe('pending');

    const other = await confirm([b!], v);
    expect(body(other).message).toBe('payout.code_mismatch');
    const admin = (await signIn(t.app, DEMO.admin)).headers;
    expect(body(await confirm([a!], v, {}, admin)).message).toBe('payout.code_wrong');

    expect((await confirm([a!], v)).statusCode).toBe(200);
    const reused = await confirm([b!], { ...v });
    expect(body(reused).message).toBe('payout.code_used');

    const late = await code([b!.id]);
    t.app.ctx.now = at('2025-04-20T09:10:01Z');
    const expired = await confirm([b!], late);
    expect(body(expired).message).toBe('payout.code_expired');
    t.app.ctx.now = at('2025-04-20T09:00:00Z');
    expect((await get(b!.id)).payout.state).toBe('pending');

    // Five wrong tries end a code.
    const tries = await code([b!.id]);
    for (let i = 0; i < 5; i++) await confirm([b!], { ...tries, code: String((Number(tries.code) + 1 + i) % 1_000_000).padStart(6, '0') });
    expect(body(await confirm([b!], tries)).message).toBe('payout.code_expired');
  });

  it('skips payouts under the minimum or without valid billing info, saying why', async () => {
    const [victim] = await confirmable(1);
    await query(db(), `UPDATE publishers SET company_id = NULL WHERE id = $1`, [victim!.id_user]);
    const all = (await list('&state=pending')).rows;
    const noInfo = all.find((p) => p.id === victim!.id)!;
    expect(noInfo.blockers).toEqual(expect.arrayContaining(['payout.iban_missing', 'payout.tax_id_missing']));
    const small = all.find((p) => p.blockers.length === 0 && p.alerts.length === 0)!;
    await query(db(), `UPDATE payouts SET min_payout = payout WHERE id = $1`, [small.id]);
    const fresh = (await get(small.id)).payout;
    expect(fresh.blockers).toContain('payout.below_minimum');
    const res = await confirm([noInfo, fresh], await code([noInfo.id, fresh.id]));
    expect(res.statusCode, res.body).toBe(200);
    const run = body<PayoutRun>(res).data;
    expect(run.applied).toBe(0);
    expect(Object.fromEntries(run.results.map((r) => [r.id, r.reason]))).toEqual({ [noInfo.id]: 'payout.iban_missing', [fresh.id]: 'payout.below_minimum' });
  });

  it('raises over-revenue and over-percentage alerts (thresholds are settings); confirming them needs acknowledging', async () => {
    const [p] = await confirmable(1);
    // Over percentage: the share under what the month earned by more than 5 points.
    await query(db(), `UPDATE payouts SET share_pct = 10, version = version + 1 WHERE id = $1`, [p!.id]);
    let dto = (await get(p!.id)).payout;
    expect(dto.alerts).toEqual(['over_share']);
    const refused = await confirm([dto], await code([dto.id]));
    expect(refused.statusCode).toBe(422);
    expect(body(refused).message).toBe('payout.alerts_unacknowledged');
    expect((await get(p!.id)).payout.state).toBe('pending');
    // Over revenue: an adjustment taking the payout over the revenue.
    const over = (Number(dto.revenue_gross) - Number(dto.new_revenue) + 1).toFixed(2);
    const patched = await t.app.inject({ method: 'PATCH', url: `/v1/payouts/ssp/${dto.id}`, headers: finance, payload: { version: dto.version, adjustment: over, comments: 'Bonus agreed' } });
    expect(patched.statusCode, patched.body).toBe(200);
    dto = body<PayoutDto>(patched).data;
    expect(dto.alerts).toEqual(['over_revenue', 'over_share']);
    // A stale version is a 409.
    const stale = await t.app.inject({ method: 'PATCH', url: `/v1/payouts/ssp/${dto.id}`, headers: finance, payload: { version: dto.version - 1, adjustment: '0' } });
    expect(stale.statusCode).toBe(409);
    // The list's alert filter agrees with core's rule on every payout of the month.
    const month = await list('');
    const flagged = new Set((await list('&alerts=true')).rows.map((r) => r.id));
    for (const r of month.rows) expect(flagged.has(r.id), `payout ${r.id}`).toBe(payoutAlerts(r, month.settings).length > 0);
    expect(month.totals.alerts).toBe(flagged.size);
    // Thresholds: 200% over revenue and 90 points take the alerts away.
    const set = await t.app.inject({ method: 'PUT', url: '/v1/payouts/settings', headers: finance, payload: { over_revenue_pct: '200', over_share_points: '90' } });
    expect(set.statusCode, set.body).toBe(200);
    expect((await get(dto.id)).payout.alerts).toEqual([]);
    await t.app.inject({ method: 'PUT', url: '/v1/payouts/settings', headers: finance, payload: { over_revenue_pct: '0', over_share_points: '5' } });
    const ok = await confirm([dto], await code([dto.id]), { acknowledge_alerts: true });
    expect(body<PayoutRun>(ok).data.applied).toBe(1);
  });

  it('approves each payout once under 20 concurrent requests; no rollback after approval; the same click is the same run', async () => {
    const rows = await confirmable(5);
    const c = await confirm(rows, await code(rows.map((r) => r.id)));
    expect(body<PayoutRun>(c).data.applied).toBe(5);
    const confirmed = await Promise.all(rows.map(async (r) => (await get(r.id)).payout));
    const answers = await Promise.all(Array.from({ length: 20 }, () => act('approve', confirmed.map(ref))));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    expect(answers.reduce((s, a) => s + body<PayoutRun>(a).data.applied, 0)).toBe(5);
    const audits = await query<{ id: string; n: number }>(db(), `SELECT entity_id AS id, count(*)::int AS n FROM audit_log WHERE entity = 'payouts' AND action = 'payout.approve' AND entity_id = ANY($1::text[]) GROUP BY entity_id`, [rows.map((r) => String(r.id))]);
    expect(audits.map((a) => Number(a.n))).toEqual([1, 1, 1, 1, 1]);
    const approved = await Promise.all(rows.map(async (r) => (await get(r.id)).payout));
    expect(approved.every((p) => p.state === 'approved' && p.actions.join() === 'pay')).toBe(true);
    for (const action of ['unconfirm', 'hold']) {
      const res = await act(action, approved.map(ref), { reason: 'Trying to go back now' });
      expect(body<PayoutRun>(res).data.results.every((r) => !r.ok && r.reason === 'payout.skip.state')).toBe(true);
    }
    // One idempotency key, two requests: one run.
    const k = key();
    const [x, y] = await Promise.all([1, 2].map(() => t.app.inject({ method: 'POST', url: '/v1/payouts/ssp/actions', headers: finance, payload: { action: 'approve', rows: approved.map(ref), idempotency_key: k } })));
    expect(body<PayoutRun>(x!).data.id).toBe(body<PayoutRun>(y!).data.id);
  });

  it('marks approved payouts paid (date and bank reference), by hand and by a payment CSV', async () => {
    const approved = (await list('&state=approved')).rows;
    expect(approved.length).toBeGreaterThanOrEqual(3);
    const [first, ...rest] = approved;
    const future = await act('pay', [ref(first!)], { paid_on: '2025-05-01', bank_reference: 'TRF-1' });
    expect(body(future).message).toBe('payout.date_future');
    const missing = await act('pay', [ref(first!)], { paid_on: '2025-04-18' });
    expect(body(missing).errors?.bank_reference).toBe('payout.bank_reference_required');
    const paid = await act('pay', [ref(first!)], { paid_on: '2025-04-18', bank_reference: 'TRF-2025-04-18-001' });
    expect(body<PayoutRun>(paid).data.applied).toBe(1);
    expect((await get(first!.id)).payout).toMatchObject({ state: 'paid', paid_on: '2025-04-18', bank_reference: 'TRF-2025-04-18-001', actions: [] });

    const csv = [
      'Fecha;Importe;Concepto',
      `19/04/2025;${rest[0]!.payout.replace('.', ',')};Transferencia PO-${rest[0]!.id} pago editor`,
      `19/04/2025;${rest[1]!.payout};PO-${rest[1]!.id}`,
      `19/04/2025;1,00;PO-${first!.id}`,
      `19/04/2025;5,00;PO-999999`,
      `19/04/2025;5,00;Sin referencia`,
      `xx;5,00;PO-${rest[0]!.id}`,
    ].join('\n');
    const preview = await t.app.inject({ method: 'POST', url: '/v1/payouts/ssp/payments/import', headers: finance, payload: { csv, dry_run: true } });
    const p = body<PayoutImportAnswer>(preview).data;
    expect([p.matched, p.duplicate, p.unmatched, p.invalid]).toEqual([2, 1, 2, 1]);
    expect(p.lines.map((l) => l.reason ?? l.status)).toEqual(['matched', 'matched', 'payout.import.already_paid', 'payout.import.unknown', 'payout.import.no_reference', 'billing.bank.bad_date']);
    expect((await get(rest[0]!.id)).payout.state).toBe('approved');
    const applied = body<PayoutImportAnswer>(await t.app.inject({ method: 'POST', url: '/v1/payouts/ssp/payments/import', headers: finance, payload: { csv, dry_run: false } })).data;
    expect(applied.matched).toBe(2);
    expect((await get(rest[1]!.id)).payout).toMatchObject({ state: 'paid', paid_on: '2025-04-19', bank_reference: `PO-${rest[1]!.id}` });
    const again = body<PayoutImportAnswer>(await t.app.inject({ method: 'POST', url: '/v1/payouts/ssp/payments/import', headers: finance, payload: { csv, dry_run: true } })).data;
    expect(again.matched).toBe(0);
    expect(again.duplicate).toBe(3);
  });

  it('writes a SEPA credit transfer of approved EUR payouts, valid against pain.001.001.03.xsd', async () => {
    const rows = await confirmable(3);
    await confirm(rows, await code(rows.map((r) => r.id)));
    await act('approve', (await Promise.all(rows.map(async (r) => (await get(r.id)).payout))).map(ref));
    const pending = (await list('&state=pending')).rows[0]!;
    const refused = await t.app.inject({ method: 'POST', url: '/v1/payouts/ssp/sepa', headers: finance, payload: { ids: [rows[0]!.id, pending.id], execution_date: '2025-04-22' } });
    expect(refused.statusCode).toBe(422);
    expect(body<unknown>(refused).data).toEqual([{ id: pending.id, reason: 'payout.sepa.not_approved' }]);
    const past = await t.app.inject({ method: 'POST', url: '/v1/payouts/ssp/sepa', headers: finance, payload: { ids: [rows[0]!.id], execution_date: '2025-04-01' } });
    expect(body(past).message).toBe('payout.sepa.date_past');

    const res = await t.app.inject({ method: 'POST', url: '/v1/payouts/ssp/sepa', headers: finance, payload: { ids: rows.map((r) => r.id), execution_date: '2025-04-22' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    const xml = res.body;
    const result = await validateXML({ xml: [{ fileName: 'payouts.xml', contents: xml }], schema: [{ fileName: 'pain.001.001.03.xsd', contents: fs.readFileSync(SEPA_XSD, 'utf8') }] });
    expect(result.errors, JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    const total = rows.reduce((s, r) => s + Math.round(Number(r.payout) * 100), 0);
    expect(xml).toContain(`<NbOfTxs>3</NbOfTxs>`);
    expect(xml).toContain(`<CtrlSum>${(total / 100).toFixed(2)}</CtrlSum>`);
    for (const r of rows) expect(xml).toContain(`<EndToEndId>PO-${r.id}</EndToEndId>`);
    expect((await get(rows[0]!.id)).payout.sepa_message_id).toMatch(/^POS\d{14}[0-9A-F]{8}$/);
  });

  it("carries a month under the publisher's minimum into the next month's payout", async () => {
    const feb = body<PayoutListAnswer>(await t.app.inject({ url: `/v1/payouts/ssp?month=${PREVIOUS}&state=pending&page_size=5&sort=payout`, headers: finance })).data.rows;
    const small = feb.find((p) => Number(p.payout) > 0)!;
    await query(db(), `UPDATE payouts SET min_payout = payout + 1 WHERE id = $1`, [small.id]);
    const marchBefore = (await list('')).rows.find((p) => p.id_user === small.id_user)!;
    const res = await t.app.inject({ method: 'POST', url: '/v1/payouts/ssp/compute', headers: finance, payload: { month: MONTH } });
    expect(body<{ carried: number }>(res).data.carried).toBe(1);
    const carried = (await t.app.inject({ url: `/v1/payouts/ssp/${small.id}`, headers: finance })).json().data.payout as PayoutDto;
    expect(carried.state).toBe('carried');
    expect(carried.carried_into).toBe(marchBefore.id);
    const march = (await get(marchBefore.id)).payout;
    expect(march.carried_in).toBe(small.payout);
    expect(march.carried_from).toEqual([{ id: small.id, month: PREVIOUS, amount: small.payout }]);
    expect(march.from_date).toBe(small.from_date);
    expect((Number(march.new_revenue) + Number(march.carried_in) + Number(march.adjustment)).toFixed(2)).toBe(march.payout);
  });

  it('renders the statement PDF (the same bytes each time) and exports the list', async () => {
    const [p] = (await list('&sort=-payout')).rows;
    const a = await t.app.inject({ url: `/v1/payouts/ssp/${p!.id}/statement.pdf`, headers: finance });
    expect(a.statusCode, a.body).toBe(200);
    expect(a.headers['content-type']).toBe('application/pdf');
    expect(a.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const b = await t.app.inject({ url: `/v1/payouts/ssp/${p!.id}/statement.pdf`, headers: finance });
    expect(b.rawPayload.equals(a.rawPayload)).toBe(true);
    const csv = await t.app.inject({ url: `/v1/payouts/ssp/export?month=${MONTH}&format=csv`, headers: { ...finance, 'accept-language': 'es' } });
    expect(csv.statusCode).toBe(200);
    const [header, ...lines] = csv.body.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(header).toContain('Ingresos brutos');
    expect(lines.length).toBe((await list('')).total);
  });

  it('enforces the ACL: read-only roles see but cannot change; bad queries are 400', async () => {
    const seen = await t.app.inject({ url: `/v1/payouts/ssp?month=${MONTH}`, headers: sspHead });
    expect(seen.statusCode).toBe(200);
    const [p] = body<PayoutListAnswer>(seen).data.rows;
    expect(p!.actions).toEqual([]);
    for (const req of [
      { method: 'POST' as const, url: '/v1/payouts/ssp/verification', payload: { ids: [p!.id] } },
      { method: 'POST' as const, url: '/v1/payouts/ssp/actions', payload: { action: 'approve', rows: [ref(p!)], idempotency_key: key() } },
      { method: 'POST' as const, url: '/v1/payouts/ssp/compute', payload: { month: MONTH } },
      { method: 'PUT' as const, url: '/v1/payouts/settings', payload: { over_revenue_pct: '1', over_share_points: '1' } },
    ]) {
      expect((await t.app.inject({ ...req, headers: sspHead })).statusCode, req.url).toBe(403);
    }
    const marketing = (await signIn(t.app, DEMO.marketing)).headers;
    expect((await t.app.inject({ url: `/v1/payouts/ssp?month=${MONTH}`, headers: marketing })).statusCode).toBe(403);
    const bad = await t.app.inject({ url: '/v1/payouts/ssp?month=2025-13', headers: finance });
    expect(bad.statusCode).toBe(400);
    expect(body(bad).errors?.month).toBe('payout.month_invalid');
  });
});
