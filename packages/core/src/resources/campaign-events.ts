/**
 * A campaign's events (`/performanceTools/campaign_list/{idCampaign}/events/{idEvent}`): the
 * conversions it pays for (an install, a sign-up, a first purchase), each with a name, the code
 * sent in `{event}`, the payout and revenue per conversion (in the campaign's currency), the
 * postback URL called when one happens (macros: ../postback.ts) and its attribution windows (how
 * long after a click, or after an impression, a conversion still counts). A resource of its own on
 * the layer (list filtered by campaign, form, history, 409 on a stale edit), under the campaigns'
 * ACL resource (docs/decisions/043-offers-and-campaigns.md).
 *
 * Rules, the same in the form and the API: the payout and revenue as for offers (a payout above the
 * revenue is a warning, not an error); the postback URL by the spec's URL rule, http or https, with
 * known macros only; the event code unique within its campaign (the API's unique index); a click
 * window of 1 to 90 days and a view window of 0 (no view-through) to 168 hours (7 days).
 */
import { z } from 'zod';
import { COMMON_FIELDS, defineResource } from './define.ts';
import { conversionAmount, macroUrl, requiredRef, requiredText } from './offers.ts';

export const EVENT_STATUSES = ['active', 'paused'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** What `{event}` sends: lower-case letters, digits and `_ . -`. */
export const EVENT_CODE = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
export const MAX_CLICK_WINDOW_DAYS = 90;
export const MAX_VIEW_WINDOW_HOURS = 168;

const wholeIn = (min: number, max: number, key: string, fallback: number) =>
  z.number({ error: key }).int(key).min(min, key).max(max, key).default(fallback);

export const campaignEventFieldsSchema = z.strictObject({
  campaign_id: requiredRef('campaign.event.campaign_required'),
  name: requiredText(120),
  code: z
    .string({ error: 'error.required' })
    .trim()
    .min(1, 'error.required')
    // Empty is "required" alone (the last issue of a field is the one shown).
    .refine((v) => v === '' || EVENT_CODE.test(v), 'campaign.event.code_invalid'),
  status: z.enum(EVENT_STATUSES, { error: 'error.invalid_value' }).default('active'),
  payout: conversionAmount('offer.payout_invalid'),
  revenue: conversionAmount('offer.revenue_invalid'),
  postback_url: macroUrl({ httpOnly: true }),
  click_window_days: wholeIn(1, MAX_CLICK_WINDOW_DAYS, 'campaign.event.click_window_invalid', 30),
  view_window_hours: wholeIn(0, MAX_VIEW_WINDOW_HOURS, 'campaign.event.view_window_invalid', 24),
});

export type CampaignEventInput = z.input<typeof campaignEventFieldsSchema>;

export const campaignEvents = defineResource({
  name: 'campaign_events',
  entity: 'campaign_event',
  path: '/v1/campaign-events',
  acl: '/v1/campaigns',
  schema: campaignEventFieldsSchema,
  fields: {
    id: COMMON_FIELDS.id,
    campaign_id: {
      label: 'campaign.event.campaign',
      type: 'ref',
      ref: 'campaigns',
      list: true,
      filter: 'in',
    },
    name: { label: 'campaign.event.name', type: 'text', list: true, sort: true, filter: 'contains' },
    code: { label: 'campaign.event.code', type: 'text', list: true, sort: true, filter: 'contains' },
    status: {
      label: 'campaign.event.status',
      type: 'enum',
      options: EVENT_STATUSES,
      list: true,
      sort: true,
      filter: 'in',
    },
    payout: { label: 'campaign.event.payout', type: 'money', list: true, sort: true, filter: 'range' },
    revenue: { label: 'campaign.event.revenue', type: 'money', list: true, sort: true, filter: 'range' },
    postback_url: { label: 'campaign.event.postback_url', type: 'url' },
    click_window_days: { label: 'campaign.event.click_window_days', type: 'number', list: true, sort: true },
    view_window_hours: { label: 'campaign.event.view_window_hours', type: 'number', list: true, sort: true },
    version: COMMON_FIELDS.version,
    created_at: COMMON_FIELDS.created_at,
    updated_at: { ...COMMON_FIELDS.updated_at, list: false },
  },
  titleField: 'name',
  defaultSort: 'name',
  exportName: 'campaign_events',
});
