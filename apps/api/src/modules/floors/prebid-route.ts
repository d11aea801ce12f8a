/**
 * The Prebid.js price-floors export (issue 20; docs/decisions/020-prebid-floors-export.md): one
 * publisher's floor rules as Prebid's floors data object (core prebidFloorExport), read on the ACL
 * resource `/v1/floors` ('read').
 *   GET /v1/floors/prebid/:publisherId          the bare Prebid object (no envelope, so a wrapper
 *                                               reads it as is); download=1 for a file
 *                                               `prebid-floors_<id>_YYYY-MM-DD_HHmmss.json`
 *   GET /v1/floors/prebid/:publisherId/report   enveloped: what the file holds and what it could
 *                                               not express, and its first lines (the screen)
 * Both take currency=XXX (default: the most used among the rules the file holds) and version=N
 * (default: the current version); an unknown publisher or version is a 404 envelope.
 *
 * Who can read the URL: like every /v1 route it needs `Authorization: Bearer <token>`, a session
 * token (POST /v1/login, or a session an ADMIN opens for a user), which expires (TOKEN_TTL, or the
 * "remember" lifetime) and is ended by a logout or a password change. The API has no long-lived
 * API keys. Prebid's own fetch (`floors.endpoint.url`) sends a plain GET without headers or
 * cookies and CORS answers only the configured origins, so a publisher's page cannot read this URL
 * itself. What works today: the publisher's (or our) server fetches it with the token of a user
 * whose role only reads `/v1/floors`, renewing the session (GET /v1/login/refresh), and publishes
 * the body at a public URL that `floors.endpoint.url` points to (or inlines it into the wrapper's
 * `pbjs.setConfig({ floors: { data } })`). A direct fetch by the page would need a per-publisher,
 * read-only, revocable URL token: a decision not taken here.
 */
import { ok } from '@backoffice/core/envelope';
import { exportTimestamp } from '@backoffice/core/export-name';
import { prebidFloorExport, type PrebidFloorExport } from '@backoffice/core/floors-prebid';
import { isValidTimeZone } from '@backoffice/core/time-zones';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { query, type QueryFn } from '../../reports-data/sql.ts';
import { currentVersion, loadRules } from './store.ts';

const READ = { permission: { resource: '/v1/floors', action: 'read' } } as const;
const TAGS = ['floors'];
/** The screen's preview: the file's first lines, pretty-printed. */
const PREVIEW_LINES = 40;
/** Exports kept per database: a version's rules never change, so (publisher, version, currency) names one file. */
const CACHED = 16;

const positive = z.string().regex(/^[1-9]\d{0,8}$/, 'error.invalid_value');
const params = z.strictObject({ publisherId: positive });
const common = {
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'error.invalid_value')
    .optional(),
  version: positive.optional(),
};
const fileQuery = z.strictObject({
  ...common,
  download: z.enum(['0', '1']).optional(),
  /** The file name's time zone (IANA; default the server's). */
  timezone: z.string().max(64).refine(isValidTimeZone, 'report.timezone_invalid').optional(),
});
const reportQuery = z.strictObject(common);

const cache = new WeakMap<Database, Map<string, PrebidFloorExport>>();

/** The export of a publisher at a version (the current one by default): 404 for an unknown publisher or version. */
async function exportOf(
  ctx: AppContext,
  publisherId: number,
  q: { currency?: string; version?: string },
): Promise<{ name: string; out: PrebidFloorExport }> {
  const run: QueryFn = (text, values) => query(ctx.database, text, values);
  const [pub] = await run<{ id: number; name: string }>('SELECT id, name FROM publishers WHERE id = $1', [
    publisherId,
  ]);
  if (!pub) throw notFound('floors.prebid.publisher_unknown');
  const current = await currentVersion(run);
  const version = q.version !== undefined ? Number(q.version) : current;
  if (version > current) throw notFound('floors.error.version_unknown');
  const currency = q.currency?.toUpperCase() ?? null;
  const key = `${publisherId}|${version}|${currency ?? ''}`;
  let byKey = cache.get(ctx.database);
  if (!byKey) cache.set(ctx.database, (byKey = new Map()));
  let out = byKey.get(key);
  if (!out) {
    // Rules read at the version named, so the file and its modelVersion agree even if a save lands meanwhile.
    const rules = version === 0 ? [] : await loadRules(ctx.database, version);
    out = prebidFloorExport(rules, { publisher: String(publisherId), version, currency });
    if (byKey.size >= CACHED) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, out);
  }
  return { name: pub.name, out };
}

export async function prebidFloorRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/v1/floors/prebid/:publisherId',
    {
      config: { auth: READ },
      schema: {
        tags: TAGS,
        summary: "A publisher's floor rules as a Prebid.js price-floors data object (bare JSON, no envelope)",
        description:
          'currency=XXX (default: the most used among the rules the file holds), version=N (default: current), download=1 for an attachment, timezone for its name. Rules naming a country, device, demand partner or deal stay with the server; see …/report.',
        params,
        querystring: fileQuery,
      },
    },
    async (request, reply) => {
      const { out } = await exportOf(ctx, Number(request.params.publisherId), request.query);
      reply.type('application/json; charset=utf-8').header('cache-control', 'no-store');
      if (request.query.download !== '1') return reply.send(JSON.stringify(out.data));
      const name = `prebid-floors_${request.params.publisherId}_${exportTimestamp(new Date(), request.query.timezone)}.json`;
      reply.header('content-disposition', `attachment; filename="${name}"`);
      return reply.send(`${JSON.stringify(out.data, null, 2)}\n`);
    },
  );

  app.get(
    '/v1/floors/prebid/:publisherId/report',
    {
      config: { auth: READ },
      schema: {
        tags: TAGS,
        summary:
          'What the Prebid floors file of a publisher holds and could not express, with its first lines',
        description:
          'Same currency and version as the file. Answers {publisher: {id, name}, report, preview, preview_lines, lines, path}.',
        params,
        querystring: reportQuery,
      },
    },
    async (request) => {
      const id = Number(request.params.publisherId);
      const { name, out } = await exportOf(ctx, id, request.query);
      const lines = JSON.stringify(out.data, null, 2).split('\n');
      const search = new URLSearchParams();
      if (request.query.currency) search.set('currency', out.report.currency);
      if (request.query.version) search.set('version', String(out.report.version));
      return ok({
        publisher: { id, name },
        report: out.report,
        preview: lines.slice(0, PREVIEW_LINES).join('\n'),
        preview_lines: Math.min(PREVIEW_LINES, lines.length),
        lines: lines.length,
        /** The file's URL path (the API's base in front), as a wrapper's server would fetch it. */
        path: `/v1/floors/prebid/${id}${search.size > 0 ? `?${search.toString()}` : ''}`,
      });
    },
  );
}
