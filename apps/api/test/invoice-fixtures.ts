/**
 * Invoice documents for the renderers' tests (PDF, UBL, Facturae, VERI*FACTU): a domestic invoice
 * with VAT, an intra-EU reverse-charge invoice with deductions, a non-EU invoice in USD, and a
 * credit note correcting the second one. Figures add up (lines − allowances = base; base + VAT =
 * total).
 */
import type { InvoiceDocument, InvoiceIssuer } from '@backoffice/core/invoice-document';

export const ISSUER: InvoiceIssuer = {
  legal_name: 'Adtech Media Iberia, S.L.',
  tax_id: 'B86561412',
  country: 'ES',
  address: 'Calle de Alcalá 21, 3º',
  city: 'Madrid',
  postal_code: '28014',
  email: 'billing@adtech.example',
  iban: 'ES9121000418450200051332',
  bic: 'CAIXESBBXXX',
  registry: 'Registro Mercantil de Madrid, tomo 31.250, folio 1, hoja M-562.300',
};

export const DOMESTIC: InvoiceDocument = {
  kind: 'invoice',
  number: 'F2026-000001',
  series: 'F2026',
  sequence: 1,
  issue_date: '2026-11-02',
  due_date: '2026-12-17',
  period_start: '2026-10-01',
  period_end: '2026-10-31',
  currency: 'EUR',
  language: 'es',
  issuer: ISSUER,
  customer: {
    legal_name: 'Medios Digitales del Norte, S.A.',
    tax_id: 'A28017895',
    country: 'ES',
    address: 'Gran Vía 1',
    city: 'Bilbao',
    postal_code: '48001',
    email: 'facturas@mediosnorte.example',
  },
  lines: [
    {
      description: 'Publicidad programática — banner (octubre 2026)',
      quantity: '12500000',
      amount: '8250.00',
    },
    { description: 'Publicidad programática — vídeo (octubre 2026)', quantity: '1200000', amount: '4100.50' },
  ],
  allowances: [],
  lines_total: '12350.50',
  base: '12350.50',
  tax_treatment: 'domestic',
  vat_rate: '21.00',
  vat_amount: '2593.61',
  total: '14944.11',
  payment_terms: 'net45',
};

export const REVERSE_CHARGE: InvoiceDocument = {
  kind: 'invoice',
  number: 'F2026-000002',
  series: 'F2026',
  sequence: 2,
  issue_date: '2026-11-02',
  due_date: '2026-12-02',
  period_start: '2026-10-01',
  period_end: '2026-10-31',
  currency: 'EUR',
  language: 'en',
  issuer: ISSUER,
  customer: {
    legal_name: 'Régie Publicitaire Lumière SAS',
    tax_id: '40303265045',
    country: 'FR',
    address: '12 rue de la Paix',
    city: 'Paris',
    postal_code: '75002',
    email: 'compta@lumiere.example',
  },
  lines: [
    {
      description: 'Programmatic advertising — banner (October 2026)',
      quantity: '30000000',
      amount: '20000.00',
    },
  ],
  allowances: [
    { reason: 'fraud', amount: '1000.00', percentage: '5.00' },
    { reason: 'spoofing', amount: '250.00' },
  ],
  lines_total: '20000.00',
  base: '18750.00',
  tax_treatment: 'reverse_charge',
  vat_rate: '0.00',
  vat_amount: '0.00',
  total: '18750.00',
  payment_terms: 'net30',
};

export const NOT_SUBJECT: InvoiceDocument = {
  kind: 'invoice',
  number: 'F2026-000003',
  series: 'F2026',
  sequence: 3,
  issue_date: '2026-11-03',
  due_date: '2027-01-02',
  period_start: '2026-10-01',
  period_end: '2026-10-31',
  currency: 'USD',
  language: 'en',
  issuer: ISSUER,
  customer: {
    legal_name: 'Brightline DSP, Inc.',
    tax_id: '84-1234567',
    country: 'US',
    address: '500 Market Street, Suite 400',
    city: 'San Francisco',
    postal_code: '94105',
  },
  lines: [
    {
      description: 'Programmatic advertising — native (October 2026)',
      quantity: '4000000',
      amount: '5320.75',
    },
    { description: 'Programmatic advertising — audio (October 2026)', quantity: '250000', amount: '612.40' },
  ],
  allowances: [],
  lines_total: '5933.15',
  base: '5933.15',
  tax_treatment: 'not_subject',
  vat_rate: '0.00',
  vat_amount: '0.00',
  total: '5933.15',
  payment_terms: 'net60',
};

/** Corrects REVERSE_CHARGE by part of it: negative amounts. */
export const CREDIT_NOTE: InvoiceDocument = {
  kind: 'credit_note',
  number: 'R2026-000001',
  series: 'R2026',
  sequence: 1,
  issue_date: '2026-11-20',
  due_date: '2026-11-20',
  period_start: '2026-10-01',
  period_end: '2026-10-31',
  currency: 'EUR',
  language: 'en',
  issuer: ISSUER,
  customer: REVERSE_CHARGE.customer,
  lines: [
    { description: 'Programmatic advertising — banner (October 2026)', quantity: '0', amount: '-3000.00' },
  ],
  allowances: [],
  lines_total: '-3000.00',
  base: '-3000.00',
  tax_treatment: 'reverse_charge',
  vat_rate: '0.00',
  vat_amount: '0.00',
  total: '-3000.00',
  payment_terms: 'net30',
  corrects: {
    number: 'F2026-000002',
    issue_date: '2026-11-02',
    reason: 'Discrepancy with the partner’s figures for October',
  },
};

export const ALL_DOCUMENTS = [DOMESTIC, REVERSE_CHARGE, NOT_SUBJECT, CREDIT_NOTE];
