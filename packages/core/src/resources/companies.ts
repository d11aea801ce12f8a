/**
 * Companies (`/utils/list_companies`): the legal entities behind advertisers, partners,
 * publishers and agencies. The tax id is unique per country and checked for the country (tax-ids.ts).
 */
import { z } from 'zod';
import { COMPANY_COUNTRIES, isValidIban, isValidTaxId, normalizeIban, normalizeTaxId } from '../tax-ids.ts';
import { COMMON_FIELDS, defineResource } from './define.ts';

export const CURRENCIES = ['EUR', 'USD'] as const;

const text = (max: number) => z.string().trim().min(1, 'error.required').max(max, 'error.too_long');
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, 'error.too_long')
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

/** The fields a create or an update sends. */
export const companyFieldsSchema = z.strictObject({
    legal_name: text(200),
    trade_name: optionalText(200),
    country: z.enum(COMPANY_COUNTRIES, { error: 'company.country_required' }),
    tax_id: z.string().trim().min(1, 'error.required').max(30, 'error.too_long'),
    address: text(300),
    city: text(120),
    postal_code: z.string().trim().min(1, 'error.required').max(12, 'error.too_long').regex(/^[A-Za-z0-9 -]+$/, 'company.postal_code_invalid'),
    billing_email: z.string().trim().max(254, 'error.too_long').email('company.email_invalid'),
    iban: z
      .string()
      .trim()
      .max(42, 'error.too_long')
      .transform((v) => (v === '' ? null : normalizeIban(v)))
      .nullable()
      .optional()
      .refine((v) => v === null || v === undefined || isValidIban(v), 'company.iban_invalid'),
    currency: z.enum(CURRENCIES, { error: 'error.invalid_value' }),
});

/** What the form and the API check: the fields, and the tax id against its country. */
export const companySchema = companyFieldsSchema
  .transform((v) => ({ ...v, tax_id: normalizeTaxId(v.country, v.tax_id) }))
  .refine((v) => isValidTaxId(v.country, v.tax_id), { message: 'company.tax_id_invalid', path: ['tax_id'] });
export type CompanyInput = z.input<typeof companySchema>;

export const companies = defineResource({
  name: 'companies',
  entity: 'company',
  path: '/v1/companies',
  acl: '/v1/companies',
  schema: companyFieldsSchema,
  input: companySchema,
  fields: {
    id: COMMON_FIELDS.id,
    legal_name: { label: 'company.legal_name', type: 'text', list: true, sort: true, filter: 'contains' },
    trade_name: { label: 'company.trade_name', type: 'text', list: true, sort: true, filter: 'contains' },
    country: { label: 'company.country', type: 'enum', options: COMPANY_COUNTRIES, list: true, sort: true, filter: 'in' },
    tax_id: { label: 'company.tax_id', type: 'text', list: true, sort: true, filter: 'contains' },
    address: { label: 'company.address', type: 'text' },
    city: { label: 'company.city', type: 'text', list: true, sort: true, filter: 'contains' },
    postal_code: { label: 'company.postal_code', type: 'text' },
    billing_email: { label: 'company.billing_email', type: 'email', filter: 'contains' },
    iban: { label: 'company.iban', type: 'text' },
    currency: { label: 'company.currency', type: 'enum', options: CURRENCIES, list: true, sort: true, filter: 'in' },
    version: COMMON_FIELDS.version,
    created_at: COMMON_FIELDS.created_at,
    updated_at: COMMON_FIELDS.updated_at,
  },
  titleField: 'legal_name',
  defaultSort: 'legal_name',
  exportName: 'companies',
});
