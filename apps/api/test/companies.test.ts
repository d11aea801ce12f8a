/**
 * The resource layer's route factory, on companies: list (pagination, sort, filters, their 400s),
 * one row, create and update with the shared schema (tax id and IBAN rules, unique tax id), the
 * version conflict (409 with the current row), delete, history from the audit log, autocomplete,
 * export of a filtered list, and the ACL per operation.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorEnvelope } from './auth-support.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

interface Company {
  id: number;
  legal_name: string;
  country: string;
  tax_id: string;
  iban: string | null;
  version: number;
  billing_email: string;
  updated_by: { id: number | null; name: string | null };
}
interface PageOf<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

const valid = {
  legal_name: 'Nueva Demanda Digital S.L.',
  trade_name: 'NuevaDD',
  country: 'ES',
  tax_id: 'B-12345674',
  address: 'Calle Mayor 1',
  city: 'Madrid',
  postal_code: '28013',
  billing_email: 'billing@nuevadd.es',
  iban: 'es91 2100 0418 4502 0005 1332',
  currency: 'EUR',
};

describe('companies (resource layer)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let finance: Record<string, string>;
  let tech: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signIn(t.app, 'admin@adtech.example')).headers;
    finance = (await signIn(t.app, 'finance@adtech.example')).headers;
    tech = (await signIn(t.app, 'tech@adtech.example')).headers;
  });
  afterAll(async () => t?.close());

  const list = (query: string, headers = admin) => t.app.inject({ url: `/v1/companies?${query}`, headers });
  const create = (payload: object, headers = admin) => t.app.inject({ method: 'POST', url: '/v1/companies', payload, headers });

  it('lists the demo companies, paginated and sorted, with the total', async () => {
    const first = body<PageOf<Company>>(await list('page_size=5')).data;
    expect(first.total).toBeGreaterThanOrEqual(20);
    expect(first.items).toHaveLength(5);
    const names = first.items.map((c) => c.legal_name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    const second = body<PageOf<Company>>(await list('page_size=5&page=2')).data;
    expect(second.items[0]!.legal_name).not.toBe(first.items[0]!.legal_name);
    const byCountry = body<PageOf<Company>>(await list('sort=-country,legal_name&page_size=200')).data.items;
    expect(byCountry[0]!.country >= byCountry.at(-1)!.country).toBe(true);
  });

  it('filters: text contains (case-insensitive, LIKE characters literal), one of, and ranges', async () => {
    const de = body<PageOf<Company>>(await list('f[country]=DE&page_size=200')).data.items;
    expect(de.length).toBeGreaterThanOrEqual(3);
    expect(de.every((c) => c.country === 'DE')).toBe(true);
    const gmbh = body<PageOf<Company>>(await list('f[legal_name]=gmbh&page_size=200')).data.items;
    expect(gmbh.length).toBeGreaterThanOrEqual(3);
    expect(gmbh.every((c) => /gmbh/i.test(c.legal_name))).toBe(true);
    expect(body<PageOf<Company>>(await list('f[legal_name]=%25')).data.total).toBe(0);
    const recent = body<PageOf<Company>>(await list('f[created_at][min]=2000-01-01&f[created_at][max]=2999-12-31')).data.total;
    expect(recent).toBe(body<PageOf<Company>>(await list('')).data.total);
    // Bounds with a time and an offset (these answered 500: drizzle took the text for a Date).
    const timed = await list('f[created_at][min]=2000-01-01T10:00:00%2B02:00&f[updated_at][max]=2999-12-31T23:59:59Z');
    expect(timed.statusCode, timed.body).toBe(200);
    expect(body<PageOf<Company>>(timed).data.total).toBe(recent);
    expect(body<PageOf<Company>>(await list('f[created_at][min]=2999-01-01T00:00Z')).data.total).toBe(0);
  });

  it('answers 400 with field errors for unknown parameters, filters and sort fields, and a page over the cap', async () => {
    expectErrorEnvelope(await list('page_size=500'), 400, 'error.validation', { page_size: 'resource.page_size_max' });
    expectErrorEnvelope(await list('sort=iban'), 400, 'error.validation', { sort: 'resource.sort_unknown' });
    expectErrorEnvelope(await list('f[iban]=ES'), 400, 'error.validation', { 'f[iban]': 'error.unknown_field' });
    expectErrorEnvelope(await list('f[nope]=1'), 400, 'error.validation', { 'f[nope]': 'error.unknown_field' });
    expectErrorEnvelope(await list('colour=red'), 400, 'error.validation', { colour: 'error.unknown_field' });
    expectErrorEnvelope(await list('f[country]=XX'), 400, 'error.validation', { 'f[country]': 'error.invalid_value' });
    expectErrorEnvelope(await list('f[created_at][min]=yesterday'), 400, 'error.validation', { 'f[created_at][min]': 'error.invalid_value' });
    // Dates Date.parse takes and PostgreSQL does not (these answered 500).
    for (const bad of ['2026-02-30', '0000-01-01', '2026-01-01T24:00', '2026-01-01T10:00%2B23:59'])
      expectErrorEnvelope(await list(`f[created_at][max]=${bad}`), 400, 'error.validation', { 'f[created_at][max]': 'error.invalid_value' });
    expectErrorEnvelope(await list('page=0'), 400, 'error.validation', { page: 'error.invalid_value' });
  });

  it('creates with the shared rules: tax id for the country, IBAN, unique tax id per country; normalised', async () => {
    expectErrorEnvelope(await create({ ...valid, tax_id: 'B12345675' }), 400, 'error.validation', { tax_id: 'company.tax_id_invalid' });
    expectErrorEnvelope(await create({ ...valid, iban: 'ES9121000418450200051333' }), 400, 'error.validation', { iban: 'company.iban_invalid' });
    expectErrorEnvelope(await create({ ...valid, billing_email: 'nope' }), 400, 'error.validation', { billing_email: 'company.email_invalid' });
    expectErrorEnvelope(await create({ ...valid, legal_name: ' ' }), 400, 'error.validation', { legal_name: 'error.required' });
    expectErrorEnvelope(await create({ ...valid, colour: 'red' }), 400, 'error.validation', { colour: 'error.unknown_field' });
    const res = await create(valid);
    expect(res.statusCode, res.body).toBe(201);
    const c = body<Company>(res).data;
    expect(c).toMatchObject({ tax_id: 'B12345674', iban: 'ES9121000418450200051332', version: 1, updated_by: { name: 'Carmen Ortega' } });
    // The same tax id in the same country: refused on the field; in another country it is another id.
    expectErrorEnvelope(await create({ ...valid, tax_id: 'ESB12345674' }), 400, 'error.validation', { tax_id: 'company.tax_id_taken' });
    // A Spanish NIE and a German VAT number are valid tax ids.
    expect((await create({ ...valid, legal_name: 'Autónomo NIE', tax_id: 'X1234567L' })).statusCode).toBe(201);
    expect((await create({ ...valid, legal_name: 'Deutsche Firma', country: 'DE', tax_id: 'DE136695976', iban: null })).statusCode).toBe(201);
  });

  it('updates with the version; a stale version answers 409 with the current row and who changed it; history has both edits', async () => {
    const c = body<Company>(await create({ ...valid, legal_name: 'Conflict Test S.L.', tax_id: 'B22222228' })).data;
    const put = (headers: Record<string, string>, version: number, billing_email: string) =>
      t.app.inject({ method: 'PUT', url: `/v1/companies/${c.id}`, headers, payload: { ...valid, legal_name: 'Conflict Test S.L.', tax_id: 'B22222228', billing_email, version } });
    const first = await put(admin, 1, 'first@conflict.es');
    expect(first.statusCode, first.body).toBe(200);
    expect(body<Company>(first).data).toMatchObject({ version: 2, billing_email: 'first@conflict.es' });
    const stale = await put(tech, 1, 'second@conflict.es');
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ status: 'error', message: 'resource.conflict' });
    expect(stale.json().text).toMatch(/^Someone else changed this meanwhile \(Carmen Ortega, \d{4}-/);
    expect(stale.json().data.current).toMatchObject({ version: 2, billing_email: 'first@conflict.es', updated_by: { name: 'Carmen Ortega' } });
    expect((await put(tech, 2, 'second@conflict.es')).statusCode).toBe(200);
    const history = body<{ action: string; actor: { name: string }; ip: string; changes: Record<string, [unknown, unknown]> }[]>(
      await t.app.inject({ url: `/v1/companies/${c.id}/history`, headers: finance }),
    ).data;
    expect(history.map((h) => h.action)).toEqual(['company.update', 'company.update', 'company.create']);
    expect(history[0]).toMatchObject({ actor: { name: 'Priya Natarajan' }, ip: '127.0.0.1', changes: { billing_email: ['first@conflict.es', 'second@conflict.es'] } });
    expect(history[1]!.changes).toEqual({ billing_email: ['billing@nuevadd.es', 'first@conflict.es'] });
    expectErrorEnvelope(await t.app.inject({ method: 'PUT', url: '/v1/companies/999999', headers: admin, payload: { ...valid, version: 1 } }), 404, 'resource.not_found');
  });

  it('deletes once (a second delete is 404), audited; nothing uses a company yet', async () => {
    const c = body<Company>(await create({ ...valid, legal_name: 'To Delete S.L.', tax_id: 'B33333337' })).data;
    expect(body(await t.app.inject({ url: `/v1/companies/${c.id}/used-by`, headers: admin })).data).toEqual([]);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/companies/${c.id}`, headers: admin })).statusCode).toBe(200);
    expectErrorEnvelope(await t.app.inject({ method: 'DELETE', url: `/v1/companies/${c.id}`, headers: admin }), 404, 'resource.not_found');
    expectErrorEnvelope(await t.app.inject({ url: `/v1/companies/${c.id}`, headers: admin }), 404, 'resource.not_found');
    const history = body<{ action: string }[]>(await t.app.inject({ url: `/v1/companies/${c.id}/history`, headers: admin })).data;
    expect(history[0]!.action).toBe('company.delete');
  });

  it('autocompletes by the title field (limit 10 by default) and resolves ids', async () => {
    const found = body<{ id: number; value: string }[]>(await t.app.inject({ url: '/v1/companies/autocomplete?legal_name=gmbh', headers: finance })).data;
    expect(found.length).toBeGreaterThanOrEqual(3);
    expect(found.every((o) => /gmbh/i.test(o.value))).toBe(true);
    expect(body<unknown[]>(await t.app.inject({ url: '/v1/companies/autocomplete?legal_name=', headers: finance })).data).toHaveLength(10);
    const ids = body<{ id: number }[]>(await t.app.inject({ url: `/v1/companies/autocomplete?ids=${found[0]!.id},${found[1]!.id}`, headers: finance })).data;
    expect(ids.map((o) => o.id).sort()).toEqual([found[0]!.id, found[1]!.id].sort());
    expectErrorEnvelope(await t.app.inject({ url: '/v1/companies/autocomplete?ids=0x10', headers: finance }), 400, 'error.validation', { ids: 'error.invalid_id' });
  });

  it('exports the filtered list as CSV and XLSX with translated titles and the spec file name', async () => {
    const csv = await t.app.inject({ url: '/v1/companies/export?format=csv&f[country]=DE', headers: { ...finance, 'accept-language': 'es' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="companies_\d{4}-\d{2}-\d{2}_\d{6}\.csv"$/);
    const lines = csv.body.replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines[0]).toContain('Razón social');
    const de = body<PageOf<Company>>(await list('f[country]=DE&page_size=200')).data.total;
    expect(lines).toHaveLength(de + 1);
    expect(lines.slice(1).every((l) => l.includes(',DE,'))).toBe(true);
    const xlsx = await t.app.inject({ url: '/v1/companies/export?format=xlsx&f[country]=DE', headers: finance });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0]!.rowCount).toBe(de + 1);
    expectErrorEnvelope(await t.app.inject({ url: '/v1/companies/export?format=pdf', headers: finance }), 400, 'error.validation', { format: 'error.invalid_value' });
    // A name that a spreadsheet would run as a formula is exported as text.
    await create({ ...valid, legal_name: '=HYPERLINK("http://x")', tax_id: 'B33333337', country: 'ES' });
    const risky = await t.app.inject({ url: `/v1/companies/export?format=csv&f[legal_name]=${encodeURIComponent('HYPERLINK')}`, headers: finance });
    expect(risky.body).toContain(`"'=HYPERLINK(""http://x"")"`);
  });

  it('checks the ACL per operation: read-only roles list, open, export and read history; only write changes', async () => {
    // FINANCE reads companies; TECH holds every action; MARKETING has none.
    expect((await list('', finance)).statusCode).toBe(200);
    expectErrorEnvelope(await create(valid, finance), 403, 'auth.forbidden');
    const any = body<PageOf<Company>>(await list('page_size=1')).data.items[0]!;
    expectErrorEnvelope(await t.app.inject({ method: 'PUT', url: `/v1/companies/${any.id}`, headers: finance, payload: { ...valid, version: 1 } }), 403, 'auth.forbidden');
    expectErrorEnvelope(await t.app.inject({ method: 'DELETE', url: `/v1/companies/${any.id}`, headers: finance }), 403, 'auth.forbidden');
    const marketing = (await signIn(t.app, 'marketing@adtech.example')).headers;
    expectErrorEnvelope(await list('', marketing), 403, 'auth.forbidden');
    expectErrorEnvelope(await t.app.inject({ url: `/v1/companies/${any.id}/history`, headers: marketing }), 403, 'auth.forbidden');
    expect((await create({ ...valid, legal_name: 'Tech Made S.L.', tax_id: 'B44444446' }, tech)).statusCode).toBe(201);
  });
});

describe('agencies (a resource that refers to companies)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let lead: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signIn(t.app, 'admin@adtech.example')).headers;
    lead = (await signIn(t.app, 'demand.lead@adtech.example')).headers;
  });
  afterAll(async () => t?.close());

  const agency = (company_id: number) => ({
    name: 'Sol Media Buying',
    company_id,
    contacts: [{ name: 'Ana Gil', email: 'ana@solmedia.es', phone: '+34 600 000 000' }],
    commission_pct: '12.35',
    advertisers: ['Viajes Sol'],
    status: 'active',
  });

  it('shows the company by name, keeps the commission exact, and checks the reference', async () => {
    const company = body<{ id: number; legal_name: string }>(
      await t.app.inject({ method: 'POST', url: '/v1/companies', headers: admin, payload: { ...valid, legal_name: 'Sol Media Holding S.L.', tax_id: 'B44444446' } }),
    ).data;
    const res = await t.app.inject({ method: 'POST', url: '/v1/agencies', headers: lead, payload: agency(company.id) });
    expect(res.statusCode, res.body).toBe(201);
    expect(body(res).data).toMatchObject({ company_id: company.id, company_id_label: 'Sol Media Holding S.L.', commission_pct: '12.35', contacts: [{ name: 'Ana Gil', phone: '+34 600 000 000' }] });
    expectErrorEnvelope(await t.app.inject({ method: 'POST', url: '/v1/agencies', headers: lead, payload: agency(999_999) }), 400, 'error.validation', { company_id: 'resource.ref_unknown' });
    expectErrorEnvelope(
      await t.app.inject({ method: 'POST', url: '/v1/agencies', headers: lead, payload: { ...agency(company.id), commission_pct: '100.5' } }),
      400,
      'error.validation',
      { commission_pct: 'agency.commission_invalid' },
    );
    expectErrorEnvelope(
      await t.app.inject({ method: 'POST', url: '/v1/agencies', headers: lead, payload: { ...agency(company.id), contacts: [{ name: 'X', email: 'nope' }] } }),
      400,
      'error.validation',
      { 'contacts.0.email': 'company.email_invalid' },
    );
    const listed = body<{ items: { name: string; company_id_label: string }[] }>(await t.app.inject({ url: `/v1/agencies?f[company_id]=${company.id}`, headers: lead })).data;
    expect(listed.items).toEqual([expect.objectContaining({ name: 'Sol Media Buying', company_id_label: 'Sol Media Holding S.L.' })]);

    // The company is now in use: "used by" says where, and deleting it is refused with that list.
    expect(body(await t.app.inject({ url: `/v1/companies/${company.id}/used-by`, headers: admin })).data).toEqual([{ resource: 'agencies', label: 'menu.agencies', count: 1 }]);
    const refused = await t.app.inject({ method: 'DELETE', url: `/v1/companies/${company.id}`, headers: admin });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: 'resource.in_use', data: { used_by: [{ resource: 'agencies', count: 1 }] } });
    expect((await t.app.inject({ url: `/v1/companies/${company.id}`, headers: admin })).statusCode).toBe(200);
  });

  it('lists the demo agencies for a demand lead, filtered by status and commission range', async () => {
    const active = body<{ total: number; items: { status: string }[] }>(await t.app.inject({ url: '/v1/agencies?f[status]=active&page_size=200', headers: lead })).data;
    expect(active.total).toBeGreaterThanOrEqual(5);
    expect(active.items.every((a) => a.status === 'active')).toBe(true);
    const cheap = body<{ items: { commission_pct: string }[] }>(await t.app.inject({ url: '/v1/agencies?f[commission_pct][max]=10&page_size=200', headers: lead })).data;
    expect(cheap.items.length).toBeGreaterThanOrEqual(1);
    expect(cheap.items.every((a) => Number(a.commission_pct) <= 10)).toBe(true);
  });
});
