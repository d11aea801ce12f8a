import { describe, expect, it } from 'vitest';
import { companySchema } from './resources/companies.ts';
import { isValidIban, isValidTaxId, normalizeIban, normalizeTaxId } from './tax-ids.ts';

describe('tax ids and IBANs', () => {
  it('checks Spanish NIF, NIE and CIF check characters, and EU VAT numbers by country', () => {
    for (const id of ['12345678Z', 'X1234567L', 'Z1234567R', 'B12345674', 'A58818501']) expect(isValidTaxId('ES', id), id).toBe(true);
    for (const id of ['12345678A', 'X1234567A', 'B12345675', 'B1234567']) expect(isValidTaxId('ES', id), id).toBe(false);
    expect(isValidTaxId('DE', '136695976')).toBe(true);
    expect(isValidTaxId('DE', '136695977')).toBe(false);
    // Outside the EU: letters and digits only.
    expect(isValidTaxId('US', '47-1234567')).toBe(true);
  });

  it('normalises: upper case, no separators, no country prefix', () => {
    expect(normalizeTaxId('ES', 'esb-1234567.4')).toBe('B12345674');
    expect(normalizeTaxId('GR', 'EL 094014201')).toBe('094014201');
  });

  it('checks IBANs (mod 97, country length) and keeps them in electronic form', () => {
    expect(isValidIban('es91 2100 0418 4502 0005 1332')).toBe(true);
    expect(isValidIban('ES9121000418450200051333')).toBe(false);
    expect(normalizeIban('es91 2100 0418 4502 0005 1332')).toBe('ES9121000418450200051332');
  });

  it('the company schema applies them with the form and API message keys', () => {
    const base = { legal_name: 'X', country: 'ES', tax_id: 'B12345675', address: 'a', city: 'c', postal_code: '28013', billing_email: 'a@b.es', currency: 'EUR' };
    const bad = companySchema.safeParse(base);
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['tax_id', 'company.tax_id_invalid']]);
    expect(companySchema.safeParse({ ...base, tax_id: 'B12345674', iban: 'ES00' }).error!.issues[0]!.message).toBe('company.iban_invalid');
  });
});
