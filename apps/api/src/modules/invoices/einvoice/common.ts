/**
 * What the UBL (EN 16931) and Facturae exports share: exact money arithmetic on the document's
 * two-decimal strings, the VAT category of a tax treatment, the number split of a series, and the
 * few texts the files carry in the counterparty's language (docs/decisions/026-e-invoice-export.md).
 */
import type { InvoiceAllowance, InvoiceDocument, TaxTreatment } from '@backoffice/core/invoice-document';

// ---- Money: "1234.50" / "-1234.50" as integer cents, never floats ----------------------------

const MONEY = /^(-?)(\d+)\.(\d{2})$/;

/** A money string as cents; throws on anything but the document's two-decimal form. */
export function toCents(amount: string): bigint {
  const m = MONEY.exec(amount);
  if (!m) throw new Error(`einvoice: "${amount}" is not a two-decimal amount`);
  const cents = BigInt(m[2]!) * 100n + BigInt(m[3]!);
  return m[1] ? -cents : cents;
}

/** Cents back to the two-decimal form ("-0.00" never appears). */
export function fromCents(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

export const negate = (amount: string): string => fromCents(-toCents(amount));
export const abs = (amount: string): string =>
  fromCents(toCents(amount) < 0n ? -toCents(amount) : toCents(amount));
export const isNegative = (amount: string): boolean => toCents(amount) < 0n;

/** Σ of the allowances' amounts (same sign as the document's). */
export function allowancesTotal(allowances: InvoiceAllowance[]): string {
  return fromCents(allowances.reduce((sum, a) => sum + toCents(a.amount), 0n));
}

// ---- Tax treatment → VAT category ------------------------------------------------------------

export interface VatCategory {
  /** UNCL5305 code used by EN 16931: S standard, AE reverse charge, O not subject. */
  code: 'S' | 'AE' | 'O';
  /** The rate to state, or undefined where EN 16931 forbids one (category O: BR-O-5/6/…). */
  percent: string | undefined;
  /** VATEX exemption reason code (BT-121), for AE and O. */
  exemptionCode: string | undefined;
  /** Exemption reason text (BT-120), in the document's language. */
  exemptionText: string | undefined;
  /** Whether the parties' VAT identifiers may appear (BR-O-2: not with category O). */
  vatIds: boolean;
}

export function vatCategory(doc: InvoiceDocument): VatCategory {
  const t = TEXTS[doc.language];
  switch (doc.tax_treatment) {
    case 'domestic':
      return {
        code: 'S',
        percent: doc.vat_rate,
        exemptionCode: undefined,
        exemptionText: undefined,
        vatIds: true,
      };
    case 'reverse_charge':
      return {
        code: 'AE',
        percent: '0.00',
        exemptionCode: 'VATEX-EU-AE',
        exemptionText: t.reverseCharge,
        vatIds: true,
      };
    case 'not_subject':
      return {
        code: 'O',
        percent: undefined,
        exemptionCode: 'VATEX-EU-O',
        exemptionText: t.notSubject,
        vatIds: false,
      };
  }
}

// ---- Numbers ---------------------------------------------------------------------------------

/**
 * A document number split into its series and its number within the series as printed
 * ("F2026-000123" → F2026, 000123). The separator between them (-, /, space) is dropped.
 */
export function splitNumber(number: string, series?: string): { series: string; number: string } {
  if (series && number.startsWith(series)) {
    return { series, number: number.slice(series.length).replace(/^[-/ ]/, '') };
  }
  const m = /^(.*?)[-/ ]?(\d+)$/.exec(number);
  return m ? { series: m[1]!, number: m[2]! } : { series: '', number };
}

// ---- Texts -----------------------------------------------------------------------------------

interface Texts {
  reverseCharge: string;
  notSubject: string;
  impressions: string;
  allowance: Record<InvoiceAllowance['reason'], string>;
  paymentTerms: (terms: string, dueDate: string) => string;
}

export const TEXTS: Record<InvoiceDocument['language'], Texts> = {
  en: {
    reverseCharge: 'Reverse charge',
    notSubject: 'Not subject to VAT',
    impressions: 'Impressions',
    allowance: { fraud: 'Deduction for fraudulent traffic', spoofing: 'Deduction for domain spoofing' },
    paymentTerms: (terms, due) => {
      const days = /^net(\d+)$/.exec(terms)?.[1];
      if (days) return `Net ${days} days, due ${due}`;
      if (terms === 'prepaid') return 'Prepaid';
      return `${terms}, due ${due}`;
    },
  },
  es: {
    reverseCharge: 'Inversión del sujeto pasivo',
    notSubject: 'Operación no sujeta a IVA',
    impressions: 'Impresiones',
    allowance: {
      fraud: 'Deducción por tráfico fraudulento',
      spoofing: 'Deducción por suplantación de dominio',
    },
    paymentTerms: (terms, due) => {
      const days = /^net(\d+)$/.exec(terms)?.[1];
      if (days) return `Pago a ${days} días, vencimiento ${due}`;
      if (terms === 'prepaid') return 'Prepago';
      return `${terms}, vencimiento ${due}`;
    },
  },
};

/**
 * The legal mentions of a tax treatment (RD 1619/2012 art. 6.1.m and LIVA): always in Spanish, the
 * issuer's law, followed by the counterparty's language when it is English.
 */
export function legalMentions(treatment: TaxTreatment, language: InvoiceDocument['language']): string[] {
  const es: Record<TaxTreatment, string | undefined> = {
    domestic: undefined,
    reverse_charge: 'Inversión del sujeto pasivo (art. 84 LIVA)',
    not_subject: 'Operación no sujeta al IVA español por reglas de localización (art. 69 LIVA)',
  };
  const en: Record<TaxTreatment, string | undefined> = {
    domestic: undefined,
    reverse_charge:
      'Reverse charge: the customer accounts for the VAT (art. 84 Spanish VAT Act, art. 196 Directive 2006/112/EC)',
    not_subject: 'Not subject to Spanish VAT under the place-of-supply rules (art. 69 Spanish VAT Act)',
  };
  return [es[treatment], language === 'en' ? en[treatment] : undefined].filter((s): s is string =>
    Boolean(s),
  );
}

/** Truncates free text to a schema's maximum length (Facturae's TextMaxNN types). */
export const clip = (text: string, max: number): string => (text.length > max ? text.slice(0, max) : text);
