/**
 * The invoice PDF (issue 22): pure rendering, no database. The text is read back with unpdf and
 * checked for the legal mentions of each case; fonts embedded; the same bytes twice; the lines
 * table flowing onto more pages with its header repeated; the VERI*FACTU QR and legend.
 */
import type { InvoiceDocument } from '@backoffice/core/invoice-document';
import { extractText } from 'unpdf';
import { describe, expect, it } from 'vitest';
import {
  formatDocDate,
  formatDocMoney,
  formatIban,
  formatPaymentTerms,
  formatPercent,
  formatQuantity,
  vatNumber,
} from '../src/modules/invoices/pdf/format.ts';
import { QR_SYMBOL_MM, qrRuns } from '../src/modules/invoices/pdf/qr.ts';
import { renderInvoicePdf } from '../src/modules/invoices/pdf/render.ts';
import { CREDIT_NOTE, DOMESTIC, NOT_SUBJECT, REVERSE_CHARGE } from './invoice-fixtures.ts';

const QR_URL =
  'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=B86561412&numserie=F2026-000001&fecha=02-11-2026&importe=14944.11';

/** Each page's text, whitespace (line breaks, no-break spaces) collapsed to single spaces. */
async function pagesOf(pdf: Buffer): Promise<string[]> {
  const { text } = await extractText(new Uint8Array(pdf), { mergePages: false });
  return text.map((page) => page.replace(/\s+/g, ' ').trim());
}

async function textOf(doc: InvoiceDocument): Promise<string> {
  return (await pagesOf(await renderInvoicePdf(doc))).join(' ');
}

function expectAll(text: string, expected: string[]): void {
  for (const s of expected) expect(text, s).toContain(s);
}

const IBAN = 'ES91 2100 0418 4502 0005 1332';

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('invoice PDF', () => {
  it('domestic invoice (es): parties, dates, lines, base, VAT 21 %, total, payment', async () => {
    const text = await textOf(DOMESTIC);
    expectAll(text, [
      'Factura',
      'Número F2026-000001',
      'Fecha de expedición 02/11/2026',
      'Fecha de vencimiento 17/12/2026',
      'Periodo de prestación del 01/10/2026 al 31/10/2026',
      'Moneda EUR',
      'EMISOR Adtech Media Iberia, S.L. NIF: B86561412 Calle de Alcalá 21, 3º 28014 Madrid España',
      'Registro Mercantil de Madrid, tomo 31.250, folio 1, hoja M-562.300',
      'FACTURAR A Medios Digitales del Norte, S.A. NIF: A28017895 Gran Vía 1 48001 Bilbao España',
      'Descripción Impresiones Importe',
      'Publicidad programática — banner (octubre 2026) 12.500.000 8.250,00 €',
      'Publicidad programática — vídeo (octubre 2026) 1.200.000 4.100,50 €',
      'Total de las líneas 12.350,50 €',
      'Base imponible 12.350,50 €',
      'IVA 21 % 2.593,61 €',
      'Total (EUR) 14.944,11 €',
      'Transferencia bancaria',
      'Plazo de pago 45 días',
      `IBAN ${IBAN}`,
      'BIC CAIXESBBXXX',
      '1 / 1',
    ]);
    expect(text).not.toContain('Inversión del sujeto pasivo');
    expect(text).not.toContain('no sujeta');
    expect(text).not.toContain('VERI*FACTU');
  });

  it('reverse charge (en): VAT ids with prefix, deductions with percentage, the LIVA and directive mentions', async () => {
    const text = await textOf(REVERSE_CHARGE);
    expectAll(text, [
      'Invoice',
      'Number F2026-000002',
      'Issue date 2026-11-02',
      'Due date 2026-12-02',
      'Service period 2026-10-01 to 2026-10-31',
      'Currency EUR',
      'FROM Adtech Media Iberia, S.L. VAT id: ESB86561412',
      'BILL TO Régie Publicitaire Lumière SAS VAT id: FR40303265045 12 rue de la Paix 75002 Paris France',
      'Description Impressions Amount',
      'Programmatic advertising — banner (October 2026) 30,000,000 €20,000.00',
      'Lines total €20,000.00',
      'Deduction for fraudulent traffic (5%) -€1,000.00',
      'Deduction for domain spoofing -€250.00',
      'Tax base €18,750.00',
      'VAT 0% €0.00',
      'Total (EUR) €18,750.00',
      'Inversión del sujeto pasivo (art. 84.Uno.2º LIVA)',
      'Reverse charge: VAT to be accounted for by the recipient (art. 196 Directive 2006/112/EC)',
      'Method Bank transfer',
      'Payment terms 30 days',
      `IBAN ${IBAN}`,
    ]);
    expect(text).not.toContain('Not subject');

    const es = await textOf({ ...REVERSE_CHARGE, language: 'es' });
    expectAll(es, [
      'Inversión del sujeto pasivo (art. 84.Uno.2º LIVA)',
      'Deducción por tráfico fraudulento (5 %) -1.000,00 €',
      'Base imponible 18.750,00 €',
      'NIF-IVA: FR40303265045',
      'Francia',
    ]);
  });

  it('non-EU customer in USD: not subject to Spanish VAT, dollars, country name', async () => {
    const text = await textOf(NOT_SUBJECT);
    expectAll(text, [
      'Number F2026-000003',
      'Issue date 2026-11-03',
      'Due date 2027-01-02',
      'Currency USD',
      'Tax id: B86561412',
      'Brightline DSP, Inc. Tax id: 84-1234567 500 Market Street, Suite 400 San Francisco 94105 United States',
      '4,000,000 $5,320.75',
      '250,000 $612.40',
      'Tax base $5,933.15',
      'VAT 0% $0.00',
      'Total (USD) $5,933.15',
      'Not subject to Spanish VAT (art. 69 LIVA): place of supply outside Spain',
      'Payment terms 60 days',
      `IBAN ${IBAN}`,
    ]);
    expect(text).not.toContain('€');
    expect(text).not.toContain('Inversión');

    const es = await textOf({ ...NOT_SUBJECT, language: 'es' });
    expectAll(es, [
      'Operación no sujeta al IVA (art. 69 LIVA)',
      'Total (USD) 5.933,15 $',
      'Estados Unidos',
      '60 días',
    ]);
  });

  it('credit note: title, the corrected invoice and the reason, negative amounts', async () => {
    const text = await textOf(CREDIT_NOTE);
    expectAll(text, [
      'Credit note',
      'Number R2026-000001',
      'Issue date 2026-11-20',
      'Corrects invoice F2026-000002 of 2026-11-02',
      'Reason: Discrepancy with the partner’s figures for October',
      'Programmatic advertising — banner (October 2026) 0 -€3,000.00',
      'Tax base -€3,000.00',
      'Total (EUR) -€3,000.00',
      'Inversión del sujeto pasivo (art. 84.Uno.2º LIVA)',
      'Régie Publicitaire Lumière SAS',
    ]);
    // No payment box: a credit note is not paid.
    expect(text).not.toContain('Bank transfer');

    const es = await textOf({ ...CREDIT_NOTE, language: 'es' });
    expectAll(es, [
      'Factura rectificativa',
      'Rectifica la factura F2026-000002 de 02/11/2026',
      'Motivo: Discrepancy with the partner’s figures for October',
      'Total (EUR) -3.000,00 €',
    ]);
  });

  it('embeds the DejaVu fonts (TrueType subsets) and no standard 14 font', async () => {
    const bytes = (await renderInvoicePdf(DOMESTIC)).toString('latin1');
    expect(bytes.match(/\/FontFile2/g)?.length).toBe(2);
    expect(bytes).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/);
    expect(bytes).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans-Bold\b/);
    expect(bytes).not.toMatch(/\/Subtype \/Type1/);
    expect(bytes).not.toContain('Helvetica');
  });

  it('is deterministic: the same document gives the same bytes, dated by the issue date', async () => {
    for (const doc of [DOMESTIC, CREDIT_NOTE]) {
      const first = await renderInvoicePdf(doc);
      await renderInvoicePdf(REVERSE_CHARGE);
      const second = await renderInvoicePdf(doc);
      expect(await pagesOf(second)).toEqual(await pagesOf(first));
      expect(second.equals(first), doc.number).toBe(true);
    }
    const bytes = (await renderInvoicePdf(DOMESTIC)).toString('latin1');
    // CreationDate and ModDate, as pdfkit writes them (indirect objects).
    expect(bytes.match(/\(D:20261102000000Z\)/g)?.length).toBe(2);
  });

  it('flows 60 lines onto more pages, repeating the table header and numbering the pages', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => ({
      description:
        i % 10 === 0
          ? `Line #${i + 1}: programmatic advertising with a description long enough to wrap onto a second line of its cell`
          : `Line #${i + 1}: programmatic advertising`,
      quantity: String((i + 1) * 1000),
      amount: '100.00',
    }));
    const doc: InvoiceDocument = {
      ...DOMESTIC,
      language: 'en',
      lines,
      lines_total: '6000.00',
      base: '6000.00',
      vat_amount: '1260.00',
      total: '7260.00',
    };
    const pages = await pagesOf(await renderInvoicePdf(doc));
    expect(pages.length).toBeGreaterThanOrEqual(2);
    pages.forEach((page, i) => expect(page).toContain(`${i + 1} / ${pages.length}`));
    // The header on every page the table is on (all but possibly the last, holding the totals).
    const withLines = pages.filter((page) => /Line #\d+:/.test(page));
    expect(withLines.length).toBeGreaterThanOrEqual(2);
    for (const page of withLines) expect(page).toContain('Description Impressions Amount');
    expect(pages.slice(1).every((page) => page.includes('Invoice F2026-000001 (continued)'))).toBe(true);
    // Every line once, in order; the long ones whole.
    const all = pages.join(' ');
    const numbers = [...all.matchAll(/Line #(\d+):/g)].map((m) => Number(m[1]));
    expect(numbers).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(all).toContain(
      'Line #51: programmatic advertising with a description long enough to wrap onto a second line of its cell',
    );
    expect(all).toContain('60,000 €100.00');
    expect(all).toContain('Total (EUR) €7,260.00');
  });

  it('VERI*FACTU: the QR (level M, 30–40 mm) with its legend and the verifiable sentence', async () => {
    const verifactu = { hash: 'ABC123DEF456', qr_url: QR_URL };
    const pdf = await renderInvoicePdf({ ...DOMESTIC, verifactu });
    const [first] = await pagesOf(pdf);
    expect(first).toMatch(
      /^QR tributario: VERI\*FACTU Factura verificable en la sede electrónica de la AEAT/,
    );
    expect(pdf.length).toBeGreaterThan((await renderInvoicePdf(DOMESTIC)).length);
    const en = await textOf({ ...REVERSE_CHARGE, verifactu });
    expectAll(en, ['VERI*FACTU', 'Invoice verifiable at the AEAT e-office']);

    const qr = qrRuns(QR_URL);
    expect(qr.size).toBeGreaterThanOrEqual(21);
    expect(qr.runs.length).toBeGreaterThan(100);
    const withQuietZone = (QR_SYMBOL_MM * (qr.size + 8)) / qr.size;
    expect(QR_SYMBOL_MM).toBeGreaterThanOrEqual(30);
    expect(withQuietZone).toBeLessThanOrEqual(40);
  });

  it('formats values by language', () => {
    expect(formatDocMoney('1234.50', 'EUR', 'es')).toBe('1.234,50\u00a0€');
    expect(formatDocMoney('1234.50', 'EUR', 'en')).toBe('€1,234.50');
    expect(formatDocMoney('-3000.00', 'EUR', 'en')).toBe('-€3,000.00');
    expect(formatQuantity('12500000', 'es')).toBe('12.500.000');
    expect(formatQuantity('12500000', 'en')).toBe('12,500,000');
    expect(formatPercent('21.00', 'es')).toBe('21\u00a0%');
    expect(formatPercent('12.50', 'en')).toBe('12.5%');
    expect(formatPaymentTerms('net30', 'en')).toBe('30 days');
    expect(formatPaymentTerms('net45', 'es')).toBe('45 días');
    expect(formatPaymentTerms('prepaid', 'es')).toBe('Pago anticipado');
    expect(formatIban('ES9121000418450200051332')).toBe(IBAN);
    expect(formatDocDate('2026-11-02', 'es')).toBe('02/11/2026');
    expect(formatDocDate('2026-11-02', 'en')).toBe('2026-11-02');
    expect(vatNumber({ country: 'GR', tax_id: '094259216' })).toBe('EL094259216');
    expect(vatNumber({ country: 'FR', tax_id: 'FR40303265045' })).toBe('FR40303265045');
  });
});
