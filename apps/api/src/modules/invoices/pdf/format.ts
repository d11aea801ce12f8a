/**
 * Presentation of an invoice document's values in its language: dates, money, quantities,
 * percentages, payment terms, IBAN, country names, VAT numbers. Amounts stay decimal strings:
 * money goes through core's string-based `formatMoney` (es `1.234,50 €`, en `€1,234.50`), never
 * through a float.
 */
import { PAYMENT_TERM_DAYS } from '@backoffice/core/billing-api';
import { formatMoney, formatNumber } from '@backoffice/core/format';
import { translate } from '@backoffice/core/i18n/catalogues';
import type { InvoiceParty } from '@backoffice/core/invoice-document';

export type DocLanguage = 'en' | 'es';

/** es `02/11/2026`, en `2026-11-02` (ISO, unambiguous for an international reader). */
export function formatDocDate(iso: string, language: DocLanguage): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return iso;
  return language === 'es' ? `${m[3]}/${m[2]}/${m[1]}` : iso;
}

export function formatDocMoney(amount: string, currency: string, language: DocLanguage): string {
  return formatMoney(amount, currency, language) || amount;
}

/** Impressions with thousands separators: es `12.500.000`, en `12,500,000`. */
export function formatQuantity(quantity: string, language: DocLanguage): string {
  return formatNumber(quantity, language, 0) || quantity;
}

/** `21.00` -> es `21 %`, en `21%`; `12.50` -> `12,5 %` / `12.5%`. */
export function formatPercent(value: string, language: DocLanguage): string {
  const number = formatNumber(value, language, 2);
  if (number === '') return value;
  const decimal = language === 'es' ? ',' : '.';
  const [int, frac = ''] = number.split(decimal);
  const trimmed = frac.replace(/0+$/, '');
  return translate(language, 'invoice.doc.percent', {
    value: trimmed ? `${int}${decimal}${trimmed}` : (int ?? number),
  });
}

/** net30 -> `30 days` / `30 días`; prepaid -> `Prepaid`; anything else as stored. */
export function formatPaymentTerms(terms: string, language: DocLanguage): string {
  const days = PAYMENT_TERM_DAYS[terms];
  if (days !== undefined) return translate(language, 'invoice.doc.payment.days', { days });
  if (terms === 'prepaid') return translate(language, 'invoice.doc.payment.prepaid');
  return terms;
}

/** `ES9121000418450200051332` -> `ES91 2100 0418 4502 0005 1332`. */
export function formatIban(iban: string): string {
  const compact = iban.replace(/\s+/g, '').toUpperCase();
  return compact.match(/.{1,4}/g)?.join(' ') ?? compact;
}

const displayNames = new Map<DocLanguage, Intl.DisplayNames>();

/** `FR` -> `France` / `Francia`; an unknown code as given. */
export function countryName(code: string, language: DocLanguage): string {
  let names = displayNames.get(language);
  if (!names) {
    names = new Intl.DisplayNames([language], { type: 'region' });
    displayNames.set(language, names);
  }
  try {
    return names.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** The EU VAT number (NIF-IVA) of a party: its tax id with the VAT country prefix (Greece is EL). */
export function vatNumber(party: Pick<InvoiceParty, 'country' | 'tax_id'>): string {
  const country = party.country.toUpperCase();
  const prefix = country === 'GR' ? 'EL' : country;
  const id = party.tax_id.replace(/\s+/g, '').toUpperCase();
  return id.startsWith(prefix) ? id : `${prefix}${id}`;
}
