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
 * Who can read it. These two need `Authorization: Bearer <token>`, a session token, like every
 * /v1 route. A publisher's Prebid wrapper cannot send one: `floors.endpoint.url` is fetched by the
 * page with a plain GET, cross-origin, without headers or cookies. So each publisher may have one
 * wrapper feed, a read-only URL token (as endpoint tokens, decision 013: `bofl_` + 32 random
 * bytes base64url, shown once, kept as its SHA-256 and last four characters, table
 * floor_feed_tokens):
 *   GET    /v1/floors/prebid/:publisherId/feed  ('read') whether the publisher has a feed: its
 *                                               token's hint, who made it and when, last use
 *   POST   /v1/floors/prebid/:publisherId/feed  ('write') {replaces: hint | null}: creates the
 *                                               feed or rotates its token (the old URL stops at
 *                                               once); answers the token and its URL this once.
 *                                               A `replaces` that is not the current hint (the
 *                                               screen was stale) is a 409
 *   DELETE /v1/floors/prebid/:publisherId/feed  ('write') revokes it
 *   GET    /v1/public/floors/:token.json        public: the bare object of the publisher's
 *                                               current version (currency=XXX optional, one its
 *                                               rules use; files cached per feed), for any
 *                                               origin (`Access-Control-Allow-Origin: *`),
 *                                               `Cache-Control: public, max-age=300`, an ETag
 *                                               (If-None-Match: 304), gzip when accepted; an
 *                                               unknown or revoked token is the same 404 as any
 *                                               unknown URL
 * Each change is audit-logged (entity `floor_feed`, the publisher's id) with the hint, never the
 * token. The request log writes a feed URL with its hint only (feed-token.ts loggableUrl). Nothing
 * in the app filters by address: the IP firewall's nginx allow-list must not cover `/v1/public/`,
 * as publishers' visitors come from anywhere (the nginx lines are in decision 020).
 */
import { ok } from '@backoffice/core/envelope';
import { exportTimestamp } from '@backoffice/core/export-name';
import { prebidFloorExport, type PrebidFloorExport } from '@backoffice/core/floors-prebid';
import { isValidTimeZone } from '@backoffice/core/time-zones';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Database, Db } from '../../db/client.ts';
import { floorFeedTokens } from '../../db/schema-floors.ts';
import { publishers } from '../../db/schema-reports.ts';
import { users } from '../../db/schema.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { audit } from '../../plugins/audit.ts';
import { callerOf } from '../../plugins/auth.ts';
import { ANY_ORIGIN } from '../../plugins/cors.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { query, type QueryFn } from '../../reports-data/sql.ts';
import { FEED_TOKEN_PATTERN, feedPath, hashFeedToken, newFeedToken } from './feed-token.ts';
import { currentVersion, loadRules } from './store.ts';

const READ = { permission: { resource: '/v1/floors', action: 'read' } } as const;
const WRITE = { permission: { resource: '/v1/floors', action: 'write' } } as const;
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
const feedBody = z.strictObject({
  /** The hint of the token the screen shows, null when it shows none: anything else is a 409. */
  replaces: z
    .string()
    .regex(/^[A-Za-z0-9_-]{4}$/, 'error.invalid_value')
    .nullable(),
});
/** Any text: a token of the wrong shape is the same 404 as an unknown one. */
const publicParams = z.strictObject({ token: z.string() });
const publicQuery = z.strictObject({ currency: common.currency });

/** How long the public feed may be cached (browsers, CDNs): a new version reaches wrappers within it. */
const FEED_MAX_AGE = 300;
/** last_used_at is written at most this often (a feed is read on every page view). */
const USED_EVERY = "interval '1 minute'";

const cache = new WeakMap<Database, Map<string, PrebidFloorExport>>();

/** A publisher's export at a version, built from the version's rules (no cache). */
async function buildExport(
  database: Database,
  publisherId: number,
  version: number,
  currency: string | null,
): Promise<PrebidFloorExport> {
  // Rules read at the version named, so the file and its modelVersion agree even if a save lands meanwhile.
  const rules = version === 0 ? [] : await loadRules(database, version);
  return prebidFloorExport(rules, { publisher: String(publisherId), version, currency });
}

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
    out = await buildExport(ctx.database, publisherId, version, currency);
    if (byKey.size >= CACHED) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, out);
  }
  return { name: pub.name, out };
}

/**
 * A file as the public feed sends it: its JSON text (the same bytes as the authenticated route),
 * gzip, ETag, currency, and the currencies its rules use (the only ones the feed serves).
 */
interface FeedFile {
  body: string;
  gzip: Buffer;
  etag: string;
  currency: string;
  currencies: string[];
}

/**
 * The public feed's files, per database, by `publisher|version|currency` ('' for the default
 * currency), a build in flight included (concurrent first reads build once). Unlike the screen's
 * 16 exports, this holds every active feed: wrappers read them on every page view, and a build can
 * take seconds. A publisher's files of an older version go when a newer one is built; past
 * FEED_CACHE_BYTES the oldest files go.
 */
interface FeedCache {
  files: Map<string, { file: Promise<FeedFile>; bytes: number }>;
  bytes: number;
}
const feedCaches = new WeakMap<Database, FeedCache>();
const FEED_CACHE_BYTES = 64 * 1024 * 1024;

async function buildFeedFile(
  database: Database,
  publisherId: number,
  version: number,
  currency: string | null,
): Promise<FeedFile> {
  const out = await buildExport(database, publisherId, version, currency);
  const body = JSON.stringify(out.data);
  // (publisher, version, currency) name the file; the hash of its text also moves the tag when a
  // new server version writes the same version differently. The publisher is the URL's.
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 16);
  return {
    body,
    gzip: gzipSync(body),
    etag: `"v${out.report.version}-${out.report.currency}-${hash}"`,
    currency: out.report.currency,
    currencies: out.report.currencies.map((c) => c.currency),
  };
}

function feedFileOf(
  database: Database,
  publisherId: number,
  version: number,
  currency: string | null,
): Promise<FeedFile> {
  let cache = feedCaches.get(database);
  if (!cache) feedCaches.set(database, (cache = { files: new Map(), bytes: 0 }));
  const files = cache.files;
  const key = `${publisherId}|${version}|${currency ?? ''}`;
  const hit = files.get(key);
  if (hit) return hit.file;
  const drop = (k: string) => {
    cache.bytes -= files.get(k)?.bytes ?? 0;
    files.delete(k);
  };
  for (const k of [...files.keys()])
    if (k.startsWith(`${publisherId}|`) && !k.startsWith(`${publisherId}|${version}|`)) drop(k);
  const entry = { file: buildFeedFile(database, publisherId, version, currency), bytes: 0 };
  files.set(key, entry);
  entry.file.then(
    (file) => {
      if (files.get(key) !== entry) return;
      entry.bytes = file.body.length + file.gzip.length;
      cache.bytes += entry.bytes;
      for (const k of [...files.keys()]) {
        if (cache.bytes <= FEED_CACHE_BYTES) break;
        if (k !== key) drop(k);
      }
    },
    () => {
      if (files.get(key) === entry) files.delete(key);
    },
  );
  return entry.file;
}

/** Does an If-None-Match header name this ETag (a list, weak forms and `*` included)? */
export function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const tags = (Array.isArray(header) ? header.join(',') : header).split(',').map((t) => t.trim());
  return tags.some((t) => t === '*' || t === etag || t === `W/${etag}`);
}

/** What the screen shows of a publisher's feed: never the token nor its hash. */
export interface FeedState {
  token_hint: string;
  created_at: string;
  created_by: { id: number; name: string } | null;
  /** When the current token replaced an earlier one; null for a first token. */
  rotated_at: string | null;
  last_used_at: string | null;
}

async function feedState(d: Db, publisherId: number): Promise<FeedState | null> {
  const [row] = await d
    .select({
      hint: floorFeedTokens.tokenHint,
      createdAt: floorFeedTokens.createdAt,
      createdBy: floorFeedTokens.createdBy,
      createdByName: users.name,
      rotatedAt: floorFeedTokens.rotatedAt,
      lastUsedAt: floorFeedTokens.lastUsedAt,
    })
    .from(floorFeedTokens)
    .leftJoin(users, eq(users.id, floorFeedTokens.createdBy))
    .where(eq(floorFeedTokens.publisherId, publisherId));
  if (!row) return null;
  return {
    token_hint: row.hint,
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy !== null ? { id: row.createdBy, name: row.createdByName ?? '?' } : null,
    rotated_at: row.rotatedAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** What the audit log keeps of a feed: the hint and dates, never the token nor its hash. */
function audited(row: typeof floorFeedTokens.$inferSelect) {
  return {
    token_hint: row.tokenHint,
    created_at: row.createdAt.toISOString(),
    rotated_at: row.rotatedAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

async function publisherOf(d: Db, id: number): Promise<{ id: number; name: string }> {
  const [pub] = await d
    .select({ id: publishers.id, name: publishers.name })
    .from(publishers)
    .where(eq(publishers.id, id));
  if (!pub) throw notFound('floors.prebid.publisher_unknown');
  return pub;
}

/** The feed changed since the screen read it: 409 with what it is now. */
const feedChanged = (current: FeedState | null) =>
  new AppError(409, 'floors.prebid.feed.changed', { data: { current } });

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
          'Same currency and version as the file. Answers {publisher: {id, name}, report, preview, preview_lines, lines, default, path}.',
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
        /** The file's `default` (the all-`*` key's floor), null when it has none. */
        default: out.data.default ?? null,
        /** The file's URL path (the API's base in front), as a wrapper's server would fetch it. */
        path: `/v1/floors/prebid/${id}${search.size > 0 ? `?${search.toString()}` : ''}`,
      });
    },
  );

  const feedParams = { tags: TAGS, params } as const;

  app.get(
    '/v1/floors/prebid/:publisherId/feed',
    {
      config: { auth: READ },
      schema: {
        ...feedParams,
        summary:
          "Whether a publisher has a Prebid wrapper feed (a public URL with a token), and its token's hint",
        description:
          'Answers {publisher: {id, name}, feed: null | {token_hint, created_at, created_by, rotated_at, last_used_at}}. Never the token.',
      },
    },
    async (request) => {
      const id = Number(request.params.publisherId);
      const publisher = await publisherOf(ctx.database.db, id);
      return ok({ publisher, feed: await feedState(ctx.database.db, id) });
    },
  );

  app.post(
    '/v1/floors/prebid/:publisherId/feed',
    {
      config: { auth: WRITE },
      bodyLimit: 1024,
      schema: {
        ...feedParams,
        summary:
          "Create a publisher's Prebid wrapper feed, or rotate its token (the old URL stops working at once)",
        description:
          'Send {replaces: the hint of the current token, or null when there is none}; another value answers 409 floors.prebid.feed.changed with data {current}. ' +
          'Answers {token, path, url, feed} (201 when created): the token and its URL are shown this once.',
        body: feedBody,
      },
    },
    async (request, reply) => {
      const id = Number(request.params.publisherId);
      const caller = callerOf(request);
      const { token, hash, hint } = newFeedToken();
      const created = await ctx.database.db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        await publisherOf(t, id);
        const [before] = await t
          .select()
          .from(floorFeedTokens)
          .where(eq(floorFeedTokens.publisherId, id))
          .for('update');
        if ((before?.tokenHint ?? null) !== request.body.replaces) throw feedChanged(await feedState(t, id));
        const [after] = before
          ? await t
              .update(floorFeedTokens)
              .set({
                tokenHash: hash,
                tokenHint: hint,
                createdBy: caller.id,
                createdAt: sql`now()`,
                rotatedAt: sql`now()`,
                lastUsedAt: null,
              })
              .where(eq(floorFeedTokens.publisherId, id))
              .returning()
          : // A create landing meanwhile (no row to lock above) makes this one insert nothing: 409.
            await t
              .insert(floorFeedTokens)
              .values({ publisherId: id, tokenHash: hash, tokenHint: hint, createdBy: caller.id })
              .onConflictDoNothing()
              .returning();
        if (!after) throw feedChanged(await feedState(t, id));
        await audit(t, request, {
          action: before ? 'floor_feed.rotate' : 'floor_feed.create',
          entity: 'floor_feed',
          entityId: id,
          before: before ? audited(before) : undefined,
          after: audited(after),
        });
        return !before;
      });
      const path = feedPath(token);
      // A credential: never stored by a browser or a proxy.
      reply.code(created ? 201 : 200).header('cache-control', 'no-store');
      return ok(
        {
          token,
          path,
          url: `${request.protocol}://${request.host}${path}`,
          feed: await feedState(ctx.database.db, id),
        },
        created ? 'floors.prebid.feed.created' : 'floors.prebid.feed.rotated',
      );
    },
  );

  app.delete(
    '/v1/floors/prebid/:publisherId/feed',
    {
      config: { auth: WRITE },
      schema: {
        ...feedParams,
        summary: "Revoke a publisher's Prebid wrapper feed: its URL answers 404 from now on",
        description: 'A publisher without a feed answers 404 floors.prebid.feed.none.',
      },
    },
    async (request) => {
      const id = Number(request.params.publisherId);
      await ctx.database.db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        await publisherOf(t, id);
        const [before] = await t
          .delete(floorFeedTokens)
          .where(eq(floorFeedTokens.publisherId, id))
          .returning();
        if (!before) throw notFound('floors.prebid.feed.none');
        await audit(t, request, {
          action: 'floor_feed.revoke',
          entity: 'floor_feed',
          entityId: id,
          before: audited(before),
        });
      });
      return ok({ feed: null }, 'floors.prebid.feed.revoked');
    },
  );

  app.get(
    '/v1/public/floors/:token.json',
    {
      // Publishers' pages on any domain read it: every origin, no credentials (plugins/cors.ts).
      config: { auth: { public: true }, cors: ANY_ORIGIN },
      schema: {
        tags: TAGS,
        summary:
          "A publisher's Prebid.js floors data object for its wrapper (`floors.endpoint.url`), by feed token; public",
        description:
          'The bare object of the current version, as GET /v1/floors/prebid/{publisherId} answers it; currency=XXX, one its rules use (default: the most used; another is 400 floors.prebid.feed.currency_unused). ' +
          'Any origin (Access-Control-Allow-Origin: *); Cache-Control: public, max-age=300; ETag and If-None-Match (304); gzip when accepted. ' +
          'An unknown or revoked token answers 404 error.not_found.',
        security: [],
        params: publicParams,
        querystring: publicQuery,
      },
    },
    async (request, reply) => {
      // Read cross-origin by design (the API's default is same-origin).
      reply.header('cross-origin-resource-policy', 'cross-origin');
      const token = request.params.token;
      if (!FEED_TOKEN_PATTERN.test(token)) throw notFound();
      const run: QueryFn = (text, values) => query(ctx.database, text, values);
      const hash = hashFeedToken(token);
      const [feed] = await run<{ publisher_id: number; stale: boolean }>(
        `SELECT publisher_id, (last_used_at IS NULL OR last_used_at <= now() - ${USED_EVERY}) AS stale FROM floor_feed_tokens WHERE token_hash = $1`,
        [hash],
      );
      if (!feed) throw notFound();
      if (feed.stale)
        await run(
          `UPDATE floor_feed_tokens SET last_used_at = now() WHERE token_hash = $1 AND (last_used_at IS NULL OR last_used_at <= now() - ${USED_EVERY})`,
          [hash],
        );
      const publisherId = Number(feed.publisher_id);
      const version = await currentVersion(run);
      let file = await feedFileOf(ctx.database, publisherId, version, null);
      const wanted = request.query.currency?.toUpperCase();
      if (wanted !== undefined && wanted !== file.currency) {
        // Only a currency the rules use: any other would be all zeros, and each one a build.
        if (!file.currencies.includes(wanted))
          throw badRequest('error.validation', { currency: 'floors.prebid.feed.currency_unused' });
        file = await feedFileOf(ctx.database, publisherId, version, wanted);
      }
      reply
        .header('cache-control', `public, max-age=${FEED_MAX_AGE}`)
        .header('etag', file.etag)
        .header('vary', 'accept-encoding');
      if (etagMatches(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
      reply.type('application/json; charset=utf-8');
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')))
        return reply.header('content-encoding', 'gzip').send(file.gzip);
      return reply.send(file.body);
    },
  );
}
