/**
 * Demand partners (`/partners/demandpartners_ssp`, `/partners/demandpartners_performance`): the
 * DSPs, SSPs, networks and Amazon that buy the exchange's traffic (SSP side) or the performance
 * side's inventory. One table with the reports' warehouse (`demand_partners`), so the QPS graph,
 * the reports and these screens name the same partners; changes are audited as `demand_partner`
 * and a QPS cap change shows on the QPS graph as an annotation.
 *
 * Fields come in the catalogue's groups (identity, connection, capabilities, traffic, pricing,
 * commercial, transparency): the detail page shows one tab per group, and the registration wizard
 * (`/partners/demandpartners_ssp_register`) one step per group it asks for.
 */
import { z } from 'zod';
import { urlSchema } from '../input-schemas.ts';
import { COUNTRIES, FORMATS, SIZES } from '../reports.ts';
import { COMMON_FIELDS, defineResource } from './define.ts';
import { decimalText, optionalEmail, optionalHostname, optionalText } from './field-schemas.ts';
import { CURRENCIES } from './companies.ts';
import { MAX_QPS_CAP, OPENRTB_VERSIONS } from './endpoints.ts';
import { REPORTING_MODES } from '../partner-stats.ts';

export const PARTNER_SIDES = ['ssp', 'performance'] as const;
export type PartnerSide = (typeof PARTNER_SIDES)[number];
export const PARTNER_TYPES = ['DSP', 'SSP', 'network', 'amazon'] as const;
export const PARTNER_STATUSES = ['draft', 'testing', 'live', 'paused', 'archived'] as const;
export const PARTNER_ENVIRONMENTS = ['site', 'app', 'ctv'] as const;
export const CONSENT_FRAMEWORKS = ['tcf_v2', 'gpp', 'usp'] as const;
export const PAYMENT_TERMS = ['net30', 'net45', 'net60'] as const;
/** A bid request's timeout a partner may ask for, in milliseconds. */
export const MIN_TIMEOUT_MS = 50;
export const MAX_TIMEOUT_MS = 5000;
/** Above this share of its cap, a partner's current QPS is flagged (overview). */
export const QPS_WARNING_RATIO = 0.9;

/** The field groups, in the order of the detail page's tabs. */
export const PARTNER_GROUPS = ['identity', 'connection', 'capabilities', 'traffic', 'pricing', 'commercial', 'transparency'] as const;

const text = (max: number) => z.string().trim().max(max, 'error.too_long');

/** The same URL however it is typed: scheme and host in lower case, no trailing slash. */
export function normaliseEndpointUrl(url: string): string {
  const trimmed = url.trim();
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/i.exec(trimmed);
  if (!m) return trimmed;
  const rest = m[3]!.replace(/\/+$/, '');
  return `${m[1]!.toLowerCase()}${m[2]!.toLowerCase()}${rest}`;
}

const uniqueList = <T extends string>(values: readonly [T, ...T[]], max = values.length) =>
  z
    .array(z.enum(values, { error: 'error.invalid_value' }))
    .max(max)
    .refine((v) => new Set(v).size === v.length, 'error.invalid_value');

export const demandPartnerFieldsSchema = z.strictObject({
  // identity
  name: text(120).min(1, 'error.required'),
  side: z.enum(PARTNER_SIDES, { error: 'error.invalid_value' }),
  company_id: z.number({ error: 'error.invalid_value' }).int().min(1, 'error.invalid_value').max(2_147_483_647).nullable(),
  type: z.enum(PARTNER_TYPES, { error: 'demand_partner.type_required' }),
  account_manager: optionalText(120),
  status: z.enum(PARTNER_STATUSES, { error: 'error.invalid_value' }).default('draft'),
  // connection
  endpoint_url: z.string().trim().max(2000, 'error.too_long').pipe(urlSchema).transform(normaliseEndpointUrl),
  openrtb_version: z.enum(OPENRTB_VERSIONS, { error: 'error.invalid_value' }).default('2.6'),
  gzip: z.boolean({ error: 'error.invalid_value' }).default(true),
  timeout_ms: z
    .number({ error: 'demand_partner.timeout_invalid' })
    .min(MIN_TIMEOUT_MS, 'demand_partner.timeout_invalid')
    .max(MAX_TIMEOUT_MS, 'demand_partner.timeout_invalid')
    .refine(Number.isInteger, 'demand_partner.timeout_invalid')
    .default(300),
  // capabilities
  media_types: uniqueList(FORMATS).min(1, 'demand_partner.media_types_required'),
  environments: uniqueList(PARTNER_ENVIRONMENTS).min(1, 'demand_partner.environments_required'),
  sizes: uniqueList(SIZES),
  consent_frameworks: uniqueList(CONSENT_FRAMEWORKS),
  // traffic
  qps_cap: z
    .number({ error: 'endpoint.qps_invalid' })
    .min(0, 'endpoint.qps_invalid')
    .max(MAX_QPS_CAP, 'endpoint.qps_invalid')
    .refine(Number.isInteger, 'endpoint.qps_invalid'),
  simulate_only: z.boolean({ error: 'error.invalid_value' }).default(false),
  geo_allow: uniqueList(COUNTRIES),
  geo_deny: uniqueList(COUNTRIES),
  // pricing
  default_floor: decimalText(4, 1000, 'demand_partner.floor_invalid').default('0'),
  floor_currency: z.enum(CURRENCIES, { error: 'error.invalid_value' }).default('USD'),
  revenue_share_pct: decimalText(2, 100, 'demand_partner.share_invalid'),
  // commercial
  payment_terms: z.enum(PAYMENT_TERMS, { error: 'error.invalid_value' }).default('net45'),
  invoice_currency: z.enum(CURRENCIES, { error: 'error.invalid_value' }).default('EUR'),
  min_amount: decimalText(2, 1_000_000, 'demand_partner.min_amount_invalid').default('0'),
  vat_id: optionalText(30),
  billing_email: optionalEmail(),
  // transparency
  seller_id_at_partner: optionalText(100),
  partner_domain: optionalHostname('demand_partner.domain_invalid'),
  certification_authority_id: optionalText(64),
  // reporting (issue 24): manual partners' figures are entered on /utils/ssp/stats-manual
  reporting: z.enum(REPORTING_MODES, { error: 'error.invalid_value' }).default('api'),
});

/** Geo allow and deny lists may not name the same country. */
export const demandPartnerInputSchema = demandPartnerFieldsSchema.superRefine((v, ctx) => {
  const both = v.geo_allow.filter((c) => v.geo_deny.includes(c));
  if (both.length > 0) ctx.addIssue({ code: 'custom', path: ['geo_deny'], message: 'demand_partner.geo_overlap' });
});

export type DemandPartnerInput = z.infer<typeof demandPartnerFieldsSchema>;

/** The fields each registration step asks for (the rest keep their defaults). */
export const REGISTER_STEPS = [
  { key: 'identity', fields: ['name', 'company_id', 'type', 'account_manager'] },
  { key: 'connection', fields: ['endpoint_url', 'openrtb_version', 'gzip', 'timeout_ms', 'media_types', 'environments'] },
  { key: 'traffic', fields: ['qps_cap', 'default_floor', 'floor_currency', 'revenue_share_pct'] },
  { key: 'commercial', fields: ['payment_terms', 'invoice_currency', 'min_amount', 'vat_id', 'billing_email'] },
] as const satisfies readonly { key: string; fields: readonly (keyof DemandPartnerInput)[] }[];

export const demandPartners = defineResource({
  name: 'demand_partners',
  entity: 'demand_partner',
  path: '/v1/partners/demand',
  acl: '/v1/partners/demand',
  schema: demandPartnerFieldsSchema,
  input: demandPartnerInputSchema,
  fields: {
    id: COMMON_FIELDS.id,
    name: { label: 'demand_partner.name', type: 'text', list: true, sort: true, filter: 'contains', group: 'identity' },
    side: { label: 'demand_partner.side', type: 'enum', options: PARTNER_SIDES, filter: 'in', group: 'identity' },
    company_id: { label: 'demand_partner.company', type: 'ref', ref: 'companies', filter: 'in', group: 'identity' },
    type: { label: 'demand_partner.type', type: 'enum', options: PARTNER_TYPES, list: true, sort: true, filter: 'in', group: 'identity' },
    account_manager: { label: 'demand_partner.account_manager', type: 'text', list: true, sort: true, filter: 'contains', group: 'identity' },
    status: { label: 'demand_partner.status', type: 'enum', options: PARTNER_STATUSES, list: true, sort: true, filter: 'in', group: 'identity' },
    endpoint_url: { label: 'demand_partner.endpoint_url', type: 'url', group: 'connection' },
    openrtb_version: { label: 'endpoint.openrtb_version', type: 'enum', options: OPENRTB_VERSIONS, list: true, sort: true, group: 'connection' },
    gzip: { label: 'demand_partner.gzip', type: 'boolean', group: 'connection' },
    timeout_ms: { label: 'demand_partner.timeout_ms', type: 'number', list: true, sort: true, group: 'connection' },
    media_types: { label: 'demand_partner.media_types', type: 'json', options: FORMATS, list: true, group: 'capabilities' },
    environments: { label: 'demand_partner.environments', type: 'json', options: PARTNER_ENVIRONMENTS, group: 'capabilities' },
    sizes: { label: 'demand_partner.sizes', type: 'json', options: SIZES, group: 'capabilities' },
    consent_frameworks: { label: 'demand_partner.consent_frameworks', type: 'json', options: CONSENT_FRAMEWORKS, group: 'capabilities' },
    qps_cap: { label: 'demand_partner.qps_cap', type: 'number', list: true, sort: true, filter: 'range', group: 'traffic' },
    simulate_only: { label: 'demand_partner.simulate_only', type: 'boolean', group: 'traffic' },
    geo_allow: { label: 'demand_partner.geo_allow', type: 'json', options: COUNTRIES, group: 'traffic' },
    geo_deny: { label: 'demand_partner.geo_deny', type: 'json', options: COUNTRIES, group: 'traffic' },
    default_floor: { label: 'demand_partner.default_floor', type: 'money', list: true, sort: true, filter: 'range', group: 'pricing' },
    floor_currency: { label: 'demand_partner.floor_currency', type: 'enum', options: CURRENCIES, group: 'pricing' },
    revenue_share_pct: { label: 'demand_partner.revenue_share_pct', type: 'percent', sort: true, group: 'pricing' },
    payment_terms: { label: 'demand_partner.payment_terms', type: 'enum', options: PAYMENT_TERMS, filter: 'in', group: 'commercial' },
    invoice_currency: { label: 'demand_partner.invoice_currency', type: 'enum', options: CURRENCIES, group: 'commercial' },
    min_amount: { label: 'demand_partner.min_amount', type: 'money', sort: true, group: 'commercial' },
    vat_id: { label: 'demand_partner.vat_id', type: 'text', group: 'commercial' },
    billing_email: { label: 'demand_partner.billing_email', type: 'email', group: 'commercial' },
    seller_id_at_partner: { label: 'demand_partner.seller_id_at_partner', type: 'text', group: 'transparency' },
    partner_domain: { label: 'demand_partner.partner_domain', type: 'text', group: 'transparency' },
    certification_authority_id: { label: 'demand_partner.certification_authority_id', type: 'text', group: 'transparency' },
    reporting: { label: 'demand_partner.reporting', type: 'enum', options: REPORTING_MODES, list: true, sort: true, filter: 'in', group: 'commercial' },
    version: COMMON_FIELDS.version,
    created_at: COMMON_FIELDS.created_at,
    updated_at: COMMON_FIELDS.updated_at,
  },
  titleField: 'name',
  defaultSort: 'name',
  exportName: 'demand_partners',
  // Archived (status), never deleted: the warehouse's facts and the deals refer to partners.
  writes: ['create', 'update'],
});
