/**
 * Tax ids and bank accounts, checked the same way in the form and in the API:
 * - a company's tax id is its VAT number without the country prefix. Spain: NIF, NIE or CIF with
 *   their check character; other EU countries: their VAT number's format and check digits. Both
 *   through jsvat (the EU countries' published rules), with the country as prefix.
 * - an IBAN by ibantools (country format, length and the mod-97 check), accepted with spaces
 *   and in lowercase, stored in its electronic form.
 */
import { checkVAT, countries as vatCountries } from 'jsvat';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';

/** EU countries (ISO 3166-1 alpha-2; Greece's VAT prefix is EL). */
export const EU_COUNTRIES = [
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
] as const;
/** Countries a company can be in: the EU, plus the UK, Switzerland, Norway and the US (tax id checked for the EU only). */
export const COMPANY_COUNTRIES = [...EU_COUNTRIES, 'GB', 'CH', 'NO', 'US'] as const;
export type CompanyCountry = (typeof COMPANY_COUNTRIES)[number];

/** The tax id in the form it is stored and compared: upper case, no spaces, dots or dashes, no country prefix. */
export function normalizeTaxId(country: string, taxId: string): string {
  const compact = taxId.toUpperCase().replace(/[\s.\-/]/g, '');
  const prefix = country === 'GR' ? 'EL' : country;
  return compact.startsWith(prefix) && (EU_COUNTRIES as readonly string[]).includes(country) ? compact.slice(prefix.length) : compact;
}

/** Is this tax id valid for the country? Outside the EU any 4 to 20 letters and digits. */
export function isValidTaxId(country: string, taxId: string): boolean {
  const id = normalizeTaxId(country, taxId);
  if (!(EU_COUNTRIES as readonly string[]).includes(country)) return /^[A-Z0-9]{4,20}$/.test(id);
  const prefix = country === 'GR' ? 'EL' : country;
  return checkVAT(`${prefix}${id}`, vatCountries).isValid;
}

export function normalizeIban(iban: string): string {
  return electronicFormatIBAN(iban) ?? iban.replace(/\s/g, '').toUpperCase();
}

export function isValidIban(iban: string): boolean {
  return isValidIBAN(normalizeIban(iban));
}
