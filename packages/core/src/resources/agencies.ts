/**
 * Agencies (`/partners/agencies`): media agencies that buy through the company's demand side, with
 * the company behind them, their contacts, the commission they take and the advertisers they
 * represent. Archived agencies stay for history and reports; they are not deleted while in use.
 */
import { z } from 'zod';
import { COMMON_FIELDS, defineResource } from './define.ts';

export const AGENCY_STATUSES = ['active', 'archived'] as const;
export const MAX_AGENCY_CONTACTS = 10;

const contactSchema = z.strictObject({
  name: z.string().trim().min(1, 'error.required').max(120, 'error.too_long'),
  email: z.string().trim().max(254, 'error.too_long').email('company.email_invalid'),
  phone: z
    .string()
    .trim()
    .max(30, 'error.too_long')
    .regex(/^$|^\+?[0-9 ()-]{6,30}$/, 'agency.phone_invalid')
    .optional()
    .transform((v) => (v ? v : null))
    .nullable(),
});

export const agencyFieldsSchema = z.strictObject({
  name: z.string().trim().min(1, 'error.required').max(200, 'error.too_long'),
  company_id: z.number({ error: 'agency.company_required' }).int().min(1, 'agency.company_required').max(2_147_483_647),
  contacts: z.array(contactSchema).max(MAX_AGENCY_CONTACTS, 'agency.contacts_max'),
  /** Percent with two decimals, 0 to 100, sent as text so no float rounding reaches the database. */
  commission_pct: z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .refine((v) => /^\d{1,3}(\.\d{1,2})?$/.test(v) && Number(v) <= 100, 'agency.commission_invalid'),
  advertisers: z.array(z.string().trim().min(1, 'error.required').max(120, 'error.too_long')).max(100, 'agency.advertisers_max'),
  status: z.enum(AGENCY_STATUSES, { error: 'error.invalid_value' }),
});

export const agencies = defineResource({
  name: 'agencies',
  entity: 'agency',
  path: '/v1/agencies',
  acl: '/v1/agencies',
  schema: agencyFieldsSchema,
  fields: {
    id: COMMON_FIELDS.id,
    name: { label: 'agency.name', type: 'text', list: true, sort: true, filter: 'contains' },
    company_id: { label: 'agency.company', type: 'ref', ref: 'companies', list: true, filter: 'in' },
    contacts: { label: 'agency.contacts', type: 'json', list: true },
    commission_pct: { label: 'agency.commission_pct', type: 'percent', list: true, sort: true, filter: 'range' },
    advertisers: { label: 'agency.advertisers', type: 'json' },
    status: { label: 'agency.status', type: 'enum', options: AGENCY_STATUSES, list: true, sort: true, filter: 'in' },
    version: COMMON_FIELDS.version,
    created_at: COMMON_FIELDS.created_at,
    updated_at: COMMON_FIELDS.updated_at,
  },
  titleField: 'name',
  defaultSort: 'name',
  exportName: 'agencies',
});
