/**
 * The e-invoice exports (issue 22; docs/decisions/026-e-invoice-export.md): every fixture as UBL
 * 2.1 (EN 16931) and Facturae 3.2.2, validated against the official schemas read from
 * /work/shared/standards at test time (xmllint-wasm; several documents per xmllint call), then
 * read back to check EN 16931's required elements, its calculation rules and that the figures
 * are the document's. Broken files must fail the schema. Pure: no database, so the PostgreSQL
 * pass skips it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { create } from 'xmlbuilder2';
import { validateXML, type XMLFileInfo, type XMLValidationResult } from 'xmllint-wasm';
import type { InvoiceDocument } from '@backoffice/core/invoice-document';
import { invoiceToFacturae } from '../src/modules/invoices/einvoice/facturae.ts';
import { invoiceToUbl } from '../src/modules/invoices/einvoice/ubl.ts';
import { ALL_DOCUMENTS, CREDIT_NOTE, DOMESTIC, NOT_SUBJECT, REVERSE_CHARGE } from './invoice-fixtures.ts';

const STANDARDS = '/work/shared/standards';

// ---- Schemas: loaded from the standards folder, with every file they import ----------------

const read = (file: string): string => fs.readFileSync(file, 'utf8');

/**
 * UBL: the Invoice and CreditNote schemas under xsd/maindoc with their imports as ../common/… (as
 * in the package), behind a wrapper that imports both, so one xmllint run (one parse of the 2.4 MB
 * aggregate schema) validates invoices and credit notes alike.
 */
function ublSchema(): Schema {
  const dir = path.join(STANDARDS, 'ubl-2.1/xsd');
  const file = (sub: string, f: string): XMLFileInfo => ({
    fileName: `xsd/${sub}/${f}`,
    contents: read(path.join(dir, sub, f)),
  });
  const common = fs.readdirSync(path.join(dir, 'common')).filter((f) => f.endsWith('.xsd'));
  const wrapper = [
    '<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">',
    '<xsd:import namespace="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" schemaLocation="UBL-Invoice-2.1.xsd"/>',
    '<xsd:import namespace="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2" schemaLocation="UBL-CreditNote-2.1.xsd"/>',
    '</xsd:schema>',
  ].join('\n');
  return {
    schema: { fileName: 'xsd/maindoc/UBL-Invoice-and-CreditNote.xsd', contents: wrapper },
    preload: [
      file('maindoc', 'UBL-Invoice-2.1.xsd'),
      file('maindoc', 'UBL-CreditNote-2.1.xsd'),
      ...common.map((f) => file('common', f)),
    ],
  };
}

/** Facturae imports the W3C signature schema by URL: pointed at the local copy, in memory. */
function facturaeSchema(): Schema {
  const url = 'http://www.w3.org/TR/xmldsig-core/xmldsig-core-schema.xsd';
  const main = read(path.join(STANDARDS, 'facturae/Facturaev3_2_2.xsd'));
  expect(main).toContain(`schemaLocation="${url}"`);
  return {
    schema: { fileName: 'Facturaev3_2_2.xsd', contents: main.replace(url, 'xmldsig-core-schema.xsd') },
    preload: [
      {
        fileName: 'xmldsig-core-schema.xsd',
        contents: read(path.join(STANDARDS, 'facturae/xmldsig-core-schema.xsd')),
      },
    ],
  };
}

interface Schema {
  schema: XMLFileInfo;
  preload: XMLFileInfo[];
}

async function validate(
  schema: Schema,
  files: Array<{ name: string; xml: string }>,
): Promise<XMLValidationResult> {
  return validateXML({
    xml: files.map((f) => ({ fileName: f.name, contents: f.xml })),
    schema: schema.schema,
    preload: schema.preload,
    maxMemoryPages: 256 * 16, // 256 MiB: the UBL aggregate schema alone is 2.4 MB
  });
}

const fileName = (doc: InvoiceDocument, ext: string) => `${doc.number}.${ext}.xml`;

// ---- Reading the output back: a small namespace-aware walk, no XPath -----------------------

interface XNode {
  nodeType: number;
  localName: string;
  namespaceURI: string | null;
  textContent: string | null;
  childNodes: ArrayLike<XNode>;
  getAttribute(name: string): string | null;
}

const UBL_NS: Record<string, string> = {
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

function parse(xml: string): XNode {
  return create(xml).root().node as unknown as XNode;
}

/** The elements at a path of names ("cac:Party/cbc:Name"; unprefixed = no namespace) below `from`. */
function all(from: XNode, pathExpr: string): XNode[] {
  let nodes = [from];
  for (const step of pathExpr.split('/')) {
    const [prefix, local] = step.includes(':') ? step.split(':') : [undefined, step];
    const ns = prefix ? UBL_NS[prefix] : null;
    nodes = nodes.flatMap((n) =>
      Array.from(n.childNodes).filter(
        (c) => c.nodeType === 1 && c.localName === local && c.namespaceURI === ns,
      ),
    );
  }
  return nodes;
}

function one(from: XNode, pathExpr: string): XNode {
  const found = all(from, pathExpr);
  expect(found, pathExpr).toHaveLength(1);
  return found[0]!;
}

const text = (from: XNode, pathExpr: string): string => (one(from, pathExpr).textContent ?? '').trim();
const has = (from: XNode, pathExpr: string): boolean => all(from, pathExpr).length > 0;

// Independent of the exporters' helpers: money as integer cents.
function cents(amount: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d{1,8}))?$/.exec(amount);
  if (!m) throw new Error(`not a decimal: ${amount}`);
  const frac = (m[3] ?? '').padEnd(8, '0');
  const scaled = BigInt(m[2]!) * 100_000_000n + BigInt(frac);
  const value = m[1] ? -scaled : scaled;
  expect(value % 1_000_000n, `${amount} has more than two decimals`).toBe(0n);
  return value / 1_000_000n;
}
const absCents = (amount: string): bigint => (cents(amount) < 0n ? -cents(amount) : cents(amount));
const sum = (values: bigint[]): bigint => values.reduce((a, b) => a + b, 0n);

// ---- Tests ---------------------------------------------------------------------------------

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('e-invoice exports', () => {
  describe('UBL 2.1 / EN 16931', () => {
    it('every invoice and credit note validates against the UBL 2.1 schemas', async () => {
      const result = await validate(
        ublSchema(),
        ALL_DOCUMENTS.map((d) => ({ name: fileName(d, 'ubl'), xml: invoiceToUbl(d) })),
      );
      expect(result.errors).toEqual([]);
      expect(result.valid).toBe(true);
      for (const d of ALL_DOCUMENTS) expect(result.rawOutput).toContain(`${fileName(d, 'ubl')} validates`);
    });

    it('a broken file fails the schema (the validator really checks)', async () => {
      const good = invoiceToUbl(DOMESTIC);
      const credit = invoiceToUbl(CREDIT_NOTE);
      // No IssueDate (BT-2); an amount that is not a decimal; an invoice's quantity in a credit note.
      const noIssueDate = good.replace(/\s*<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, '');
      const badAmount = good.replace(/(<cbc:PayableAmount currencyID="EUR">)[^<]*/, '$1fourteen');
      const invoiceQuantity = credit.replace(/CreditedQuantity/g, 'InvoicedQuantity');
      for (const [broken, from] of [
        [noIssueDate, good],
        [badAmount, good],
        [invoiceQuantity, credit],
      ]) {
        expect(broken).not.toBe(from);
      }
      const result = await validate(ublSchema(), [
        { name: 'no-issue-date.xml', xml: noIssueDate },
        { name: 'bad-amount.xml', xml: badAmount },
        { name: 'invoice-quantity.xml', xml: invoiceQuantity },
        { name: 'good.xml', xml: good },
      ]);
      expect(result.valid).toBe(false);
      const byFile = (name: string) =>
        result.errors.filter((e) => e.loc?.fileName === name).map((e) => e.message);
      expect(byFile('no-issue-date.xml').join('\n')).toMatch(/IssueDate/);
      expect(byFile('bad-amount.xml').join('\n')).toMatch(/PayableAmount.*'fourteen'/);
      expect(byFile('invoice-quantity.xml').join('\n')).toMatch(/InvoicedQuantity.*not expected/);
      expect(byFile('good.xml')).toEqual([]);
      expect(result.rawOutput).toContain('good.xml validates');
    });

    it.each(ALL_DOCUMENTS.map((d) => [d.number, d] as const))(
      '%s: EN 16931 elements and the document figures',
      (_n, doc) => {
        const credit = doc.kind === 'credit_note';
        const root = parse(invoiceToUbl(doc));
        expect(root.localName).toBe(credit ? 'CreditNote' : 'Invoice');

        // Header (BT-24, 1, 2, 3, 5, 9, 73, 74).
        expect(text(root, 'cbc:CustomizationID')).toBe('urn:cen.eu:en16931:2017');
        expect(text(root, 'cbc:ID')).toBe(doc.number);
        expect(text(root, 'cbc:IssueDate')).toBe(doc.issue_date);
        expect(text(root, credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode')).toBe(
          credit ? '381' : '380',
        );
        expect(text(root, 'cbc:DocumentCurrencyCode')).toBe(doc.currency);
        expect(text(root, credit ? 'cac:PaymentMeans/cbc:PaymentDueDate' : 'cbc:DueDate')).toBe(doc.due_date);
        expect(text(root, 'cac:InvoicePeriod/cbc:StartDate')).toBe(doc.period_start);
        expect(text(root, 'cac:InvoicePeriod/cbc:EndDate')).toBe(doc.period_end);

        // Seller (BG-4) and buyer (BG-7): name, address with country, VAT id per the VAT category.
        const notSubject = doc.tax_treatment === 'not_subject';
        for (const [partyPath, p] of [
          ['cac:AccountingSupplierParty/cac:Party', doc.issuer],
          ['cac:AccountingCustomerParty/cac:Party', doc.customer],
        ] as const) {
          const party = one(root, partyPath);
          expect(text(party, 'cac:PartyLegalEntity/cbc:RegistrationName')).toBe(p.legal_name);
          expect(text(party, 'cac:PostalAddress/cbc:StreetName')).toBe(p.address);
          expect(text(party, 'cac:PostalAddress/cbc:CityName')).toBe(p.city);
          expect(text(party, 'cac:PostalAddress/cbc:PostalZone')).toBe(p.postal_code);
          expect(text(party, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode')).toBe(p.country);
          if (notSubject) {
            // BR-O-2: no seller or buyer VAT identifier; BR-CO-26: the legal registration id instead.
            expect(has(party, 'cac:PartyTaxScheme')).toBe(false);
            expect(text(party, 'cac:PartyLegalEntity/cbc:CompanyID')).toBe(p.tax_id);
          } else {
            expect(text(party, 'cac:PartyTaxScheme/cbc:CompanyID')).toBe(`${p.country}${p.tax_id}`);
            expect(text(party, 'cac:PartyTaxScheme/cac:TaxScheme/cbc:ID')).toBe('VAT');
          }
        }
        if (!notSubject)
          expect(text(root, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID')).toBe(
            'ESB86561412',
          );

        // Payment (BG-16, BT-20): SEPA transfer to the issuer's IBAN; a credit note's refund undefined.
        if (credit) {
          expect(text(root, 'cac:PaymentMeans/cbc:PaymentMeansCode')).toBe('1');
          expect(has(root, 'cac:PaymentMeans/cac:PayeeFinancialAccount')).toBe(false);
        } else {
          expect(text(root, 'cac:PaymentMeans/cbc:PaymentMeansCode')).toBe('58');
          expect(text(root, 'cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:ID')).toBe(doc.issuer.iban);
          expect(
            text(root, 'cac:PaymentMeans/cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID'),
          ).toBe(doc.issuer.bic);
        }
        expect(text(root, 'cac:PaymentTerms/cbc:Note')).not.toBe('');

        // Credit note: the corrected invoice (BG-3) and the reason (BT-22).
        if (credit) {
          expect(text(root, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID')).toBe(
            doc.corrects!.number,
          );
          expect(text(root, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:IssueDate')).toBe(
            doc.corrects!.issue_date,
          );
          expect(all(root, 'cbc:Note').map((n) => n.textContent)).toContain(doc.corrects!.reason);
        } else {
          expect(has(root, 'cac:BillingReference')).toBe(false);
        }

        // Every amount in the document's currency, none with more than two decimals (BR-DEC).
        const amounts: XNode[] = [];
        const collect = (n: XNode) => {
          for (const c of Array.from(n.childNodes)) {
            if (c.nodeType !== 1) continue;
            if (c.getAttribute('currencyID') !== null) amounts.push(c);
            collect(c);
          }
        };
        collect(root);
        expect(amounts.length).toBeGreaterThan(5);
        for (const a of amounts) {
          expect(a.getAttribute('currencyID')).toBe(doc.currency);
          expect(a.textContent).toMatch(/^-?\d+\.\d{2}$/);
        }
        // A CreditNote states positive values.
        if (credit) for (const a of amounts) expect(cents(a.textContent!)).toBeGreaterThanOrEqual(0n);

        // Totals (BG-22) are the document's (positive in a CreditNote).
        const totals = one(root, 'cac:LegalMonetaryTotal');
        const amountOf = (from: XNode, p: string) => cents(text(from, p));
        expect(amountOf(totals, 'cbc:LineExtensionAmount')).toBe(absCents(doc.lines_total));
        expect(amountOf(totals, 'cbc:TaxExclusiveAmount')).toBe(absCents(doc.base));
        expect(amountOf(totals, 'cbc:TaxInclusiveAmount')).toBe(absCents(doc.total));
        expect(amountOf(totals, 'cbc:PayableAmount')).toBe(absCents(doc.total));
        expect(amountOf(root, 'cac:TaxTotal/cbc:TaxAmount')).toBe(absCents(doc.vat_amount));
        const allowances = all(root, 'cac:AllowanceCharge');
        expect(allowances).toHaveLength(doc.allowances.length);
        const allowanceTotal = sum(doc.allowances.map((a) => absCents(a.amount)));
        if (doc.allowances.length > 0)
          expect(amountOf(totals, 'cbc:AllowanceTotalAmount')).toBe(allowanceTotal);
        else expect(has(totals, 'cbc:AllowanceTotalAmount')).toBe(false);
        allowances.forEach((ac, i) => {
          const a = doc.allowances[i]!;
          expect(text(ac, 'cbc:ChargeIndicator')).toBe('false');
          expect(text(ac, 'cbc:AllowanceChargeReason')).not.toBe(''); // BR-33
          expect(amountOf(ac, 'cbc:Amount')).toBe(absCents(a.amount));
          if (a.percentage) {
            expect(text(ac, 'cbc:MultiplierFactorNumeric')).toBe(a.percentage);
            // Amount = base × percentage / 100, exactly here.
            expect((amountOf(ac, 'cbc:BaseAmount') * cents(a.percentage)) / 10_000n).toBe(absCents(a.amount));
          }
          expect(text(ac, 'cac:TaxCategory/cbc:ID')).toBe(
            text(root, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID'),
          );
        });

        // Lines (BG-25): quantity × price = line amount exactly, impressions as an item attribute.
        const lines = all(root, credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine');
        expect(lines).toHaveLength(doc.lines.length);
        lines.forEach((line, i) => {
          const l = doc.lines[i]!;
          const qty = one(line, credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity');
          expect(qty.getAttribute('unitCode')).toBe('C62');
          expect(text(line, 'cbc:ID')).toBe(String(i + 1));
          const net = amountOf(line, 'cbc:LineExtensionAmount');
          expect(net).toBe(credit ? -cents(l.amount) : cents(l.amount));
          const price = amountOf(line, 'cac:Price/cbc:PriceAmount');
          expect(price).toBeGreaterThanOrEqual(0n); // BR-27
          expect(BigInt(text(line, credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity')) * price).toBe(
            net,
          );
          expect(text(line, 'cac:Item/cbc:Name')).toBe(l.description);
          expect(text(line, 'cac:Item/cac:AdditionalItemProperty/cbc:Value')).toBe(l.quantity);
          expect(text(line, 'cac:Item/cac:ClassifiedTaxCategory/cac:TaxScheme/cbc:ID')).toBe('VAT');
        });

        // EN 16931 calculation rules, on the file itself.
        const lineSum = sum(lines.map((l) => amountOf(l, 'cbc:LineExtensionAmount')));
        expect(lineSum).toBe(amountOf(totals, 'cbc:LineExtensionAmount')); // BR-CO-10
        expect(amountOf(totals, 'cbc:TaxExclusiveAmount')).toBe(lineSum - allowanceTotal); // BR-CO-13
        const subtotals = all(root, 'cac:TaxTotal/cac:TaxSubtotal');
        expect(subtotals.length).toBeGreaterThan(0); // BR-CO-18
        expect(sum(subtotals.map((s) => amountOf(s, 'cbc:TaxAmount')))).toBe(
          amountOf(root, 'cac:TaxTotal/cbc:TaxAmount'),
        ); // BR-CO-14
        expect(amountOf(totals, 'cbc:TaxInclusiveAmount')).toBe(
          amountOf(totals, 'cbc:TaxExclusiveAmount') + amountOf(root, 'cac:TaxTotal/cbc:TaxAmount'),
        ); // BR-CO-15
        expect(amountOf(totals, 'cbc:PayableAmount')).toBe(amountOf(totals, 'cbc:TaxInclusiveAmount')); // BR-CO-16

        // The VAT breakdown (BG-23) per category: S / AE / O rules.
        const [subtotal] = subtotals as [XNode];
        const category = one(subtotal, 'cac:TaxCategory');
        expect(amountOf(subtotal, 'cbc:TaxableAmount')).toBe(absCents(doc.base)); // BR-S/AE/O-8
        const lineCategories = lines.map((l) => one(l, 'cac:Item/cac:ClassifiedTaxCategory'));
        const expected = { domestic: 'S', reverse_charge: 'AE', not_subject: 'O' }[doc.tax_treatment];
        for (const c of [category, ...lineCategories, ...allowances.map((a) => one(a, 'cac:TaxCategory'))]) {
          expect(text(c, 'cbc:ID')).toBe(expected);
        }
        if (expected === 'S') {
          expect(text(category, 'cbc:Percent')).toBe('21.00');
          // BR-CO-17: VAT = taxable × rate / 100, rounded half up to the cent.
          const taxable = amountOf(subtotal, 'cbc:TaxableAmount');
          expect(amountOf(subtotal, 'cbc:TaxAmount')).toBe((taxable * 2100n + 5000n) / 10_000n);
          expect(has(category, 'cbc:TaxExemptionReasonCode')).toBe(false); // BR-S-10
        } else {
          expect(amountOf(subtotal, 'cbc:TaxAmount')).toBe(0n); // BR-AE-9, BR-O-9
          expect(text(category, 'cbc:TaxExemptionReasonCode')).toBe(
            expected === 'AE' ? 'VATEX-EU-AE' : 'VATEX-EU-O',
          );
          expect(text(category, 'cbc:TaxExemptionReason')).not.toBe('');
        }
        if (expected === 'AE') for (const c of lineCategories) expect(text(c, 'cbc:Percent')).toBe('0.00'); // BR-AE-5
        if (expected === 'O') {
          // BR-O-5, BR-O-6: no rate on the lines, the allowances or the breakdown.
          for (const c of [category, ...lineCategories]) expect(has(c, 'cbc:Percent')).toBe(false);
        }
      },
    );

    it('the reverse-charge invoice states its reason in the counterparty language and both allowances', () => {
      const root = parse(invoiceToUbl(REVERSE_CHARGE));
      expect(text(root, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:TaxExemptionReason')).toBe(
        'Reverse charge',
      );
      expect(all(root, 'cac:AllowanceCharge/cbc:AllowanceChargeReason').map((n) => n.textContent)).toEqual([
        'Deduction for fraudulent traffic',
        'Deduction for domain spoofing',
      ]);
    });
  });

  describe('Facturae 3.2.2', () => {
    it('every invoice and credit note validates against the Facturae schema', async () => {
      const result = await validate(
        facturaeSchema(),
        ALL_DOCUMENTS.map((d) => ({ name: fileName(d, 'facturae'), xml: invoiceToFacturae(d) })),
      );
      expect(result.errors).toEqual([]);
      expect(result.valid).toBe(true);
      for (const d of ALL_DOCUMENTS)
        expect(result.rawOutput).toContain(`${fileName(d, 'facturae')} validates`);
    });

    it('a broken file fails the schema (decimals, codes, order)', async () => {
      const good = invoiceToFacturae(DOMESTIC);
      const files = {
        // DoubleTwoDecimalType needs exactly two decimals.
        'one-decimal.xml': good.replace(/<InstallmentAmount>[^<]*/, '<InstallmentAmount>14944.1'),
        'bad-class.xml': good.replace('<InvoiceClass>OO</InvoiceClass>', '<InvoiceClass>XX</InvoiceClass>'),
        'no-header.xml': good.replace(/\s*<SchemaVersion>[^<]*<\/SchemaVersion>/, ''),
      };
      for (const xml of Object.values(files)) expect(xml).not.toBe(good);
      const result = await validate(
        facturaeSchema(),
        Object.entries(files).map(([name, xml]) => ({ name, xml })),
      );
      expect(result.valid).toBe(false);
      const byFile = (name: string) =>
        result.errors
          .filter((e) => e.loc?.fileName === name)
          .map((e) => e.message)
          .join('\n');
      expect(byFile('one-decimal.xml')).toMatch(/InstallmentAmount.*14944\.1/);
      expect(byFile('bad-class.xml')).toMatch(/InvoiceClass.*XX/);
      expect(byFile('no-header.xml')).toMatch(/Modality.*not expected/);
    });

    it.each(ALL_DOCUMENTS.map((d) => [d.number, d] as const))(
      '%s: the document figures and codes',
      (_n, doc) => {
        const credit = doc.kind === 'credit_note';
        const root = parse(invoiceToFacturae(doc));
        expect(root.localName).toBe('Facturae');
        expect(root.namespaceURI).toBe('http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml');

        expect(text(root, 'FileHeader/SchemaVersion')).toBe('3.2.2');
        expect(text(root, 'FileHeader/Modality')).toBe('I');
        expect(text(root, 'FileHeader/InvoiceIssuerType')).toBe('EM');
        const batch = one(root, 'FileHeader/Batch');
        expect(text(batch, 'InvoicesCount')).toBe('1');
        expect(text(batch, 'BatchIdentifier')).toContain(doc.issuer.tax_id);
        for (const p of ['TotalInvoicesAmount', 'TotalOutstandingAmount', 'TotalExecutableAmount']) {
          expect(text(batch, `${p}/TotalAmount`)).toBe(doc.total);
        }
        expect(text(batch, 'InvoiceCurrencyCode')).toBe(doc.currency);

        // Parties: residence R (Spain) / U (EU) / E (elsewhere); non-Spanish ids with their prefix.
        const residence = { ES: 'R', FR: 'U', US: 'E' } as Record<string, string>;
        for (const [partyPath, p] of [
          ['Parties/SellerParty', doc.issuer],
          ['Parties/BuyerParty', doc.customer],
        ] as const) {
          const party = one(root, partyPath);
          expect(text(party, 'TaxIdentification/PersonTypeCode')).toBe('J');
          expect(text(party, 'TaxIdentification/ResidenceTypeCode')).toBe(residence[p.country]);
          expect(text(party, 'TaxIdentification/TaxIdentificationNumber')).toBe(
            p.country === 'ES' ? p.tax_id : `${p.country}${p.tax_id}`,
          );
          expect(text(party, 'LegalEntity/CorporateName')).toBe(p.legal_name);
          const address = p.country === 'ES' ? 'LegalEntity/AddressInSpain' : 'LegalEntity/OverseasAddress';
          expect(text(party, `${address}/Address`)).toBe(p.address);
          expect(text(party, `${address}/CountryCode`)).toBe({ ES: 'ESP', FR: 'FRA', US: 'USA' }[p.country]);
        }
        expect(text(root, 'Parties/SellerParty/LegalEntity/AddressInSpain/Province')).toBe('Madrid');
        if (doc === DOMESTIC)
          expect(text(root, 'Parties/BuyerParty/LegalEntity/AddressInSpain/Province')).toBe('Bizkaia');

        const invoice = one(root, 'Invoices/Invoice');
        const header = one(invoice, 'InvoiceHeader');
        expect(`${text(header, 'InvoiceSeriesCode')}-${text(header, 'InvoiceNumber')}`).toBe(doc.number);
        expect(Number(text(header, 'InvoiceNumber'))).toBe(doc.sequence);
        expect(text(header, 'InvoiceDocumentType')).toBe('FC');
        expect(text(header, 'InvoiceClass')).toBe(credit ? 'OR' : 'OO');
        if (credit) {
          const c = one(header, 'Corrective');
          expect(`${text(c, 'InvoiceSeriesCode')}-${text(c, 'InvoiceNumber')}`).toBe(doc.corrects!.number);
          expect(text(c, 'ReasonCode')).toBe('16');
          expect(text(c, 'ReasonDescription')).toBe('Base imponible');
          expect(text(c, 'CorrectionMethod')).toBe('02');
          expect(text(c, 'CorrectionMethodDescription')).toBe('Rectificación por diferencias');
          expect(text(c, 'AdditionalReasonDescription')).toBe(doc.corrects!.reason);
          expect(text(c, 'InvoiceIssueDate')).toBe(doc.corrects!.issue_date);
          expect(text(c, 'TaxPeriod/StartDate')).toBe('2026-11-01');
          expect(text(c, 'TaxPeriod/EndDate')).toBe('2026-11-30');
        } else {
          expect(has(header, 'Corrective')).toBe(false);
        }

        const issue = one(invoice, 'InvoiceIssueData');
        expect(text(issue, 'IssueDate')).toBe(doc.issue_date);
        expect(text(issue, 'InvoicingPeriod/StartDate')).toBe(doc.period_start);
        expect(text(issue, 'InvoicingPeriod/EndDate')).toBe(doc.period_end);
        expect(text(issue, 'InvoiceCurrencyCode')).toBe(doc.currency);
        expect(text(issue, 'TaxCurrencyCode')).toBe('EUR');
        expect(text(issue, 'LanguageName')).toBe(doc.language);

        // Taxes and totals: the document's own strings (negative on the credit note).
        const tax = one(invoice, 'TaxesOutputs/Tax');
        expect(text(tax, 'TaxTypeCode')).toBe('01');
        expect(text(tax, 'TaxRate')).toBe(doc.vat_rate);
        expect(text(tax, 'TaxableBase/TotalAmount')).toBe(doc.base);
        expect(text(tax, 'TaxAmount/TotalAmount')).toBe(doc.vat_amount);
        const totals = one(invoice, 'InvoiceTotals');
        expect(text(totals, 'TotalGrossAmount')).toBe(doc.lines_total);
        expect(text(totals, 'TotalGrossAmountBeforeTaxes')).toBe(doc.base);
        expect(text(totals, 'TotalTaxOutputs')).toBe(doc.vat_amount);
        expect(text(totals, 'TotalTaxesWithheld')).toBe('0.00');
        for (const p of ['InvoiceTotal', 'TotalOutstandingAmount', 'TotalExecutableAmount'])
          expect(text(totals, p)).toBe(doc.total);
        const discounts = all(totals, 'GeneralDiscounts/Discount');
        expect(discounts).toHaveLength(doc.allowances.length);
        discounts.forEach((d, i) => expect(text(d, 'DiscountAmount')).toBe(doc.allowances[i]!.amount));
        const discountTotal = sum(doc.allowances.map((a) => cents(a.amount)));
        if (discounts.length) expect(cents(text(totals, 'TotalGeneralDiscounts'))).toBe(discountTotal);
        // The schema's formulas: before taxes = gross − discounts; total = before taxes + VAT.
        expect(cents(text(totals, 'TotalGrossAmountBeforeTaxes'))).toBe(
          cents(text(totals, 'TotalGrossAmount')) - discountTotal,
        );
        expect(cents(text(totals, 'InvoiceTotal'))).toBe(
          cents(text(totals, 'TotalGrossAmountBeforeTaxes')) + cents(text(totals, 'TotalTaxOutputs')),
        );

        // Lines: Quantity × UnitPriceWithoutTax = TotalCost = GrossAmount = the line amount; Σ = gross.
        const lines = all(invoice, 'Items/InvoiceLine');
        expect(lines).toHaveLength(doc.lines.length);
        lines.forEach((line, i) => {
          const l = doc.lines[i]!;
          expect(text(line, 'ItemDescription')).toBe(l.description);
          expect(BigInt(text(line, 'Quantity')) * cents(text(line, 'UnitPriceWithoutTax'))).toBe(
            cents(l.amount),
          );
          expect(text(line, 'TotalCost')).toBe(l.amount);
          expect(text(line, 'GrossAmount')).toBe(l.amount);
          expect(text(line, 'TaxesOutputs/Tax/TaxableBase/TotalAmount')).toBe(l.amount);
          expect(text(line, 'TaxesOutputs/Tax/TaxRate')).toBe(doc.vat_rate);
          expect(text(line, 'AdditionalLineItemInformation')).toContain(l.quantity);
        });
        expect(sum(lines.map((l) => cents(text(l, 'GrossAmount'))))).toBe(
          cents(text(totals, 'TotalGrossAmount')),
        );

        // Payment: a transfer of the total to the issuer's account; none on a credit note.
        if (credit) {
          expect(has(invoice, 'PaymentDetails')).toBe(false);
        } else {
          const inst = one(invoice, 'PaymentDetails/Installment');
          expect(text(inst, 'InstallmentDueDate')).toBe(doc.due_date);
          expect(text(inst, 'InstallmentAmount')).toBe(doc.total);
          expect(text(inst, 'PaymentMeans')).toBe('04');
          expect(text(inst, 'AccountToBeCredited/IBAN')).toBe(doc.issuer.iban);
          expect(text(inst, 'AccountToBeCredited/BIC')).toBe(doc.issuer.bic);
        }

        // Legal mentions.
        const literals = all(invoice, 'LegalLiterals/LegalReference').map((n) => n.textContent ?? '');
        if (doc.tax_treatment === 'domestic') expect(literals).toEqual([]);
        if (doc.tax_treatment === 'reverse_charge')
          expect(literals[0]).toBe('Inversión del sujeto pasivo (art. 84 LIVA)');
        if (doc.tax_treatment === 'not_subject') {
          expect(literals[0]).toMatch(/^Operación no sujeta/);
          for (const line of lines)
            expect(text(line, 'SpecialTaxableEvent/SpecialTaxableEventCode')).toBe('02');
        }
      },
    );

    it('the non-EU invoice in USD keeps its currency and declares the tax in euros', () => {
      const root = parse(invoiceToFacturae(NOT_SUBJECT));
      expect(text(root, 'Invoices/Invoice/InvoiceIssueData/InvoiceCurrencyCode')).toBe('USD');
      expect(text(root, 'Parties/BuyerParty/TaxIdentification/TaxIdentificationNumber')).toBe('US84-1234567');
      expect(text(root, 'Parties/BuyerParty/LegalEntity/OverseasAddress/PostCodeAndTown')).toBe(
        '94105 San Francisco',
      );
    });

    it('the credit note carries the negative amounts of the document', () => {
      const root = parse(invoiceToFacturae(CREDIT_NOTE));
      const line = one(root, 'Invoices/Invoice/Items/InvoiceLine');
      expect(text(line, 'Quantity')).toBe('-1');
      expect(text(line, 'UnitPriceWithoutTax')).toBe('3000.00');
      expect(text(line, 'TotalCost')).toBe('-3000.00');
      expect(text(root, 'FileHeader/Batch/TotalInvoicesAmount/TotalAmount')).toBe('-3000.00');
    });
  });
});
