/**
 * Invoices and credit notes (issue 22) through the HTTP API: precreation from approved billing
 * rows, the preview's deduction rules (spec 5), 50 concurrent issues giving 50 consecutive
 * numbers, a draft issued once under concurrent requests, blocked and incomplete counterparties,
 * credit notes (references, sign, what is left), payments, e-mail with the PDF, the PDF's legal
 * mentions, UBL and Facturae downloads, the VERI*FACTU chain (a stored hash recomputed here
 * independently, the QR URL, append-only storage, a tampered record found) and the ACL.
 */
import type { IssueResult, InvoiceCandidate, InvoiceDetail, InvoiceList } from '@backoffice/core/invoices';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from '../src/reports-data/sql.ts';
import { DEMO } from './auth-support.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

type Headers = { authorization: string };
const MONTH = '2026-09';
const PARTNERS = 56;

describe('invoices', () => {
  let t: TestApp;
  let finance: Headers;
  let sspLead: Headers;
  let outbox: string;
  const ids: Record<string, number> = {};
  const db = () => t.app.ctx.database;

  const get = async <T>(url: string, headers: Headers = finance) => {
    const res = await t.app.inject({ url, headers });
    expect(res.statusCode, res.body).toBe(200);
    return body<T>(res).data;
  };
  const post = (url: string, payload: unknown = {}, headers: Headers = finance) =>
    t.app.inject({ method: 'POST', url, headers, payload: payload as object });
  const list = (qs: string) => get<InvoiceList>(`/v1/invoices?team=ssp&page_size=200&${qs}`);
  const draftOf = async (partner: number) =>
    (await list('state=draft')).rows.find((r) => r.id_user === partner)!;
  const issue = async (idsToIssue: number[]) => {
    const res = await post('/v1/invoices/issue', { ids: idsToIssue });
    expect(res.statusCode, res.body).toBe(200);
    return body<IssueResult[]>(res).data;
  };

  beforeAll(async () => {
    outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-invoices-outbox-'));
    t = await createTestApp({ mailOutboxDir: outbox, mailTransport: 'file' });
    finance = (await signIn(t.app, DEMO.finance)).headers;
    sspLead = (await signIn(t.app, DEMO.sspLead)).headers;
    // Counterparties: a Spanish, a French and a German company, a partner without billing info,
    // and US companies (not subject to Spanish VAT), each with approved rows of September.
    const companies = [
      { key: 'es', legal: 'Medios Digitales del Norte, S.A.', country: 'ES', tax: 'A28017895' },
      { key: 'fr', legal: 'Régie Publicitaire Lumière SAS', country: 'FR', tax: '40303265045' },
      { key: 'de', legal: 'Isar Media Handel GmbH', country: 'DE', tax: '811907980' },
      ...Array.from({ length: PARTNERS - 3 }, (_, i) => ({
        key: `us${i}`,
        legal: `Brightline DSP ${i + 1}, Inc.`,
        country: 'US',
        tax: `84-10${String(i).padStart(5, '0')}`,
      })),
    ];
    for (const c of companies) {
      const [co] = await query<{ id: number }>(
        db(),
        `INSERT INTO companies (legal_name, country, tax_id, address, city, postal_code, billing_email, currency)
         VALUES ($1, $2, $3, 'Main Street 1', 'Capital', '28001', $4, 'USD') RETURNING id`,
        [c.legal, c.country, c.tax, `billing@${c.key}.example`],
      );
      const [dp] = await query<{ id: number }>(
        db(),
        `INSERT INTO demand_partners (name, side, company_id, payment_terms, billing_contacts) VALUES ($1, 'ssp', $2, 'net30', $3::jsonb) RETURNING id`,
        [
          `Partner ${c.key.toUpperCase()}`,
          co!.id,
          JSON.stringify([{ name: 'AP', email: `ap@${c.key}.example`, role: 'accounts_payable' }]),
        ],
      );
      ids[c.key] = dp!.id;
    }
    const [orphan] = await query<{ id: number }>(
      db(),
      `INSERT INTO demand_partners (name, side, payment_terms) VALUES ('Partner ORPHAN', 'ssp', 'net45') RETURNING id`,
    );
    ids.orphan = orphan!.id;
    await query(
      db(),
      `INSERT INTO billing_rows (side, kind, month, counterparty_type, counterparty_id, product, currency, revenue_ours, other_side, impressions, state)
       SELECT 'ssp', 'advertiser', $1, 'demand_partner', p, f, 'USD', (1000 + p * 10 + CASE f WHEN 'banner' THEN 0.123456 ELSE 500.5 END)::numeric, 100, 1000000 + p, 'approved'
       FROM unnest($2::int4[]) p, unnest(ARRAY['banner', 'video']) f`,
      [MONTH, Object.values(ids)],
    );
    await query(db(), `INSERT INTO billing_rates (month, currency, rate) VALUES ($1, 'USD', 1.0800)`, [
      MONTH,
    ]);
  }, 120_000);
  afterAll(async () => t?.close());

  it('lists the candidates, drafts each counterparty once, and precreating again drafts nothing', async () => {
    const cands = await get<InvoiceCandidate[]>(`/v1/invoices/candidates?team=ssp&months=${MONTH}`);
    expect(cands).toHaveLength(PARTNERS + 1);
    const fr = cands.find((c) => c.counterparty_id === ids.fr)!;
    expect(fr).toMatchObject({ rows: 2, currency: 'USD', tax_treatment: 'reverse_charge', missing: [] });
    expect(fr.revenue).toBe(String((1000 + ids.fr! * 10) * 2 + 500.5 + 0.12)); // rows rounded to cents, then added
    expect(cands.find((c) => c.counterparty_id === ids.orphan)!.missing).toEqual([
      'company',
      'tax_id',
      'address',
    ]);

    const [a, b] = await Promise.all([
      post('/v1/invoices/precreate', { team: 'ssp', months: [MONTH] }),
      post('/v1/invoices/precreate', { team: 'ssp', months: [MONTH] }),
    ]);
    const created = [a, b].map((r) =>
      r.statusCode === 200 ? body<{ created: number[] }>(r).data.created.length : 0,
    );
    expect(created.reduce((s, n) => s + n, 0)).toBe(PARTNERS + 1);
    expect((await list('state=draft')).total).toBe(PARTNERS + 1);
    const again = await post('/v1/invoices/precreate', { team: 'ssp', months: [MONTH] });
    expect(body(again).message).toBe('invoice.nothing_to_precreate');
    const [claimed] = await query<{ n: number }>(
      db(),
      `SELECT count(*)::int AS n FROM billing_rows WHERE invoice_id IS NOT NULL`,
    );
    expect(claimed!.n).toBe((PARTNERS + 1) * 2);
    const es = await draftOf(ids.es!);
    expect(es).toMatchObject({
      tax_treatment: 'domestic',
      currency: 'USD',
      date_start: '2026-09-01',
      date_end: '2026-09-30',
      impressions: String((1000000 + ids.es!) * 2),
    });
    expect(es.total).toBe((Math.round(Number(es.base) * 121) / 100).toFixed(2));
  });

  it('refuses deductions that are not above 0 or exceed the revenue (spec), derives the other figure, and detects a concurrent edit', async () => {
    const d = await draftOf(ids.fr!);
    const patch = (payload: object) =>
      t.app.inject({ method: 'PATCH', url: `/v1/invoices/${d.id}`, headers: finance, payload });
    const zero = await patch({ version: d.version, fraud_revenue: '0' });
    expect(zero.statusCode).toBe(400);
    expect(body(zero).errors).toEqual({ fraud_revenue: 'invoice.deduction.positive' });
    const over = await patch({ version: d.version, fraud_revenue: '999999999.00' });
    expect(body(over).errors).toEqual({ fraud_revenue: 'invoice.deduction.exceeds' });
    const both = await patch({ version: d.version, fraud_percentage: '60', spoofing_percentage: '50' });
    expect(body(both).errors).toEqual({ spoofing_percentage: 'invoice.deduction.exceeds' });

    const ok = await patch({
      version: d.version,
      fraud_percentage: '10',
      spoofing_revenue: '100.00',
      comments: 'IVT 10%',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const saved = body<InvoiceDetail>(ok).data;
    const revenue = BigInt(d.revenue.replace('.', ''));
    const fraud = (revenue * 10n + 50n) / 100n; // cents, half up
    expect(saved.fraud_revenue).toBe((Number(fraud) / 100).toFixed(2));
    expect(saved.spoofing_percentage).toBe(((10000 * 10000) / Number(revenue) / 100).toFixed(2));
    expect(saved.new_revenue_net).toBe((Number(revenue - fraud - 10000n) / 100).toFixed(2));
    expect(saved.base).toBe(saved.new_revenue_net); // reverse charge: no VAT
    expect(saved.total).toBe(saved.base);

    const stale = await patch({ version: d.version, comments: 'late' });
    expect(stale.statusCode).toBe(409);
    const off = await patch({ version: saved.version, apply_deductions: false });
    expect(body<InvoiceDetail>(off).data.base).toBe(d.revenue);
    await patch({ version: saved.version + 1, apply_deductions: true });
  });

  it('issues 50 drafts from 50 concurrent requests as 50 consecutive numbers, and a draft asked twice once', async () => {
    const drafts = (await list('state=draft&sort=id')).rows.filter(
      (r) => r.id_user !== ids.orphan && r.id_user !== ids.es && r.id_user !== ids.fr,
    );
    const fifty = drafts.slice(0, 50);
    expect(fifty).toHaveLength(50);
    const answers = await Promise.all(fifty.map((d) => issue([d.id])));
    const numbers = answers.map((a) => a[0]!.number!).sort();
    const seqs = numbers.map((n) => Number(n.split('-')[1]));
    expect(new Set(numbers).size).toBe(50);
    expect(seqs).toEqual(Array.from({ length: 50 }, (_, i) => seqs[0]! + i));
    expect(numbers[0]).toMatch(/^F2026-\d{6}$/);

    const target = drafts[50]!;
    const twice = await Promise.all([issue([target.id]), issue([target.id]), issue([target.id])]);
    const issued = twice.flat().filter((r) => r.status === 'issued');
    expect(issued).toHaveLength(1);
    expect(
      twice
        .flat()
        .filter((r) => r.status === 'skipped')
        .every((r) => r.reason === 'invoice.skip.already' && r.number === issued[0]!.number),
    ).toBe(true);
    const [rows] = await query<{ n: number; doc: string }>(
      db(),
      `SELECT count(*)::int AS n, max(document_id) AS doc FROM billing_rows WHERE invoice_id = $1 AND state = 'invoiced'`,
      [target.id],
    );
    expect(rows).toEqual({ n: 2, doc: issued[0]!.number });
  });

  it('skips a blocked counterparty and one without billing info, and refuses issuing without approve', async () => {
    const orphan = await draftOf(ids.orphan!);
    expect(orphan.missing).toEqual(['company', 'tax_id', 'address']);
    const es = await draftOf(ids.es!);
    const block = await post(`/v1/invoices/blocked/${ids.es}`, { blocked: true, reason: 'Dispute' });
    expect(block.statusCode, block.body).toBe(200);
    expect((await draftOf(ids.es!)).blocked).toBe(true);
    const results = await issue([orphan.id, es.id]);
    expect(results.map((r) => r.reason)).toEqual(['invoice.skip.missing_info', 'invoice.skip.blocked']);
    await post(`/v1/invoices/blocked/${ids.es}`, { blocked: false });

    // The SSP supply lead has no access to invoices: neither issuing nor reading.
    expect((await post('/v1/invoices/issue', { ids: [es.id] }, sspLead)).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/v1/invoices?team=ssp', headers: sspLead })).statusCode).toBe(403);
    const empty = await post('/v1/invoices/issue', { ids: [] });
    expect(body(empty).errors).toEqual({ ids: 'invoice.none_selected' });
  });

  it('issues with the deductions, and the documents carry the legal mentions: PDF text, UBL, Facturae', async () => {
    const fr = await draftOf(ids.fr!);
    const es = await draftOf(ids.es!);
    const [a, b] = await issue([fr.id, es.id]);
    expect([a!.status, b!.status]).toEqual(['issued', 'issued']);
    const detail = await get<InvoiceDetail>(`/v1/invoices/${fr.id}`);
    expect(detail).toMatchObject({
      state: 'issued',
      number: a!.number,
      tax_treatment: 'reverse_charge',
      vat_amount: '0.00',
      language: 'en',
    });
    expect(detail.customer).toMatchObject({
      legal_name: 'Régie Publicitaire Lumière SAS',
      tax_id: '40303265045',
      country: 'FR',
    });
    expect(detail.due_date).toBe(
      new Date(Date.parse(`${detail.issue_date}T00:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10),
    );

    const pdf = await t.app.inject({ url: `/v1/invoices/${fr.id}/pdf`, headers: finance });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const { text } = await extractText(new Uint8Array(pdf.rawPayload), { mergePages: true });
    for (const s of [
      'Adtech Media Iberia, S.L.',
      'B86561412',
      'Régie Publicitaire Lumière SAS',
      '40303265045',
      a!.number!,
      'Inversión del sujeto pasivo',
      'VERI*FACTU',
      'ES91 2100 0418 4502 0005 1332',
    ])
      expect(text, s).toContain(s);
    const esPdf = await t.app.inject({ url: `/v1/invoices/${es.id}/pdf`, headers: finance });
    const esText = (await extractText(new Uint8Array(esPdf.rawPayload), { mergePages: true })).text;
    expect(esText).toContain('Factura');
    expect(esText).toContain('21');
    expect(esText).toContain('Medios Digitales del Norte, S.A.');

    const regen = await post(`/v1/invoices/${fr.id}/pdf`);
    const again = await post(`/v1/invoices/${fr.id}/pdf`);
    expect(body<{ same: boolean }>(again).data.same).toBe(true);
    expect(body<{ sha256: string }>(again).data.sha256).toBe(body<{ sha256: string }>(regen).data.sha256);

    const ubl = await t.app.inject({ url: `/v1/invoices/${fr.id}/ubl`, headers: finance });
    expect(ubl.statusCode).toBe(200);
    for (const s of [
      `<cbc:ID>${a!.number}</cbc:ID>`,
      '<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>',
      'urn:cen.eu:en16931:2017',
      '<cbc:DocumentCurrencyCode>USD</cbc:DocumentCurrencyCode>',
      `<cbc:PayableAmount currencyID="USD">${detail.total}</cbc:PayableAmount>`,
    ])
      expect(ubl.body).toContain(s);
    const facturae = await t.app.inject({ url: `/v1/invoices/${es.id}/facturae`, headers: finance });
    expect(facturae.statusCode).toBe(200);
    expect(facturae.body).toContain('<SchemaVersion>3.2.2</SchemaVersion>');
    expect(
      (await t.app.inject({ url: `/v1/invoices/${(await draftOf(ids.orphan!)).id}/pdf`, headers: finance }))
        .statusCode,
    ).toBe(400);
  });

  it('stores a VERI*FACTU record per document whose hash recomputes independently, chained, append-only, with the QR URL', async () => {
    const records = await query<{
      id: number;
      invoice_id: number;
      issuer_tax_id: string;
      number: string;
      issue_date: string;
      invoice_type: string;
      total_tax: string;
      total_amount: string;
      previous_hash: string;
      generated_at: string;
      hash: string;
      xml: string;
    }>(
      db(),
      `SELECT id, invoice_id, issuer_tax_id, number, to_char(issue_date, 'DD-MM-YYYY') AS issue_date, invoice_type, total_tax, total_amount, previous_hash, generated_at, hash, xml
       FROM verifactu_records ORDER BY id`,
    );
    expect(records.length).toBe(53);
    for (const [i, r] of records.entries()) {
      const input = `IDEmisorFactura=${r.issuer_tax_id}&NumSerieFactura=${r.number}&FechaExpedicionFactura=${r.issue_date}&TipoFactura=${r.invoice_type}&CuotaTotal=${r.total_tax}&ImporteTotal=${r.total_amount}&Huella=${r.previous_hash}&FechaHoraHusoGenRegistro=${r.generated_at}`;
      expect(crypto.createHash('sha256').update(input, 'utf8').digest('hex').toUpperCase()).toBe(r.hash);
      expect(r.previous_hash).toBe(i === 0 ? '' : records[i - 1]!.hash);
      expect(r.generated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/);
      expect(r.xml).toContain(`<sf:Huella>${r.hash}</sf:Huella>`);
    }
    // USD documents are recorded in euros at the month's rate (1.08 USD for 1 EUR).
    const fr = await draftOf(ids.fr!).catch(() => null);
    expect(fr).toBeUndefined();
    const [frInv] = await query<{ id: number; total: string }>(
      db(),
      `SELECT id, total::text FROM invoices WHERE counterparty_id = $1`,
      [ids.fr],
    );
    const frRec = records.find((r) => r.invoice_id === frInv!.id)!;
    expect(frRec.total_amount).toBe((Math.round((Number(frInv!.total) / 1.08) * 100) / 100).toFixed(2));

    const detail = await get<InvoiceDetail>(`/v1/invoices/${frInv!.id}`);
    const qr = new URL(detail.verifactu!.qr_url);
    expect(`${qr.origin}${qr.pathname}`).toBe('https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR');
    expect(Object.fromEntries(qr.searchParams)).toEqual({
      nif: 'B86561412',
      numserie: detail.number,
      fecha: `${detail.issue_date!.slice(8, 10)}-${detail.issue_date!.slice(5, 7)}-${detail.issue_date!.slice(0, 4)}`,
      importe: frRec.total_amount,
    });

    await expect(
      query(db(), `UPDATE verifactu_records SET total_amount = '1.00' WHERE id = $1`, [records[5]!.id]),
    ).rejects.toThrow(/append-only/);
    await expect(
      query(db(), `DELETE FROM verifactu_records WHERE id = $1`, [records[5]!.id]),
    ).rejects.toThrow(/append-only/);
    const verified = await get<{ issuer_id: number; ok: boolean; count: number }[]>(
      '/v1/invoices/verifactu/verify',
    );
    expect(verified.find((v) => v.issuer_id === 1)).toMatchObject({ ok: true, count: 53 });
  });

  it('credits part of an invoice, then the rest: own series, negative amounts, the references and the reason', async () => {
    const [inv] = await query<{
      id: number;
      number: string;
      issue_date: string;
      base: string;
      total: string;
    }>(
      db(),
      `SELECT id, number, issue_date::text, base::text, total::text FROM invoices WHERE counterparty_id = $1`,
      [ids.es],
    );
    const short = await post(`/v1/invoices/${inv!.id}/credit-note`, { reason: 'short' });
    expect(body(short).errors).toEqual({ reason: 'invoice.credit.reason_short' });
    const tooMuch = await post(`/v1/invoices/${inv!.id}/credit-note`, {
      reason: 'Discrepancy with the partner report',
      amount: '99999999.00',
    });
    expect(body(tooMuch).errors).toEqual({ amount: 'invoice.credit.amount_exceeds' });

    // Two requests with one key (a double click, a retry after a lost answer): one credit note.
    const creditKey = {
      reason: 'Discrepancy with the partner report',
      amount: '100.00',
      idempotency_key: 'credit-key-0001',
    };
    const [first, retry] = await Promise.all([
      post(`/v1/invoices/${inv!.id}/credit-note`, creditKey),
      post(`/v1/invoices/${inv!.id}/credit-note`, creditKey),
    ]);
    expect(body(retry).data).toEqual(body(first).data);
    expect(first.statusCode, first.body).toBe(200);
    const cn = body<{ id: number; number: string }>(first).data;
    expect(cn.number).toMatch(/^R2026-000001$/);
    const note = await get<InvoiceDetail>(`/v1/invoices/${cn.id}`);
    expect(note).toMatchObject({
      kind: 'credit_note',
      state: 'issued',
      base: '-100.00',
      vat_amount: '-21.00',
      total: '-121.00',
      corrects: { id: inv!.id, number: inv!.number },
      correction_reason: 'Discrepancy with the partner report',
    });
    const { text } = await extractText(
      new Uint8Array((await t.app.inject({ url: `/v1/invoices/${cn.id}/pdf`, headers: finance })).rawPayload),
      { mergePages: true },
    );
    expect(text).toContain(inv!.number);
    expect(text).toContain('Discrepancy with the partner report');
    const [rec] = await query<{ invoice_type: string; xml: string }>(
      db(),
      `SELECT invoice_type, xml FROM verifactu_records WHERE invoice_id = $1`,
      [cn.id],
    );
    expect(rec!.invoice_type).toBe('R1');
    expect(rec!.xml).toContain(inv!.number);

    let original = await get<InvoiceDetail>(`/v1/invoices/${inv!.id}`);
    expect(original.credit_notes.map((c) => c.number)).toEqual([cn.number]);
    expect(original).toMatchObject({ credited: '121.00', state: 'issued' });
    const rest = await post(`/v1/invoices/${inv!.id}/credit-note`, {
      reason: 'Contract cancelled, whole invoice withdrawn',
    });
    expect(rest.statusCode, rest.body).toBe(200);
    original = await get<InvoiceDetail>(`/v1/invoices/${inv!.id}`);
    expect(original).toMatchObject({ state: 'credited', outstanding: '0.00', credited: original.total });
    const none = await post(`/v1/invoices/${inv!.id}/credit-note`, {
      reason: 'Contract cancelled, whole invoice withdrawn',
    });
    expect(body(none).message).toBe('invoice.credit.nothing_left');
    const draft = await draftOf(ids.orphan!);
    expect(
      body(await post(`/v1/invoices/${draft.id}/credit-note`, { reason: 'Not possible on a draft' })).message,
    ).toBe('invoice.credit.not_issued');
  });

  it('records payments (partly paid, paid, idempotent mark as paid), goes back to pending, and the billing rows follow', async () => {
    const [inv] = await query<{ id: number; total: string }>(
      db(),
      `SELECT id, total::text FROM invoices WHERE counterparty_id = $1`,
      [ids.de],
    );
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid' }).format(new Date());
    const part = await post(`/v1/invoices/${inv!.id}/payments`, {
      amount: '100.00',
      paid_on: today,
      reference: 'SEPA 1',
    });
    expect(body<InvoiceDetail>(part).data).toMatchObject({ state: 'partly_paid', paid: '100.00' });
    const over = await post(`/v1/invoices/${inv!.id}/payments`, { amount: inv!.total, paid_on: today });
    expect(body(over).errors).toEqual({ amount: 'invoice.payment.amount_exceeds' });
    const [paid1, paid2] = await Promise.all([
      post(`/v1/invoices/${inv!.id}/mark-paid`),
      post(`/v1/invoices/${inv!.id}/mark-paid`),
    ]);
    expect([paid1.statusCode, paid2.statusCode].sort()).toContain(200);
    let detail = await get<InvoiceDetail>(`/v1/invoices/${inv!.id}`);
    expect(detail).toMatchObject({ state: 'paid', paid: inv!.total, outstanding: '0.00' });
    expect(detail.payments.reduce((s, p) => s + Math.round(Number(p.amount) * 100), 0)).toBe(
      Math.round(Number(inv!.total) * 100),
    );
    const rows = await query<{ paid: string; gross: string; date: string | null }>(
      db(),
      `SELECT paid_revenue::text AS paid, revenue_gross::text AS gross, received_payment_date::text AS date FROM billing_rows WHERE invoice_id = $1`,
      [inv!.id],
    );
    for (const r of rows) expect(r).toMatchObject({ paid: r.gross, date: today });

    const back = await post(`/v1/invoices/${inv!.id}/back-to-pending`);
    expect(back.statusCode, back.body).toBe(200);
    detail = await get<InvoiceDetail>(`/v1/invoices/${inv!.id}`);
    expect(detail).toMatchObject({ state: 'issued', paid: '0.00', outstanding: inv!.total });
    expect(detail.history.map((h) => h.action)).toEqual(
      expect.arrayContaining([
        'invoices.issue',
        'invoices.payment',
        'invoices.mark_paid',
        'invoices.back_to_pending',
      ]),
    );
  });

  it('sends the PDF by e-mail to the billing contacts and marks the invoice sent', async () => {
    const [inv] = await query<{ id: number; number: string }>(
      db(),
      `SELECT id, number FROM invoices WHERE counterparty_id = $1`,
      [ids.us0],
    );
    const res = await post(`/v1/invoices/${inv!.id}/send`, { to: ['cfo@us0.example'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<{ to: string[] }>(res).data.to).toEqual([
      'billing@us0.example',
      'ap@us0.example',
      'cfo@us0.example',
    ]);
    const eml = fs
      .readdirSync(outbox)
      .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'))
      .find((m) => m.includes(inv!.number))!;
    expect(eml).toContain(`filename=${inv!.number}.pdf`);
    expect(eml).toMatch(/Content-Type: application\/pdf/);
    expect((await get<InvoiceDetail>(`/v1/invoices/${inv!.id}`)).state).toBe('sent');
  });

  it('sends new records through the sending adapter when one is set (off by default), and a failure never undoes the invoice', async () => {
    const drafts = (await list('state=draft&sort=id')).rows.filter((r) => r.id_user !== ids.orphan);
    expect(drafts.length).toBeGreaterThanOrEqual(2);
    const sent: string[] = [];
    t.app.ctx.verifactuSender = {
      async send(xml) {
        sent.push(xml);
        if (sent.length === 1) return { accepted: true, csv: 'A-TEST-0001' };
        throw new Error('AEAT unreachable');
      },
    };
    try {
      const [accepted] = await issue([drafts[0]!.id]);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toContain(`<sf:NumSerieFactura>${accepted!.number}</sf:NumSerieFactura>`);
      expect((await get<InvoiceDetail>(`/v1/invoices/${drafts[0]!.id}`)).verifactu!.submission).toMatchObject(
        { accepted: true, csv: 'A-TEST-0001' },
      );
      const [failed] = await issue([drafts[1]!.id]);
      expect(failed!.status).toBe('issued');
      const detail = await get<InvoiceDetail>(`/v1/invoices/${drafts[1]!.id}`);
      expect(detail.state).toBe('issued');
      expect(detail.verifactu!.submission).toMatchObject({ accepted: false, error: 'AEAT unreachable' });
    } finally {
      delete t.app.ctx.verifactuSender;
    }
    // Without an adapter nothing is sent: the earlier documents have no submission.
    const [first] = await query<{ id: number }>(db(), `SELECT id FROM invoices WHERE counterparty_id = $1`, [
      ids.de,
    ]);
    expect((await get<InvoiceDetail>(`/v1/invoices/${first!.id}`)).verifactu!.submission).toBeNull();
  });

  it('finds a tampered record: the verification names the first broken link', async () => {
    const [victim] = await query<{ id: number; number: string }>(
      db(),
      `SELECT id, number FROM verifactu_records ORDER BY id OFFSET 10 LIMIT 1`,
    );
    await query(db(), `ALTER TABLE verifactu_records DISABLE TRIGGER verifactu_records_no_change`);
    await query(db(), `UPDATE verifactu_records SET total_amount = '1.00' WHERE id = $1`, [victim!.id]);
    await query(db(), `ALTER TABLE verifactu_records ENABLE TRIGGER verifactu_records_no_change`);
    const verified = await get<
      {
        issuer_id: number;
        ok: boolean;
        broken: { id: number; number: string; index: number; reason: string };
      }[]
    >('/v1/invoices/verifactu/verify');
    expect(verified.find((v) => v.issuer_id === 1)).toMatchObject({
      ok: false,
      broken: { id: victim!.id, number: victim!.number, index: 10, reason: 'hash_mismatch' },
    });
  });

  it('discards a draft (its rows can be drafted again) and exports the list', async () => {
    const orphan = await draftOf(ids.orphan!);
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/invoices/${orphan.id}`, headers: finance });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      (await get<InvoiceCandidate[]>(`/v1/invoices/candidates?team=ssp&months=${MONTH}`)).map(
        (c) => c.counterparty_id,
      ),
    ).toEqual([ids.orphan]);
    const csv = await t.app.inject({
      url: '/v1/invoices/export?team=ssp&kind=invoice&format=csv',
      headers: finance,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/invoices_ssp_\d{4}-\d{2}-\d{2}_\d{6}\.csv/);
    expect(csv.body.split('\n').filter(Boolean).length).toBe(1 + PARTNERS);
  });
});
