/**
 * Deals (`/partners/deals`): OpenRTB 2.6 Deal objects (id, bidfloor and bidfloorcur, auction type
 * `at`, allowed seats `wseat` and advertiser domains `wadomain`) with the exchange's own fields:
 * type (PMP, preferred deal, programmatic guaranteed), demand partner, targeted publishers and ad
 * units, dates, guaranteed impressions and status. One table with the reports' warehouse (`deals`:
 * the facts' `deal_id`), so the delivery the detail page shows is the reports' own. The rules
 * (docs/decisions/019-deals.md):
 * - the OpenRTB deal id (`code`) is unique and travels in bid requests: no spaces, at most 64
 *   characters of letters, digits and `. _ : -`;
 * - the end date is not before the start date;
 * - a programmatic guaranteed deal promises impressions (more than 0) between two dates at a fixed
 *   price: both dates, guaranteed impressions and `at` = 3 (the bidfloor is the deal price), and
 *   only PG deals promise impressions;
 * - the floor is not below the floor rule that applies to the deal's inventory (the API checks it
 *   against the current rules: `deal.floor_below_rule`).
 * Deals are archived (status), never deleted: the warehouse's facts refer to them.
 */
import { z } from 'zod';
import { isIsoDate } from '../dates.ts';
import { COMMON_FIELDS, defineResource } from './define.ts';
import { CURRENCIES } from './companies.ts';
import { decimalText, HOSTNAME, optionalText } from './field-schemas.ts';

export const DEAL_TYPES = ['pmp', 'preferred', 'pg'] as const;
export type DealType = (typeof DEAL_TYPES)[number];
export const DEAL_STATUSES = ['draft', 'active', 'paused', 'archived'] as const;
export type DealStatus = (typeof DEAL_STATUSES)[number];
/** OpenRTB `at`: 1 first price, 2 second price plus, 3 the bidfloor is the agreed deal price. */
export const AUCTION_TYPES = [1, 2, 3] as const;
export type AuctionType = (typeof AUCTION_TYPES)[number];
export const FIXED_PRICE: AuctionType = 3;

/** An OpenRTB deal id as it travels in bid requests: no spaces, quotes or separators. */
export const DEAL_CODE = /^[A-Za-z0-9._:-]+$/;
export const DEAL_CODE_MAX = 64;
/** The highest deal floor the form takes (CPM). */
export const MAX_DEAL_FLOOR = 1000;
export const MAX_GUARANTEED_IMPRESSIONS = 100_000_000_000;
/** At most this many seats, domains, publishers or ad units in one deal. */
export const MAX_DEAL_LIST = 200;

const MAX_ID = 2_147_483_647;

/** A list of distinct texts, each trimmed (and folded by `fold`), none empty, each passing `valid`. */
const textList = (key: string, valid: (v: string) => boolean, fold: (v: string) => string = (v) => v) =>
  z
    .array(z.string({ error: key }), { error: key })
    .max(MAX_DEAL_LIST, 'deal.list_too_long')
    .transform((list) => list.map((v) => fold(v.trim())))
    .refine((list) => list.every(valid), key)
    .refine((list) => new Set(list).size === list.length, 'deal.list_repeated');

/** A list of distinct row ids. */
const idList = (key: string) =>
  z
    .array(z.number({ error: key }).int(key).min(1, key).max(MAX_ID, key), { error: key })
    .max(MAX_DEAL_LIST, 'deal.list_too_long')
    .refine((list) => new Set(list).size === list.length, 'deal.list_repeated');

/** A date `YYYY-MM-DD`, or null when empty. */
const optionalDate = () =>
  z
    .union([z.string(), z.null()], { error: 'deal.date_invalid' })
    .transform((v) => (v === null ? null : v.trim() || null))
    .refine((v) => v === null || isIsoDate(v), 'deal.date_invalid')
    .default(null);

export const dealFieldsSchema = z.strictObject({
  code: z
    .string({ error: 'error.required' })
    .trim()
    .min(1, 'error.required')
    .max(DEAL_CODE_MAX, 'deal.code_invalid')
    // Empty is "required" alone (the last issue of a field is the one shown).
    .refine((v) => v === '' || DEAL_CODE.test(v), 'deal.code_invalid'),
  name: z.string({ error: 'error.required' }).trim().min(1, 'error.required').max(200, 'error.too_long'),
  // A cleared picker sends null: the form and the API then say what is missing, not "wrong type".
  demand_partner_id: z
    .number({ error: 'deal.partner_required' })
    .int('deal.partner_required')
    .min(1, 'deal.partner_required')
    .max(MAX_ID, 'deal.partner_required')
    .nullable()
    .refine((v) => v !== null, 'deal.partner_required'),
  type: z.enum(DEAL_TYPES, { error: 'deal.type_required' }),
  status: z.enum(DEAL_STATUSES, { error: 'error.invalid_value' }).default('draft'),
  /** CPM, at most four decimals, sent as text so no float rounding reaches the database. */
  bidfloor: decimalText(4, MAX_DEAL_FLOOR, 'deal.bidfloor_invalid'),
  bidfloorcur: z.enum(CURRENCIES, { error: 'error.invalid_value' }).default('USD'),
  auction_type: z
    .number({ error: 'deal.at_invalid' })
    .refine((v) => (AUCTION_TYPES as readonly number[]).includes(v), 'deal.at_invalid')
    .default(1),
  guaranteed_impressions: z
    .number({ error: 'deal.impressions_invalid' })
    .int('deal.impressions_invalid')
    .min(1, 'deal.impressions_invalid')
    .max(MAX_GUARANTEED_IMPRESSIONS, 'deal.impressions_invalid')
    .nullable()
    .default(null),
  start_date: optionalDate(),
  end_date: optionalDate(),
  publisher_ids: idList('error.invalid_value').default([]),
  ad_unit_ids: idList('error.invalid_value').default([]),
  wseat: textList('deal.wseat_invalid', (v) => v.length > 0 && v.length <= 64 && !/\s/.test(v)).default([]),
  wadomain: textList(
    'deal.wadomain_invalid',
    (v) => HOSTNAME.test(v),
    (v) => v.toLowerCase(),
  ).default([]),
  notes: optionalText(1000).default(null),
});

export type DealInput = z.input<typeof dealFieldsSchema>;
export type DealFields = z.output<typeof dealFieldsSchema>;

/** The cross-field rules: dates in order, and what a programmatic guaranteed deal needs. */
export const dealInputSchema = dealFieldsSchema.superRefine((v, ctx) => {
  if (v.start_date && v.end_date && v.end_date < v.start_date) {
    ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'deal.end_before_start' });
  }
  if (v.type === 'pg') {
    if (v.guaranteed_impressions === null)
      ctx.addIssue({
        code: 'custom',
        path: ['guaranteed_impressions'],
        message: 'deal.pg_impressions_required',
      });
    if (!v.start_date)
      ctx.addIssue({ code: 'custom', path: ['start_date'], message: 'deal.pg_dates_required' });
    if (!v.end_date) ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'deal.pg_dates_required' });
    if (v.auction_type !== FIXED_PRICE)
      ctx.addIssue({ code: 'custom', path: ['auction_type'], message: 'deal.pg_fixed_price' });
  } else if (v.guaranteed_impressions !== null) {
    ctx.addIssue({ code: 'custom', path: ['guaranteed_impressions'], message: 'deal.impressions_pg_only' });
  }
});

export const deals = defineResource({
  name: 'deals',
  entity: 'deal',
  path: '/v1/deals',
  acl: '/v1/deals',
  schema: dealFieldsSchema,
  input: dealInputSchema,
  fields: {
    id: COMMON_FIELDS.id,
    name: { label: 'deal.name', type: 'text', list: true, sort: true, filter: 'contains' },
    code: { label: 'deal.code', type: 'text', list: true, sort: true, filter: 'contains' },
    demand_partner_id: {
      label: 'deal.partner',
      type: 'ref',
      ref: 'demand_partners',
      // The SSP supply lead manages deals without reading the demand partners' screens.
      refPath: 'deals/partners',
      list: true,
      filter: 'in',
    },
    type: { label: 'deal.type', type: 'enum', options: DEAL_TYPES, list: true, sort: true, filter: 'in' },
    status: {
      label: 'deal.status',
      type: 'enum',
      options: DEAL_STATUSES,
      list: true,
      sort: true,
      filter: 'in',
    },
    bidfloor: { label: 'deal.bidfloor', type: 'money', list: true, sort: true, filter: 'range' },
    bidfloorcur: { label: 'deal.bidfloorcur', type: 'enum', options: CURRENCIES, filter: 'in' },
    auction_type: { label: 'deal.auction_type', type: 'number', list: true, sort: true },
    guaranteed_impressions: { label: 'deal.guaranteed_impressions', type: 'number', sort: true },
    start_date: { label: 'deal.start_date', type: 'date', list: true, sort: true, filter: 'range' },
    end_date: { label: 'deal.end_date', type: 'date', list: true, sort: true, filter: 'range' },
    publisher_ids: { label: 'deal.publishers', type: 'json' },
    ad_unit_ids: { label: 'deal.ad_units', type: 'json' },
    wseat: { label: 'deal.wseat', type: 'json' },
    wadomain: { label: 'deal.wadomain', type: 'json' },
    notes: { label: 'deal.notes', type: 'text' },
    version: COMMON_FIELDS.version,
    created_at: COMMON_FIELDS.created_at,
    updated_at: { ...COMMON_FIELDS.updated_at, list: false },
  },
  titleField: 'name',
  defaultSort: 'name',
  exportName: 'deals',
  // Archived (status), never deleted: the warehouse's facts refer to deals.
  writes: ['create', 'update'],
});
