/**
 * An issued invoice or credit note as its documents render it (issue 22): the PDF, the UBL 2.1
 * (EN 16931) and Facturae 3.2.2 exports and the VERI*FACTU record all read this one shape, so the
 * figures they show are the same. Built by the API from the stored invoice; nothing here is
 * computed by a renderer except presentation.
 *
 * Money: decimal strings with exactly two decimals in the invoice's currency ("1234.50",
 * "-1234.50"), never floats. A credit note (factura rectificativa por diferencias) carries negative
 * line amounts, base, VAT and total; `corrects` names the invoice it corrects.
 */

export const INVOICE_KINDS = ['invoice', 'credit_note'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/**
 * How VAT applies (the issuer is established in Spain):
 * - domestic: a Spanish customer, VAT at `vat_rate` (21 %);
 * - reverse_charge: a business customer in another EU member state: no VAT charged, the customer
 *   accounts for it ("Inversión del sujeto pasivo", art. 84 LIVA; EN 16931 category AE);
 * - not_subject: a customer outside the EU: the service is not subject to Spanish VAT (place of
 *   supply rules, art. 69 LIVA; EN 16931 category O).
 */
export const TAX_TREATMENTS = ['domestic', 'reverse_charge', 'not_subject'] as const;
export type TaxTreatment = (typeof TAX_TREATMENTS)[number];

export interface InvoiceParty {
  legal_name: string;
  /** Tax id as registered, without the country prefix (Spanish NIF "B12345674", FR "12345678901"). */
  tax_id: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  address: string;
  city: string;
  postal_code: string;
  email?: string;
}

export interface InvoiceIssuer extends InvoiceParty {
  /** Where the customer pays (IBAN without spaces) and its BIC when known. */
  iban: string;
  bic?: string;
  /** Registry entry printed under the issuer's name (Registro Mercantil), when set. */
  registry?: string;
}

export interface InvoiceLine {
  /** "Advertising services — banner", "Publicidad programática — vídeo"... */
  description: string;
  /** Impressions served in the period (an integer as a string), shown as the line's quantity. */
  quantity: string;
  /** The line's net amount (before VAT), two decimals. */
  amount: string;
}

/** A document-level deduction (fraud, spoofing) as an allowance: subtracted before VAT. */
export interface InvoiceAllowance {
  reason: 'fraud' | 'spoofing';
  /** Positive amount deducted (on a credit note, negative: it reverses the invoice's). */
  amount: string;
  /** The percentage of the lines' total, when the deduction was given as one ("12.50"). */
  percentage?: string;
}

export interface InvoiceDocument {
  kind: InvoiceKind;
  /** Series and number as printed: "F2026-000123" (invoices) or "R2026-000004" (credit notes). */
  number: string;
  /** The series alone ("F2026"), and the number within it (123). */
  series: string;
  sequence: number;
  issue_date: string; // YYYY-MM-DD
  due_date: string; // YYYY-MM-DD
  period_start: string; // YYYY-MM-DD, first day served
  period_end: string; // YYYY-MM-DD, last day served (inclusive)
  /** ISO 4217. */
  currency: string;
  /** The language the counterparty reads: the PDF's, and the text of the mentions. */
  language: 'en' | 'es';
  issuer: InvoiceIssuer;
  customer: InvoiceParty;
  lines: InvoiceLine[];
  allowances: InvoiceAllowance[];
  /** Sum of the lines' amounts. */
  lines_total: string;
  /** lines_total − allowances: the tax base. */
  base: string;
  tax_treatment: TaxTreatment;
  /** "21.00" for domestic, "0.00" otherwise. */
  vat_rate: string;
  vat_amount: string;
  total: string;
  /** net30 | net45 | net60 | prepaid… as stored; the PDF prints it in words. */
  payment_terms: string;
  /** A credit note's original invoice. */
  corrects?: { number: string; issue_date: string; reason: string };
  /** Free text printed under the lines. */
  notes?: string;
  /** The VERI*FACTU record of this document: its hash and the tax agency's QR URL. */
  verifactu?: { hash: string; qr_url: string };
}
