/** POST /v1/login, GET /v1/login/refresh, POST /v1/login/as (spec section 7) and POST /v1/logout. */
import { ok } from '@backoffice/core/envelope';
import { errorEnvelopeSchema, noQuerySchema, successEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import { z } from 'zod';
import { loginAsRequestSchema, loginRequestSchema, sessionSchema, type LoginAsRequest, type LoginRequest } from '@backoffice/core/schemas/auth';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { callerOf } from '../../plugins/auth.ts';
import { login, loginAs, logout, refresh } from './service.ts';

const sessionResponse = successEnvelopeSchema(sessionSchema);

/** Session answers are credentials: never stored by a browser or a proxy. */
const NO_STORE = 'no-store';

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
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      return ok(await login(ctx, request, request.body));
    },
  );

  app.get(
    '/v1/login/refresh',
    {
      config: { auth: { authenticated: true } },
      schema: {
        tags: ['auth'],
        summary: 'A fresh session (new token) for a valid token',
        description:
          'Keeps the simulation and the "remember" choice. The old token\'s session ends: it answers 401 auth.token_expired from then on ' +
          '(of several refreshes with one token, one succeeds). Expired or ended session: 401 auth.token_expired.',
        querystring: noQuerySchema,
        response: { 200: sessionResponse, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      return ok(await refresh(ctx, request, callerOf(request)));
    },
  );

  app.post<{ Body: LoginAsRequest }>(
    '/v1/login/as',
    {
      config: { auth: { admin: true } },
      schema: {
        tags: ['auth'],
        summary: 'ADMIN only: simulate a user (id_user) or a role (id_role)',
        description:
          "From the ADMIN's own session (a simulated session gets 403 auth.simulated_session: it never starts another or gets the ADMIN's). " +
          "id_user: that user's session with simulated_by = the ADMIN (simulate.user). id_role: the ADMIN's session with that role's roles and ACL, " +
          'which the API enforces (simulate.role). The new session replaces the simulation this ADMIN session started before, and ends with it. ' +
          "The ADMIN's own id ends the simulation and answers a fresh ADMIN session (simulate.stop). " +
          '403 admin.only, 404 admin.user_not_found / admin.role_not_found, 403 auth.no_permissions / auth.user_disabled.',
        body: loginAsRequestSchema,
        response: { 200: sessionResponse, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      return ok(await loginAs(ctx, request, callerOf(request), request.body));
    },
  );

  app.post(
    '/v1/logout',
    {
      config: { auth: { authenticated: true } },
      schema: {
        tags: ['auth'],
        summary: "Ends the caller's session (and the simulations it started)",
        description:
          'The token answers 401 auth.token_expired from then on. With a simulated session it ends the simulation (simulate.stop); ' +
          "the ADMIN's own session goes on. An already ended session answers 401.",
        querystring: noQuerySchema,
        response: { 200: successEnvelopeSchema(z.null()), 401: errorEnvelopeSchema },
      },
    },
    async (request) => {
      await logout(ctx, request, callerOf(request));
      return ok(null);
    },
  );
}
