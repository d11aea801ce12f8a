/**
 * An invoice document as UBL 2.1 following EN 16931 (CIUS-neutral: CustomizationID
 * urn:cen.eu:en16931:2017): an `Invoice` (380) for an invoice, a `CreditNote` (381) for a credit
 * note (docs/decisions/026-e-invoice-export.md).
 *
 * Mapping notes (BT = EN 16931 business term):
 * - A CreditNote states the positive values of the document's negative amounts: the type code
 *   already says the amounts are credited. It references the corrected invoice (BG-3) and carries
 *   the reason as a note (BT-22).
 * - A line is one unit (C62) priced at the line's net amount, so that quantity × price = line
 *   amount exactly (amount / impressions is not a finite decimal); the impressions are an item
 *   attribute (BG-32, "Impressions"). A negative line is quantity −1 at the positive price (BR-27:
 *   prices are never negative).
 * - VAT category S (domestic, the rate), AE (reverse charge, 0 %, VATEX-EU-AE) or O (not subject:
 *   no rate and no VAT identifiers, BR-O-2/5/6; the parties carry their tax ids as legal
 *   registration identifiers instead, which also satisfies BR-CO-26).
 */
import type { InvoiceDocument, InvoiceIssuer, InvoiceParty } from '@backoffice/core/invoice-document';
import { create } from 'xmlbuilder2';
import { TEXTS, abs, allowancesTotal, isNegative, negate, vatCategory, type VatCategory } from './common.ts';
import { vatPrefix } from './countries.ts';

type Builder = ReturnType<typeof create>;

const NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
} as const;

export const EN16931_CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017';

/** UNCL4461: 58 SEPA credit transfer; 1 instrument not defined (a credit note's refund). */
const PAYMENT_MEANS = { sepaCreditTransfer: '58', notDefined: '1' } as const;

export function invoiceToUbl(doc: InvoiceDocument): string {
  const credit = doc.kind === 'credit_note';
  if (credit && !doc.corrects)
    throw new Error(`einvoice: credit note ${doc.number} does not name the invoice it corrects`);
  const root = credit ? 'CreditNote' : 'Invoice';
  // A CreditNote carries the positive values of the credit note's (negative) amounts.
  const amount = (value: string): string => (credit ? negate(value) : value);
  const category = vatCategory(doc);
  const t = TEXTS[doc.language];

  const xml = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS[root], root, {
    'xmlns:cac': NS.cac,
    'xmlns:cbc': NS.cbc,
  });
  const cbc = (parent: Builder, name: string, text: string, attrs?: Record<string, string>): Builder =>
    parent.ele(NS.cbc, `cbc:${name}`, attrs).txt(text).up();
  const cac = (parent: Builder, name: string): Builder => parent.ele(NS.cac, `cac:${name}`);
  const money = (parent: Builder, name: string, value: string): Builder =>
    cbc(parent, name, value, { currencyID: doc.currency });

  cbc(xml, 'CustomizationID', EN16931_CUSTOMIZATION_ID); // BT-24
  cbc(xml, 'ID', doc.number); // BT-1
  cbc(xml, 'IssueDate', doc.issue_date); // BT-2
  if (!credit) cbc(xml, 'DueDate', doc.due_date); // BT-9 (a CreditNote has it in PaymentMeans)
  cbc(xml, credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode', credit ? '381' : '380'); // BT-3
  if (doc.corrects) cbc(xml, 'Note', doc.corrects.reason); // BT-22
  if (doc.notes) cbc(xml, 'Note', doc.notes);
  cbc(xml, 'DocumentCurrencyCode', doc.currency); // BT-5

  const period = cac(xml, 'InvoicePeriod'); // BG-14
  cbc(period, 'StartDate', doc.period_start); // BT-73
  cbc(period, 'EndDate', doc.period_end); // BT-74

  if (doc.corrects) {
    // BG-3: the preceding invoice.
    const ref = cac(cac(xml, 'BillingReference'), 'InvoiceDocumentReference');
    cbc(ref, 'ID', doc.corrects.number); // BT-25
    cbc(ref, 'IssueDate', doc.corrects.issue_date); // BT-26
  }

  party(cac(xml, 'AccountingSupplierParty'), doc.issuer, category, true); // BG-4
  party(cac(xml, 'AccountingCustomerParty'), doc.customer, category, false); // BG-7

  // BG-16 payment instructions. An invoice is paid by SEPA transfer to the issuer's account; a
  // credit note is refunded to the customer, whose account the document does not hold, so its
  // means are left undefined (BR-61 would require the payee's account for a transfer).
  const means = cac(xml, 'PaymentMeans');
  cbc(means, 'PaymentMeansCode', credit ? PAYMENT_MEANS.notDefined : PAYMENT_MEANS.sepaCreditTransfer); // BT-81
  if (credit) cbc(means, 'PaymentDueDate', doc.due_date); // BT-9 in a CreditNote
  cbc(means, 'PaymentID', doc.number); // BT-83 remittance information
  if (!credit) payeeAccount(cac(means, 'PayeeFinancialAccount'), doc.issuer); // BG-17

  cbc(cac(xml, 'PaymentTerms'), 'Note', t.paymentTerms(doc.payment_terms, doc.due_date)); // BT-20

  for (const allowance of doc.allowances) {
    // BG-20 document level allowances.
    const ac = cac(xml, 'AllowanceCharge');
    cbc(ac, 'ChargeIndicator', 'false');
    cbc(ac, 'AllowanceChargeReason', t.allowance[allowance.reason]); // BT-97
    if (allowance.percentage) cbc(ac, 'MultiplierFactorNumeric', allowance.percentage); // BT-94
    money(ac, 'Amount', amount(allowance.amount)); // BT-92
    if (allowance.percentage) money(ac, 'BaseAmount', amount(doc.lines_total)); // BT-93
    taxCategory(cac(ac, 'TaxCategory'), category, false); // BT-95/96
  }

  const taxTotal = cac(xml, 'TaxTotal');
  money(taxTotal, 'TaxAmount', amount(doc.vat_amount)); // BT-110
  const subtotal = cac(taxTotal, 'TaxSubtotal'); // BG-23: one category per document
  money(subtotal, 'TaxableAmount', amount(doc.base)); // BT-116
  money(subtotal, 'TaxAmount', amount(doc.vat_amount)); // BT-117
  taxCategory(cac(subtotal, 'TaxCategory'), category, true); // BT-118/119/120/121

  const totals = cac(xml, 'LegalMonetaryTotal'); // BG-22
  money(totals, 'LineExtensionAmount', amount(doc.lines_total)); // BT-106
  money(totals, 'TaxExclusiveAmount', amount(doc.base)); // BT-109
  money(totals, 'TaxInclusiveAmount', amount(doc.total)); // BT-112
  if (doc.allowances.length > 0)
    money(totals, 'AllowanceTotalAmount', amount(allowancesTotal(doc.allowances))); // BT-107
  money(totals, 'PayableAmount', amount(doc.total)); // BT-115

  doc.lines.forEach((line, i) => {
    // BG-25
    const el = cac(xml, credit ? 'CreditNoteLine' : 'InvoiceLine');
    const net = amount(line.amount);
    cbc(el, 'ID', String(i + 1)); // BT-126
    cbc(el, credit ? 'CreditedQuantity' : 'InvoicedQuantity', isNegative(net) ? '-1' : '1', {
      unitCode: 'C62',
    }); // BT-129/130
    money(el, 'LineExtensionAmount', net); // BT-131
    const item = cac(el, 'Item');
    cbc(item, 'Name', line.description); // BT-153
    taxCategory(cac(item, 'ClassifiedTaxCategory'), category, false); // BT-151/152
    const impressions = cac(item, 'AdditionalItemProperty'); // BG-32
    cbc(impressions, 'Name', t.impressions); // BT-160
    cbc(impressions, 'Value', line.quantity); // BT-161
    money(cac(el, 'Price'), 'PriceAmount', abs(net)); // BT-146
  });

  return xml.end({ prettyPrint: true });

  function party(parent: Builder, p: InvoiceParty, cat: VatCategory, seller: boolean): void {
    const el = cac(parent, 'Party');
    const address = cac(el, 'PostalAddress');
    cbc(address, 'StreetName', p.address); // BT-35 / BT-50
    cbc(address, 'CityName', p.city); // BT-37 / BT-52
    cbc(address, 'PostalZone', p.postal_code); // BT-38 / BT-53
    cbc(cac(address, 'Country'), 'IdentificationCode', p.country); // BT-40 / BT-55
    if (cat.vatIds) {
      const scheme = cac(el, 'PartyTaxScheme');
      cbc(scheme, 'CompanyID', `${vatPrefix(p.country)}${p.tax_id}`); // BT-31 / BT-48
      cbc(cac(scheme, 'TaxScheme'), 'ID', 'VAT');
    }
    const legal = cac(el, 'PartyLegalEntity');
    cbc(legal, 'RegistrationName', p.legal_name); // BT-27 / BT-44
    cbc(legal, 'CompanyID', p.tax_id); // BT-30 / BT-47
    const registry = seller ? (p as InvoiceIssuer).registry : undefined;
    if (registry) cbc(legal, 'CompanyLegalForm', registry); // BT-33
    if (p.email) cbc(cac(el, 'Contact'), 'ElectronicMail', p.email); // BT-43 / BT-58
  }

  function payeeAccount(parent: Builder, issuer: InvoiceIssuer): void {
    cbc(parent, 'ID', issuer.iban); // BT-84
    if (issuer.bic) cbc(cac(parent, 'FinancialInstitutionBranch'), 'ID', issuer.bic); // BT-86
  }

  function taxCategory(parent: Builder, cat: VatCategory, breakdown: boolean): void {
    cbc(parent, 'ID', cat.code);
    if (cat.percent !== undefined) cbc(parent, 'Percent', cat.percent);
    // The exemption reason belongs to the VAT breakdown only (BT-120/121).
    if (breakdown && cat.exemptionCode) cbc(parent, 'TaxExemptionReasonCode', cat.exemptionCode);
    if (breakdown && cat.exemptionText) cbc(parent, 'TaxExemptionReason', cat.exemptionText);
    cbc(cac(parent, 'TaxScheme'), 'ID', 'VAT');
  }
}
