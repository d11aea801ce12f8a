/** POST /v1/login, GET /v1/login/refresh, POST /v1/login/as (spec section 7). */
import { ok } from '@backoffice/core/envelope';
import { errorEnvelopeSchema, noQuerySchema, successEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import { loginAsRequestSchema, loginRequestSchema, sessionSchema, type LoginAsRequest, type LoginRequest } from '@backoffice/core/schemas/auth';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { callerOf } from '../../plugins/auth.ts';
import { login, loginAs, refresh, requireRealAdmin } from './service.ts';

const sessionResponse = successEnvelopeSchema(sessionSchema);

export async function authRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(app);

  app.post<{ Body: LoginRequest }>(
    '/v1/login',
    {
      config: { auth: { public: true } },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a work mail and password',
        description:
          "A mail without '@' gets the primary company domain; only company domains may sign in. " +
          'Errors: 400 auth.domain_not_allowed, 401 auth.invalid_credentials (same answer whichever part was wrong), ' +
          '403 auth.no_permissions (no role), 403 auth.user_disabled, 429 auth.too_many_attempts (Retry-After).',
        security: [],
        body: loginRequestSchema,
        response: { 200: sessionResponse, 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 429: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await login(ctx, request, request.body)),
  );

  app.get(
    '/v1/login/refresh',
    {
      config: { auth: { authenticated: true } },
      schema: {
        tags: ['auth'],
        summary: 'A fresh session (new token) for a valid token',
        description: 'Keeps the simulation and the "remember" choice. Expired token: 401 auth.token_expired.',
        querystring: noQuerySchema,
        response: { 200: sessionResponse, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await refresh(ctx, callerOf(request))),
  );

  app.post<{ Body: LoginAsRequest }>(
    '/v1/login/as',
    {
      // ADMIN only through requireRealAdmin: a simulated session acts with its real ADMIN's rights here.
      config: { auth: { authenticated: true } },
      preValidation: requireRealAdmin(ctx),
      schema: {
        tags: ['auth'],
        summary: 'ADMIN only: sign in as another user (simulation)',
        description:
          "Answers that user's session with simulated_by = the real admin; audit-logged (simulate.user). " +
          "The real admin's own id ends a simulation (simulate.stop). 403 admin.only, 404 admin.user_not_found, 403 auth.no_permissions.",
        body: loginAsRequestSchema,
        response: { 200: sessionResponse, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await loginAs(ctx, request, callerOf(request), request.body.id_user)),
  );
}
