/**
 * The apps of the SDK builder and the app tracking manager (issue 25;
 * docs/decisions/041-sdk-and-app-tracking.md): an app is a site whose environment is app
 * (sites.name is its bundle); its profile (app_profiles) says its platform, its store id and its
 * developer domain, where its app-ads.txt lives.
 *
 *   GET  /v1/sdk/apps?q=&platform=&page=&page_size=   apps with platform, publisher, app-ads.txt status
 *   GET  /v1/sdk/apps/{id}                            one app, with its ad units (for placements)
 *   PUT  /v1/sdk/apps/{id}                            its profile (version; 409 when stale; audited)
 *   POST /v1/sdk/apps/{id}/app-ads-check              read its app-ads.txt now (the publishers' check)
 * ACL: `/v1/sdk` read to list and read, write to change the profile and to run the check.
 */
import { z } from 'zod';
import { storeIdIssues, APP_PLATFORMS, type AppPlatform } from './builders/app-shared.ts';

export const SDK_RESOURCE = '/v1/sdk';
export const SDK_APPS_PAGE_SIZE = 20;

/** The last app-ads.txt check of an app (the values of sites.ads_txt_status). */
export const APP_ADS_STATUSES = ['unchecked', 'verified', 'missing_line', 'unreachable'] as const;
export type AppAdsStatus = (typeof APP_ADS_STATUSES)[number];

export const sdkAppListQuerySchema = z.strictObject({
  q: z.string().trim().max(100, 'error.invalid_value').optional(),
  /** ios | android, or `unset` for apps whose platform nobody has said yet. */
  platform: z.enum([...APP_PLATFORMS, 'unset'], { error: 'error.invalid_value' }).optional(),
  page: z.coerce.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(100_000, 'error.invalid_value').default(1),
  page_size: z.coerce.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(100, 'error.invalid_value').default(SDK_APPS_PAGE_SIZE),
});
export type SdkAppListQuery = z.infer<typeof sdkAppListQuerySchema>;

export interface SdkAppAdUnit {
  id: number;
  name: string;
  /** banner | video | native | audio (reports FORMATS) and a size such as 320x50. */
  format: string;
  size: string;
}

export interface SdkApp {
  id: number;
  /** The bundle (sites.name). */
  bundle: string;
  /** null until someone says it (the profile). */
  platform: AppPlatform | null;
  store_id: string;
  developer_domain: string | null;
  publisher: { id: number; name: string; seller_domain: string | null };
  app_ads_txt: {
    status: AppAdsStatus;
    checked_at: string | null;
    /** Where the check reads the file, or null with no domain to ask. */
    url: string | null;
    /** What the last check found (the URL, an HTTP status or error, malformed lines). */
    detail: unknown;
  };
  /** The profile's version (0: no profile yet). */
  version: number;
  /** Who changed the profile last, and when (null without a profile). */
  updated_at: string | null;
  updated_by: string | null;
  /** In GET /v1/sdk/apps/{id} only. */
  ad_units?: SdkAppAdUnit[];
}

export interface SdkAppPage {
  items: SdkApp[];
  total: number;
  page: number;
  page_size: number;
}

/** A domain name as the store listing's developer website gives it (no scheme, no path). */
const DOMAIN = /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export const appProfileBodySchema = z.strictObject({
  platform: z.enum(APP_PLATFORMS, { error: 'app_tracking.app.platform_required' }),
  store_id: z.string({ error: 'error.invalid_type' }).trim().max(200, 'error.invalid_value'),
  /** '' when unknown (the check then reads the publisher's domain). */
  developer_domain: z.string({ error: 'error.invalid_type' }).trim().toLowerCase().max(253, 'error.invalid_value'),
  version: z.number({ error: 'error.required' }).int('error.invalid_value').min(0, 'error.invalid_value'),
});
export type AppProfileBody = z.infer<typeof appProfileBodySchema>;

/**
 * The profile's rules beyond its shape, as field errors {field: key}: the store id's format for the
 * platform (the builders' own rule) and the developer domain's. The form and the API use this.
 */
export function appProfileErrors(body: Pick<AppProfileBody, 'platform' | 'store_id' | 'developer_domain'>, bundle: string): Record<string, string> {
  const out: Record<string, string> = {};
  const store = storeIdIssues(body.platform, body.store_id.trim(), bundle, 'store_id')[0];
  if (store?.key) out.store_id = store.key;
  const domain = body.developer_domain.trim().toLowerCase();
  if (domain !== '' && !DOMAIN.test(domain)) out.developer_domain = 'app_tracking.app.developer_domain_format';
  return out;
}
