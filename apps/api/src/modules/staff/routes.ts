/**
 * GET /v1/staff/welcome?mail=… (the login screen's welcome panel) and GET /v1/staff/pic/:id.svg
 * (generated avatars). Both public. The look-up takes one exact mail of a company domain (any
 * other answers null without reading the roster) and is rate limited per source address through
 * the database limiter, so the roster cannot be listed or enumerated fast. Why a public look-up at
 * all: docs/decisions/011-public-welcome-lookup.md.
 */
import { ok } from '@backoffice/core/envelope';
import { isCompanyMail, normalizeMail } from '@backoffice/core/mail';
import { staffPicParamsSchema, welcomeEntrySchema, welcomeQuerySchema } from '@backoffice/core/schemas/auth';
import { errorEnvelopeSchema, successEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { hitRateLimit, tooManyRequests, type RateLimitRule } from '../../lib/rate-limit.ts';
import { avatarSvg, etagOf } from './avatar.ts';
import { findStaffByMail, findStaffName } from './repo.ts';

/** Default welcome look-ups per source address per minute (WELCOME_MAX_PER_MIN; a person types one mail at a time). */
export const WELCOME_RULE: RateLimitRule = { max: 30, windowSec: 60 };

export async function staffRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const welcomeRule: RateLimitRule = { ...WELCOME_RULE, max: ctx.config.welcomeMaxPerMin };
  acceptJsonBodiesOnly(app);

  app.get<{ Querystring: { mail: string } }>(
    '/v1/staff/welcome',
    {
      config: { auth: { public: true } },
      schema: {
        tags: ['staff'],
        summary: "Welcome panel: one exact work mail's name, picture and greeting, or null",
        description:
          "The mail is trimmed and lowercased (no '@': the primary domain is appended) and must match a roster entry exactly; " +
          'a mail outside the company domains answers null. ' +
          `Rate limited to ${welcomeRule.max} look-ups per address per minute (429 error.rate_limited, Retry-After).`,
        security: [],
        querystring: welcomeQuerySchema,
        response: { 200: successEnvelopeSchema(welcomeEntrySchema.nullable()), 400: errorEnvelopeSchema, 429: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const state = await hitRateLimit(ctx.database.db, `welcome:ip:${request.ip}`, welcomeRule);
      if (state.limited) throw tooManyRequests(state);
      const mail = normalizeMail(request.query.mail, ctx.config.companyDomains);
      if (!isCompanyMail(mail, ctx.config.companyDomains)) return ok(null);
      return ok(await findStaffByMail(ctx.database.db, mail));
    },
  );

  app.get<{ Params: { id: number } }>(
    '/v1/staff/pic/:id.svg',
    {
      config: { auth: { public: true } },
      schema: {
        tags: ['staff'],
        summary: 'Generated initials avatar of a roster entry (SVG, cacheable)',
        security: [],
        params: staffPicParamsSchema,
        response: { 404: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const name = await findStaffName(ctx.database.db, request.params.id);
      if (name === null) throw notFound();
      const svg = avatarSvg(name);
      const etag = etagOf(svg);
      reply
        .header('cache-control', 'public, max-age=86400')
        .header('etag', etag)
        .type('image/svg+xml; charset=utf-8');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.send(svg);
    },
  );
}
