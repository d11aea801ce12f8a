/**
 * Prepayments (`/v1/prepayments`) through the HTTP API: which advertisers have a ledger; top-ups,
 * adjustments and refunds with the balance and the running balance exact to the cent; the rules
 * (each refused with its translated key, nothing stored); idempotency by key, also concurrent;
 * append-only (the database refuses UPDATE and DELETE); a reversal once only, also concurrent;
 * spend posted from performance_daily idempotently (twice, concurrently, capped at yesterday and at
 * the warehouse's last day, rounded half away from zero), by the route and by the daily job; the
 * low-balance list; the threshold's 409; exports; history; the ACL; the demo seeding (idempotent).
 */
import type { LedgerAnswer, LedgerEntry, PostSpendResult, PrepaymentAccount, PrepaymentsAnswer } from '@backoffice/core/prepayments';
import { translate } from '@backoffice/core/i18n/catalogues';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies } from '../src/db/schema.ts';
import { demandPartners } from '../src/db/schema-reports.ts';
import { prepaymentsPostSpendJob } from '../src/modules/prepayments/jobs.ts';
import { seedPrepaymentsDemo } from '../src/modules/prepayments/demo.ts';
import { query } from '../src/reports-data/sql.ts';
import { userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

const BASE = '/v1/prepayments';
let seq = 0;
const key = () => `test-key-${Date.now()}-${++seq}`;

describe('prepayments', () => {
  let t: TestApp;
  let finance: Record<string, string>;
  let readOnly: Record<string, string>;
  let none: Record<string, string>;
  let alpha: number;
  let beta: number;
  let credit: number;
  let ssp: number;
  const db = () => t.app.ctx.database;

  beforeAll(async () => {
    t = await createTestApp();
    finance = (await signIn(t.app, 'finance@adtech.example')).headers;
    readOnly = (await userWithAcl(t.app, 'prepay.reader@adtech.example', { '/v1/prepayments': ['read'] })).headers;
    none = (await userWithAcl(t.app, 'prepay.none@adtech.example', { '/v1/billing/performance': ['read'] })).headers;
    const [co] = await t.app.ctx.database.db
      .insert(companies)
      .values({ legalName: 'Zeta Prepaid Media SL', country: 'ES', taxId: 'B00000000', address: 'Calle Mayor 1', city: 'Madrid', postalCode: '28001', billingEmail: 'ar@zetaprepaid.example', currency: 'EUR' })
      .returning({ id: companies.id });
    const rows = await t.app.ctx.database.db
      .insert(demandPartners)
      .values([
        { name: 'Zeta Prepaid Alpha', side: 'performance', companyId: co!.id, billingMode: 'prepayment', endpointUrl: 'https://alpha.prepaid.example/rtb' },
        { name: 'Zeta Prepaid Beta', side: 'performance', companyId: co!.id, billingMode: 'prepayment', endpointUrl: 'https://beta.prepaid.example/rtb' },
        { name: 'Zeta Credit Gamma', side: 'performance', companyId: co!.id, billingMode: 'credit', endpointUrl: 'https://gamma.prepaid.example/rtb' },
        { name: 'Zeta SSP Delta', side: 'ssp', companyId: co!.id, billingMode: 'prepayment', endpointUrl: 'https://delta.prepaid.example/rtb' },
      ])
      .returning({ id: demandPartners.id });
    [alpha, beta, credit, ssp] = rows.map((r) => r.id) as [number, number, number, number];
    // The warehouse's facts (EUR micro-units): day 10 sums to 1234.565 (rounds half away from zero to 1234.57).
    await query(
      db(),
      `INSERT INTO performance_daily (day, advertiser_id, publisher_id, product, impressions, clicks, conversions, revenue_micros, cost_micros) VALUES
        ('2025-01-08', $1, 1, 'cpc', 10, 1, 0, 999000000, 1),
        ('2025-01-10', $1, 1, 'cpc', 10, 1, 0, 1234560000, 1),
        ('2025-01-10', $1, 2, 'cpa', 10, 1, 0, 5000, 1),
        ('2025-01-11', $1, 1, 'cpc', 10, 1, 0, 100004999, 1),
        ('2025-01-12', $1, 1, 'cpm', 10, 1, 0, 1, 1),
        ('2025-01-12', $3, 1, 'cpc', 10, 1, 0, 77000000, 1),
        ('2025-01-11', $2, 1, 'cpc', 10, 1, 0, 55000000, 1)`,
      [alpha, beta, credit],
    );
  });
  afterAll(async () => t?.close());

  const list = async (qs = '', headers = finance) => {
    const res = await t.app.inject({ method: 'GET', url: `${BASE}${qs}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return body<PrepaymentsAnswer>(res).data;
  };
  const account = async (id: number) => body<PrepaymentAccount>(await t.app.inject({ method: 'GET', url: `${BASE}/${id}`, headers: finance })).data;
  const ledger = async (id: number, qs = '') => {
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/${id}/entries${qs}`, headers: finance });
    expect(res.statusCode, res.body).toBe(200);
    return body<LedgerAnswer>(res).data;
  };
  const add = (id: number, payload: Record<string, unknown>, headers = finance) =>
    t.app.inject({ method: 'POST', url: `${BASE}/${id}/entries`, headers, payload: { idempotency_key: key(), ...payload } });
  const count = async () => Number((await query<{ n: number }>(db(), 'SELECT count(*)::int AS n FROM prepayment_entries'))[0]!.n);

  it('lists the prepaid advertisers of the performance side only, with an empty ledger', async () => {
    const out = await list('?search=Zeta&page_size=100');
    const ids = out.items.map((a) => a.id);
    expect(ids).toContain(alpha);
    expect(ids).toContain(beta);
    expect(ids).not.toContain(credit);
    expect(ids).not.toContain(ssp);
    const a = out.items.find((x) => x.id === alpha)!;
    expect(a).toMatchObject({ balance: '0.00', threshold: '0.00', low: false, last_top_up: null, version: 0, entries: 0, currency: 'EUR' });
    expect((await t.app.inject({ method: 'GET', url: `${BASE}/${credit}`, headers: finance })).statusCode).toBe(404);
  });

  it('refuses every bad entry with its translated message and stores nothing', async () => {
    const before = await count();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ kind: 'top_up', amount: '0', reference: 'X' }, 'amount', 'prepayments.amount_invalid'],
      [{ kind: 'top_up', amount: '10.001', reference: 'X' }, 'amount', 'prepayments.amount_invalid'],
      [{ kind: 'top_up', amount: '-5', reference: 'X' }, 'amount', 'prepayments.amount_invalid'],
      [{ kind: 'top_up', amount: 12.5, reference: '' }, 'reference', 'prepayments.reference_required'],
      [{ kind: 'refund', amount: '1', reference: ' ' }, 'reference', 'prepayments.reference_required'],
      [{ kind: 'adjustment', amount: '1', comment: 'why' }, 'direction', 'prepayments.direction_required'],
      [{ kind: 'adjustment', amount: '1', direction: 'debit' }, 'comment', 'prepayments.comment_required'],
      [{ kind: 'spend', amount: '1' }, 'kind', 'prepayments.kind_required'],
      [{ kind: 'top_up', amount: '1', reference: 'R'.repeat(101) }, 'reference', 'prepayments.reference_too_long'],
      [{ kind: 'top_up', amount: '1', reference: 'X', entry_date: '2025-02-30' }, 'entry_date', 'prepayments.entry_date_invalid'],
      [{ kind: 'top_up', amount: '1', reference: 'X', entry_date: '2999-01-01' }, 'entry_date', 'prepayments.entry_date_future'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await add(alpha, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(body(res).errors?.[field], JSON.stringify(payload)).toBe(message);
      expect(translate('en', message)).not.toBe(message);
      expect(translate('es', message)).not.toBe(translate('en', message));
    }
    expect(await count()).toBe(before);
  });

  it('adds top-ups, adjustments and refunds; balance and running balance are exact', async () => {
    const top = await add(alpha, { kind: 'top_up', amount: '1000.10', reference: 'SEPA-001', entry_date: '2025-01-09' });
    expect(top.statusCode, top.body).toBe(200);
    const topEntry = body<{ entry: LedgerEntry; account: PrepaymentAccount }>(top).data;
    expect(topEntry.entry).toMatchObject({ kind: 'top_up', amount: '1000.10', running_balance: '1000.10', source: 'manual' });
    expect((await add(alpha, { kind: 'adjustment', direction: 'debit', amount: '0.05', comment: 'Bank fee', entry_date: '2025-01-09' })).statusCode).toBe(200);
    expect((await add(alpha, { kind: 'adjustment', direction: 'credit', amount: '0.1', comment: 'Rounding', entry_date: '2025-01-09' })).statusCode).toBe(200);
    expect((await add(alpha, { kind: 'refund', amount: '100', reference: 'SEPA-R-1', entry_date: '2025-01-09' })).statusCode).toBe(200);
    const l = await ledger(alpha);
    expect(l.balance).toBe('900.15');
    expect(l.items.map((e) => [e.kind, e.amount, e.running_balance])).toEqual([
      ['refund', '-100.00', '900.15'],
      ['adjustment', '0.10', '1000.15'],
      ['adjustment', '-0.05', '1000.05'],
      ['top_up', '1000.10', '1000.10'],
    ]);
    // Paging keeps the balance after each entry (the window runs over the whole ledger).
    const page2 = await ledger(alpha, '?page=2&page_size=2');
    expect(page2.items.map((e) => e.running_balance)).toEqual(['1000.05', '1000.10']);
    expect(page2.total).toBe(4);
    const a = await account(alpha);
    expect(a).toMatchObject({ balance: '900.15', last_top_up: { date: '2025-01-09', amount: '1000.10' } });
  });

  it('refuses a refund over the balance (422)', async () => {
    const before = await count();
    const res = await add(alpha, { kind: 'refund', amount: '900.16', reference: 'SEPA-R-2' });
    expect(res.statusCode).toBe(422);
    expect(body(res).message).toBe('prepayments.refund_over_balance');
    expect(await count()).toBe(before);
  });

  it('is idempotent by key: a repeated and concurrent click writes once', async () => {
    const before = await count();
    const k = key();
    const payload = { kind: 'top_up', amount: '50.00', reference: 'SEPA-002', idempotency_key: k };
    const answers = await Promise.all([1, 2, 3].map(() => t.app.inject({ method: 'POST', url: `${BASE}/${beta}/entries`, headers: finance, payload })));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const ids = new Set(answers.map((r) => body<{ entry: LedgerEntry }>(r).data.entry.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((r) => body<{ already: boolean }>(r).data.already)).toHaveLength(2);
    const again = await t.app.inject({ method: 'POST', url: `${BASE}/${beta}/entries`, headers: finance, payload });
    expect(body<{ already: boolean }>(again).data.already).toBe(true);
    expect(await count()).toBe(before + 1);
    expect((await account(beta)).balance).toBe('50.00');
  });

  it('keeps entries append-only: the database refuses UPDATE and DELETE', async () => {
    await expect(query(db(), 'UPDATE prepayment_entries SET amount = 0 WHERE advertiser_id = $1', [alpha])).rejects.toThrow(/append-only/);
    await expect(query(db(), 'DELETE FROM prepayment_entries WHERE advertiser_id = $1', [alpha])).rejects.toThrow(/append-only/);
    expect((await ledger(alpha)).balance).toBe('900.15');
  });

  it('reverses an entry once only, also under concurrent clicks; a reversal is not reversed', async () => {
    const top = body<{ entry: LedgerEntry }>(await add(beta, { kind: 'top_up', amount: '20.20', reference: 'SEPA-003' })).data.entry;
    const reverse = (id: number, reason = 'Entered twice') =>
      t.app.inject({ method: 'POST', url: `${BASE}/${beta}/entries/${id}/reverse`, headers: finance, payload: { reason, idempotency_key: key() } });
    const noReason = await t.app.inject({ method: 'POST', url: `${BASE}/${beta}/entries/${top.id}/reverse`, headers: finance, payload: { reason: ' ', idempotency_key: key() } });
    expect(body(noReason).errors?.reason).toBe('prepayments.reason_required');
    const answers = await Promise.all([reverse(top.id), reverse(top.id), reverse(top.id)]);
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409]);
    for (const r of answers.filter((x) => x.statusCode === 409)) expect(body(r).message).toBe('prepayments.already_reversed');
    const reversal = body<{ entry: LedgerEntry }>(answers.find((r) => r.statusCode === 200)!).data.entry;
    expect(reversal).toMatchObject({ kind: 'reversal', amount: '-20.20', reverses_id: top.id });
    expect((await account(beta)).balance).toBe('50.00');
    const l = await ledger(beta);
    expect(l.items.find((e) => e.id === top.id)!.reversed_by).toBe(reversal.id);
    const twice = await reverse(reversal.id);
    expect(twice.statusCode).toBe(409);
    expect(body(twice).message).toBe('prepayments.reverse_reversal');
    expect((await reverse(999_999)).statusCode).toBe(404);
  });

  it('posts the daily spend idempotently: exact, capped, twice and concurrently', async () => {
    const post = (through: string) => t.app.inject({ method: 'POST', url: `${BASE}/post-spend`, headers: finance, payload: { through } });
    const first = await post('2025-01-11');
    expect(first.statusCode, first.body).toBe(200);
    // Alpha's ledger opened on 2025-01-09 (its 2025-01-08 spend is before it); beta's on its first top-up (today): nothing.
    expect(body<PostSpendResult>(first).data).toMatchObject({ through: '2025-01-11', posted: 2 });
    const spends = (await ledger(alpha, '?kind=spend')).items;
    expect(spends.map((e) => [e.entry_date, e.amount, e.source])).toEqual([
      ['2025-01-11', '-100.00', 'warehouse'],
      ['2025-01-10', '-1234.57', 'warehouse'],
    ]);
    expect((await account(alpha)).spend_posted_through).toBe('2025-01-11');
    expect(body<PostSpendResult>(await post('2025-01-11')).data.posted).toBe(0);
    // Past yesterday and past the warehouse's last day: capped at the last day loaded (2025-01-12); its 0.000001 rounds to nothing.
    const capped = body<PostSpendResult>(await post('2099-12-31')).data;
    expect(capped).toMatchObject({ through: '2025-01-12', posted: 0 });
    // A new day loaded, and the posted-through mark lost: two concurrent runs still write each day once.
    await query(db(), `INSERT INTO performance_daily VALUES ('2025-01-13', $1, 1, 'cpc', 1, 1, 0, 2500000, 1)`, [alpha]);
    await query(db(), 'UPDATE prepayment_accounts SET spend_posted_through = NULL WHERE advertiser_id = $1', [alpha]);
    const both = await Promise.all([post('2099-12-31'), post('2099-12-31')]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(both.reduce((n, r) => n + body<PostSpendResult>(r).data.posted, 0)).toBe(1);
    const again = (await ledger(alpha, '?kind=spend')).items;
    expect(again.map((e) => e.amount)).toEqual(['-2.50', '-100.00', '-1234.57']);
    // The daily job does the same (up to yesterday): nothing new.
    const result = (await prepaymentsPostSpendJob.handle({ id: 'x', name: 'x', data: {} } as never, { ctx: t.app.ctx, log: t.app.log, instanceId: 'test', send: async () => null })) as PostSpendResult;
    expect(result.posted).toBe(0);
    expect((await ledger(alpha)).balance).toBe('-436.92');
    const bad = await post('2025-13-01');
    expect(body(bad).errors?.through).toBe('prepayments.through_invalid');
  });

  it('lists the advertisers under their threshold; a stale threshold edit answers 409', async () => {
    const put = (id: number, payload: Record<string, unknown>, headers = finance) => t.app.inject({ method: 'PUT', url: `${BASE}/${id}/threshold`, headers, payload });
    const bad = await put(beta, { threshold: '-1', version: 0 });
    expect(body(bad).errors?.threshold).toBe('prepayments.threshold_invalid');
    const beforeBeta = await account(beta);
    expect(beforeBeta.version).toBe(0);
    const saved = await put(beta, { threshold: '75.5', version: 0 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(body<PrepaymentAccount>(saved).data).toMatchObject({ threshold: '75.50', version: 1, low: true });
    const stale = await put(beta, { threshold: '10', version: 0 });
    expect(stale.statusCode).toBe(409);
    expect(body(stale).message).toBe('resource.conflict');
    expect(body<{ current: PrepaymentAccount }>(stale).data.current).toMatchObject({ threshold: '75.50', version: 1 });
    const under = await list('?under=true&search=Zeta');
    expect(under.items.map((a) => a.id).sort()).toEqual([alpha, beta].sort());
    expect(under.low_count).toBeGreaterThanOrEqual(2);
    expect(under.total_balance).toBe('-386.92');
    const over = await list('?under=false&search=Zeta');
    expect(over.items.map((a) => a.id)).not.toContain(beta);
    const sorted = await list('?search=Zeta&sort=-balance');
    expect(sorted.items.map((a) => a.id)).toEqual([beta, alpha]);
  });

  it('exports the list and the ledger, and keeps the history', async () => {
    const csv = await t.app.inject({ method: 'GET', url: `${BASE}/export?search=Zeta&format=csv`, headers: { ...finance, 'accept-language': 'es' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/prepayments_\d{4}-\d{2}-\d{2}_\d{6}\.csv/);
    expect(csv.body).toContain('Saldo');
    expect(csv.body).toContain('Zeta Prepaid Beta');
    const ledgerCsv = await t.app.inject({ method: 'GET', url: `${BASE}/${alpha}/entries/export?format=csv`, headers: finance });
    expect(ledgerCsv.statusCode).toBe(200);
    expect(ledgerCsv.body).toContain('1234.57');
    expect(ledgerCsv.body.split('\r\n').filter(Boolean)).toHaveLength(1 + 7);
    const xlsx = await t.app.inject({ method: 'GET', url: `${BASE}/export?format=xlsx`, headers: finance });
    expect(xlsx.statusCode).toBe(200);
    const history = await t.app.inject({ method: 'GET', url: `${BASE}/${beta}/history`, headers: finance });
    const actions = body<{ action: string }[]>(history).data.map((h) => h.action);
    expect(actions).toContain('prepayment.entry_create');
    expect(actions).toContain('prepayment.entry_reverse');
    expect(actions).toContain('prepayment.threshold_update');
  });

  it('lets a read-only person see but not change; others see nothing', async () => {
    expect((await list('', readOnly)).items.length).toBeGreaterThan(0);
    const before = await count();
    const denied = [
      await add(alpha, { kind: 'top_up', amount: '1', reference: 'X' }, readOnly),
      await t.app.inject({ method: 'PUT', url: `${BASE}/${alpha}/threshold`, headers: readOnly, payload: { threshold: '1', version: 0 } }),
      await t.app.inject({ method: 'POST', url: `${BASE}/post-spend`, headers: readOnly, payload: { through: '2025-01-01' } }),
      await t.app.inject({ method: 'POST', url: `${BASE}/${alpha}/entries/1/reverse`, headers: readOnly, payload: { reason: 'x', idempotency_key: key() } }),
    ];
    for (const res of denied) expect(res.statusCode).toBe(403);
    expect(await count()).toBe(before);
    expect((await t.app.inject({ method: 'GET', url: BASE, headers: none })).statusCode).toBe(403);
  });

  it('seeds the demo once: a reversal, posted spend and one advertiser under its threshold', async () => {
    const [co] = await t.app.ctx.database.db
      .insert(companies)
      .values({ legalName: 'Demo Prepaid SL', country: 'ES', taxId: 'B11111111', address: 'Calle 2', city: 'Bilbao', postalCode: '48001', billingEmail: 'ar@demo.example', currency: 'EUR' })
      .returning({ id: companies.id });
    const demo = await t.app.ctx.database.db
      .insert(demandPartners)
      .values(['Garbí Affiliates', 'Levante Leads', 'Cierzo Installs'].map((name, i) => ({ name, side: 'performance', companyId: co!.id, endpointUrl: `https://demo${i}.prepaid.example/rtb` })))
      .returning({ id: demandPartners.id, name: demandPartners.name });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const before = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    for (const p of demo.slice(0, 2))
      await query(db(), `INSERT INTO performance_daily VALUES ($2::date, $1, 1, 'cpc', 1, 1, 0, 812345678, 1), ($3::date, $1, 1, 'cpc', 1, 1, 0, 400000000, 1)`, [p.id, before, yesterday]);
    await seedPrepaymentsDemo(t.app.ctx.database);
    const n = await count();
    await seedPrepaymentsDemo(t.app.ctx.database);
    expect(await count()).toBe(n);
    const out = await list('?page_size=100');
    const byName = new Map(out.items.map((a) => [a.name, a]));
    expect(byName.get('Levante Leads')!.low).toBe(true);
    expect(byName.get('Garbí Affiliates')!.low).toBe(false);
    expect(byName.get('Cierzo Installs')!.balance).toBe('2000.00');
    const levante = await ledger(byName.get('Levante Leads')!.id);
    expect(levante.items.filter((e) => e.kind === 'reversal')).toHaveLength(1);
    expect(levante.items.filter((e) => e.kind === 'spend')).toHaveLength(2);
  });
});
