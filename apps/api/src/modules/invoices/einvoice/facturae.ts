/**
 * An invoice document as Facturae 3.2.2, the Spanish e-invoice for public-sector customers (FACe),
 * unsigned: the schema makes ds:Signature optional and signing (XAdES) needs the company's
 * certificate, which is outside this export (docs/decisions/026-e-invoice-export.md).
 *
 * Mapping notes:
 * - One invoice per file (Modality I), issued by the seller (EM); the batch totals equal the
 *   invoice's.
 * - A credit note is a corrective invoice (InvoiceClass OR) "por diferencias" (CorrectionMethod
 *   02) with the document's negative amounts as they are; ReasonCode 16 (Base imponible: the
 *   corrected figure is the taxable base), the document's reason as AdditionalReasonDescription.
 * - Amounts are the document's two-decimal strings (valid DoubleTwoDecimalType and
 *   DoubleUpToEightDecimalType values) and sums of them in integer cents, never floats.
 * - A line is one unit priced at its net amount (Quantity × UnitPriceWithoutTax = TotalCost
 *   exactly), −1 at the positive price for a negative line; the impressions go in
 *   AdditionalLineItemInformation.
 * - VAT (TaxTypeCode 01) at the document's rate; reverse charge and not subject at 0 % with their
 *   legal mentions in LegalLiterals (not subject lines are also marked SpecialTaxableEvent 02).
 */
import type { InvoiceDocument, InvoiceParty } from '@backoffice/core/invoice-document';
import { create } from 'xmlbuilder2';
import {
  TEXTS,
  abs,
  allowancesTotal,
  clip,
  isNegative,
  legalMentions,
  splitNumber,
  toCents,
} from './common.ts';
import { EU_COUNTRIES, alpha3, spanishProvince, vatPrefix } from './countries.ts';

type Builder = ReturnType<typeof create>;

export const FACTURAE_NS = 'http://www.facturae.gob.es/formato/Versiones/Facturaev3_2_2.xml';

/** Facturae codes used here (see the schema's enumerations). */
const CODES = {
  modalityIndividual: 'I',
  issuerIsSeller: 'EM',
  legalPerson: 'J',
  completeInvoice: 'FC',
  original: 'OO',
  corrective: 'OR',
  vat: '01',
  transfer: '04',
  notSubject: '02',
  /** ReasonCode 16 and its fixed description (ReasonDescriptionType). */
  reasonTaxableBase: { code: '16', description: 'Base imponible' },
  /** CorrectionMethod 02 and its fixed description. */
  byDifferences: { code: '02', description: 'Rectificación por diferencias' },
} as const;

export function invoiceToFacturae(doc: InvoiceDocument): string {
  const credit = doc.kind === 'credit_note';
  if (credit && !doc.corrects)
    throw new Error(`einvoice: credit note ${doc.number} does not name the invoice it corrects`);
  const t = TEXTS[doc.language];
  const discounts = allowancesTotal(doc.allowances);
  const own = splitNumber(doc.number, doc.series);

  const xml = create({ version: '1.0', encoding: 'UTF-8' }).ele(FACTURAE_NS, 'fe:Facturae');
  // The schema's local elements are unqualified (no elementFormDefault): no namespace below the root.
  const el = (parent: Builder, name: string): Builder => parent.ele(null, name);
  const txt = (parent: Builder, name: string, text: string): Builder => parent.ele(null, name).txt(text).up();
  const amountType = (parent: Builder, name: string, value: string): void => {
    txt(el(parent, name), 'TotalAmount', value);
  };

  // ---- FileHeader
  const header = el(xml, 'FileHeader');
  txt(header, 'SchemaVersion', '3.2.2');
  txt(header, 'Modality', CODES.modalityIndividual);
  txt(header, 'InvoiceIssuerType', CODES.issuerIsSeller);
  const batch = el(header, 'Batch');
  // "Issuer's document number + first invoice number + series".
  txt(batch, 'BatchIdentifier', clip(`${taxIdNumber(doc.issuer)}${own.number}${own.series}`, 70));
  txt(batch, 'InvoicesCount', '1');
  amountType(batch, 'TotalInvoicesAmount', doc.total);
  amountType(batch, 'TotalOutstandingAmount', doc.total);
  amountType(batch, 'TotalExecutableAmount', doc.total);
  txt(batch, 'InvoiceCurrencyCode', doc.currency);

  // ---- Parties
  const parties = el(xml, 'Parties');
  party(el(parties, 'SellerParty'), doc.issuer);
  party(el(parties, 'BuyerParty'), doc.customer);

  // ---- Invoice
  const invoice = el(el(xml, 'Invoices'), 'Invoice');
  const invHeader = el(invoice, 'InvoiceHeader');
  txt(invHeader, 'InvoiceNumber', own.number);
  if (own.series) txt(invHeader, 'InvoiceSeriesCode', own.series);
  txt(invHeader, 'InvoiceDocumentType', CODES.completeInvoice);
  txt(invHeader, 'InvoiceClass', credit ? CODES.corrective : CODES.original);
  if (doc.corrects) {
    const original = splitNumber(doc.corrects.number);
    const corrective = el(invHeader, 'Corrective');
    txt(corrective, 'InvoiceNumber', original.number);
    if (original.series) txt(corrective, 'InvoiceSeriesCode', original.series);
    txt(corrective, 'ReasonCode', CODES.reasonTaxableBase.code);
    txt(corrective, 'ReasonDescription', CODES.reasonTaxableBase.description);
    // The natural period in which the corrected invoice had its tax effects: its issue month.
    const taxPeriod = el(corrective, 'TaxPeriod');
    txt(taxPeriod, 'StartDate', `${doc.corrects.issue_date.slice(0, 7)}-01`);
    txt(taxPeriod, 'EndDate', lastDayOfMonth(doc.corrects.issue_date));
    txt(corrective, 'CorrectionMethod', CODES.byDifferences.code);
    txt(corrective, 'CorrectionMethodDescription', CODES.byDifferences.description);
    txt(corrective, 'AdditionalReasonDescription', clip(doc.corrects.reason, 2500));
    txt(corrective, 'InvoiceIssueDate', doc.corrects.issue_date);
  }

  const issue = el(invoice, 'InvoiceIssueData');
  txt(issue, 'IssueDate', doc.issue_date);
  const period = el(issue, 'InvoicingPeriod');
  txt(period, 'StartDate', doc.period_start);
  txt(period, 'EndDate', doc.period_end);
  txt(issue, 'InvoiceCurrencyCode', doc.currency);
  // Spanish VAT is declared in euros whatever the invoice's currency (RD 1619/2012 art. 10.1).
  txt(issue, 'TaxCurrencyCode', 'EUR');
  txt(issue, 'LanguageName', doc.language);

  tax(el(el(invoice, 'TaxesOutputs'), 'Tax'), doc.base, doc.vat_amount);

  const totals = el(invoice, 'InvoiceTotals');
  txt(totals, 'TotalGrossAmount', doc.lines_total);
  if (doc.allowances.length > 0) {
    const general = el(totals, 'GeneralDiscounts');
    for (const allowance of doc.allowances) {
      const discount = el(general, 'Discount');
      txt(discount, 'DiscountReason', t.allowance[allowance.reason]);
      if (allowance.percentage) txt(discount, 'DiscountRate', allowance.percentage);
      txt(discount, 'DiscountAmount', allowance.amount);
    }
    txt(totals, 'TotalGeneralDiscounts', discounts);
  }
  txt(totals, 'TotalGrossAmountBeforeTaxes', doc.base);
  txt(totals, 'TotalTaxOutputs', doc.vat_amount);
  txt(totals, 'TotalTaxesWithheld', '0.00');
  txt(totals, 'InvoiceTotal', doc.total);
  txt(totals, 'TotalOutstandingAmount', doc.total);
  txt(totals, 'TotalExecutableAmount', doc.total);

  const items = el(invoice, 'Items');
  for (const line of doc.lines) {
    const item = el(items, 'InvoiceLine');
    txt(item, 'ItemDescription', clip(line.description, 2500));
    txt(item, 'Quantity', isNegative(line.amount) ? '-1' : '1');
    txt(item, 'UnitPriceWithoutTax', abs(line.amount));
    txt(item, 'TotalCost', line.amount);
    txt(item, 'GrossAmount', line.amount);
    // The line's VAT amount is left out: rounded per line it need not add up to the document's.
    tax(el(el(item, 'TaxesOutputs'), 'Tax'), line.amount, undefined);
    const lineperiod = el(item, 'LineItemPeriod');
    txt(lineperiod, 'StartDate', doc.period_start);
    txt(lineperiod, 'EndDate', doc.period_end);
    txt(item, 'AdditionalLineItemInformation', `${t.impressions}: ${line.quantity}`);
    if (doc.tax_treatment === 'not_subject') {
      const event = el(item, 'SpecialTaxableEvent');
      txt(event, 'SpecialTaxableEventCode', CODES.notSubject);
      txt(event, 'SpecialTaxableEventReason', legalMentions('not_subject', 'es')[0]!);
    }
  }

  // A credit note is refunded to the customer, whose account the document does not hold: no
  // installment (AccountToBeCredited would otherwise name the issuer's own account).
  if (!credit && toCents(doc.total) > 0n) {
    const installment = el(el(invoice, 'PaymentDetails'), 'Installment');
    txt(installment, 'InstallmentDueDate', doc.due_date);
    txt(installment, 'InstallmentAmount', doc.total);
    txt(installment, 'PaymentMeans', CODES.transfer);
    const account = el(installment, 'AccountToBeCredited');
    txt(account, 'IBAN', doc.issuer.iban);
    // Facturae's BIC is 11 characters: an 8-character BIC is its head office, "XXX".
    if (doc.issuer.bic) txt(account, 'BIC', doc.issuer.bic.padEnd(11, 'X'));
  }

  const mentions = legalMentions(doc.tax_treatment, doc.language);
  if (mentions.length > 0) {
    const literals = el(invoice, 'LegalLiterals');
    for (const mention of mentions) txt(literals, 'LegalReference', clip(mention, 250));
  }

  const additional = [doc.notes, t.paymentTerms(doc.payment_terms, doc.due_date)].filter(Boolean).join('\n');
  txt(el(invoice, 'AdditionalData'), 'InvoiceAdditionalInformation', clip(additional, 2500));

  return xml.end({ prettyPrint: true });

  function tax(parent: Builder, base: string, amount: string | undefined): void {
    txt(parent, 'TaxTypeCode', CODES.vat);
    txt(parent, 'TaxRate', doc.vat_rate);
    amountType(parent, 'TaxableBase', base);
    if (amount !== undefined) amountType(parent, 'TaxAmount', amount);
  }

  function party(parent: Builder, p: InvoiceParty): void {
    const id = el(parent, 'TaxIdentification');
    txt(id, 'PersonTypeCode', CODES.legalPerson);
    txt(id, 'ResidenceTypeCode', p.country === 'ES' ? 'R' : EU_COUNTRIES.has(p.country) ? 'U' : 'E');
    txt(id, 'TaxIdentificationNumber', taxIdNumber(p));
    const legal = el(parent, 'LegalEntity');
    txt(legal, 'CorporateName', clip(p.legal_name, 80));
    const province = p.country === 'ES' ? spanishProvince(p.postal_code) : undefined;
    if (province) {
      const address = el(legal, 'AddressInSpain');
      txt(address, 'Address', clip(p.address, 80));
      txt(address, 'PostCode', p.postal_code);
      txt(address, 'Town', clip(p.city, 50));
      txt(address, 'Province', province);
      txt(address, 'CountryCode', 'ESP');
    } else {
      // The document has no region: the town stands for Facturae's required Province.
      const address = el(legal, 'OverseasAddress');
      txt(address, 'Address', clip(p.address, 80));
      txt(address, 'PostCodeAndTown', clip(`${p.postal_code} ${p.city}`.trim(), 50));
      txt(address, 'Province', clip(p.city, 20));
      txt(address, 'CountryCode', alpha3(p.country));
    }
    if (p.email && p.email.length <= 60) txt(el(legal, 'ContactDetails'), 'ElectronicMail', p.email);
  }
}

/** A Spanish tax id as registered; any other with its country prefix (EL for Greece). */
function taxIdNumber(p: InvoiceParty): string {
  return p.country === 'ES' ? p.tax_id : `${vatPrefix(p.country)}${p.tax_id}`;
}

function lastDayOfMonth(date: string): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}
