/**
 * Publishers (`/partners/publishers_ssp`, `/partners/publishers_performance`): the sites and apps
 * whose inventory the exchange sells. One table with the reports' warehouse (`publishers`), so
 * reports and these screens name the same publishers. Each has an account (company, revenue share,
 * payment terms, minimum payout) and a sellers.json entry (seller id, type, domain, confidential),
 * from which the public `/sellers.json` is built and the publisher's ads.txt lines are written.
 */
import { z } from 'zod';
import { COMMON_FIELDS, defineResource } from './define.ts';
import { decimalText, optionalEmail, optionalHostname, optionalText } from './field-schemas.ts';
import { CURRENCIES } from './companies.ts';
import { PARTNER_SIDES, PAYMENT_TERMS } from './demand-partners.ts';

export const PUBLISHER_STATUSES = ['draft', 'live', 'paused', 'archived'] as const;
export const SELLER_TYPES = ['PUBLISHER', 'INTERMEDIARY', 'BOTH'] as const;
export const PUBLISHER_GROUPS = ['account', 'sellers_json'] as const;

export const publisherFieldsSchema = z.strictObject({
  // account
  name: z.string().trim().min(1, 'error.required').max(200, 'error.too_long'),
  side: z.enum(PARTNER_SIDES, { error: 'error.invalid_value' }),
  company_id: z.number({ error: 'error.invalid_value' }).int().min(1, 'error.invalid_value').max(2_147_483_647).nullable(),
  manager: optionalText(120),
  status: z.enum(PUBLISHER_STATUSES, { error: 'error.invalid_value' }).default('draft'),
  revenue_share_pct: decimalText(2, 100, 'publisher.share_invalid'),
  payment_terms: z.enum(PAYMENT_TERMS, { error: 'error.invalid_value' }).default('net45'),
  min_payout: decimalText(2, 1_000_000, 'publisher.min_payout_invalid').default('0'),
  currency: z.enum(CURRENCIES, { error: 'error.invalid_value' }).default('EUR'),
  billing_email: optionalEmail(),
  // sellers.json entry
  seller_id: z
    .string()
    .trim()
    .min(1, 'error.required')
    .max(64, 'error.too_long')
    // ads.txt and sellers.json carry it as a field: no separators, spaces or comment marks.
    .regex(/^[A-Za-z0-9._:-]+$/, 'publisher.seller_id_invalid'),
  seller_type: z.enum(SELLER_TYPES, { error: 'error.invalid_value' }).default('PUBLISHER'),
  seller_domain: optionalHostname('publisher.domain_invalid'),
  is_confidential: z.boolean({ error: 'error.invalid_value' }).default(false),
});

/**
 * sellers.json 1.0: a seller that is not confidential is listed with its domain when it is a
 * PUBLISHER or BOTH, so the entry needs one.
 */
export const publisherInputSchema = publisherFieldsSchema.superRefine((v, ctx) => {
  if (!v.is_confidential && v.seller_type !== 'INTERMEDIARY' && !v.seller_domain) {
    ctx.addIssue({ code: 'custom', path: ['seller_domain'], message: 'publisher.domain_required' });
  }
});

export const publishers = defineResource({
  name: 'publishers',
  entity: 'publisher',
  path: '/v1/partners/publishers',
  acl: '/v1/partners/publishers',
  schema: publisherFieldsSchema,
  input: publisherInputSchema,
  fields: {
    id: COMMON_FIELDS.id,
    name: { label: 'publisher.name', type: 'text', list: true, sort: true, filter: 'contains', group: 'account' },
    side: { label: 'publisher.side', type: 'enum', options: PARTNER_SIDES, filter: 'in', group: 'account' },
    company_id: { label: 'publisher.company', type: 'ref', ref: 'companies', filter: 'in', group: 'account' },
    manager: { label: 'publisher.manager', type: 'text', list: true, sort: true, filter: 'contains', group: 'account' },
    status: { label: 'publisher.status', type: 'enum', options: PUBLISHER_STATUSES, list: true, sort: true, filter: 'in', group: 'account' },
    revenue_share_pct: { label: 'publisher.revenue_share_pct', type: 'percent', list: true, sort: true, filter: 'range', group: 'account' },
    payment_terms: { label: 'publisher.payment_terms', type: 'enum', options: PAYMENT_TERMS, filter: 'in', group: 'account' },
    min_payout: { label: 'publisher.min_payout', type: 'money', sort: true, group: 'account' },
    currency: { label: 'publisher.currency', type: 'enum', options: CURRENCIES, list: true, filter: 'in', group: 'account' },
    billing_email: { label: 'publisher.billing_email', type: 'email', group: 'account' },
    seller_id: { label: 'publisher.seller_id', type: 'text', list: true, sort: true, filter: 'contains', group: 'sellers_json' },
    seller_type: { label: 'publisher.seller_type', type: 'enum', options: SELLER_TYPES, list: true, filter: 'in', group: 'sellers_json' },
    seller_domain: { label: 'publisher.seller_domain', type: 'text', list: true, sort: true, filter: 'contains', group: 'sellers_json' },
    is_confidential: { label: 'publisher.is_confidential', type: 'boolean', filter: 'eq', group: 'sellers_json' },
    version: COMMON_FIELDS.version,
    created_at: COMMON_FIELDS.created_at,
    updated_at: COMMON_FIELDS.updated_at,
  },
  titleField: 'name',
  defaultSort: 'name',
  exportName: 'publishers',
  // Archived (status), never deleted: the warehouse's facts and the payouts refer to publishers.
  writes: ['create', 'update'],
});
