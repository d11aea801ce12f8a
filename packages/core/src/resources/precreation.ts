/**
 * Precreation (`/partners/precreation_perf`, `/partners/precreation_ssp`): onboarding drafts for a
 * new publisher or demand partner, with a checklist (contract, billing information, ads.txt
 * verified, test traffic) and a workflow: draft -> in review -> created (approving creates the real
 * publisher or partner in the same transaction), or rejected. Approving twice (a double click, two
 * people) creates one. A clone copies a draft without its identity fields.
 */
import { z } from 'zod';
import { urlSchema } from '../input-schemas.ts';
import { COMMON_FIELDS, defineResource } from './define.ts';
import { decimalText, optionalEmail, optionalHostname, optionalText } from './field-schemas.ts';
import { PARTNER_SIDES, PARTNER_TYPES } from './demand-partners.ts';
import { MAX_QPS_CAP } from './endpoints.ts';

export const PRECREATION_TARGETS = ['publisher', 'demand_partner'] as const;
export type PrecreationTarget = (typeof PRECREATION_TARGETS)[number];
/** `approved` is the moment of the decision; the same transaction creates the entity (`created`). */
export const PRECREATION_STATES = ['draft', 'in_review', 'approved', 'created', 'rejected'] as const;
export type PrecreationState = (typeof PRECREATION_STATES)[number];
export const PRECREATION_CHECKLIST = ['contract_signed', 'billing_info', 'ads_txt_verified', 'test_traffic'] as const;
/** States in which the draft's fields can still change. */
export const EDITABLE_STATES: readonly PrecreationState[] = ['draft', 'in_review'];
/** Fields a clone leaves out: what identifies the entity to be created. */
export const CLONE_DROPS = ['name', 'seller_id', 'seller_domain', 'endpoint_url', 'contact_email'] as const;

export const precreationFieldsSchema = z.strictObject({
  name: z.string().trim().min(1, 'error.required').max(200, 'error.too_long'),
  side: z.enum(PARTNER_SIDES, { error: 'error.invalid_value' }),
  target: z.enum(PRECREATION_TARGETS, { error: 'precreation.target_required' }),
  company_id: z.number({ error: 'error.invalid_value' }).int().min(1, 'error.invalid_value').max(2_147_483_647).nullable(),
  contact_email: optionalEmail(),
  // what the publisher will have
  seller_id: z
    .union([z.string(), z.null()])
    .transform((v) => (v === null ? null : v.trim() || null))
    .refine((v) => v === null || /^[A-Za-z0-9._:-]{1,64}$/.test(v), 'publisher.seller_id_invalid'),
  seller_domain: optionalHostname('publisher.domain_invalid'),
  revenue_share_pct: decimalText(2, 100, 'publisher.share_invalid').default('0'),
  // what the partner will have
  partner_type: z.enum(PARTNER_TYPES, { error: 'error.invalid_value' }).default('DSP'),
  endpoint_url: z
    .union([z.string(), z.null()])
    .transform((v) => (v === null ? null : v.trim() || null))
    .refine((v) => v === null || urlSchema.safeParse(v).success, 'inputs.url.invalid'),
  qps_cap: z
    .number({ error: 'endpoint.qps_invalid' })
    .min(0, 'endpoint.qps_invalid')
    .max(MAX_QPS_CAP, 'endpoint.qps_invalid')
    .refine(Number.isInteger, 'endpoint.qps_invalid')
    .default(0),
  notes: optionalText(2000),
  // checklist
  contract_signed: z.boolean({ error: 'error.invalid_value' }).default(false),
  billing_info: z.boolean({ error: 'error.invalid_value' }).default(false),
  ads_txt_verified: z.boolean({ error: 'error.invalid_value' }).default(false),
  test_traffic: z.boolean({ error: 'error.invalid_value' }).default(false),
});

export type PrecreationInput = z.infer<typeof precreationFieldsSchema>;

/**
 * What approval needs beyond a valid draft: every checklist item, and what the entity to create
 * requires (a publisher's seller id and domain, a partner's endpoint URL). Field -> message key.
 */
export function approvalProblems(d: Pick<PrecreationInput, 'target' | 'seller_id' | 'seller_domain' | 'endpoint_url' | (typeof PRECREATION_CHECKLIST)[number]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of PRECREATION_CHECKLIST) if (!d[item]) out[item] = 'precreation.check_missing';
  if (d.target === 'publisher') {
    if (!d.seller_id) out.seller_id = 'precreation.needed_to_create';
    if (!d.seller_domain) out.seller_domain = 'precreation.needed_to_create';
  } else if (!d.endpoint_url) out.endpoint_url = 'precreation.needed_to_create';
  return out;
}

export const precreation = defineResource({
  name: 'precreation',
  entity: 'precreation',
  path: '/v1/precreation',
  acl: '/v1/precreation',
  schema: precreationFieldsSchema,
  fields: {
    id: COMMON_FIELDS.id,
    name: { label: 'precreation.name', type: 'text', list: true, sort: true, filter: 'contains', group: 'draft' },
    side: { label: 'precreation.side', type: 'enum', options: PARTNER_SIDES, filter: 'in', group: 'draft' },
    target: { label: 'precreation.target', type: 'enum', options: PRECREATION_TARGETS, list: true, sort: true, filter: 'in', group: 'draft' },
    state: { label: 'precreation.state', type: 'enum', options: PRECREATION_STATES, list: true, sort: true, filter: 'in', readOnly: true },
    company_id: { label: 'precreation.company', type: 'ref', ref: 'companies', filter: 'in', group: 'draft' },
    contact_email: { label: 'precreation.contact_email', type: 'email', group: 'draft' },
    notes: { label: 'precreation.notes', type: 'text', group: 'draft' },
    seller_id: { label: 'publisher.seller_id', type: 'text', list: true, group: 'entity' },
    seller_domain: { label: 'publisher.seller_domain', type: 'text', group: 'entity' },
    revenue_share_pct: { label: 'publisher.revenue_share_pct', type: 'percent', group: 'entity' },
    partner_type: { label: 'demand_partner.type', type: 'enum', options: PARTNER_TYPES, group: 'entity' },
    endpoint_url: { label: 'demand_partner.endpoint_url', type: 'url', group: 'entity' },
    qps_cap: { label: 'demand_partner.qps_cap', type: 'number', group: 'entity' },
    contract_signed: { label: 'precreation.contract_signed', type: 'boolean', list: true, filter: 'eq', group: 'checklist' },
    billing_info: { label: 'precreation.billing_info', type: 'boolean', list: true, filter: 'eq', group: 'checklist' },
    ads_txt_verified: { label: 'precreation.ads_txt_verified', type: 'boolean', list: true, filter: 'eq', group: 'checklist' },
    test_traffic: { label: 'precreation.test_traffic', type: 'boolean', list: true, filter: 'eq', group: 'checklist' },
    created_entity_id: { label: 'precreation.created_entity', type: 'number', readOnly: true },
    reject_reason: { label: 'precreation.reject_reason', type: 'text', readOnly: true },
    version: COMMON_FIELDS.version,
    created_at: COMMON_FIELDS.created_at,
    updated_at: COMMON_FIELDS.updated_at,
  },
  titleField: 'name',
  defaultSort: '-updated_at',
  exportName: 'precreation',
  // A draft is rejected, not deleted: its history is the onboarding's record.
  writes: ['create', 'update'],
});
