/**
 * Publishers on the resource layer (`/v1/partners/publishers`), their properties, and the public
 * sellers.json:
 *   GET /v1/partners/publishers/:id/properties   the publisher's sites and apps (the warehouse's),
 *                                                  with their last ads.txt check
 *   POST /v1/partners/publishers/:id/actions/check-ads-txt   check them now (ads-txt-check.ts)
 *   GET /sellers.json                              IAB sellers.json 1.0, no sign-in
 * sellers.json lists every publisher with a seller id that is not archived, built by core
 * (`standards/sellers-json.ts`). It is kept in memory with its ETag and gzip body until a publisher
 * changes (the table's row count and latest change time, read on each request), so a crawler's
 * request costs one small query; `If-None-Match` answers 304.
 */
import { ok } from '@backoffice/core/envelope';
import { idParamsSchema } from '@backoffice/core/ids';
import { publishers } from '@backoffice/core/resources/publishers';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import { adsTxtLinesFor } from '@backoffice/core/standards/ads-txt';
import { buildSellersJson, serializeSellersJson, type SellerEntry, type SellerType } from '@backoffice/core/standards/sellers-json';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { publishers as publishersTable } from '../../db/schema-reports.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { notFound } from '../../lib/errors.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { query } from '../../reports-data/sql.ts';
import { resourceRoutes } from '../../resources/routes.ts';
import { audit } from '../../plugins/audit.ts';
import { checkAdsTxt } from './ads-txt-check.ts';
import { ENVIRONMENTS } from '@backoffice/core/reports';

interface Built {
  stamp: string;
  etag: string;
  body: string;
  gzip: Buffer;
}

/** The sellers.json document of the publishers in the database. */
export async function sellersJsonOf(ctx: AppContext): Promise<string> {
  const rows = await query<{ seller_id: string; name: string; seller_domain: string | null; seller_type: string; is_confidential: boolean }>(
    ctx.database,
    `SELECT seller_id, name, seller_domain, seller_type, is_confidential FROM publishers
     WHERE seller_id IS NOT NULL AND status <> 'archived'
       -- what sellers.json requires of a listed seller: a domain for a publisher that is not confidential
       AND (is_confidential OR seller_type = 'INTERMEDIARY' OR seller_domain IS NOT NULL)`,
  );
  const sellers: SellerEntry[] = rows.map((r) => ({
    seller_id: r.seller_id,
    name: r.name,
    domain: r.seller_domain,
    seller_type: r.seller_type as SellerType,
    is_confidential: r.is_confidential,
  }));
  const doc = buildSellersJson({ contactEmail: `adops@${ctx.config.companyDomains[0]}`, sellers });
  return serializeSellersJson(doc);
}

/** A publisher's sites and apps with their ad units and their last ads.txt check. */
async function propertiesOf(ctx: AppContext, publisherId: number) {
  const rows = await query<{ id: number; name: string; environment_id: number; ad_units: number; ads_txt_status: string; ads_txt_checked_at: string | Date | null; ads_txt_detail: unknown }>(
    ctx.database,
    `SELECT s.id, s.name, s.environment_id, s.ads_txt_status, s.ads_txt_checked_at, s.ads_txt_detail,
            (SELECT count(*)::int FROM ad_units u WHERE u.site_id = s.id) AS ad_units
     FROM sites s WHERE s.publisher_id = $1 ORDER BY s.id`,
    [publisherId],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    environment: ENVIRONMENTS[r.environment_id - 1] ?? 'web',
    ad_units: Number(r.ad_units),
    ads_txt_status: r.ads_txt_status,
    ads_txt_checked_at: r.ads_txt_checked_at === null ? null : new Date(r.ads_txt_checked_at).toISOString(),
    ads_txt_detail: typeof r.ads_txt_detail === 'string' ? (JSON.parse(r.ads_txt_detail) as unknown) : r.ads_txt_detail,
  }));
}

export async function publisherRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(app);
  resourceRoutes(app, ctx, publishers, {
    table: publishersTable,
    unique: [{ constraint: 'publishers_seller_id_idx', field: 'seller_id', key: 'publisher.seller_id_taken' }],
    extraRoutes: (scope) => {
      scope.withTypeProvider<ZodTypeProvider>().get(
        `${publishers.path}/:id/properties`,
        {
          config: { auth: { permission: { resource: publishers.acl, action: 'read' } } },
          schema: {
            tags: [publishers.name],
            summary: "A publisher's properties: its sites and apps, with their ad units",
            params: idParamsSchema,
            response: { 404: errorEnvelopeSchema },
          },
        },
        async (request) => {
          const [pub] = await query<{ id: number }>(ctx.database, 'SELECT id FROM publishers WHERE id = $1', [request.params.id]);
          if (!pub) throw notFound('resource.not_found');
          return ok(await propertiesOf(ctx, request.params.id));
        },
      );
      scope.withTypeProvider<ZodTypeProvider>().post(
        `${publishers.path}/:id/actions/check-ads-txt`,
        {
          config: { auth: { permission: { resource: publishers.acl, action: 'write' } } },
          bodyLimit: 1024,
          schema: {
            tags: [publishers.name],
            summary: "Check the ads.txt (or app-ads.txt) of a publisher's properties now",
            description: 'Reads each file (5 s at most each, six at a time) and answers the properties with their status: verified, missing_line or unreachable. The nightly job `ads-txt-check` does the same for every publisher.',
            params: idParamsSchema,
            response: { 404: errorEnvelopeSchema },
          },
        },
        async (request) => {
          const [pub] = await query<{ id: number }>(ctx.database, 'SELECT id FROM publishers WHERE id = $1', [request.params.id]);
          if (!pub) throw notFound('resource.not_found');
          const result = await checkAdsTxt(ctx, { publisherId: request.params.id });
          await audit(ctx.database.db, request, { action: 'publisher.check_ads_txt', entity: 'publisher', entityId: request.params.id, after: { ...result } });
          return ok({ result, properties: await propertiesOf(ctx, request.params.id) });
        },
      );
      scope.withTypeProvider<ZodTypeProvider>().get(
        `${publishers.path}/:id/ads-txt`,
        {
          config: { auth: { permission: { resource: publishers.acl, action: 'read' } } },
          schema: {
            tags: [publishers.name],
            summary: 'The ads.txt lines (ads.txt 1.1) a publisher adds for this exchange, and whether it is in sellers.json',
            params: idParamsSchema,
            response: { 404: errorEnvelopeSchema },
          },
        },
        async (request) => {
          const [pub] = await query<{ seller_id: string | null; seller_type: string; status: string; is_confidential: boolean; seller_domain: string | null }>(
            ctx.database,
            'SELECT seller_id, seller_type, status, is_confidential, seller_domain FROM publishers WHERE id = $1',
            [request.params.id],
          );
          if (!pub) throw notFound('resource.not_found');
          const lines = pub.seller_id
            ? adsTxtLinesFor({ domain: ctx.config.companyDomains[0]!, sellerId: pub.seller_id, relationship: pub.seller_type === 'INTERMEDIARY' ? 'RESELLER' : 'DIRECT' })
            : [];
          const listed = !!pub.seller_id && pub.status !== 'archived' && (pub.is_confidential || pub.seller_type === 'INTERMEDIARY' || !!pub.seller_domain);
          return ok({ lines, in_sellers_json: listed });
        },
      );
    },
  });

  let built: Built | null = null;
  app.get(
    '/sellers.json',
    {
      config: { auth: { public: true } },
      schema: {
        tags: [publishers.name],
        summary: 'sellers.json (IAB Tech Lab 1.0) of the publishers, public',
        description: 'Cached until a publisher changes; ETag and If-None-Match (304); gzip when accepted.',
        security: [],
      },
    },
    async (request, reply) => {
      const [state] = await query<{ n: number; at: string | null }>(ctx.database, 'SELECT count(*)::int AS n, max(updated_at)::text AS at FROM publishers');
      const stamp = `${state?.n ?? 0}:${state?.at ?? ''}`;
      if (!built || built.stamp !== stamp) {
        const body = await sellersJsonOf(ctx);
        built = { stamp, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`, gzip: gzipSync(body) };
      }
      reply.header('etag', built.etag).header('cache-control', 'public, max-age=300').header('vary', 'accept-encoding');
      if (request.headers['if-none-match'] === built.etag) return reply.code(304).send();
      reply.type('application/json; charset=utf-8');
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(built.gzip);
      return reply.send(built.body);
    },
  );
}
