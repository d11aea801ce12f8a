/**
 * Budgets on the resource layer: a budget per company and month (a second one is a field error on
 * the month), the shared schema's rules (amount above 0 with two decimals, a real month), only
 * companies of the performance side, the ACL, and each row's spend and pacing read from the
 * warehouse's partner rollup by UTC day: the company's performance-side partners only, the
 * month's days only, exact to the micro-unit.
 */
import { addMonthsTo, budgetPacing, monthBounds, monthOfInstant, type BudgetPacing } from '@backoffice/core/budgets';
import { translate } from '@backoffice/core/i18n/catalogues';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies } from '../src/db/schema.ts';
import { demandPartners, statsRPartner } from '../src/db/schema-reports.ts';
import { HOUR_MS } from '../src/reports-data/rollups.ts';
import { dbOf, userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

interface Budget extends BudgetPacing {
  id: number;
  company_id: number;
  company_id_label: string;
  month: string;
  amount: string;
  currency: string;
  notes: string | null;
  version: number;
}
interface PageOf<T> {
  items: T[];
  total: number;
}

const metrics = { adRequests: 10, bidRequests: 10, bids: 5, wins: 2, impressions: 2, clicks: 0, timeouts: 0, errors: 0, costMicros: 0n };

describe('budgets (resource layer)', () => {
  let t: TestApp;
  let head: Record<string, string>;
  /** A company with a performance-side and an SSP-side partner; one with an SSP-side partner only. */
  let perfCompany: number;
  let sspCompany: number;
  let perfPartner: number;
  let sspPartner: number;

  beforeAll(async () => {
    t = await createTestApp();
    const db = dbOf(t.app);
    head = (await userWithAcl(t.app, 'perf.head@adtech.example', { '/v1/budgets': ['read', 'write'], '/v1/companies': ['read'] })).headers;
    const [a, b] = await db.select({ id: companies.id }).from(companies).orderBy(companies.id).limit(2);
    perfCompany = a!.id;
    sspCompany = b!.id;
    const partners = await db
      .insert(demandPartners)
      .values([
        { name: 'Budget Test Performance', side: 'performance', companyId: perfCompany, endpointUrl: 'https://perf.budget-test.example/rtb' },
        { name: 'Budget Test SSP', side: 'ssp', companyId: perfCompany, endpointUrl: 'https://ssp.budget-test.example/rtb' },
        { name: 'Budget Test SSP Only', side: 'ssp', companyId: sspCompany, endpointUrl: 'https://ssp2.budget-test.example/rtb' },
      ])
      .returning({ id: demandPartners.id });
    perfPartner = partners[0]!.id;
    sspPartner = partners[1]!.id;
  });
  afterAll(async () => t?.close());

  const create = (payload: object, headers = head) => t.app.inject({ method: 'POST', url: '/v1/budgets', payload, headers });
  const valid = (over: Record<string, unknown> = {}) => ({ company_id: perfCompany, month: '2025-03', amount: '1000.00', currency: 'USD', notes: '', ...over });
  /** A day row of the partner rollup (level 1) and an hour row (level 0, which budgets do not read). */
  const day = (partner: number, iso: string, revenueMicros: bigint, lvl = 1) => ({ lvl, ts: new Date(iso), demandPartnerId: partner, revenueMicros, ...metrics });

  it('creates a budget, refuses a second one for the same company and month with a translated field error', async () => {
    const res = await create(valid({ month: '2025-01', amount: '2500.5', notes: '  Q1 push  ' }));
    expect(res.statusCode).toBe(201);
    expect(body<Budget>(res).data).toMatchObject({ company_id: perfCompany, month: '2025-01', amount: '2500.50', currency: 'USD', notes: 'Q1 push', company_id_label: expect.any(String) });

    const again = await create(valid({ month: '2025-01', amount: '99' }), { ...head, 'accept-language': 'es' });
    expect(again.statusCode).toBe(400);
    expect(body(again).errors).toEqual({ month: 'budget.month_taken' });
    expect(translate('es', 'budget.month_taken')).toBe('Esta empresa ya tiene un presupuesto para este mes');
    expect(translate('en', 'budget.month_taken')).toBe('This company already has a budget for this month');
    // Another month of the same company is another budget.
    expect((await create(valid({ month: '2025-02' }))).statusCode).toBe(201);
  });

  it('refuses a bad amount, a bad month, a missing company and a company without a performance-side partner', async () => {
    for (const amount of ['0', '-10', '12.345', 'ten', '100000000.01']) {
      const res = await create(valid({ month: '2024-06', amount }));
      expect(res.statusCode, amount).toBe(400);
      expect(body(res).errors, amount).toMatchObject({ amount: 'budget.amount_invalid' });
    }
    const month = await create(valid({ month: '2025-13' }));
    expect(body(month).errors).toMatchObject({ month: 'budget.month_invalid' });
    const company = await create(valid({ company_id: null }));
    expect(body(company).errors).toMatchObject({ company_id: 'budget.company_required' });
    const ssp = await create(valid({ company_id: sspCompany, month: '2024-07' }));
    expect(ssp.statusCode).toBe(400);
    expect(body(ssp).errors).toEqual({ company_id: 'budget.company_not_performance' });
    // The form's picker offers the same companies the API takes.
    const picker = body<{ id: number; value: string }[]>(await t.app.inject({ url: '/v1/budgets/companies?limit=200', headers: head })).data;
    expect(picker.map((c) => c.id)).toContain(perfCompany);
    expect(picker.map((c) => c.id)).not.toContain(sspCompany);
    expect(body<{ id: number }[]>(await t.app.inject({ url: `/v1/budgets/companies?ids=${sspCompany},${perfCompany}`, headers: head })).data.map((c) => c.id)).toEqual([perfCompany]);
    expect((await t.app.inject({ url: '/v1/budgets/companies?ids=0x10', headers: head })).statusCode).toBe(400);
  });

  it("computes a past month's spend from the company's performance-side partners, by UTC day, exactly", async () => {
    await dbOf(t.app)
      .insert(statsRPartner)
      .values([
        // March 2025 (31 days): its first and last day count…
        day(perfPartner, '2025-03-01T00:00:00Z', 1_000_000_001n),
        day(perfPartner, '2025-03-15T00:00:00Z', 250_123_456n),
        day(perfPartner, '2025-03-31T00:00:00Z', 3_000_000_000n),
        // …the days around it, the SSP side's partner and the hour level do not.
        day(perfPartner, '2025-02-28T00:00:00Z', 7_000_000_000n),
        day(perfPartner, '2025-04-01T00:00:00Z', 7_000_000_000n),
        day(sspPartner, '2025-03-10T00:00:00Z', 9_000_000_000n),
        day(perfPartner, '2025-03-10T05:00:00Z', 9_000_000_000n, 0),
      ]);
    const made = body<Budget>(await create(valid({ month: '2025-03', amount: '4000' }))).data;
    const one = body<Budget>(await t.app.inject({ url: `/v1/budgets/${made.id}`, headers: head })).data;
    // 1,000.000001 + 250.123456 + 3,000 = 4,250.123457 -> 4,250.12: over the 4,000 budget.
    expect(one).toMatchObject({ spent: '4250.12', spent_currency: 'USD', comparable: true, elapsed_pct: 100, expected: '4000.00', usage_pct: 106.3, pace_pct: 106.3, status: 'on_track', alert: true });

    const list = body<PageOf<Budget>>(await t.app.inject({ url: `/v1/budgets?f[company_id]=${perfCompany}&f[month]=2025-03`, headers: head })).data;
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ id: made.id, spent: '4250.12', alert: true });
  });

  it('paces the current month to the hour the data reaches, expects nothing of next month, and compares no other currency', async () => {
    const nowHour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const current = monthOfInstant(nowHour);
    // The month's first day (in the month's first hour no hour of it is loaded yet: nothing counts).
    const first = monthBounds(current).startMs;
    const spentMicros = nowHour > first ? 1_234_560_000n : 0n;
    await dbOf(t.app).insert(statsRPartner).values([day(perfPartner, new Date(first).toISOString(), 1_234_560_000n)]);

    const cur = body<Budget>(await create(valid({ month: current, amount: '3000' }))).data;
    const next = body<Budget>(await create(valid({ month: addMonthsTo(current, 1), amount: '3000' }))).data;
    const list = body<PageOf<Budget>>(await t.app.inject({ url: '/v1/budgets?page_size=200&sort=-month', headers: head })).data;
    const curRow = list.items.find((b) => b.id === cur.id)!;
    // No warehouse load is recorded in the test database: the figures are as of the current hour
    // (or the next one, when the test crosses an hour).
    expect([nowHour, nowHour + HOUR_MS]).toContain(Date.parse(curRow.as_of));
    expect(curRow).toEqual({ ...curRow, ...budgetPacing({ amount: '3000', currency: 'USD', month: current, spentMicros, asOfMs: Date.parse(curRow.as_of) }) });
    expect(curRow.spent).toBe(nowHour > first ? '1234.56' : '0.00');
    expect(list.items.find((b) => b.id === next.id)).toMatchObject({ spent: '0.00', elapsed_pct: 0, expected: '0.00', pace_pct: null, status: null, alert: false });

    const euros = body<Budget>(await create(valid({ month: '2025-04', amount: '100', currency: 'EUR' }))).data;
    const eurRow = body<Budget>(await t.app.inject({ url: `/v1/budgets/${euros.id}`, headers: head })).data;
    // 7,000 USD spent on 1 April, and a 100 EUR budget: shown, not compared.
    expect(eurRow).toMatchObject({ spent: '7000.00', spent_currency: 'USD', comparable: false, expected: '100.00', usage_pct: null, pace_pct: null, status: null, alert: false });
  });

  it('keeps the company check for a change of company only, and audits changes', async () => {
    const made = body<Budget>(await create(valid({ month: '2024-11', amount: '500' }))).data;
    const put = (over: Record<string, unknown>, version: number) => t.app.inject({ method: 'PUT', url: `/v1/budgets/${made.id}`, headers: head, payload: { ...valid({ month: '2024-11', amount: '500' }), ...over, version } });
    const moved = await put({ company_id: sspCompany }, made.version);
    expect(body(moved).errors).toEqual({ company_id: 'budget.company_not_performance' });
    const raised = await put({ amount: '750.25' }, made.version);
    expect(raised.statusCode).toBe(200);
    const history = body<{ action: string; changes: Record<string, [unknown, unknown]> }[]>(await t.app.inject({ url: `/v1/budgets/${made.id}/history`, headers: head })).data;
    expect(history[0]).toMatchObject({ action: 'budget.update', changes: { amount: ['500.00', '750.25'] } });
    expect((await put({ amount: '800' }, made.version)).statusCode).toBe(409);
  });

  it('lets a reader read but not write, and refuses a role without /v1/budgets', async () => {
    const reader = (await userWithAcl(t.app, 'budget.reader@adtech.example', { '/v1/budgets': ['read'] })).headers;
    const none = (await userWithAcl(t.app, 'budget.none@adtech.example', { '/v1/companies': ['read'] })).headers;
    expect((await t.app.inject({ url: '/v1/budgets', headers: reader })).statusCode).toBe(200);
    expect((await create(valid({ month: '2023-01' }), reader)).statusCode).toBe(403);
    for (const url of ['/v1/budgets', '/v1/budgets/companies', '/v1/budgets/export?format=csv']) expect((await t.app.inject({ url, headers: none })).statusCode, url).toBe(403);
    expect((await create(valid({ month: '2023-01' }), none)).statusCode).toBe(403);
    // The demo roles: a demand lead reads budgets, a performance head changes them.
    const lead = (await signIn(t.app, 'demand.lead@adtech.example')).headers;
    expect((await t.app.inject({ url: '/v1/budgets/companies', headers: lead })).statusCode).toBe(200);
    expect((await create(valid({ month: '2023-02' }), lead)).statusCode).toBe(403);
  });
});
