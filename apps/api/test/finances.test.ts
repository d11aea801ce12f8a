/**
 * Finance entries (`/v1/finances/{team}/entries`) through the HTTP API: every spec rule (valid user,
 * network, amount, item/type; comment at most 100 characters; period with start and end, start not
 * after end; the send-e-mail choice made) refused with its translated key and nothing stored; create
 * without and with e-mail (the message in the file outbox, in the counterparty's language, the
 * entry marked sent); the failure path (the transport fails: failed with its error, then resent);
 * edit with version (409); list filters, totals exact, paging, export; history; idempotency; ACL.
 */
import type { FinanceEntriesAnswer, FinanceEntry, FinanceHistoryEntry, FinanceOption } from '@backoffice/core/finances';
import { translate } from '@backoffice/core/i18n/catalogues';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies } from '../src/db/schema.ts';
import { demandPartners, publishers } from '../src/db/schema-reports.ts';
import { query } from '../src/reports-data/sql.ts';
import { readOutbox } from './dataviewer-schedules-mail.ts';
import { userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

const SUPPLY = '/v1/finances/supply/entries';
const DEMAND = '/v1/finances/demand/entries';

describe('finances', () => {
  let t: TestApp;
  let outbox: string;
  let finance: Record<string, string>;
  let readOnly: Record<string, string>;
  let pubEs: number;
  let pubNoMail: number;
  let network: number;
  let advertiser: number;
  const db = () => t.app.ctx.database;

  beforeAll(async () => {
    outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-fin-outbox-'));
    t = await createTestApp({ mailTransport: 'file', mailOutboxDir: outbox });
    finance = (await signIn(t.app, 'finance@adtech.example')).headers;
    readOnly = (await userWithAcl(t.app, 'fin.reader@adtech.example', { '/v1/finances': ['read'] })).headers;
    const [es, de] = await t.app.ctx.database.db
      .insert(companies)
      .values([
        { legalName: 'Ofertas Zeta SL', country: 'ES', taxId: 'B22222222', address: 'Calle 3', city: 'Girona', postalCode: '17001', billingEmail: 'facturas@ofertaszeta.example', currency: 'EUR' },
        { legalName: 'Zeta Demand GmbH', country: 'DE', taxId: '129273398', address: 'Str. 1', city: 'Berlin', postalCode: '10117', billingEmail: 'ar@zetademand.example', currency: 'EUR' },
      ])
      .returning({ id: companies.id });
    const pubs = await t.app.ctx.database.db
      .insert(publishers)
      .values([
        { name: 'Zeta Ofertas Publisher', side: 'performance', companyId: es!.id, billingEmail: 'pagos@ofertaszeta.example' },
        { name: 'Zeta Silent Publisher', side: 'ssp', companyId: null, billingEmail: null },
      ])
      .returning({ id: publishers.id });
    [pubEs, pubNoMail] = pubs.map((p) => p.id) as [number, number];
    const dps = await t.app.ctx.database.db
      .insert(demandPartners)
      .values([
        { name: 'Zeta Network DSP', side: 'ssp', companyId: de!.id, endpointUrl: 'https://net.zeta-fin.example/rtb' },
        { name: 'Zeta Advertiser', side: 'performance', companyId: de!.id, invoiceCurrency: 'USD', endpointUrl: 'https://adv.zeta-fin.example/rtb' },
      ])
      .returning({ id: demandPartners.id });
    [network, advertiser] = dps.map((d) => d.id) as [number, number];
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(outbox, { recursive: true, force: true });
  });

  const valid = () => ({
    counterparty_id: pubEs,
    network_id: network,
    amount: '-212.40',
    currency: 'EUR',
    item: 'fraud_deduction',
    comment: 'Invalid clicks flagged by the network',
    period_start: '2025-03-01',
    period_end: '2025-03-31',
    send_email: false,
  });
  const count = async () => Number((await query<{ n: number }>(db(), 'SELECT count(*)::int AS n FROM finance_entries'))[0]!.n);
  const create = (payload: Record<string, unknown>, url = SUPPLY, headers = finance) => t.app.inject({ method: 'POST', url, headers, payload });

  it('refuses every spec rule with its translated message and stores nothing', async () => {
    const before = await count();
    const { send_email: _s, ...noChoice } = valid();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...valid(), counterparty_id: undefined }, 'counterparty_id', 'finances.user_invalid'],
      [{ ...valid(), counterparty_id: 999_999 }, 'counterparty_id', 'finances.user_invalid'],
      [{ ...valid(), counterparty_id: network + 100_000 }, 'counterparty_id', 'finances.user_invalid'],
      [{ ...valid(), network_id: 'x' }, 'network_id', 'finances.network_invalid'],
      [{ ...valid(), network_id: 999_999 }, 'network_id', 'finances.network_invalid'],
      [{ ...valid(), amount: '0' }, 'amount', 'finances.amount_invalid'],
      [{ ...valid(), amount: '12.345' }, 'amount', 'finances.amount_invalid'],
      [{ ...valid(), amount: 'abc' }, 'amount', 'finances.amount_invalid'],
      [{ ...valid(), item: 'make_good' }, 'item', 'finances.item_invalid'],
      [{ ...valid(), item: undefined }, 'item', 'finances.item_invalid'],
      [{ ...valid(), comment: 'x'.repeat(101) }, 'comment', 'finances.comment_too_long'],
      [{ ...valid(), period_start: undefined }, 'period_start', 'finances.period_required'],
      [{ ...valid(), period_end: '' }, 'period_end', 'finances.period_required'],
      [{ ...valid(), period_end: '2025-02-30' }, 'period_end', 'finances.period_invalid'],
      [{ ...valid(), period_start: '2025-04-01' }, 'period_end', 'finances.period_order'],
      [noChoice, 'send_email', 'finances.send_email_required'],
      [{ ...valid(), send_email: 'yes' }, 'send_email', 'finances.send_email_required'],
      [{ ...valid(), counterparty_id: pubNoMail, send_email: true }, 'send_email', 'finances.no_recipient'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await create(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(body(res).errors?.[field], `${field} of ${JSON.stringify(payload)}: ${res.body}`).toBe(message);
      expect(translate('en', message)).not.toBe(message);
      expect(translate('es', message)).not.toBe(translate('en', message));
    }
    // A comment of exactly 100 characters is fine; the demand team's items are the demand team's.
    expect((await create({ ...valid(), comment: 'y'.repeat(100) })).statusCode).toBe(200);
    expect(body((await create({ ...valid(), counterparty_id: advertiser, item: 'bonus' }, DEMAND))).errors?.item).toBe('finances.item_invalid');
    expect(await count()).toBe(before + 1);
    expect(readOutbox(outbox)).toHaveLength(0);
  });

  it('creates without e-mail: not requested, nothing sent', async () => {
    const res = await create({ ...valid(), amount: '350', item: 'bonus', comment: 'Volume bonus' });
    expect(res.statusCode, res.body).toBe(200);
    const e = body<FinanceEntry>(res).data;
    expect(e).toMatchObject({ amount: '350.00', send_email: false, email_status: 'not_requested', email_to: null, counterparty: { id: pubEs, name: 'Zeta Ofertas Publisher' }, network: { id: network } });
    expect(readOutbox(outbox)).toHaveLength(0);
  });

  it('sends the e-mail through the transport, in the counterparty’s language, and marks the entry sent', async () => {
    const res = await create({ ...valid(), send_email: true });
    expect(res.statusCode, res.body).toBe(200);
    const e = body<FinanceEntry>(res).data;
    expect(e).toMatchObject({ email_status: 'sent', email_to: 'pagos@ofertaszeta.example', email_error: null });
    expect(e.email_sent_at).not.toBeNull();
    const mails = readOutbox(outbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.headers.to).toContain('pagos@ofertaszeta.example');
    expect(mails[0]!.headers.subject).toBe(`FE-${e.id}: Deducción por tráfico inválido, 2025-03-01 – 2025-03-31`);
    expect(mails[0]!.text).toContain('Hola, Zeta Ofertas Publisher:');
    expect(mails[0]!.text).toContain('-212,40');
    // A demand partner in Germany gets it in English, at its company's billing e-mail.
    const demand = await create({ ...valid(), counterparty_id: advertiser, item: 'make_good', amount: '-780', currency: 'USD', send_email: true }, DEMAND);
    expect(body<FinanceEntry>(demand).data).toMatchObject({ email_status: 'sent', email_to: 'ar@zetademand.example', currency: 'USD' });
    const last = readOutbox(outbox).at(-1)!;
    expect(last.headers.subject).toContain('Make-good');
    expect(last.text).toContain('Hello Zeta Advertiser,');
    const history = body<FinanceHistoryEntry[]>(await t.app.inject({ method: 'GET', url: `${SUPPLY}/${e.id}/history`, headers: finance })).data;
    expect(history.map((h) => h.action)).toEqual(['finance_entry.email_sent', 'finance_entry.create']);
    expect(Object.keys(history[1]!.changes)).not.toContain('idempotency_key');
  });

  it('records a failed e-mail with its error and sends it again', async () => {
    const broken = path.join(outbox, 'not-a-folder');
    fs.writeFileSync(broken, 'x');
    const failing = await createTestApp({ mailTransport: 'file', mailOutboxDir: path.join(broken, 'outbox') });
    try {
      const headers = (await signIn(failing.app, 'finance@adtech.example')).headers;
      const [co] = await failing.app.ctx.database.db
        .insert(companies)
        .values({ legalName: 'Fail Zeta SL', country: 'ES', taxId: 'B33333333', address: 'C 1', city: 'Soria', postalCode: '42001', billingEmail: 'ar@failzeta.example', currency: 'EUR' })
        .returning({ id: companies.id });
      const [pub] = await failing.app.ctx.database.db.insert(publishers).values({ name: 'Fail Publisher', companyId: co!.id }).returning({ id: publishers.id });
      const [net] = await failing.app.ctx.database.db.insert(demandPartners).values({ name: 'Fail Network', endpointUrl: 'https://fail.example/rtb' }).returning({ id: demandPartners.id });
      const res = await failing.app.inject({ method: 'POST', url: SUPPLY, headers, payload: { ...valid(), counterparty_id: pub!.id, network_id: net!.id, send_email: true } });
      expect(res.statusCode, res.body).toBe(200);
      const e = body<FinanceEntry>(res).data;
      expect(e.email_status).toBe('failed');
      expect(e.email_error).toMatch(/ENOTDIR|EEXIST|not a directory/i);
      expect(e.email_to).toBe('ar@failzeta.example');
      // Still failing: failed again. Then the transport works (the folder is fixed): sent.
      const again = await failing.app.inject({ method: 'POST', url: `${SUPPLY}/${e.id}/resend`, headers });
      expect(body<FinanceEntry>(again).data.email_status).toBe('failed');
      fs.rmSync(broken);
      const fixed = await failing.app.inject({ method: 'POST', url: `${SUPPLY}/${e.id}/resend`, headers });
      expect(fixed.statusCode).toBe(200);
      expect(body<FinanceEntry>(fixed).data.email_status).toBe('sent');
      expect(readOutbox(path.join(broken, 'outbox'))).toHaveLength(1);
      // Sent: a second resend does nothing more.
      await failing.app.inject({ method: 'POST', url: `${SUPPLY}/${e.id}/resend`, headers });
      expect(readOutbox(path.join(broken, 'outbox'))).toHaveLength(1);
    } finally {
      await failing.close();
      fs.rmSync(broken, { recursive: true, force: true });
    }
  });

  it('edits with a version: 409 when stale; e-mail chosen later is sent then; a sent one cannot be unchosen', async () => {
    const e = body<FinanceEntry>(await create({ ...valid(), amount: '10.00', item: 'adjustment' })).data;
    const { send_email: _x, ...fields } = valid();
    const put = (payload: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: `${SUPPLY}/${e.id}`, headers: finance, payload });
    const saved = await put({ ...fields, amount: '11.11', item: 'adjustment', send_email: false, version: 1 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(body<FinanceEntry>(saved).data).toMatchObject({ amount: '11.11', version: 2 });
    const stale = await put({ ...fields, amount: '12.00', item: 'adjustment', send_email: false, version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(body<{ current: FinanceEntry }>(stale).data.current.amount).toBe('11.11');
    const tooLong = await put({ ...fields, comment: 'z'.repeat(101), item: 'adjustment', send_email: false, version: 2 });
    expect(body(tooLong).errors?.comment).toBe('finances.comment_too_long');
    const mails = readOutbox(outbox).length;
    const withMail = await put({ ...fields, amount: '11.11', item: 'adjustment', send_email: true, version: 2 });
    expect(body<FinanceEntry>(withMail).data).toMatchObject({ email_status: 'sent', version: 3 });
    expect(readOutbox(outbox)).toHaveLength(mails + 1);
    const unsend = await put({ ...fields, amount: '11.11', item: 'adjustment', send_email: false, version: 3 });
    expect(body(unsend).errors?.send_email).toBe('finances.email_already_sent');
    const history = body<FinanceHistoryEntry[]>(await t.app.inject({ method: 'GET', url: `${SUPPLY}/${e.id}/history`, headers: finance })).data;
    expect(history.filter((h) => h.action === 'finance_entry.update').at(-1)!.changes.amount).toEqual(['10.00', '11.11']);
  });

  it('lists with filters, exact totals per currency, paging and export; is idempotent by key', async () => {
    const k = `fin-key-${Date.now()}`;
    const answers = await Promise.all([1, 2].map(() => create({ ...valid(), amount: '0.10', item: 'other', idempotency_key: k })));
    expect(new Set(answers.map((r) => body<FinanceEntry>(r).data.id)).size).toBe(1);
    const get = async (qs: string, url = SUPPLY) => body<FinanceEntriesAnswer>(await t.app.inject({ method: 'GET', url: `${url}${qs}`, headers: finance })).data;
    const all = await get('?page_size=100');
    const sum = all.items.reduce((s, e) => s + Math.round(Number(e.amount) * 100), 0);
    expect(all.totals).toEqual([{ currency: 'EUR', amount: (sum / 100).toFixed(2), count: all.total }]);
    const other = await get('?item=other');
    expect(other.total).toBe(1);
    expect(other.totals[0]!.amount).toBe('0.10');
    expect((await get('?from=2025-04-01')).total).toBe(0);
    expect((await get('?from=2025-03-31&to=2025-03-31')).total).toBe(all.total);
    expect((await get(`?counterparty_id=${pubEs}&email_status=sent`)).items.every((e) => e.email_status === 'sent')).toBe(true);
    const paged = await get('?page=2&page_size=2&sort=amount');
    expect(paged.items).toHaveLength(2);
    expect((await get('', DEMAND)).total).toBe(1);
    const csv = await t.app.inject({ method: 'GET', url: `${SUPPLY}/export?format=csv`, headers: finance });
    expect(csv.headers['content-disposition']).toMatch(/finances_supply_\d{4}-\d{2}-\d{2}_\d{6}\.csv/);
    expect(csv.body).toContain('Invalid traffic deduction');
    const opts = body<FinanceOption[]>(await t.app.inject({ method: 'GET', url: '/v1/finances/supply/options?kind=counterparty&search=zeta', headers: finance })).data;
    expect(opts.map((o) => o.name)).toEqual(['Zeta Ofertas Publisher', 'Zeta Silent Publisher']);
    expect(opts.map((o) => o.has_email)).toEqual([true, false]);
  });

  it('lets a read-only person see but not change', async () => {
    const before = await count();
    expect((await t.app.inject({ method: 'GET', url: SUPPLY, headers: readOnly })).statusCode).toBe(200);
    expect((await create(valid(), SUPPLY, readOnly)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: `${SUPPLY}/1`, headers: readOnly, payload: { ...valid(), version: 1 } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `${SUPPLY}/1/resend`, headers: readOnly })).statusCode).toBe(403);
    expect(await count()).toBe(before);
  });
});
