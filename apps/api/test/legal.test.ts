/**
 * Legal tool through the HTTP API: a template's text rules (empty, unknown and malformed
 * placeholders, with their lines), versions (numbered, 409 on a stale base, nothing-changed,
 * view, restore as the next version, history), the missing-data list for a publisher without a
 * company and one with everything (which placeholder, which record, the link to fix it), the
 * refusal to generate while data is missing and the checks of typed values, generation (a retry
 * answers the same document), the stored PDF read back with unpdf (the filled placeholders, the
 * numbered clauses, page numbers, Spanish accents), the documents list, and the ACL.
 */
import type { CheckAnswer, TemplateVersionDto, TemplateVersionSummary } from '@backoffice/core/legal';
import type { HistoryEntry } from '@backoffice/core/resources/define';
import { randomUUID } from 'node:crypto';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { companies, roles, userRoles, users } from '../src/db/schema.ts';
import { demandPartners, publishers } from '../src/db/schema-reports.ts';
import { renderLegalPdf } from '../src/modules/legal/pdf.ts';
import { countAudit, dbOf, userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
type Headers = Record<string, string>;
let legal: Headers;
let readOnly: Headers;
let outsider: Headers;
let company: { id: number; legalName: string; taxId: string; city: string };
let fullPublisher: number;
let bareDspPublisher: number;
let partner: number;

const BODY_EN = `This agreement is made between {{our.legal_name}} ({{our.tax_id}}) and {{counterparty.legal_name}} ({{counterparty.tax_id}}), {{counterparty.address}}.

## Term
It starts on {{contract.start_date}}.

## Revenue share
The Publisher {{counterparty.name}} receives {{deal.revenue_share}} of net revenue, paid within {{deal.payment_terms}}.
Balances under {{deal.minimum}} roll over.

# Schedule A
- Notices to {{counterparty.email}}.`;

const BODY_ES = `El presente contrato se firma entre {{our.legal_name}} ({{our.tax_id}}) y {{counterparty.legal_name}} ({{counterparty.tax_id}}), {{counterparty.address}}.

## Duración
Entra en vigor el {{contract.start_date}}.

## Reparto de ingresos
El Editor {{counterparty.name}} recibe el {{deal.revenue_share}} de los ingresos netos, pagados en {{deal.payment_terms}}; el firmante es {{counterparty.signatory_name}}.
Los saldos inferiores a {{deal.minimum}} se acumulan. Cláusula con eñe: año, señal, pequeño.

# Anexo A
- Notificaciones a {{counterparty.email}}.`;

const TEXTS = {
  title_en: 'Publisher Agreement',
  title_es: 'Contrato de Editor',
  body_en: BODY_EN,
  body_es: BODY_ES,
};

async function pdfText(pdf: Buffer): Promise<string[]> {
  const { text } = await extractText(new Uint8Array(pdf), { mergePages: false });
  return text.map((page) => page.replace(/\s+/g, ' ').trim());
}

const inject = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  headers: Headers,
  payload?: unknown,
) => t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

beforeAll(async () => {
  t = await createTestApp();
  // A person of the LEGAL demo role (the role's own ACL: the legal tool, companies and partners read).
  const db0 = dbOf(t.app);
  const [role] = await db0.select({ id: roles.id }).from(roles).where(eq(roles.name, 'LEGAL'));
  const [person] = await db0
    .insert(users)
    .values({ mail: 'ines.robles@adtech.example', name: 'Inés Robles', passwordHash: 'not-a-login-user' })
    .returning({ id: users.id });
  await db0.insert(userRoles).values({ userId: person!.id, roleId: role!.id });
  legal = { authorization: `Bearer ${(await t.app.sessions.issue(person!.id)).token}` };
  readOnly = (await userWithAcl(t.app, 'legal.reader@adtech.example', { '/v1/legal': ['read'] })).headers;
  outsider = (
    await userWithAcl(t.app, 'legal.outsider@adtech.example', {
      '/v1/companies': ['read'],
      '/v1/partners/publishers': ['read'],
    })
  ).headers;
  const db = dbOf(t.app);
  const [c] = await db
    .insert(companies)
    .values({
      legalName: 'Ediciones Peñalara, S.L.',
      country: 'ES',
      taxId: 'B12345674',
      address: 'Calle de Fuencarral 45, 2º',
      city: 'Madrid',
      postalCode: '28004',
      billingEmail: 'facturas@penalara.example',
      currency: 'EUR',
    })
    .returning({
      id: companies.id,
      legalName: companies.legalName,
      taxId: companies.taxId,
      city: companies.city,
    });
  company = c!;
  const rows = await db
    .insert(publishers)
    .values([
      {
        name: 'Diario Sierra Norte',
        side: 'ssp',
        companyId: company.id,
        revenueSharePct: '70',
        paymentTerms: 'net30',
        minPayout: '100',
        currency: 'EUR',
        billingEmail: 'ads@sierranorte.example',
        sellerId: 'legal-test-1',
      },
      {
        name: 'Blog Sin Empresa',
        side: 'ssp',
        companyId: null,
        revenueSharePct: '0',
        sellerId: 'legal-test-2',
      },
    ])
    .returning({ id: publishers.id });
  fullPublisher = rows[0]!.id;
  bareDspPublisher = rows[1]!.id;
  const [dp] = await db
    .insert(demandPartners)
    .values({
      name: 'Legal Test DSP',
      side: 'ssp',
      companyId: company.id,
      endpointUrl: 'https://rtb.legal-test.example/openrtb2',
      revenueSharePct: '12.5',
      billingContacts: [{ name: 'Marta Gil', email: 'legal@legaltestdsp.example', role: 'legal' }],
    })
    .returning({ id: demandPartners.id });
  partner = dp!.id;
});

afterAll(async () => {
  await t?.close();
});

async function newTemplate(name: string, party = 'publisher'): Promise<number> {
  const res = await inject('POST', '/v1/legal/templates', legal, {
    name,
    kind: 'publisher_agreement',
    party,
    description: 'Test template',
  });
  expect(res.statusCode, res.body).toBe(201);
  return body<{ id: number }>(res).data.id;
}

async function saveVersion(id: number, texts: object, base: number | null, comment = 'A change') {
  return inject('POST', `/v1/legal/templates/${id}/versions`, legal, {
    ...TEXTS,
    ...texts,
    comment,
    base_version: base,
  });
}

describe('legal tool', () => {
  it('refuses every operation without /v1/legal, and changes with read only', async () => {
    const id = await newTemplate('ACL template');
    expect((await saveVersion(id, {}, null)).statusCode).toBe(201);
    const calls: [Parameters<typeof inject>[0], string, unknown?][] = [
      ['GET', '/v1/legal/templates'],
      ['GET', `/v1/legal/templates/${id}`],
      ['GET', `/v1/legal/templates/${id}/versions`],
      ['GET', `/v1/legal/templates/${id}/versions/1`],
      ['GET', '/v1/legal/counterparties?type=publisher'],
      [
        'POST',
        `/v1/legal/templates/${id}/check`,
        { version: 1, language: 'en', counterparty_type: 'publisher', counterparty_id: fullPublisher },
      ],
      ['GET', '/v1/legal/documents'],
      ['GET', '/v1/legal/documents/1/pdf'],
      ['POST', `/v1/legal/templates/${id}/versions`, { ...TEXTS, comment: 'x', base_version: 1 }],
      [
        'POST',
        '/v1/legal/documents',
        {
          template_id: id,
          version: 1,
          language: 'en',
          counterparty_type: 'publisher',
          counterparty_id: fullPublisher,
          request_id: randomUUID(),
        },
      ],
      ['POST', '/v1/legal/templates', { name: 'Nope', kind: 'nda', party: 'any' }],
    ];
    for (const [method, url, payload] of calls) {
      const res = await inject(method, url, outsider, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    // Read only: every read, the data check (a POST that changes nothing), no change.
    expect((await inject('GET', `/v1/legal/templates/${id}/versions`, readOnly)).statusCode).toBe(200);
    expect(
      (
        await inject('POST', `/v1/legal/templates/${id}/check`, readOnly, {
          version: 1,
          language: 'en',
          counterparty_type: 'publisher',
          counterparty_id: fullPublisher,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await inject('POST', `/v1/legal/templates/${id}/versions`, readOnly, {
          ...TEXTS,
          comment: 'x',
          base_version: 1,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await inject('POST', '/v1/legal/documents', readOnly, {
          template_id: id,
          version: 1,
          language: 'en',
          counterparty_type: 'publisher',
          counterparty_id: fullPublisher,
          request_id: randomUUID(),
        })
      ).statusCode,
    ).toBe(403);
  });

  it('checks a version’s text: empty, unknown and malformed placeholders with their lines, the comment', async () => {
    const id = await newTemplate('Validation template');
    const empty = await saveVersion(id, { body_en: '   ', title_es: '' }, null);
    expect(empty.statusCode).toBe(400);
    expect(body(empty).message).toBe('legal.template_invalid');
    expect(body(empty).errors).toMatchObject({
      body_en: 'legal.body_required',
      title_es: 'legal.title_required',
    });

    const unknown = await saveVersion(
      id,
      { body_es: `${BODY_ES}\nSu NIF-IVA es {{counterparty.vat}}.` },
      null,
    );
    expect(unknown.statusCode).toBe(400);
    expect(body(unknown).errors).toEqual({ body_es: 'legal.placeholder_unknown' });
    const issues = body<{
      issues: { field: string; language: string; key: string; line: number; placeholder?: string }[];
    }>(unknown).data.issues;
    expect(issues).toEqual([
      {
        field: 'body',
        language: 'es',
        key: 'legal.placeholder_unknown',
        line: BODY_ES.split('\n').length + 1,
        placeholder: 'counterparty.vat',
      },
    ]);

    const malformed = await saveVersion(
      id,
      {
        title_en: 'Agreement with {{counterparty.name}',
        body_en: 'Between {{ our.legal_name }} and {{Counterparty Name}}.',
      },
      null,
    );
    expect(malformed.statusCode).toBe(400);
    expect(body(malformed).errors).toEqual({
      title_en: 'legal.placeholder_malformed',
      body_en: 'legal.placeholder_malformed',
    });

    const noComment = await saveVersion(id, {}, null, '  ');
    expect(noComment.statusCode).toBe(400);
    expect(body(noComment).errors).toMatchObject({ comment: 'legal.comment_required' });
    // Nothing was saved.
    const list = await inject('GET', `/v1/legal/templates/${id}/versions`, legal);
    expect(body<unknown[]>(list).data).toEqual([]);
  });

  it('numbers versions, refuses a stale base and an unchanged text, shows an older one and restores it', async () => {
    const id = await newTemplate('Versions template');
    const v1 = await saveVersion(id, {}, null, 'First version');
    expect(v1.statusCode).toBe(201);
    expect(body<TemplateVersionDto>(v1).data).toMatchObject({
      number: 1,
      comment: 'First version',
      author: { name: 'Inés Robles' },
      restored_from: null,
    });
    expect(body<TemplateVersionDto>(v1).data.placeholders).toContain('counterparty.signatory_name');

    const stale = await saveVersion(id, { title_en: 'Publisher Agreement (2027)' }, null);
    expect(stale.statusCode).toBe(409);
    expect(body(stale).message).toBe('legal.version_conflict');
    expect(body<{ current: TemplateVersionDto }>(stale).data.current.number).toBe(1);

    const v2 = await saveVersion(id, { title_en: 'Publisher Agreement (2027)' }, 1, 'New title');
    expect(body<TemplateVersionDto>(v2).data.number).toBe(2);
    const unchanged = await saveVersion(id, { title_en: 'Publisher Agreement (2027)' }, 2);
    expect(unchanged.statusCode).toBe(400);
    expect(body(unchanged).message).toBe('legal.version_unchanged');

    const old = await inject('GET', `/v1/legal/templates/${id}/versions/1`, legal);
    expect(body<TemplateVersionDto>(old).data.title_en).toBe('Publisher Agreement');
    expect((await inject('GET', `/v1/legal/templates/${id}/versions/9`, legal)).statusCode).toBe(404);

    const staleRestore = await inject('POST', `/v1/legal/templates/${id}/versions/1/restore`, legal, {
      base_version: 1,
    });
    expect(staleRestore.statusCode).toBe(409);
    const restored = await inject('POST', `/v1/legal/templates/${id}/versions/1/restore`, legal, {
      base_version: 2,
    });
    expect(restored.statusCode).toBe(201);
    expect(body<TemplateVersionDto>(restored).data).toMatchObject({
      number: 3,
      restored_from: 1,
      title_en: 'Publisher Agreement',
      comment: 'Restored version 1',
    });

    const versions = body<TemplateVersionSummary[]>(
      await inject('GET', `/v1/legal/templates/${id}/versions`, legal),
    ).data;
    expect(versions.map((v) => [v.number, v.comment])).toEqual([
      [3, 'Restored version 1'],
      [2, 'New title'],
      [1, 'First version'],
    ]);
    const row = body<{ current_version: number }>(
      await inject('GET', `/v1/legal/templates/${id}`, legal),
    ).data;
    expect(row.current_version).toBe(3);
    const history = body<HistoryEntry[]>(
      await inject('GET', `/v1/legal/templates/${id}/history`, legal),
    ).data;
    expect(history.map((h) => h.action)).toEqual(
      expect.arrayContaining([
        'legal_template.create',
        'legal_template.version_create',
        'legal_template.version_restore',
      ]),
    );
    expect(
      history.find((h) => h.action === 'legal_template.version_restore')!.changes.current_version,
    ).toEqual([2, 3]);
  });

  it('lists the missing data with the record and the link to fix it', async () => {
    const id = await newTemplate('Missing data template');
    await saveVersion(id, {}, null, 'First');
    const bare = await inject('POST', `/v1/legal/templates/${id}/check`, legal, {
      version: 1,
      language: 'es',
      counterparty_type: 'publisher',
      counterparty_id: bareDspPublisher,
    });
    expect(bare.statusCode, bare.body).toBe(200);
    const answer = body<CheckAnswer>(bare).data;
    const missing = Object.fromEntries(answer.missing.map((m) => [m.key, m]));
    expect(Object.keys(missing).sort()).toEqual(
      [
        'contract.start_date',
        'counterparty.address',
        'counterparty.email',
        'counterparty.legal_name',
        'counterparty.signatory_name',
        'counterparty.tax_id',
        'deal.revenue_share',
      ].sort(),
    );
    expect(missing['counterparty.legal_name']).toMatchObject({
      reason: 'legal.missing.no_company',
      source: {
        type: 'publisher',
        id: bareDspPublisher,
        name: 'Blog Sin Empresa',
        field: 'company_id',
        link: `/partners/publishers_ssp/${bareDspPublisher}`,
      },
    });
    expect(missing['deal.revenue_share']).toMatchObject({
      reason: 'legal.missing.not_set',
      source: { field: 'revenue_share_pct' },
    });
    expect(missing['contract.start_date']).toMatchObject({
      reason: 'legal.missing.document',
      source: { type: 'document', link: null },
    });
    // Our company comes from the invoice issuer of the publisher's side.
    const ours = answer.placeholders.find((p) => p.key === 'our.legal_name')!;
    expect(ours).toMatchObject({
      value: 'Adtech Media Iberia, S.L.',
      missing: false,
      source: { type: 'issuer' },
    });

    const full = body<CheckAnswer>(
      await inject('POST', `/v1/legal/templates/${id}/check`, legal, {
        version: 1,
        language: 'es',
        counterparty_type: 'publisher',
        counterparty_id: fullPublisher,
      }),
    ).data;
    expect(full.missing.map((m) => m.key).sort()).toEqual([
      'contract.start_date',
      'counterparty.signatory_name',
    ]);
    const value = (key: string) => full.placeholders.find((p) => p.key === key)!;
    expect(value('counterparty.legal_name')).toMatchObject({
      value: 'Ediciones Peñalara, S.L.',
      source: { type: 'company', id: company.id, link: `/utils/list_companies/${company.id}` },
    });
    expect(value('counterparty.address').value).toBe('Calle de Fuencarral 45, 2º, 28004 Madrid, España');
    // Spanish keeps the number and its sign together with a no-break space.
    expect(value('deal.revenue_share').value).toBe('70\u00a0%');
    expect(value('deal.payment_terms').value).toBe('30 días');
    expect(value('deal.minimum').value?.replace(/\s/g, ' ')).toBe('100,00 €');

    // A demand partner's signatory is its billing contact with the legal role; this template is for publishers.
    const wrongType = await inject('POST', `/v1/legal/templates/${id}/check`, legal, {
      version: 1,
      language: 'en',
      counterparty_type: 'demand_partner',
      counterparty_id: partner,
    });
    expect(wrongType.statusCode).toBe(400);
    expect(body(wrongType).errors).toEqual({ counterparty_type: 'legal.counterparty_type_not_allowed' });
    const any = await newTemplate('Any party template', 'any');
    await saveVersion(any, {}, null, 'First');
    const dsp = body<CheckAnswer>(
      await inject('POST', `/v1/legal/templates/${any}/check`, legal, {
        version: 1,
        language: 'en',
        counterparty_type: 'demand_partner',
        counterparty_id: partner,
      }),
    ).data;
    expect(dsp.placeholders.find((p) => p.key === 'counterparty.signatory_name')!.value).toBe('Marta Gil');
    expect(dsp.placeholders.find((p) => p.key === 'deal.revenue_share')!.value).toBe('12.5%');
    const unknownOne = await inject('POST', `/v1/legal/templates/${any}/check`, legal, {
      version: 1,
      language: 'en',
      counterparty_type: 'publisher',
      counterparty_id: 99999,
    });
    expect(body(unknownOne).errors).toEqual({ counterparty_id: 'legal.counterparty_not_found' });
  });

  it('refuses to generate while data is missing, checks typed values, generates once and stores the PDF', async () => {
    const id = await newTemplate('Generation template');
    await saveVersion(id, {}, null, 'First');
    const base = {
      template_id: id,
      version: 1,
      language: 'es',
      counterparty_type: 'publisher',
      counterparty_id: fullPublisher,
    };

    const refused = await inject('POST', '/v1/legal/documents', legal, { ...base, request_id: randomUUID() });
    expect(refused.statusCode).toBe(400);
    expect(body(refused).message).toBe('legal.data_missing');
    expect(
      body<{ missing: { key: string }[] }>(refused)
        .data.missing.map((m) => m.key)
        .sort(),
    ).toEqual(['contract.start_date', 'counterparty.signatory_name']);

    const partly = await inject('POST', '/v1/legal/documents', legal, {
      ...base,
      values: { 'contract.start_date': '2027-01-01' },
      request_id: randomUUID(),
    });
    expect(body(partly).message).toBe('legal.data_missing');

    const bad = await inject('POST', '/v1/legal/documents', legal, {
      ...base,
      values: {
        'contract.start_date': '2027-02-30',
        'counterparty.signatory_name': 'Elena Ruiz',
        'counterparty.legal_name': 'Otra S.A.',
        'deal.vat': 'x',
      },
      request_id: randomUUID(),
    });
    expect(bad.statusCode).toBe(400);
    expect(body(bad).errors).toEqual({
      'values.contract.start_date': 'legal.value_date_invalid',
      'values.counterparty.legal_name': 'legal.value_not_missing',
      'values.deal.vat': 'legal.placeholder_unknown',
    });
    expect(await countAudit(t.app, 'legal_document.create')).toBe(0);

    const requestId = randomUUID();
    const payload = {
      ...base,
      values: { 'contract.start_date': '2027-01-15', 'counterparty.signatory_name': 'Elena Ruiz Peña' },
      request_id: requestId,
    };
    const made = await inject('POST', '/v1/legal/documents', legal, payload);
    expect(made.statusCode, made.body).toBe(201);
    const doc = body<{ id: number; file_name: string; sha256: string; already: boolean }>(made).data;
    expect(doc).toMatchObject({
      already: false,
      file_name: `generation-template-diario-sierra-norte-v1-es.pdf`,
    });
    const again = await inject('POST', '/v1/legal/documents', legal, payload);
    expect(again.statusCode).toBe(200);
    expect(body<{ id: number; already: boolean }>(again).data).toMatchObject({ id: doc.id, already: true });
    expect(await countAudit(t.app, 'legal_document.create')).toBe(1);

    const pdf = await inject('GET', `/v1/legal/documents/${doc.id}/pdf`, readOnly);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(doc.file_name);
    const bytes = pdf.rawPayload;
    const pages = await pdfText(bytes);
    const all = pages.join(' ');
    for (const expected of [
      'Contrato de Editor',
      'Adtech Media Iberia, S.L.',
      'B86561412',
      'Ediciones Peñalara, S.L.',
      'B12345674',
      'Calle de Fuencarral 45, 2º, 28004 Madrid, España',
      'Diario Sierra Norte',
      '70 %',
      '30 días',
      '100,00 €',
      '15/01/2027',
      'Elena Ruiz Peña',
      'ads@sierranorte.example',
      '1. Duración',
      '2.1',
      'Anexo A',
      'Cláusula con eñe: año, señal, pequeño.',
      'Por Ediciones Peñalara, S.L.',
      'Firma',
      `Página 1 de ${pages.length}`,
    ])
      expect(all).toContain(expected);
    expect(all).not.toContain('{{');

    // The stored bytes, whatever changed since: the company's name changes, the download does not.
    await dbOf(t.app).update(companies).set({ legalName: 'Ediciones Peñalara Renombrada, S.L.' });
    const later = await inject('GET', `/v1/legal/documents/${doc.id}/pdf`, legal);
    expect(Buffer.compare(later.rawPayload, bytes)).toBe(0);
    await dbOf(t.app).update(companies).set({ legalName: company.legalName });

    const list = await inject('GET', `/v1/legal/documents?f[template_id]=${id}&sort=-created_at`, legal);
    expect(list.statusCode, list.body).toBe(200);
    expect(body<{ items: Record<string, unknown>[]; total: number }>(list).data.items).toEqual([
      expect.objectContaining({
        id: doc.id,
        counterparty_name: 'Diario Sierra Norte',
        counterparty_type: 'publisher',
        template_version: 1,
        language: 'es',
        manual_count: 2,
        author_id_label: 'Inés Robles',
        template_id_label: 'Generation template',
      }),
    ]);

    // A template with documents is not deleted (they are used by it).
    const del = await inject('DELETE', `/v1/legal/templates/${id}`, legal);
    expect(del.statusCode).toBe(409);
    expect(body<{ used_by: { resource: string; count: number }[] }>(del).data.used_by).toEqual([
      expect.objectContaining({ resource: 'legal_documents', count: 1 }),
    ]);
  });

  it('orders the dates typed for a document', async () => {
    const id = await newTemplate('Dates template');
    await saveVersion(
      id,
      { body_en: 'From {{contract.start_date}} to {{contract.end_date}}.' },
      null,
      'First',
    );
    const res = await inject('POST', '/v1/legal/documents', legal, {
      template_id: id,
      version: 1,
      language: 'en',
      counterparty_type: 'publisher',
      counterparty_id: fullPublisher,
      values: {
        'contract.start_date': '2027-06-01',
        'contract.end_date': '2027-05-31',
        'counterparty.signatory_name': 'A B',
      },
      request_id: randomUUID(),
    });
    expect(res.statusCode).toBe(400);
    expect(body(res).errors).toEqual({ 'values.contract.end_date': 'legal.end_before_start' });
  });

  it('renders the same bytes for the same document, on as many pages as the text needs', async () => {
    const clause = (n: number) => ({ kind: 'clause' as const, number: String(n), text: `Clause ${n}` });
    const paragraph = (n: number) => ({
      kind: 'paragraph' as const,
      number: `${n}.1`,
      text: 'The parties agree that this paragraph is long enough to wrap over several lines of the page. '
        .repeat(4)
        .trim(),
    });
    const input = {
      language: 'en' as const,
      title: 'Long Agreement',
      date: '2026-11-26',
      reference: 'Long template · v1',
      blocks: Array.from({ length: 30 }, (_, i) => [clause(i + 1), paragraph(i + 1)]).flat(),
      parties: [
        { name: 'Adtech Media Iberia, S.L.', signatory: 'Carmen Ortega', signatoryTitle: 'CEO' },
        { name: 'Ediciones Peñalara, S.L.', signatory: null, signatoryTitle: null },
      ] as [
        { name: string; signatory: string | null; signatoryTitle: string | null },
        { name: string; signatory: string | null; signatoryTitle: string | null },
      ],
    };
    const a = await renderLegalPdf(input);
    const b = await renderLegalPdf(input);
    expect(Buffer.compare(a, b)).toBe(0);
    const pages = await pdfText(a);
    expect(pages.length).toBeGreaterThan(2);
    expect(pages[pages.length - 1]).toContain(`Page ${pages.length} of ${pages.length}`);
    expect(pages[pages.length - 1]).toContain('Carmen Ortega');
    expect(pages.join(' ')).toContain('30. Clause 30');
  });
});
