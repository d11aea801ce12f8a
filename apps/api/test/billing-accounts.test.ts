/**
 * Billing accounts (`/v1/billing/{side}/accounts`) through the HTTP API: the list with its search,
 * filters, sort and totals; the billing information that is missing (no company, no tax id or
 * address) with the spec's message in the export; a statement figured exactly from billing rows
 * inserted here (only approved and invoiced advertiser rows of the side count; pending never below
 * 0; a received payment date settles; charged rows are not outstanding; overdue after the month's
 * last day plus the payment terms), the same in the list, in the account's page and in core's
 * statementOf over its lines; payments; the ACL (403 without the side's billing resource, write
 * refused with read only); the terms' validation, the 409 on a stale version, the audit entry and
 * the history.
 */
import { statementOf, type AccountHistoryEntry, type BillingAccount, type BillingAccountDetail, type BillingAccountsAnswer } from '@backoffice/core/billing-accounts';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, companies } from '../src/db/schema.ts';
import { billingPayments, billingRows } from '../src/db/schema-billing.ts';
import { demandPartners } from '../src/db/schema-reports.ts';
import { seedBillingAccountsDemo } from '../src/modules/billing-accounts/demo.ts';
import { dbOf, userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

const SSP = '/v1/billing/ssp/accounts';
const PERF = '/v1/billing/performance/accounts';

describe('billing accounts', () => {
  let t: TestApp;
  let finance: Record<string, string>;
  let sspLead: Record<string, string>;
  let noBilling: Record<string, string>;
  let alpha: number;
  let beta: number;
  let gamma: number;
  let perf: number;
  let bannerRow: number;

  beforeAll(async () => {
    t = await createTestApp();
    const db = dbOf(t.app);
    finance = (await signIn(t.app, 'finance@adtech.example')).headers;
    sspLead = (await signIn(t.app, 'ssp.lead@adtech.example')).headers;
    noBilling = (await userWithAcl(t.app, 'no.billing@adtech.example', { '/v1/partners/demand': ['read'] })).headers;
    const [full, noAddress] = await db
      .insert(companies)
      .values([
        { legalName: 'Zeta Billing Holding GmbH', tradeName: 'ZetaHold', country: 'DE', taxId: '129273398', address: 'Unter den Linden 1', city: 'Berlin', postalCode: '10117', billingEmail: 'ar@zetahold.example', currency: 'EUR' },
        { legalName: 'Zeta Nowhere Media SL', country: 'ES', taxId: 'Q0000000J', address: ' ', city: 'Madrid', postalCode: '28001', billingEmail: 'ar@zetanowhere.example', currency: 'EUR' },
      ])
      .returning({ id: companies.id });
    const partners = await db
      .insert(demandPartners)
      .values([
        { name: 'Zeta Alpha DSP', side: 'ssp', companyId: full!.id, paymentTerms: 'net30', invoiceCurrency: 'USD', endpointUrl: 'https://alpha.zeta.example/rtb' },
        { name: 'Zeta Beta Network', side: 'ssp', companyId: null, endpointUrl: 'https://beta.zeta.example/rtb' },
        { name: 'Zeta Gamma Exchange', side: 'ssp', companyId: noAddress!.id, endpointUrl: 'https://gamma.zeta.example/rtb' },
        { name: 'Zeta Perf Network', side: 'performance', companyId: full!.id, endpointUrl: 'https://perf.zeta.example/rtb' },
      ])
      .returning({ id: demandPartners.id });
    [alpha, beta, gamma, perf] = partners.map((p) => p.id) as [number, number, number, number];
    const dp = (over: Partial<typeof billingRows.$inferInsert>) => ({
      side: 'ssp',
      kind: 'advertiser',
      counterpartyType: 'demand_partner',
      counterpartyId: alpha,
      currency: 'USD',
      paymentTerms: 'net30',
      ...over,
    }) as typeof billingRows.$inferInsert;
    const rows = await db
      .insert(billingRows)
      .values([
        // 1000.004 rounds to 1000.00 (revenue_gross is the database's, to the cent); 250.50 paid; due 2025-03-02: overdue.
        dp({ month: '2025-01', product: 'banner', revenueOurs: '1000.004', paidRevenue: '250.50', state: 'approved', documentId: 'INV-2025-0001' }),
        // 500.005 rounds half away from zero to 500.01; charged (prepayment): not outstanding.
        dp({ month: '2025-01', product: 'video', revenueOurs: '500.005', charged: true, state: 'invoiced' }),
        // Overpaid: pending 0, not negative.
        dp({ month: '2025-02', product: 'native', revenueOurs: '80', paidRevenue: '90', state: 'invoiced', paymentTerms: 'net60' }),
        // Far in the future: outstanding, not yet due.
        dp({ month: '2099-01', product: 'banner', revenueOurs: '0.1', state: 'approved' }),
        // Settled by a received payment date though 0.01 short; EUR.
        dp({ month: '2025-04', product: 'banner', currency: 'EUR', revenueOurs: '10', paidRevenue: '9.99', receivedPaymentDate: '2025-06-01', state: 'invoiced' }),
        // A network figure replaces ours.
        dp({ month: '2025-05', product: 'audio', revenueOurs: '70', revenueNetwork: '60.40', state: 'approved', paymentTerms: 'net45' }),
        // Not counted: open, confirmed, discarded, the supply kind, another side.
        dp({ month: '2025-03', product: 'banner', revenueOurs: '999', state: 'open' }),
        dp({ month: '2025-03', product: 'video', revenueOurs: '999', state: 'confirmed' }),
        dp({ month: '2025-03', product: 'native', revenueOurs: '999', state: 'discarded' }),
        dp({ kind: 'supply', counterpartyType: 'publisher', month: '2025-01', product: 'banner', revenueOurs: '999', state: 'approved' }),
        dp({ side: 'performance', month: '2025-01', product: 'cpc', revenueOurs: '999', state: 'approved' }),
        // Beta: something overdue; perf: its own side.
        dp({ counterpartyId: beta, month: '2025-06', product: 'banner', revenueOurs: '42.42', state: 'approved' }),
        dp({ side: 'performance', counterpartyId: perf, month: '2025-06', product: 'cpa', currency: 'EUR', revenueOurs: '12.34', state: 'approved' }),
      ])
      .returning({ id: billingRows.id });
    bannerRow = rows[0]!.id;
    await db.insert(billingPayments).values([
      { rowId: bannerRow, amount: '200.50', paidOn: '2025-03-10', reference: 'WIRE 8812', documentId: 'INV-2025-0001' },
      { rowId: bannerRow, amount: '50.00', paidOn: '2025-04-02', reference: 'WIRE 9120', source: 'bank_csv' },
    ]);
  });
  afterAll(async () => t?.close());

  const get = <T>(url: string, headers = finance, extra: Record<string, string> = {}) =>
    t.app.inject({ url, headers: { ...headers, ...extra } }).then((r) => ({ ...body<T>(r), http: r.statusCode, res: r }));
  const put = (id: number, payload: object, headers = finance, base = SSP) =>
    t.app.inject({ method: 'PUT', url: `${base}/${id}`, headers, payload }).then((r) => ({ ...body<BillingAccountDetail>(r), http: r.statusCode }));
  const list = (query: string, headers = finance) => get<BillingAccountsAnswer>(`${SSP}?${query}`, headers);
  const names = (a: BillingAccountsAnswer) => a.items.map((i) => i.name);

  const alphaUsd = { currency: 'USD', billed: '1640.51', paid: '340.50', outstanding: '810.00', overdue: '809.90', charged: '500.01' };
  const alphaEur = { currency: 'EUR', billed: '10.00', paid: '9.99', outstanding: '0.00', overdue: '0.00', charged: '0.00' };

  it('lists the side’s partners with their statement, exactly', async () => {
    const res = await list('search=zeta');
    expect(res.http).toBe(200);
    expect(names(res.data)).toEqual(['Zeta Alpha DSP', 'Zeta Beta Network', 'Zeta Gamma Exchange']);
    const a = res.data.items[0]!;
    expect(a).toMatchObject({
      id: alpha,
      side: 'ssp',
      company: { legal_name: 'Zeta Billing Holding GmbH', tax_id: '129273398', country: 'DE', city: 'Berlin' },
      missing: [],
      payment_terms: 'net30',
      invoice_currency: 'USD',
      billing_mode: 'credit',
      credit_limit: null,
      has_overdue: true,
    });
    expect(a.statement).toEqual([alphaEur, alphaUsd]);
    // Totals over the filtered accounts, per currency.
    expect(res.data.totals).toEqual([
      alphaEur,
      { currency: 'USD', billed: '1682.93', paid: '340.50', outstanding: '852.42', overdue: '852.32', charged: '500.01' },
    ]);
    expect(res.data.total).toBe(3);
    expect(res.data.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The other side's partner is on its own list only.
    const p = await get<BillingAccountsAnswer>(`${PERF}?search=zeta`);
    expect(names(p.data)).toEqual(['Zeta Perf Network']);
    expect(p.data.items[0]!.statement).toEqual([{ currency: 'EUR', billed: '12.34', paid: '0.00', outstanding: '12.34', overdue: '12.34', charged: '0.00' }]);
  });

  it('says what billing information is missing, and filters by it', async () => {
    const res = await list('search=zeta');
    const [, b, g] = res.data.items;
    expect(b).toMatchObject({ company: null, missing: ['company'] });
    expect(g).toMatchObject({ missing: ['address'] });
    expect(names((await list('search=zeta&missing=true')).data)).toEqual(['Zeta Beta Network', 'Zeta Gamma Exchange']);
    expect(names((await list('search=zeta&missing=false')).data)).toEqual(['Zeta Alpha DSP']);
  });

  it('searches partner and company names, filters, sorts and pages on the server', async () => {
    expect(names((await list('search=ZETAHOLD')).data)).toEqual(['Zeta Alpha DSP']);
    expect(names((await list('search=nowhere')).data)).toEqual(['Zeta Gamma Exchange']);
    expect(names((await list('search=zeta&overdue=true')).data)).toEqual(['Zeta Alpha DSP', 'Zeta Beta Network']);
    expect(names((await list('search=zeta&overdue=false')).data)).toEqual(['Zeta Gamma Exchange']);
    expect(names((await list('search=zeta&payment_terms=net30')).data)).toEqual(['Zeta Alpha DSP']);
    expect(names((await list('search=zeta&currency=USD')).data)).toEqual(['Zeta Alpha DSP']);
    expect(names((await list('search=zeta&billing_mode=prepayment')).data)).toEqual([]);
    expect(names((await list('search=zeta&sort=-outstanding')).data)).toEqual(['Zeta Alpha DSP', 'Zeta Beta Network', 'Zeta Gamma Exchange']);
    expect(names((await list('search=zeta&sort=outstanding')).data)).toEqual(['Zeta Gamma Exchange', 'Zeta Beta Network', 'Zeta Alpha DSP']);
    expect(names((await list('search=zeta&sort=-name')).data)).toEqual(['Zeta Gamma Exchange', 'Zeta Beta Network', 'Zeta Alpha DSP']);
    const page2 = await list('search=zeta&page=2&page_size=2');
    expect(names(page2.data)).toEqual(['Zeta Gamma Exchange']);
    expect(page2.data).toMatchObject({ total: 3, page: 2, page_size: 2 });
    // Bad parameters are field errors, never a 500.
    for (const [q, field, key] of [
      ['sort=margin', 'sort', 'resource.sort_unknown'],
      ['page_size=500', 'page_size', 'billing_account.page_size_max'],
      ['billing_mode=cash', 'billing_mode', 'error.invalid_value'],
      ['missing=yes', 'missing', 'error.invalid_value'],
      ['colour=red', 'colour', 'error.unknown_field'],
    ] as const) {
      const bad = await list(q);
      expect(bad.http, q).toBe(400);
      expect(bad.errors?.[field], q).toBe(key);
    }
  });

  it('an account’s page: its lines figured by core agree with the list; payments', async () => {
    const res = await get<BillingAccountDetail>(`${SSP}/${alpha}`);
    expect(res.http).toBe(200);
    const d = res.data;
    expect(d.statement).toEqual([alphaEur, alphaUsd]);
    expect(d.lines.map((l) => `${l.month} ${l.product} ${l.state}`)).toEqual([
      '2099-01 banner approved',
      '2025-05 audio approved',
      '2025-04 banner invoiced',
      '2025-02 native invoiced',
      '2025-01 banner approved',
      '2025-01 video invoiced',
    ]);
    const banner = d.lines.find((l) => l.month === '2025-01' && l.product === 'banner')!;
    expect(banner).toMatchObject({ revenue_gross: '1000.00', paid: '250.50', pending: '749.50', due_date: '2025-03-02', overdue: true, badge: 'some_paid', document_id: 'INV-2025-0001' });
    expect(d.lines.find((l) => l.product === 'video')).toMatchObject({ revenue_gross: '500.01', pending: '500.01', overdue: false, badge: 'charged', charged: true });
    expect(d.lines.find((l) => l.product === 'native')).toMatchObject({ pending: '0.00', due_date: '2025-04-29', badge: 'full_paid', overdue: false });
    expect(d.lines.find((l) => l.product === 'audio')).toMatchObject({ revenue_gross: '60.40', due_date: '2025-07-15', overdue: true });
    expect(d.lines[0]).toMatchObject({ due_date: '2099-03-02', overdue: false, pending: '0.10' });
    expect(d.lines_truncated).toBe(false);
    // The same rule in SQL (list) and in core (lines).
    const fromLines = statementOf(
      d.lines.map((l) => ({ ...l, paid_revenue: l.paid })),
      d.today,
    );
    expect(fromLines).toEqual(d.statement);
    expect(d.payments.map((p) => [p.paid_on, p.amount, p.reference, p.source, p.month, p.product])).toEqual([
      ['2025-04-02', '50.00', 'WIRE 9120', 'bank_csv', '2025-01', 'banner'],
      ['2025-03-10', '200.50', 'WIRE 8812', 'manual', '2025-01', 'banner'],
    ]);
    // Another side's partner is not an account of this side.
    expect((await get(`${SSP}/${perf}`)).http).toBe(404);
    expect((await get(`${PERF}/${alpha}`)).http).toBe(404);
    expect((await get(`${SSP}/999999`)).http).toBe(404);
  });

  it('exports what is filtered as CSV (with the spec’s missing-data message) and XLSX', async () => {
    const csv = await t.app.inject({ url: `${SSP}/export?search=zeta&format=csv`, headers: finance });
    expect(csv.statusCode).toBe(200);
    expect(String(csv.headers['content-disposition'])).toMatch(/billing_ssp_accounts_\d{4}-\d{2}-\d{2}_\d{6}\.csv/);
    const lines = csv.body.replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines[0]).toContain('Account,Partner status,Company');
    // Alpha: one line per currency; Beta and Gamma one each.
    expect(lines).toHaveLength(1 + 2 + 1 + 1);
    expect(lines.filter((l) => l.includes('Zeta Alpha DSP')).map((l) => l.split(',').slice(-6).join(','))).toEqual([
      'EUR,10.00,9.99,0.00,0.00,0.00',
      'USD,1640.51,340.50,810.00,809.90,500.01',
    ]);
    expect(lines.find((l) => l.includes('Zeta Beta Network'))).toContain('Inexisting data in user_billinginfo table');
    const es = await t.app.inject({ url: `${SSP}/export?search=beta&format=csv`, headers: { ...finance, 'accept-language': 'es' } });
    expect(es.body).toContain('No existen datos en la tabla user_billinginfo');
    expect(es.body).toContain('Cuenta,Estado del partner,Empresa');
    const xlsx = await t.app.inject({ url: `${SSP}/export?search=zeta&format=xlsx&sort=-overdue`, headers: finance });
    expect(xlsx.statusCode).toBe(200);
    expect(String(xlsx.headers['content-disposition'])).toMatch(/billing_ssp_accounts_\d{4}-\d{2}-\d{2}_\d{6}\.xlsx/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.getRow(2).getCell(2).value).toBe('Zeta Alpha DSP');
    // Amounts are numbers a spreadsheet adds up.
    expect(typeof sheet.getRow(2).getCell(21).value).toBe('number');
    expect((await t.app.inject({ url: `${SSP}/export?format=pdf`, headers: finance })).statusCode).toBe(400);
  });

  it('needs the side’s billing resource: read to see, write to change', async () => {
    for (const url of [SSP, `${SSP}/${alpha}`, `${SSP}/${alpha}/history`, `${SSP}/export`]) {
      const res = await get(url, noBilling);
      expect(res.http, url).toBe(403);
      expect(res.message).toBe('auth.forbidden');
    }
    // The SSP supply lead reads SSP billing only.
    expect((await list('search=zeta', sspLead)).http).toBe(200);
    expect((await get(PERF, sspLead)).http).toBe(403);
    const current = (await get<BillingAccount>(`${SSP}/${alpha}`, sspLead)).data;
    const refused = await put(alpha, { ...termsOf(current), payment_terms: 'net60' }, sspLead);
    expect(refused.http).toBe(403);
    expect(refused.message).toBe('auth.forbidden');
    expect((await put(alpha, { ...termsOf(current) }, noBilling)).http).toBe(403);
    expect((await get<BillingAccount>(`${SSP}/${alpha}`)).data.version).toBe(current.version);
  });

  const termsOf = (a: BillingAccount) => ({
    payment_terms: a.payment_terms,
    invoice_currency: a.invoice_currency,
    min_amount: a.min_amount,
    billing_mode: a.billing_mode,
    credit_limit: a.credit_limit,
    billing_email: a.billing_email,
    vat_id: a.vat_id,
    billing_contacts: a.billing_contacts,
    version: a.version,
  });

  it('refuses invalid terms with a message key per field, and changes nothing', async () => {
    const current = (await get<BillingAccount>(`${SSP}/${alpha}`)).data;
    const bad = await put(alpha, {
      ...termsOf(current),
      payment_terms: 'net90',
      min_amount: '12.345',
      billing_mode: 'prepayment',
      credit_limit: '1000.00',
      billing_email: 'not-an-email',
      vat_id: 'DE129273399',
      billing_contacts: [
        { name: 'Ana Ruiz', email: 'ana@zetahold.example', role: 'accounts_payable' },
        { name: '', email: 'nope', role: 'boss' },
      ],
    });
    expect(bad.http).toBe(400);
    expect(bad.message).toBe('error.validation');
    expect(bad.errors).toEqual({
      payment_terms: 'error.invalid_value',
      min_amount: 'demand_partner.min_amount_invalid',
      credit_limit: 'billing_account.credit_limit_prepayment',
      billing_email: 'company.email_invalid',
      vat_id: 'billing_account.vat_id_invalid',
      'billing_contacts.1.name': 'error.required',
      'billing_contacts.1.email': 'company.email_invalid',
      'billing_contacts.1.role': 'billing_account.contact_role_required',
    });
    const unknown = await put(alpha, { ...termsOf(current), iban: 'x' });
    expect(unknown.http).toBe(400);
    expect(unknown.errors).toEqual({ iban: 'error.unknown_field' });
    const noVersion = await put(alpha, { ...termsOf(current), version: undefined });
    expect(noVersion.errors).toEqual({ version: 'error.required' });
    expect((await get<BillingAccount>(`${SSP}/${alpha}`)).data.version).toBe(current.version);
  });

  it('saves the terms, audited in the same change; a stale version answers 409 with the current account', async () => {
    const before = (await get<BillingAccount>(`${SSP}/${alpha}`)).data;
    const contacts = [
      { name: 'Anna Becker', email: 'anna.becker@zetahold.example', role: 'accounts_payable' },
      { name: 'Lukas Wagner', email: 'lukas.wagner@zetahold.example', role: 'finance' },
    ];
    const saved = await put(alpha, {
      ...termsOf(before),
      payment_terms: 'net60',
      min_amount: '250',
      credit_limit: '1500.50',
      vat_id: 'de 129-273-398',
      billing_email: ' invoices@zetahold.example ',
      billing_contacts: contacts,
    });
    expect(saved.http).toBe(200);
    expect(saved.data).toMatchObject({
      version: before.version + 1,
      payment_terms: 'net60',
      min_amount: '250.00',
      credit_limit: '1500.50',
      vat_id: 'DE129273398',
      billing_email: 'invoices@zetahold.example',
      billing_contacts: contacts,
      updated_by: { name: 'Javier Morales' },
    });
    // Outstanding USD 810.00 is over the 1,500.50 limit? No: under it.
    expect(saved.data.over_credit_limit).toBe(false);
    // Approved rows keep their own terms: the statement does not move.
    expect(saved.data.statement).toEqual([alphaEur, alphaUsd]);

    const [entry] = await dbOf(t.app)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'demand_partner.billing_update'), eq(auditLog.entityId, String(alpha))));
    expect(entry).toMatchObject({ entity: 'demand_partner', ip: '127.0.0.1' });
    expect(entry!.before).toMatchObject({ payment_terms: 'net30', min_amount: '0.00', credit_limit: null, billing_contacts: [], version: before.version });
    expect(entry!.after).toMatchObject({ payment_terms: 'net60', min_amount: '250.00', credit_limit: '1500.50', vat_id: 'DE129273398', billing_contacts: contacts, version: before.version + 1 });

    // Someone else edits the stale copy: 409, with who changed it and the account as it is now.
    const stale = await put(alpha, { ...termsOf(before), credit_limit: '10.00' });
    expect(stale.http).toBe(409);
    expect(stale.message).toBe('resource.conflict');
    expect((stale.data as unknown as { current: BillingAccount }).current).toMatchObject({ version: before.version + 1, credit_limit: '1500.50', updated_by: { name: 'Javier Morales' } });
    expect((await get<BillingAccount>(`${SSP}/${alpha}`)).data.credit_limit).toBe('1500.50');

    // A limit under what is owed flags the account.
    const tight = await put(alpha, { ...termsOf(saved.data), credit_limit: '800.00' });
    expect(tight.data.over_credit_limit).toBe(true);
    // Prepayment: no limit.
    const prepaid = await put(alpha, { ...termsOf(tight.data), billing_mode: 'prepayment', credit_limit: null });
    expect(prepaid.http).toBe(200);
    expect(names((await list('search=zeta&billing_mode=prepayment')).data)).toEqual(['Zeta Alpha DSP']);

    // The history: the billing fields that changed, newest first, who and from where.
    const history = await get<AccountHistoryEntry[]>(`${SSP}/${alpha}/history`);
    expect(history.http).toBe(200);
    expect(history.data.map((h) => h.action)).toEqual(['demand_partner.billing_update', 'demand_partner.billing_update', 'demand_partner.billing_update']);
    expect(history.data[0]!.changes).toEqual({ billing_mode: ['credit', 'prepayment'], credit_limit: ['800.00', null] });
    expect(history.data[2]).toMatchObject({ actor: { name: 'Javier Morales' }, ip: '127.0.0.1' });
    expect(history.data[2]!.changes.payment_terms).toEqual(['net30', 'net60']);
    // Another side's partner: 404 on every route of this side.
    expect((await put(perf, termsOf(saved.data))).http).toBe(404);
    expect((await get(`${SSP}/${perf}/history`)).http).toBe(404);
  });

  it('a change on the partner screen moves the same version (no silent overwrite) and shows in the history', async () => {
    const account = (await get<BillingAccount>(`${SSP}/${gamma}`)).data;
    const admin = (await signIn(t.app, 'admin@adtech.example')).headers;
    const partner = (await get<Record<string, unknown>>(`/v1/partners/demand/${gamma}`, admin)).data;
    const { id: _id, version, created_at: _c, updated_at: _u, created_by: _cb, updated_by: _ub, company_id_label: _l, ...fields } = partner;
    const edited = await t.app.inject({ method: 'PUT', url: `/v1/partners/demand/${gamma}`, headers: admin, payload: { ...fields, version, payment_terms: 'net60' } });
    expect(edited.statusCode).toBe(200);
    expect((await put(gamma, termsOf(account))).http).toBe(409);
    const history = await get<AccountHistoryEntry[]>(`${SSP}/${gamma}/history`);
    expect(history.data[0]).toMatchObject({ action: 'demand_partner.update', changes: { payment_terms: ['net45', 'net60'] } });
  });

  it('the demo seed gives accounts billing modes and contacts, once', async () => {
    const db = dbOf(t.app);
    // The test template has no demo warehouse: the demo's partners, as the demo seed leaves them.
    const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.legalName, 'Zeta Billing Holding GmbH'));
    await db.insert(demandPartners).values([
      { name: 'Nimbus Exchange', side: 'ssp', companyId: company!.id, endpointUrl: 'https://rtb.nimbus.example/openrtb2/auction' },
      { name: 'Aurora Demand', side: 'ssp', companyId: company!.id, endpointUrl: 'https://rtb.aurora.example/openrtb2/auction' },
      { name: 'Amazon TAM', side: 'ssp', companyId: null, endpointUrl: 'https://rtb.amazontam.example/openrtb2/auction' },
      { name: 'Garbí Affiliates', side: 'performance', companyId: company!.id, endpointUrl: 'https://rtb.garbi.example/openrtb2/auction' },
    ]);
    await seedBillingAccountsDemo(db);
    await seedBillingAccountsDemo(db);
    const prepaid = await list('billing_mode=prepayment&page_size=100');
    expect(names(prepaid.data)).toContain('Aurora Demand');
    const nimbus = (await list('search=Nimbus')).data.items[0]!;
    expect(nimbus).toMatchObject({ billing_mode: 'credit', credit_limit: '80000.00' });
    expect(nimbus.billing_contacts).toHaveLength(2);
    expect(nimbus.vat_id).toMatch(/^DE\d{9}$/);
    const history = await get<AccountHistoryEntry[]>(`${SSP}/${nimbus.id}/history`);
    expect(history.data.filter((h) => h.action === 'demand_partner.billing_update')).toHaveLength(1);
    const amazon = (await list('search=Amazon')).data.items[0]!;
    expect(amazon).toMatchObject({ missing: ['company'], billing_contacts: [], vat_id: null });
    const garbi = (await get<BillingAccountsAnswer>(`${PERF}?search=Garb`)).data.items[0]!;
    expect(garbi).toMatchObject({ billing_mode: 'prepayment', credit_limit: null });
  });
});
