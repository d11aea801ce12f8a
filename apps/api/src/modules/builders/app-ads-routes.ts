/**
 * The apps of the SDK builder and the app tracking manager (issue 25; contract in
 * packages/core/src/sdk-apps.ts, docs/decisions/041-sdk-and-app-tracking.md):
 *   GET  /v1/sdk/apps?q=&platform=&page=&page_size=   apps (sites whose environment is app) with
 *                                                     platform, publisher, bundle, app-ads.txt status
 *   GET  /v1/sdk/apps/:id                             one app, with its ad units
 *   PUT  /v1/sdk/apps/:id                             its profile: platform, store id, developer domain
 *   POST /v1/sdk/apps/:id/app-ads-check               read its app-ads.txt now, with the publishers'
 *                                                     ads.txt check (modules/publishers/ads-txt-check.ts)
 * ACL `/v1/sdk`: read to list and read, write to change a profile and to run the check. Changes
 * and checks are audited (entity `app_profile`, the site's id).
 */
import { ok } from '@backoffice/core/envelope';
import { idParamsSchema } from '@backoffice/core/ids';
import { ENVIRONMENTS, FORMATS, SIZES } from '@backoffice/core/reports';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import {
  APP_ADS_STATUSES,
  SDK_RESOURCE,
  appProfileBodySchema,
  appProfileErrors,
  sdkAppListQuerySchema,
  type AppAdsStatus,
  type AppProfileBody,
  type SdkApp,
  type SdkAppListQuery,
  type SdkAppPage,
} from '@backoffice/core/sdk-apps';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { callerOf } from '../../plugins/auth.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { query, transaction, type QueryFn, type SqlRow } from '../../reports-data/sql.ts';
import { auditIn } from '../prepayments/service.ts';
import { adsTxtUrlOf, checkAdsTxt } from '../publishers/ads-txt-check.ts';

const APP_ENVIRONMENT_ID = ENVIRONMENTS.indexOf('app') + 1;
/** The audit entity of an app's profile and checks (its history). */
export const APP_PROFILE_ENTITY = 'app_profile';

const iso = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

const COLUMNS = `s.id, s.name, s.environment_id, s.ads_txt_status, s.ads_txt_checked_at, s.ads_txt_detail,
  ap.platform, coalesce(ap.store_id, '') AS store_id, ap.developer_domain, coalesce(ap.version, 0) AS version,
  p.id AS publisher_id, p.name AS publisher_name, p.seller_domain, ap.updated_at, u.name AS updated_by_name`;
const FROM = `FROM sites s JOIN publishers p ON p.id = s.publisher_id LEFT JOIN app_profiles ap ON ap.site_id = s.id LEFT JOIN users u ON u.id = ap.updated_by`;

function toApp(r: SqlRow): SdkApp {
  const status = String(r.ads_txt_status);
  const detail = typeof r.ads_txt_detail === 'string' ? (JSON.parse(r.ads_txt_detail) as unknown) : (r.ads_txt_detail ?? null);
  const developerDomain = r.developer_domain === null || r.developer_domain === undefined ? null : String(r.developer_domain);
  const sellerDomain = r.seller_domain === null ? null : String(r.seller_domain);
  return {
    id: Number(r.id),
    bundle: String(r.name),
    platform: r.platform === 'ios' || r.platform === 'android' ? r.platform : null,
    store_id: String(r.store_id),
    developer_domain: developerDomain,
    publisher: { id: Number(r.publisher_id), name: String(r.publisher_name), seller_domain: sellerDomain },
    app_ads_txt: {
      status: (APP_ADS_STATUSES as readonly string[]).includes(status) ? (status as AppAdsStatus) : 'unchecked',
      checked_at: iso(r.ads_txt_checked_at),
      url: adsTxtUrlOf({ name: String(r.name), environment_id: Number(r.environment_id), seller_domain: sellerDomain, developer_domain: developerDomain }),
      detail,
    },
    version: Number(r.version),
    updated_at: iso(r.updated_at),
    updated_by: r.updated_by_name === null || r.updated_by_name === undefined ? null : String(r.updated_by_name),
  };
}

async function listApps(database: Database, q: SdkAppListQuery): Promise<SdkAppPage> {
  const where = [`s.environment_id = ${APP_ENVIRONMENT_ID}`];
  const params: unknown[] = [];
  if (q.q) {
    params.push(`%${q.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(lower(s.name) LIKE $${params.length} OR lower(p.name) LIKE $${params.length} OR lower(coalesce(ap.store_id, '')) LIKE $${params.length})`);
  }
  if (q.platform === 'unset') where.push('ap.site_id IS NULL');
  else if (q.platform) {
    params.push(q.platform);
    where.push(`ap.platform = $${params.length}`);
  }
  const w = `WHERE ${where.join(' AND ')}`;
  const offset = (q.page - 1) * q.page_size;
  // Apps with a profile first (the ones people work on), then by bundle.
  const rows = await query(database, `SELECT ${COLUMNS} ${FROM} ${w} ORDER BY (ap.site_id IS NULL), lower(s.name), s.id LIMIT ${q.page_size} OFFSET ${offset}`, params);
  const [count] = await query<{ n: string }>(database, `SELECT count(*)::text AS n ${FROM} ${w}`, params);
  return { items: rows.map(toApp), total: Number(count?.n ?? 0), page: q.page, page_size: q.page_size };
}

async function appIn(q: QueryFn, id: number, lock = false): Promise<SdkApp> {
  const [r] = await q(`SELECT ${COLUMNS} ${FROM} WHERE s.id = $1 AND s.environment_id = ${APP_ENVIRONMENT_ID}${lock ? ' FOR UPDATE OF s' : ''}`, [id]);
  if (!r) throw notFound('app_tracking.app.not_found');
  return toApp(r);
}

async function appWithUnits(database: Database, id: number): Promise<SdkApp> {
  const app = await appIn((t, p) => query(database, t, p), id);
  const units = await query<{ id: number; name: string; format_id: number; size_id: number }>(database, 'SELECT id, name, format_id, size_id FROM ad_units WHERE site_id = $1 ORDER BY lower(name), id LIMIT 500', [id]);
  return { ...app, ad_units: units.map((u) => ({ id: Number(u.id), name: u.name, format: FORMATS[u.format_id - 1] ?? 'banner', size: SIZES[u.size_id - 1] ?? '' })) };
}

const audited = (a: SdkApp) => ({ platform: a.platform, store_id: a.store_id, developer_domain: a.developer_domain, version: a.version });

async function updateProfile(database: Database, request: FastifyRequest, id: number, body: AppProfileBody): Promise<SdkApp> {
  const caller = callerOf(request);
  const outcome = await transaction(database, async (q) => {
    const before = await appIn(q, id, true);
    const errors = appProfileErrors(body, before.bundle);
    if (Object.keys(errors).length > 0) throw badRequest('error.validation', errors);
    if (before.version !== body.version) return 'conflict' as const;
    const storeId = body.platform === 'android' && body.store_id === '' ? before.bundle : body.store_id;
    const domain = body.developer_domain === '' ? null : body.developer_domain;
    await q(
      `INSERT INTO app_profiles (site_id, platform, store_id, developer_domain, version, updated_at, updated_by) VALUES ($1, $2, $3, $4, 1, now(), $5)
       ON CONFLICT (site_id) DO UPDATE SET platform = EXCLUDED.platform, store_id = EXCLUDED.store_id, developer_domain = EXCLUDED.developer_domain,
         version = app_profiles.version + 1, updated_at = now(), updated_by = EXCLUDED.updated_by`,
      [id, body.platform, storeId, domain, caller.id],
    );
    // Where the app-ads.txt is read changed: the last check said nothing about the new place.
    if ((before.developer_domain ?? null) !== domain) await q(`UPDATE sites SET ads_txt_status = 'unchecked', ads_txt_checked_at = NULL, ads_txt_detail = NULL WHERE id = $1`, [id]);
    const after = await appIn(q, id);
    await auditIn(q, request, { action: 'app_profile.update', entity: APP_PROFILE_ENTITY, entityId: id, before: audited(before), after: audited(after) });
    return 'saved' as const;
  });
  const current = await appWithUnits(database, id);
  if (outcome === 'conflict') throw new AppError(409, 'resource.conflict', { data: { current }, params: { name: current.updated_by ?? '?', at: current.updated_at ?? '' } });
  return current;
}

export async function sdkAppRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;
  const tags = ['sdk'];
  const READ = { auth: { permission: { resource: SDK_RESOURCE, action: 'read' } } } as const;
  const WRITE = { auth: { permission: { resource: SDK_RESOURCE, action: 'write' } } } as const;
  const base = `${SDK_RESOURCE}/apps`;
  const appText =
    'An app: id (the site), bundle, platform (ios | android | null before anyone set it), store_id, developer_domain, publisher {id, name, seller_domain}, ' +
    'app_ads_txt {status (unchecked | verified | missing_line | unreachable), checked_at, url (where the check reads the file: the developer domain, else the publisher’s seller domain), detail}, version (0: no profile yet).';

  app.get(
    base,
    {
      config: READ,
      schema: {
        tags,
        summary: 'Apps (sites whose environment is app) with platform, publisher, bundle and app-ads.txt status, for the SDK builder and the app tracking manager',
        description: `q (bundle, publisher or store id, contains), platform (ios | android | unset), page, page_size (at most 100). Apps with a profile first, then by bundle. ${appText} ACL: read on /v1/sdk.`,
        querystring: sdkAppListQuerySchema,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await listApps(database, request.query)),
  );

  app.get(
    `${base}/:id`,
    {
      config: READ,
      schema: {
        tags,
        summary: 'One app with its ad units (what SDK placements map to)',
        description: `${appText} Plus ad_units [{id, name, format, size}]. 404 app_tracking.app.not_found when the id is not an app. ACL: read on /v1/sdk.`,
        params: idParamsSchema,
        response: { 404: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await appWithUnits(database, request.params.id)),
  );

  app.put(
    `${base}/:id`,
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Set an app’s platform, store id and developer domain (optimistic concurrency; audited)',
        description:
          'Body {platform (ios | android), store_id (iOS: id + 6-12 digits, required; Android: the package name, empty = the bundle), developer_domain (the store listing’s developer website’s domain, empty = unknown), version (the one read; 0 before the first save)}. ' +
          'A stale version answers 409 resource.conflict with data {current}. Changing the developer domain resets the app-ads.txt status to unchecked. ACL: write on /v1/sdk.',
        params: idParamsSchema,
        body: appProfileBodySchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await updateProfile(database, request, request.params.id, request.body), 'app_tracking.app.saved'),
  );

  app.post(
    `${base}/:id/app-ads-check`,
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Check the app’s app-ads.txt now, with the same check the publishers’ ads.txt job runs',
        description:
          'Reads https://<developer domain>/app-ads.txt (the publisher’s seller domain when the developer domain is unknown; 5 s at most), looks for our line (our domain, the publisher’s seller id, DIRECT or RESELLER) and stores the result on the app: verified, missing_line or unreachable. ' +
          `Answers the app with its new status. Audited (app_profile.check_app_ads_txt). Running it twice just checks twice. ${'ACL: write on /v1/sdk.'}`,
        params: idParamsSchema,
        response: { 404: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const id = request.params.id;
      await appIn((t, p) => query(database, t, p), id);
      await checkAdsTxt(ctx, { siteId: id });
      const after = await appWithUnits(database, id);
      await transaction(database, (q) =>
        auditIn(q, request, { action: 'app_profile.check_app_ads_txt', entity: APP_PROFILE_ENTITY, entityId: id, after: { status: after.app_ads_txt.status, url: after.app_ads_txt.url } }),
      );
      return ok(after, `publisher.ads_txt_status.${after.app_ads_txt.status}`);
    },
  );
}
