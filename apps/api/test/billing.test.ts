/**
 * Billing rows (issue 21) through the HTTP API: a month computed from the warehouse equals the raw
 * hourly fact; the payment badge table of spec section 4; the 20% margin flag; 20 concurrent
 * approvals of the same rows approve each once; nothing leaves approved; accumulate and its carry
 * into next month; netting and undo; payments and the bank CSV; the reconciliation's explanation;
 * exchange rates and EUR totals; export; the ACL.
 */
import { fromMicros, paymentBadge, toMicros } from '@backoffice/core/billing';
import type { BankImportAnswer, BillingActionRun, BillingListAnswer, BillingRowDto, ReconciliationAnswer } from '@backoffice/core/billing-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankAmount } from '../src/modules/billing/payments.ts';
import { loadTestDataset } from '../src/reports-data/index.ts';
import { query } from '../src/reports-data/sql.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';
import { DEMO } from './auth-support.ts';

/** 45 days ending 10 April 2025 14:00 UTC: all of March 2025. */
const END = Date.UTC(2025, 3, 10, 14);
const DATA = { endMs: END, days: 45, scale: 0.15, qpsDays: 0, seed: 11 };
const MONTH = '2025-03';

type Headers = { authorization: string };
let keySeq = 0;
const key = () => `test-key-${process.pid}-${++keySeq}-${Math.random().toString(36).slice(2, 8)}`;

describe('billing rows', () => {
  let t: TestApp;
  let admin: Headers;
  let finance: Headers;
  let sspLead: Headers;

  const db = () => t.app.ctx.database;
  const list = async (qs: string, headers: Headers = finance) => {
    const res = await t.app.inject({ url: `/v1/billing/ssp/rows?${qs}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return body<BillingListAnswer>(res).data;
  };
  const rowsOf = async (qs = '') => (await list(`month=${MONTH}&page_size=500${qs}`)).rows;
  const getRow = async (id: number) => {
    const res = await t.app.inject({ url: `/v1/billing/ssp/rows/${id}`, headers: finance });
    expect(res.statusCode, res.body).toBe(200);
    return body<{ row: BillingRowDto; payments: unknown[]; history: { action: string }[] }>(res).data;
  };
  const act = (action: string, rows: { id: number; version: number }[], extra: Record<string, unknown> = {}, headers: Headers = finance) =>
    t.app.inject({ method: 'POST', url: '/v1/billing/ssp/actions', headers, payload: { action, rows, idempotency_key: key(), ...extra } });
  const ref = (r: BillingRowDto) => ({ id: r.id, version: r.version });
  const openRows = async (n: number, where = '') =>
    (await rowsOf(`&state=open${where}`)).filter((r) => r.netting_id === null).slice(0, n);

  beforeAll(async () => {
    t = await createTestApp();
    await loadTestDataset(db(), DATA);
    admin = (await signIn(t.app, DEMO.admin)).headers;
    finance = (await signIn(t.app, DEMO.finance)).headers;
    sspLead = (await signIn(t.app, DEMO.sspLead)).headers;
    const res = await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/compute', headers: finance, payload: { month: MONTH } });
    expect(res.statusCode, res.body).toBe(200);
  }, 240_000);
  afterAll(async () => t?.close());

  it("computes the month from the warehouse: each partner's rows sum to the raw hourly fact, to the micro-unit", async () => {
    const raw = await query<{ id: number; rev: string; cost: string }>(
      db(),
      `SELECT demand_partner_id AS id, sum(revenue_micros)::text AS rev, sum(cost_micros)::text AS cost FROM stats_hourly
       WHERE ts >= '2025-03-01T00:00:00Z' AND ts < '2025-04-01T00:00:00Z' GROUP BY demand_partner_id`,
    );
    const rows = await rowsOf();
    expect(rows.length).toBeGreaterThan(10);
    const ours = new Map<number, { rev: bigint; cost: bigint }>();
    for (const r of rows) {
      const s = ours.get(r.counterparty.id) ?? { rev: 0n, cost: 0n };
      s.rev += toMicros(r.revenue_ours);
      s.cost += toMicros(r.other_side);
      ours.set(r.counterparty.id, s);
    }
    for (const r of raw) {
      if (r.rev === '0' && r.cost === '0') continue;
      expect(ours.get(Number(r.id)), `partner ${r.id}`).toEqual({ rev: BigInt(r.rev), cost: BigInt(r.cost) });
    }
    // Supply rows: each publisher's cost.
    const supply = (await list(`month=${MONTH}&kind=supply&page_size=500`)).rows;
    const rawPub = await query<{ id: number; cost: string }>(
      db(),
      `SELECT publisher_id AS id, sum(cost_micros)::text AS cost FROM stats_hourly
       WHERE ts >= '2025-03-01T00:00:00Z' AND ts < '2025-04-01T00:00:00Z' GROUP BY publisher_id HAVING sum(cost_micros) > 0`,
    );
    const pubCost = new Map<number, bigint>();
    for (const r of supply) pubCost.set(r.counterparty.id, (pubCost.get(r.counterparty.id) ?? 0n) + toMicros(r.revenue_ours));
    for (const r of rawPub) expect(pubCost.get(Number(r.id)), `publisher ${r.id}`).toBe(BigInt(r.cost));
    // The totals are the rows' sums; every row is open and names its counterparty.
    const answer = await list(`month=${MONTH}&page_size=5`);
    expect(answer.total).toBe(rows.length);
    expect(answer.totals.by_currency).toHaveLength(1);
    expect(answer.totals.by_currency[0]!.revenue_gross).toBe(fromMicros(rows.reduce((s, r) => s + toMicros(r.revenue_gross), 0n)));
    expect(answer.rows).toHaveLength(5);
    expect(answer.totals.states.open).toBe(rows.length);
  });

  it('recomputing is idempotent: same figures, same versions', async () => {
    const before = await rowsOf();
    const res = await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/compute', headers: finance, payload: { month: MONTH } });
    expect(body<{ advertiser: { inserted: number; updated: number } }>(res).data.advertiser.inserted).toBe(0);
    const after = await rowsOf();
    expect(after.map((r) => [r.id, r.version, r.revenue_ours])).toEqual(before.map((r) => [r.id, r.version, r.revenue_ours]));
    // A future month is refused.
    const future = await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/compute', headers: finance, payload: { month: '2999-01' } });
    expect(future.statusCode).toBe(400);
    expect(body(future).errors?.month).toBe('billing.month_future');
  });

  it('shows the payment badge of spec section 4 (the API, core and the badge filter agree)', async () => {
    const rows = (await rowsOf()).slice(-8);
    const cases: { gross: string; paid: string; date: string | null; charged: boolean; badge: string }[] = [
      { gross: '100.00', paid: '0.00', date: null, charged: false, badge: 'no_paid' },
      { gross: '100.00', paid: '40.00', date: null, charged: false, badge: 'some_paid' },
      { gross: '100.00', paid: '100.00', date: null, charged: false, badge: 'full_paid' },
      { gross: '100.00', paid: '40.00', date: '2025-05-02', charged: false, badge: 'full_paid' },
      { gross: '0.00', paid: '0.00', date: null, charged: false, badge: 'full_paid' },
      { gross: '100.00', paid: '0.00', date: null, charged: true, badge: 'charged' },
      { gross: '100.00', paid: '40.00', date: null, charged: true, badge: 'charged' },
      { gross: '100.00', paid: '100.00', date: null, charged: true, badge: 'full_paid' },
    ];
    for (const [i, c] of cases.entries())
      await query(
        db(),
        `UPDATE billing_rows SET revenue_ours = $2::numeric, revenue_network = NULL, carried_in = 0, paid_revenue = $3::numeric, received_payment_date = $4::date, charged = $5 WHERE id = $1`,
        [rows[i]!.id, c.gross, c.paid, c.date, c.charged],
      );
    const ids = rows.map((r) => r.id).join(',');
    for (const [i, c] of cases.entries()) {
      const row = (await getRow(rows[i]!.id)).row;
      expect(row.badge, JSON.stringify(c)).toBe(c.badge);
      expect(paymentBadge({ gross: c.gross, paid: c.paid, receivedPaymentDate: c.date, charged: c.charged })).toBe(c.badge);
    }
    for (const badge of ['no_paid', 'some_paid', 'full_paid', 'charged']) {
      const found = (await list(`month=${MONTH}&page_size=500&counterparty=${[...new Set(rows.map((r) => r.counterparty.id))].join(',')}&badge=${badge}`)).rows
        .filter((r) => ids.split(',').includes(String(r.id)))
        .map((r) => r.id);
      expect(found.sort(), badge).toEqual(cases.flatMap((c, i) => (c.badge === badge ? [rows[i]!.id] : [])).sort());
    }
  });

  it('asks for the explicit flag to confirm under 20% margin, and refuses nothing else', async () => {
    const [row] = await openRows(1, '&sort=-revenue_gross');
    // A revenue network just over the row's cost: about 5% margin.
    const network = fromMicros((toMicros(row!.other_side) * 105n) / 100n);
    const patched = await t.app.inject({ method: 'PATCH', url: `/v1/billing/ssp/rows/${row!.id}`, headers: finance, payload: { version: row!.version, revenue_network: network } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(body(patched).message).toBe('billing.saved_low_margin');
    const edited = body<BillingRowDto>(patched).data;
    expect(edited.low_margin).toBe(true);
    expect(edited.revenue_gross).toBe(network);
    const refused = await act('confirm', [ref(edited)]);
    expect(refused.statusCode).toBe(422);
    expect(body(refused).message).toBe('billing.low_margin');
    expect(body<{ rows: { id: number; margin_pct: string }[] }>(refused).data.rows.map((r) => r.id)).toEqual([edited.id]);
    expect((await getRow(edited.id)).row.state).toBe('open');
    const done = await act('confirm', [ref(edited)], { confirm_low_margin: true });
    expect(done.statusCode, done.body).toBe(200);
    expect(body<BillingActionRun>(done).data).toMatchObject({ status: 'done', applied: 1, skipped: 0 });
    const confirmed = (await getRow(edited.id)).row;
    expect(confirmed).toMatchObject({ state: 'confirmed', confirmed_by: 'Javier Morales' });
    // A row with a healthy margin confirms without the flag.
    const [healthy] = (await openRows(20)).filter((r) => !r.low_margin);
    expect((await act('confirm', [ref(healthy!)])).statusCode).toBe(200);
  });

  it('approves each row once under 20 concurrent approvals; a retried key answers the same run', async () => {
    const rows = await openRows(12);
    const confirmed = body<BillingActionRun>(await act('confirm', rows.map(ref), { confirm_low_margin: true })).data;
    expect(confirmed.applied).toBe(12);
    const fresh = (await rowsOf()).filter((r) => rows.some((x) => x.id === r.id));
    const answers = await Promise.all(Array.from({ length: 20 }, () => act('approve', fresh.map(ref))));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const runs = answers.map((a) => body<BillingActionRun>(a).data);
    expect(runs.reduce((s, r) => s + r.applied, 0)).toBe(12);
    for (const r of runs) for (const x of r.results) if (!x.ok) expect(x.reason).toBe('billing.skip.already');
    const audit = await query<{ entity_id: string; n: number }>(
      db(),
      `SELECT entity_id, count(*)::int AS n FROM audit_log WHERE action = 'billing_rows.approve' AND entity_id = ANY($1::text[]) GROUP BY entity_id`,
      [rows.map((r) => String(r.id))],
    );
    expect(audit).toHaveLength(12);
    for (const a of audit) expect(a.n).toBe(1);
    // The same key twice (a retried request): the same run, nothing done again.
    const k = key();
    const again = await Promise.all([1, 2].map(() => t.app.inject({ method: 'POST', url: '/v1/billing/ssp/actions', headers: finance, payload: { action: 'approve', rows: fresh.map(ref), idempotency_key: k } })));
    expect(body<BillingActionRun>(again[0]!).data.id).toBe(body<BillingActionRun>(again[1]!).data.id);
    expect(body<BillingActionRun>(again[0]!).data.applied).toBe(0);
  });

  it('never moves an approved row: every action is skipped as final, its figures are locked', async () => {
    const [approved] = await rowsOf('&state=approved');
    for (const action of ['disconfirm', 'discard', 'accumulate', 'confirm']) {
      const run = body<BillingActionRun>(await act(action, [ref(approved!)])).data;
      expect(run.results[0], action).toMatchObject({ ok: false, reason: 'billing.skip.final' });
    }
    const patch = await t.app.inject({ method: 'PATCH', url: `/v1/billing/ssp/rows/${approved!.id}`, headers: finance, payload: { version: approved!.version, revenue_network: '1.00' } });
    expect(patch.statusCode).toBe(400);
    expect(body(patch).message).toBe('billing.not_editable');
    expect((await getRow(approved!.id)).row.state).toBe('approved');
    // A document id can still be given (the invoice number).
    const doc = await t.app.inject({ method: 'PATCH', url: `/v1/billing/ssp/rows/${approved!.id}`, headers: finance, payload: { version: approved!.version, document_id: 'INV-2025-0001' } });
    expect(doc.statusCode, doc.body).toBe(200);
  });

  it('answers 409 for rows changed since they were shown; a disconfirmed row is open again', async () => {
    const [row] = await rowsOf('&state=confirmed');
    const stale = await act('approve', [{ id: row!.id, version: row!.version - 1 }]);
    expect(stale.statusCode).toBe(409);
    expect(body<{ ids: number[] }>(stale).data.ids).toEqual([row!.id]);
    const back = body<BillingActionRun>(await act('disconfirm', [ref(row!)])).data;
    expect(back.results[0]).toMatchObject({ ok: true, state: 'open' });
    const patchStale = await t.app.inject({ method: 'PATCH', url: `/v1/billing/ssp/rows/${row!.id}`, headers: finance, payload: { version: row!.version, description: 'x' } });
    expect(patchStale.statusCode).toBe(409);
    expect(body<BillingRowDto>(patchStale).data.state).toBe('open');
  });

  it("accumulates a row under its minimum into next month's row, which shows what it carries and from where", async () => {
    const [small, big] = (await openRows(60, '&sort=revenue_gross')).filter((r) => toMicros(r.revenue_ours) > 1_000_000_000n);
    await query(db(), `UPDATE billing_rows SET min_amount = revenue_gross + 1000 WHERE id = $1`, [small!.id]);
    const row = (await getRow(small!.id)).row;
    expect(row.below_minimum).toBe(true);
    expect(row.actions).toContain('accumulate');
    const run = body<BillingActionRun>(await act('accumulate', [ref(row), ref(big!)])).data;
    expect(run.results.find((r) => r.id === big!.id)).toMatchObject({ ok: false, reason: 'billing.skip.not_below_minimum' });
    expect(run.results.find((r) => r.id === row.id)).toMatchObject({ ok: true, state: 'accumulated' });
    const moved = (await getRow(row.id)).row;
    expect(moved.accumulated_into).not.toBeNull();
    const april = await t.app.inject({ url: `/v1/billing/ssp/rows/${moved.accumulated_into}`, headers: finance });
    const next = body<{ row: BillingRowDto }>(april).data.row;
    expect(next).toMatchObject({ month: '2025-04', product: row.product, carried_in: row.revenue_gross, state: 'open' });
    expect(next.counterparty.id).toBe(row.counterparty.id);
    expect(next.carried_from).toEqual([{ id: row.id, month: MONTH, amount: row.revenue_gross }]);
    // Computing April keeps the carry on top of April's own figure.
    await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/compute', headers: finance, payload: { month: '2025-04' } });
    const computed = body<{ row: BillingRowDto }>(await t.app.inject({ url: `/v1/billing/ssp/rows/${next.id}`, headers: finance })).data.row;
    expect(computed.carried_in).toBe(row.revenue_gross);
    expect(toMicros(computed.revenue_gross)).toBe(toMicros(fromMicros(toMicros(computed.revenue_ours) + toMicros(row.revenue_gross))));
  });

  it('nets a company on both sides into one amount and undoes it while nothing is approved', async () => {
    const [partnerRow] = await openRows(1);
    const [company] = await query<{ id: number }>(db(), `INSERT INTO companies (legal_name, country, tax_id, address, city, postal_code, billing_email, currency)
      VALUES ('Doble Vía Media S.L.', 'ES', 'B12345674', 'Calle Mayor 1', 'Madrid', '28013', 'billing@doblevia.example', 'EUR') RETURNING id`);
    await query(db(), 'UPDATE demand_partners SET company_id = $1 WHERE id = $2', [company!.id, partnerRow!.counterparty.id]);
    const [pubRow] = (await list(`month=${MONTH}&kind=supply&state=open&page_size=1`)).rows;
    await query(db(), 'UPDATE publishers SET company_id = $1 WHERE id = $2', [company!.id, pubRow!.counterparty.id]);

    const n0 = body<{ candidates: { company_id: number; receivable: string; payable: string; net: string; receivable_row_ids: number[] }[] }>(
      await t.app.inject({ url: `/v1/billing/ssp/nettings?month=${MONTH}`, headers: finance }),
    ).data;
    const candidate = n0.candidates.find((c) => c.company_id === company!.id)!;
    expect(toMicros(candidate.net)).toBe(toMicros(candidate.receivable) - toMicros(candidate.payable));

    const created = await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/nettings', headers: finance, payload: { month: MONTH, company_id: company!.id } });
    expect(created.statusCode, created.body).toBe(201);
    const netting = body<{ id: number; net: string; receivable_row_ids: number[]; payable_row_ids: number[]; can_undo: boolean }>(created).data;
    expect(netting).toMatchObject({ net: candidate.net, can_undo: true });
    const netted = (await getRow(partnerRow!.id)).row;
    expect(netted.netting_id).toBe(netting.id);
    expect(netted.actions).not.toContain('discard');
    const discard = body<BillingActionRun>(await act('discard', [ref(netted)])).data;
    expect(discard.results[0]).toMatchObject({ ok: false, reason: 'billing.skip.netted' });
    // Netting twice: nothing left to net.
    const twice = await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/nettings', headers: finance, payload: { month: MONTH, company_id: company!.id } });
    expect(body(twice).message).toBe('billing.netting.nothing');

    const undo = await t.app.inject({ method: 'POST', url: `/v1/billing/ssp/nettings/${netting.id}/undo`, headers: finance });
    expect(undo.statusCode, undo.body).toBe(200);
    expect((await getRow(partnerRow!.id)).row.netting_id).toBeNull();
    expect((await t.app.inject({ method: 'POST', url: `/v1/billing/ssp/nettings/${netting.id}/undo`, headers: finance })).statusCode).toBe(409);

    // Netted again, one row approved: no undo.
    const again = body<{ id: number }>(await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/nettings', headers: finance, payload: { month: MONTH, company_id: company!.id } })).data;
    const row = (await getRow(partnerRow!.id)).row;
    await act('confirm', [ref(row)], { confirm_low_margin: true });
    await act('approve', [ref((await getRow(partnerRow!.id)).row)]);
    const refused = await t.app.inject({ method: 'POST', url: `/v1/billing/ssp/nettings/${again.id}/undo`, headers: finance });
    expect(refused.statusCode).toBe(400);
    expect(body(refused).message).toBe('billing.netting.approved');
  });

  it('records payments: the badge follows, overpaying and paying an open row are refused', async () => {
    const [open] = await openRows(1);
    const early = await t.app.inject({ method: 'POST', url: `/v1/billing/ssp/rows/${open!.id}/payments`, headers: finance, payload: { amount: '10.00', paid_on: '2025-04-20', version: open!.version } });
    expect(body(early).message).toBe('billing.payment_not_billed');
    const [row] = (await rowsOf('&state=approved&badge=no_paid')).filter((r) => toMicros(r.revenue_gross) > 100_000_000n);
    const third = fromMicros(toMicros(row!.revenue_gross) / 3n);
    const pay = (amount: string, version: number, extra: Record<string, unknown> = {}) =>
      t.app.inject({ method: 'POST', url: `/v1/billing/ssp/rows/${row!.id}/payments`, headers: finance, payload: { amount, paid_on: '2025-05-10', version, reference: 'SEPA', ...extra } });
    const first = await pay(third, row!.version);
    expect(first.statusCode, first.body).toBe(201);
    const partly = body<BillingRowDto>(first).data;
    expect(partly).toMatchObject({ badge: 'some_paid', paid_revenue: third, received_payment_date: null });
    expect(body(await pay(row!.revenue_gross, partly.version)).message).toBe('billing.payment_exceeds');
    expect((await pay('1.00', row!.version)).statusCode).toBe(409);
    const bad = await pay('-3', partly.version, { paid_on: '2025-13-01' });
    expect(bad.statusCode).toBe(400);
    expect(body(bad).errors).toMatchObject({ amount: 'billing.amount_invalid', paid_on: 'billing.date_invalid' });
    const rest = fromMicros(toMicros(row!.revenue_gross) - toMicros(third));
    const full = body<BillingRowDto>(await pay(rest, partly.version)).data;
    expect(full).toMatchObject({ badge: 'full_paid', pending: '0.00', received_payment_date: '2025-05-10' });
    expect((await getRow(row!.id)).payments).toHaveLength(2);
  });

  it('reads a bank CSV: matched on document id, unmatched, invalid and duplicate lines in the preview; applying records the matched', async () => {
    const [a, b] = (await rowsOf('&state=approved&badge=no_paid')).filter((r) => toMicros(r.revenue_gross) > 1_000_000n);
    for (const [i, r] of [a!, b!].entries()) await query(db(), 'UPDATE billing_rows SET document_id = $2 WHERE id = $1', [r.id, `INV-2025-03${i}7`]);
    const comma = (v: string) => v.replace('.', ',');
    const csv = [
      'Fecha;Concepto;Importe',
      `02/05/2025;TRANSFER INV-2025-0307 ${a!.counterparty.name};${comma(a!.revenue_gross)}`,
      `03/05/2025;Pago factura inv-2025-0317;${comma(fromMicros(toMicros(b!.revenue_gross) / 2n))}`,
      '04/05/2025;Unknown customer REF-99999;1.234,56',
      'not a date;INV-2025-0307;10,00',
    ].join('\n');
    const preview = await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/payments/import', headers: finance, payload: { csv, dry_run: true } });
    expect(preview.statusCode, preview.body).toBe(200);
    const p = body<BankImportAnswer>(preview).data;
    expect(p).toMatchObject({ delimiter: ';', matched: 2, unmatched: 1, invalid: 1, duplicate: 0, applied: false });
    expect(p.lines[0]).toMatchObject({ line: 2, status: 'matched', row_id: a!.id, document_id: 'INV-2025-0307', date: '2025-05-02', amount: a!.revenue_gross });
    expect(p.lines[2]).toMatchObject({ status: 'unmatched', reason: 'billing.bank.no_document' });
    expect(p.lines[3]).toMatchObject({ status: 'invalid', reason: 'billing.bank.bad_date' });
    expect((await getRow(a!.id)).row.badge).toBe('no_paid');
    const applied = body<BankImportAnswer>(await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/payments/import', headers: finance, payload: { csv, dry_run: false } })).data;
    expect(applied).toMatchObject({ matched: 2, applied: true });
    expect((await getRow(a!.id)).row.badge).toBe('full_paid');
    expect((await getRow(b!.id)).row.badge).toBe('some_paid');
    // The same statement again: every line already recorded.
    const again = body<BankImportAnswer>(await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/payments/import', headers: finance, payload: { csv, dry_run: true } })).data;
    expect(again).toMatchObject({ matched: 0, duplicate: 2 });
    // Amounts as banks write them, whatever the file's delimiter.
    for (const [text, want] of [['1000.00', '1000.00'], ['1.234,56', '1234.56'], ['1,234.56', '1234.56'], ['1234,5', '1234.50'], ['1,234', '1234.00'], ['€ 12', '12.00'], ['-5', null], ['0,00', null], ['abc', null]] as const)
      expect(bankAmount(text), text).toBe(want);
    const noColumns = await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/payments/import', headers: finance, payload: { csv: 'a,b\n1,2', dry_run: true } });
    expect(body(noColumns).message).toBe('billing.bank.columns');
  });

  it('reconciles the month with the warehouse: every difference is explained to the cent', async () => {
    const [d] = await openRows(1);
    await act('discard', [ref(d!)]);
    const res = await t.app.inject({ url: `/v1/billing/ssp/reconciliation?month=${MONTH}`, headers: finance });
    const r = body<ReconciliationAnswer>(res).data;
    expect(r.lines.length).toBeGreaterThan(5);
    const parts = (e: ReconciliationAnswer['lines'][number]['explained']) => Object.values(e).reduce((s, v) => s + toMicros(v), 0n);
    let edited = false;
    for (const line of r.lines) {
      expect(fromMicros(parts(line.explained)), line.counterparty.name).toBe(line.difference);
      if (toMicros(line.explained.network_edits) !== 0n) edited = true;
    }
    expect(edited).toBe(true);
    expect(r.lines.some((l) => toMicros(l.explained.discarded) < 0n)).toBe(true);
    expect(r.lines.some((l) => toMicros(l.explained.accumulated_out) < 0n)).toBe(true);
    expect(r.totals[0]!.currency).toBe('USD');
  });

  it('totals in EUR with the month rate; the ECB file gives monthly averages', async () => {
    const before = await list(`month=${MONTH}&page_size=1`);
    expect(before.totals.eur).toBeNull();
    expect(before.totals.missing_rates).toEqual(['USD']);
    const ecb = ['Date,USD,JPY,GBP,', '2025-03-31,1.0815,161.1,0.8364,', '2025-03-28,1.0800,162.0,0.8350,', '2025-02-28,1.0400,N/A,0.8270,'].join('\n');
    const imported = await t.app.inject({ method: 'POST', url: '/v1/billing/rates/import', headers: finance, payload: { csv: ecb } });
    expect(imported.statusCode, imported.body).toBe(200);
    const rates = body<{ months: string[]; rates: { month: string; currency: string; rate: string }[] }>(imported).data;
    expect(rates.months).toEqual(['2025-02', '2025-03']);
    expect(rates.rates).toContainEqual({ month: '2025-03', currency: 'USD', rate: '1.080750' });
    const after = await list(`month=${MONTH}&page_size=1`);
    const usd = after.totals.by_currency[0]!;
    expect(usd.rate).toBe('1.080750');
    const eur = (toMicros(usd.revenue_gross) * 1_000_000n * 2n + toMicros('1.080750')) / (toMicros('1.080750') * 2n);
    expect(after.totals.eur!.revenue_gross).toBe(fromMicros(eur));
    const manual = await t.app.inject({ method: 'PUT', url: '/v1/billing/rates', headers: finance, payload: { month: MONTH, currency: 'USD', rate: '0' } });
    expect(body(manual).errors?.rate).toBe('billing.rate_invalid');
    const set = await t.app.inject({ method: 'PUT', url: '/v1/billing/rates', headers: finance, payload: { month: MONTH, currency: 'USD', rate: '1.1' } });
    expect(set.statusCode).toBe(200);
    expect((await list(`month=${MONTH}&page_size=1`)).totals.by_currency[0]!.rate).toBe('1.100000');
  });

  it('exports the filtered rows as CSV with the spec file name', async () => {
    const res = await t.app.inject({ url: `/v1/billing/ssp/rows/export?month=${MONTH}&state=approved&format=csv`, headers: finance });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/billing_ssp_advertiser_\d{4}-\d{2}-\d{2}_\d{6}\.csv/);
    const lines = res.body.trim().split(/\r?\n/);
    expect(lines.length - 1).toBe((await list(`month=${MONTH}&state=approved&page_size=1`)).total);
    const empty = await t.app.inject({ url: `/v1/billing/ssp/rows/export?month=2024-01&format=csv`, headers: finance });
    expect(empty.statusCode).toBe(400);
  });

  it('refuses bad queries with field errors', async () => {
    for (const [qs, field, msg] of [
      ['month=2025-13', 'month', 'billing.month_invalid'],
      ['', 'month', 'error.required'],
      [`month=${MONTH}&state=lost`, 'state', 'error.invalid_value'],
      [`month=${MONTH}&sort=colour`, 'sort', 'resource.sort_unknown'],
      [`month=${MONTH}&page_size=100000`, 'page_size', 'resource.page_size_max'],
    ] as const) {
      const res = await t.app.inject({ url: `/v1/billing/ssp/rows?${qs}`, headers: finance });
      expect(res.statusCode, qs).toBe(400);
      expect(body(res).errors?.[field], qs).toBe(msg);
    }
    const none = await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/actions', headers: finance, payload: { action: 'approve', rows: [], idempotency_key: key() } });
    expect(none.statusCode).toBe(400);
    expect(body(none).errors?.rows).toBe('billing.none_selected');
  });

  it('enforces the ACL: read to see, write to change, approve to approve', async () => {
    // The SSP supply lead reads SSP billing only.
    expect((await t.app.inject({ url: `/v1/billing/ssp/rows?month=${MONTH}`, headers: sspLead })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/v1/billing/performance/rows?month=${MONTH}`, headers: sspLead })).statusCode).toBe(403);
    const [row] = await openRows(1);
    expect((await act('confirm', [ref(row!)], {}, sspLead)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PATCH', url: `/v1/billing/ssp/rows/${row!.id}`, headers: sspLead, payload: { version: row!.version, description: 'x' } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/compute', headers: sspLead, payload: { month: MONTH } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/v1/billing/ssp/nettings', headers: sspLead, payload: { month: MONTH, company_id: 1 } })).statusCode).toBe(403);
    // Write without approve: confirms, cannot approve; its rows do not offer approve.
    await query(db(), `UPDATE roles SET acl = acl || '{"/v1/billing/ssp": ["read", "write"]}'::jsonb WHERE name = 'SSP_SUPPLY_LEAD'`);
    const writer = (await signIn(t.app, DEMO.sspLead)).headers;
    const confirmed = await act('confirm', [ref(row!)], { confirm_low_margin: true }, writer);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const fresh = body<BillingListAnswer>(await t.app.inject({ url: `/v1/billing/ssp/rows?month=${MONTH}&state=confirmed&page_size=500`, headers: writer })).data.rows.find((r) => r.id === row!.id)!;
    expect(fresh.actions).not.toContain('approve');
    expect((await act('approve', [ref(fresh)], {}, writer)).statusCode).toBe(403);
    expect((await act('approve', [ref(fresh)], {}, admin)).statusCode).toBe(200);
    // Every change is audited with its actor.
    const [audit] = await query<{ n: number }>(db(), `SELECT count(*)::int AS n FROM audit_log WHERE entity = 'billing_rows' AND entity_id = $1 AND actor_id IS NOT NULL`, [String(row!.id)]);
    expect(audit!.n).toBeGreaterThanOrEqual(2);
  });
});

describe('performance billing', () => {
  let t: TestApp;
  let finance: Headers;

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.app.ctx.database;
    const [adv] = await query<{ id: number }>(db, `INSERT INTO demand_partners (name, side, type) VALUES ('Tramuntana Performance', 'performance', 'network') RETURNING id`);
    const pubs = await query<{ id: number }>(
      db,
      `INSERT INTO publishers (name, side, seller_id, min_payout, payment_terms) VALUES ('Ofertas Costa Brava', 'performance', 'perf-1', 50, 'net30'), ('Recetas de la Abuela', 'performance', 'perf-2', 50, 'net30') RETURNING id`,
    );
    // March: 31 days x 2 publishers x cpc; February's last day must not count.
    await query(
      db,
      `INSERT INTO performance_daily (day, advertiser_id, publisher_id, product, impressions, clicks, conversions, revenue_micros, cost_micros)
       SELECT d::date, $1, p, 'cpc', 10000, 100, 2, 45000000, 29250000 FROM generate_series('2025-02-28'::date, '2025-03-31'::date, '1 day') d, unnest($2::int4[]) p`,
      [adv!.id, pubs.map((p) => p.id)],
    );
    finance = (await signIn(t.app, DEMO.finance)).headers;
  }, 120_000);
  afterAll(async () => t?.close());

  it("computes what advertisers owe and what we owe publishers, and the month's overview", async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/billing/performance/compute', headers: finance, payload: { month: MONTH } });
    expect(res.statusCode, res.body).toBe(200);
    const adv = body<BillingListAnswer>(await t.app.inject({ url: `/v1/billing/performance/rows?month=${MONTH}`, headers: finance })).data;
    expect(adv.rows).toHaveLength(1);
    expect(adv.rows[0]).toMatchObject({ product: 'cpc', currency: 'EUR', revenue_ours: '2790.00', other_side: '1813.50', margin_pct: '35.00' });
    expect(adv.totals.eur).toEqual({ revenue_gross: '2790.00', paid_revenue: '0.00', pending: '2790.00' });
    const supply = body<BillingListAnswer>(await t.app.inject({ url: `/v1/billing/performance/rows?month=${MONTH}&kind=supply`, headers: finance })).data;
    expect(supply.rows.map((r) => r.revenue_ours)).toEqual(['906.75', '906.75']);
    expect(supply.rows[0]!.demand_partners).toBe('Tramuntana Performance');
    const overview = body<{ totals: { revenue: string; cost: string; margin: string; margin_pct: string }; states: { supply: { open: number } } }>(
      await t.app.inject({ url: `/v1/billing/performance/overview?month=${MONTH}`, headers: finance }),
    ).data;
    expect(overview.totals).toEqual({ revenue: '2790.00', cost: '1813.50', margin: '976.50', margin_pct: '35.00' });
    expect(overview.states.supply.open).toBe(2);
  });
});
