/**
 * Premium offers (`/performanceTools/premium_offers_list`, `/new`, `/{idOffer}`): what an
 * advertiser of the performance side pays for a conversion, and what we pass on to publishers. An
 * offer has a name, its advertiser (a performance-side demand partner: the API checks the side),
 * the tracking URL clicks go to (with our macros, `{click_id}`…) and the preview URL of its landing
 * page, the payout (what a publisher earns per conversion) and the revenue (what the advertiser pays
 * us), the countries and platforms it accepts, caps (daily and total, by conversions or by budget)
 * and a status (docs/decisions/043-offers-and-campaigns.md).
 *
 * Rules, the same in the form and the API:
 * - URLs follow the spec (http, https, ftp or ftps and a host; `inputs.url.invalid`), macros
 *   included (`{click_id}` is checked with an example value; an unknown macro is an error);
 * - payout and revenue: decimals (at most four places) sent as text, never floats; a payout above
 *   the revenue is allowed (a loss leader) but warned about: `offer.payout_above_revenue` in the
 *   form, in the API's answer (`warnings`) and on the offer's page;
 * - caps: none, or by conversions (whole numbers) or by budget (an amount in the offer's currency,
 *   two decimals), daily and/or total, the daily one not above the total.
 * The cap and targeting schemas here are campaigns' too.
 */
import { z } from 'zod';
import { decimalToMicros } from '../budgets.ts';
import { macroUrlProblem } from '../postback.ts';
import { COUNTRIES, DEVICES, OPERATING_SYSTEMS } from '../reports.ts';
import { CURRENCIES } from './companies.ts';
import { COMMON_FIELDS, defineResource } from './define.ts';
import { decimalText } from './field-schemas.ts';

export const OFFER_STATUSES = ['draft', 'active', 'paused', 'archived'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

/** How an offer or a campaign is capped: not at all, by conversions, or by budget (an amount). */
export const CAP_TYPES = ['none', 'conversions', 'budget'] as const;
export type CapType = (typeof CAP_TYPES)[number];

/** The warehouse's lists (reports.ts): countries ISO 3166-1 alpha-2, operating systems, devices. */
export const TARGET_COUNTRIES = COUNTRIES;
export const TARGET_PLATFORMS = OPERATING_SYSTEMS;
export const TARGET_DEVICES = DEVICES;

/** The highest payout or revenue per conversion the form takes. */
export const MAX_CONVERSION_AMOUNT = 100_000;
/** The highest cap (conversions or an amount). */
export const MAX_CAP = 1_000_000_000;

const MAX_ID = 2_147_483_647;

/** A required reference (a picker cleared sends null: the message says what is missing). */
export const requiredRef = (key: string) =>
  z
    .number({ error: key })
    .int(key)
    .min(1, key)
    .max(MAX_ID, key)
    .nullable()
    .refine((v) => v !== null, key);

/** A required text of at most `max` characters. */
export const requiredText = (max: number) =>
  z.string({ error: 'error.required' }).trim().min(1, 'error.required').max(max, 'error.too_long');

/** An amount per conversion (payout, revenue, a rate): at most four decimals, kept as text. */
export const conversionAmount = (key: string) => decimalText(4, MAX_CONVERSION_AMOUNT, key);

/** A distinct list of values of a warehouse list (empty: all). */
export const targetList = <T extends string>(options: readonly T[], key: string) =>
  z
    .array(z.string({ error: key }), { error: key })
    .max(options.length, key)
    .refine((list) => list.every((v) => (options as readonly string[]).includes(v)), key)
    .refine((list) => new Set(list).size === list.length, 'offer.list_repeated')
    .default([]);

/** A URL with macros by the spec's rule (see postback.ts), optional when `optional`. */
export const macroUrl = (opts: { optional?: boolean; httpOnly?: boolean } = {}) =>
  z
    .union([z.string(), z.null()], { error: 'error.required' })
    .transform((v) => (v === null ? '' : v.trim()))
    .superRefine((v, ctx) => {
      if (opts.optional && v === '') return;
      const problem = macroUrlProblem(v, { httpOnly: opts.httpOnly });
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((v) => (v === '' ? null : v));

/** A cap: empty (null), or a positive number with at most two decimals, as text. */
export const capValue = () =>
  z
    .union([z.string(), z.number(), z.null()], { error: 'offer.cap_invalid' })
    .transform((v) => (v === null ? null : String(v).trim() || null))
    .refine(
      (v) => v === null || (/^\d{1,10}(\.\d{1,2})?$/.test(v) && /[1-9]/.test(v) && Number(v) <= MAX_CAP),
      'offer.cap_invalid',
    )
    .default(null);

/** A whole number as text (`500`, `500.00`: the numeric column answers two decimals). */
const isWhole = (v: string) => /^\d+(\.0+)?$/.test(v);

/** The cap rules on an object with cap_type, daily_cap and total_cap (errors on those fields). */
export function checkCaps(
  v: { cap_type: CapType; daily_cap: string | null; total_cap: string | null },
  ctx: z.RefinementCtx,
): void {
  if (v.cap_type === 'none') {
    for (const field of ['daily_cap', 'total_cap'] as const) {
      if (v[field] !== null)
        ctx.addIssue({ code: 'custom', path: [field], message: 'offer.cap_without_type' });
    }
    return;
  }
  if (v.daily_cap === null && v.total_cap === null) {
    ctx.addIssue({ code: 'custom', path: ['daily_cap'], message: 'offer.cap_required' });
    return;
  }
  if (v.cap_type === 'conversions') {
    for (const field of ['daily_cap', 'total_cap'] as const) {
      const value = v[field];
      if (value !== null && !isWhole(value))
        ctx.addIssue({ code: 'custom', path: [field], message: 'offer.cap_whole' });
    }
  }
  if (v.daily_cap !== null && v.total_cap !== null && lessThan(v.total_cap, v.daily_cap)) {
    ctx.addIssue({ code: 'custom', path: ['daily_cap'], message: 'offer.cap_daily_above_total' });
  }
}

/** a < b for non-negative decimal texts, exactly (no float). */
export function lessThan(a: string, b: string): boolean {
  return toMicros(a) < toMicros(b);
}

/** A non-negative decimal text in micro-units (more than six decimals are cut), or null. */
function toMicros(text: string): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return -1n;
  return decimalToMicros(`${m[1]!}${m[2] ? `.${m[2].slice(0, 6)}` : ''}`);
}

/** Whether a payout is above the revenue (both decimal texts); false when either is not a number. */
export function payoutAboveRevenue(payout: unknown, revenue: unknown): boolean {
  if (typeof payout !== 'string' && typeof payout !== 'number') return false;
  if (typeof revenue !== 'string' && typeof revenue !== 'number') return false;
  const p = toMicros(String(payout));
  const r = toMicros(String(revenue));
  return p >= 0n && r >= 0n && p > r;
}

/** The warning key of a payout above the revenue (offers and campaign events). */
export const PAYOUT_ABOVE_REVENUE = 'offer.payout_above_revenue';

/** Warnings (not errors) about a row or a form's values: {field: message key}. */
export function moneyWarnings(row: { payout?: unknown; revenue?: unknown }): Record<string, string> {
  return payoutAboveRevenue(row.payout, row.revenue) ? { payout: PAYOUT_ABOVE_REVENUE } : {};
}

export const offerFieldsSchema = z.strictObject({
  name: requiredText(200),
  advertiser_id: requiredRef('offer.advertiser_required'),
  status: z.enum(OFFER_STATUSES, { error: 'error.invalid_value' }).default('draft'),
  tracking_url: macroUrl(),
  preview_url: macroUrl({ optional: true }).default(null),
  payout: conversionAmount('offer.payout_invalid'),
  revenue: conversionAmount('offer.revenue_invalid'),
  currency: z.enum(CURRENCIES, { error: 'error.invalid_value' }).default('USD'),
  countries: targetList(TARGET_COUNTRIES, 'offer.countries_invalid'),
  platforms: targetList(TARGET_PLATFORMS, 'offer.platforms_invalid'),
  cap_type: z.enum(CAP_TYPES, { error: 'error.invalid_value' }).default('none'),
  daily_cap: capValue(),
  total_cap: capValue(),
});

export type OfferInput = z.input<typeof offerFieldsSchema>;

export const offerInputSchema = offerFieldsSchema.superRefine((v, ctx) => checkCaps(v, ctx));

export const premiumOffers = defineResource({
  name: 'premium_offers',
  entity: 'offer',
  path: '/v1/offers',
  acl: '/v1/offers',
  schema: offerFieldsSchema,
  input: offerInputSchema,
  fields: {
    id: COMMON_FIELDS.id,
    name: { label: 'offer.name', type: 'text', list: true, sort: true, filter: 'contains' },
    advertiser_id: {
      label: 'offer.advertiser',
      type: 'ref',
      ref: 'demand_partners',
      // Performance people manage offers without reading the demand partners' screens.
      refPath: 'offers/advertisers',
      list: true,
      filter: 'in',
    },
    status: {
      label: 'offer.status',
      type: 'enum',
      options: OFFER_STATUSES,
      list: true,
      sort: true,
      filter: 'in',
    },
    tracking_url: { label: 'offer.tracking_url', type: 'url' },
    preview_url: { label: 'offer.preview_url', type: 'url' },
    payout: { label: 'offer.payout', type: 'money', list: true, sort: true, filter: 'range' },
    revenue: { label: 'offer.revenue', type: 'money', list: true, sort: true, filter: 'range' },
    currency: { label: 'offer.currency', type: 'enum', options: CURRENCIES, list: true, filter: 'in' },
    countries: { label: 'offer.countries', type: 'json', options: TARGET_COUNTRIES },
    platforms: { label: 'offer.platforms', type: 'json', options: TARGET_PLATFORMS },
    cap_type: { label: 'offer.cap_type', type: 'enum', options: CAP_TYPES, list: true },
    daily_cap: { label: 'offer.daily_cap', type: 'number', sort: true },
    total_cap: { label: 'offer.total_cap', type: 'number', sort: true },
    version: COMMON_FIELDS.version,
    // A dozen filters would fill a phone's screen: the dates of a row are sorted on, not filtered.
    created_at: { ...COMMON_FIELDS.created_at, filter: undefined },
    updated_at: { ...COMMON_FIELDS.updated_at, list: false },
  },
  titleField: 'name',
  defaultSort: 'name',
  exportName: 'premium_offers',
});
