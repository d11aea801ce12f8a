/**
 * Campaigns (`/performanceTools/campaign_list`, `/new`, `/{idCampaign}`): an advertiser's offer
 * bought between two dates with a total (and optionally a daily) budget, on a pricing model (CPM,
 * CPC or CPA at a rate), with caps and targeting (countries, platforms and devices of the
 * warehouse's lists). Its events (conversions, with their postback URLs) are a resource of their
 * own (`campaign-events.ts`); its spend and pacing come from the warehouse
 * (`../campaign-pacing.ts`, docs/decisions/043-offers-and-campaigns.md).
 *
 * Rules, the same in the form and the API: both dates, the end not before the start; budgets above
 * 0 with two decimals, the daily one not above the total; a model and its rate (four decimals); the
 * caps of offers; the advertiser is a performance-side demand partner and the offer is one of the
 * advertiser's (the API checks both against the database).
 */
import { z } from 'zod';
import { isIsoDate } from '../dates.ts';
import { CURRENCIES } from './companies.ts';
import { COMMON_FIELDS, defineResource } from './define.ts';
import { decimalText } from './field-schemas.ts';
import {
  CAP_TYPES,
  capValue,
  checkCaps,
  conversionAmount,
  lessThan,
  requiredRef,
  requiredText,
  TARGET_COUNTRIES,
  TARGET_DEVICES,
  TARGET_PLATFORMS,
  targetList,
} from './offers.ts';

export const CAMPAIGN_STATUSES = ['draft', 'active', 'paused', 'archived'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const CAMPAIGN_MODELS = ['CPM', 'CPC', 'CPA'] as const;
export type CampaignModel = (typeof CAMPAIGN_MODELS)[number];

/** The largest budget the form takes. */
export const MAX_CAMPAIGN_BUDGET = 100_000_000;

/** The years a campaign's dates may be in (the database's dates and the pacing's arithmetic stay sane). */
export const CAMPAIGN_FIRST_YEAR = 2000;
export const CAMPAIGN_LAST_YEAR = 2100;

/** A required date `YYYY-MM-DD`, years 2000 to 2100. */
const requiredDate = () =>
  z
    .union([z.string(), z.null()], { error: 'campaign.date_required' })
    .transform((v) => (v === null ? '' : v.trim()))
    .superRefine((v, ctx) => {
      if (v === '') ctx.addIssue({ code: 'custom', message: 'campaign.date_required' });
      else if (
        !isIsoDate(v) ||
        Number(v.slice(0, 4)) < CAMPAIGN_FIRST_YEAR ||
        Number(v.slice(0, 4)) > CAMPAIGN_LAST_YEAR
      )
        ctx.addIssue({ code: 'custom', message: 'campaign.date_invalid' });
    });

/** A budget: above 0, two decimals at most, as text. */
const budget = () =>
  decimalText(2, MAX_CAMPAIGN_BUDGET, 'campaign.budget_invalid').refine(
    (v) => /[1-9]/.test(v),
    'campaign.budget_invalid',
  );

export const campaignFieldsSchema = z.strictObject({
  name: requiredText(200),
  advertiser_id: requiredRef('campaign.advertiser_required'),
  offer_id: requiredRef('campaign.offer_required'),
  status: z.enum(CAMPAIGN_STATUSES, { error: 'error.invalid_value' }).default('draft'),
  start_date: requiredDate(),
  end_date: requiredDate(),
  currency: z.enum(CURRENCIES, { error: 'error.invalid_value' }).default('USD'),
  total_budget: budget(),
  daily_budget: z
    .union([z.string(), z.number(), z.null()], { error: 'campaign.budget_invalid' })
    .transform((v) => (v === null ? null : String(v).trim() || null))
    .refine((v) => v === null || budget().safeParse(v).success, 'campaign.budget_invalid')
    .default(null),
  model: z.enum(CAMPAIGN_MODELS, { error: 'campaign.model_required' }),
  rate: conversionAmount('campaign.rate_invalid'),
  cap_type: z.enum(CAP_TYPES, { error: 'error.invalid_value' }).default('none'),
  daily_cap: capValue(),
  total_cap: capValue(),
  countries: targetList(TARGET_COUNTRIES, 'offer.countries_invalid'),
  platforms: targetList(TARGET_PLATFORMS, 'offer.platforms_invalid'),
  devices: targetList(TARGET_DEVICES, 'campaign.devices_invalid'),
});

export type CampaignInput = z.input<typeof campaignFieldsSchema>;
export type CampaignFields = z.output<typeof campaignFieldsSchema>;

export const campaignInputSchema = campaignFieldsSchema.superRefine((v, ctx) => {
  if (isIsoDate(v.start_date) && isIsoDate(v.end_date) && v.end_date < v.start_date) {
    ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'campaign.end_before_start' });
  }
  if (v.daily_budget !== null && lessThan(v.total_budget, v.daily_budget)) {
    ctx.addIssue({ code: 'custom', path: ['daily_budget'], message: 'campaign.daily_above_total' });
  }
  checkCaps(v, ctx);
});

export const campaigns = defineResource({
  name: 'campaigns',
  entity: 'campaign',
  path: '/v1/campaigns',
  acl: '/v1/campaigns',
  schema: campaignFieldsSchema,
  input: campaignInputSchema,
  fields: {
    id: COMMON_FIELDS.id,
    name: {
      label: 'campaign.name',
      type: 'text',
      list: true,
      sort: true,
      filter: 'contains',
      group: 'campaign',
    },
    advertiser_id: {
      label: 'campaign.advertiser',
      type: 'ref',
      ref: 'demand_partners',
      // Performance people manage campaigns without reading the demand partners' screens.
      refPath: 'campaigns/advertisers',
      list: true,
      filter: 'in',
      group: 'campaign',
    },
    offer_id: {
      label: 'campaign.offer',
      type: 'ref',
      ref: 'premium_offers',
      refPath: 'campaigns/offers',
      list: true,
      filter: 'in',
      group: 'campaign',
    },
    status: {
      label: 'campaign.status',
      type: 'enum',
      options: CAMPAIGN_STATUSES,
      list: true,
      sort: true,
      filter: 'in',
      group: 'campaign',
    },
    start_date: {
      label: 'campaign.start_date',
      type: 'date',
      list: true,
      sort: true,
      filter: 'range',
      group: 'campaign',
    },
    end_date: {
      label: 'campaign.end_date',
      type: 'date',
      list: true,
      sort: true,
      filter: 'range',
      group: 'campaign',
    },
    currency: { label: 'campaign.currency', type: 'enum', options: CURRENCIES, group: 'budget' },
    total_budget: {
      label: 'campaign.total_budget',
      type: 'money',
      list: true,
      sort: true,
      filter: 'range',
      group: 'budget',
    },
    daily_budget: { label: 'campaign.daily_budget', type: 'money', sort: true, group: 'budget' },
    model: {
      label: 'campaign.model',
      type: 'enum',
      options: CAMPAIGN_MODELS,
      list: true,
      sort: true,
      filter: 'in',
      group: 'budget',
    },
    rate: { label: 'campaign.rate', type: 'money', sort: true, group: 'budget' },
    cap_type: { label: 'offer.cap_type', type: 'enum', options: CAP_TYPES, group: 'caps' },
    daily_cap: { label: 'offer.daily_cap', type: 'number', group: 'caps' },
    total_cap: { label: 'offer.total_cap', type: 'number', group: 'caps' },
    countries: { label: 'offer.countries', type: 'json', options: TARGET_COUNTRIES, group: 'targeting' },
    platforms: { label: 'offer.platforms', type: 'json', options: TARGET_PLATFORMS, group: 'targeting' },
    devices: { label: 'campaign.devices', type: 'json', options: TARGET_DEVICES, group: 'targeting' },
    version: COMMON_FIELDS.version,
    // A dozen filters would fill a phone's screen: the dates of a row are sorted on, not filtered.
    created_at: { ...COMMON_FIELDS.created_at, filter: undefined },
    updated_at: { ...COMMON_FIELDS.updated_at, list: false, filter: undefined },
  },
  titleField: 'name',
  defaultSort: '-start_date',
  exportName: 'campaigns',
});
