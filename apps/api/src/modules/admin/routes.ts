/**
 * GET /v1/admin/menu, GET /v1/admin/role, GET /v1/admin/role/:id/acl (spec section 7), and a user's
 * sessions for ADMINs: GET and DELETE /v1/admin/users/:id/sessions[/:session].
 */
import { ok } from '@backoffice/core/envelope';
import { idText } from '@backoffice/core/ids';
import { menuTreeDocSchema, roleAclSchema, roleIdParamsSchema, roleSchema } from '@backoffice/core/schemas/admin';
import { sessionIdSchema, sessionListItemSchema } from '@backoffice/core/schemas/auth';
import { errorEnvelopeSchema, noQuerySchema, successEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { callerOf } from '../../plugins/auth.ts';
import { endSessionsOf, createMenuService, menuEncoding, roleAclFor, rolesFor, sessionsOf } from './service.ts';

// A simulated session has the simulated user's or role's rights: the web app's simulator calls
// these with the ADMIN's own session, which a simulation leaves open.
const adminOnly = "ADMIN only (the session's roles: a simulated user or role that is not ADMIN gets 403).";
const userSessionsParams = z.strictObject({ id: idText });
const userSessionParams = z.strictObject({ id: idText, session: sessionIdSchema });

export async function adminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(app);
  const menus = createMenuService(ctx);

  app.get(
    '/v1/admin/menu',
    {
      config: { auth: { authenticated: true } },
      schema: {
        tags: ['admin'],
        summary: "The caller's menu tree",
        description: 'ADMIN: every entry, hidden ones included. Others: the entries their ACL grants, with their parents, never a hidden one.',
        querystring: noQuerySchema,
        response: { 200: successEnvelopeSchema(menuTreeDocSchema), 401: errorEnvelopeSchema },
      },
    },
    // Pre-serialised and pre-compressed per ACL (the same body as ok(tree)); a Buffer is sent as it is.
    async (request, reply) => {
      const encoding = menuEncoding(request.headers['accept-encoding']);
      const body = await menus.menuEnvelope(callerOf(request), encoding);
      const vary = reply.getHeader('vary');
      reply.type('application/json; charset=utf-8').header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return reply.send(body);
    },
  );

  app.get(
    '/v1/admin/role',
    {
      config: { auth: { admin: true } },
      schema: {
        tags: ['admin'],
        summary: 'Every role (id, name)',
        description: adminOnly,
        querystring: noQuerySchema,
        response: { 200: successEnvelopeSchema(z.array(roleSchema)), 401: errorEnvelopeSchema, 403: errorEnvelopeSchema },
      },
    },
    async () => ok(await rolesFor(ctx)),
  );

  app.get<{ Params: { id: number } }>(
    '/v1/admin/role/:id/acl',
    {
      config: { auth: { admin: true } },
      schema: {
        tags: ['admin'],
        summary: "A role's ACL (role simulation)",
        description: `${adminOnly} A role simulation itself is started with POST /v1/login/as {id_role}.`,
        params: roleIdParamsSchema,
        querystring: noQuerySchema,
        response: { 200: successEnvelopeSchema(roleAclSchema), 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await roleAclFor(ctx, request.params.id)),
  );

  app.get<{ Params: { id: number } }>(
    '/v1/admin/users/:id/sessions',
    {
      config: { auth: { admin: true } },
      schema: {
        tags: ['admin'],
        summary: "A user's open sessions, newest first",
        description:
          `${adminOnly} Sign-ins on each computer, simulations others run as the user, and the role simulations the user runs. ` +
          '404 admin.user_not_found.',
        params: userSessionsParams,
        querystring: noQuerySchema,
        response: { 200: successEnvelopeSchema(z.array(sessionListItemSchema)), 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await sessionsOf(ctx, request.params.id)),
  );

  app.delete<{ Params: { id: number } }>(
    '/v1/admin/users/:id/sessions',
    {
      config: { auth: { admin: true } },
      schema: {
        tags: ['admin'],
        summary: "Ends every open session of a user",
        description: `${adminOnly} Their tokens answer 401 from then on. Audit-logged (user.sessions_end). Answers how many ended.`,
        params: userSessionsParams,
        querystring: noQuerySchema,
        response: { 200: successEnvelopeSchema(z.object({ ended: z.number().int() })), 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await endSessionsOf(ctx, request, request.params.id, null)),
  );

  app.delete<{ Params: { id: number; session: string } }>(
    '/v1/admin/users/:id/sessions/:session',
    {
      config: { auth: { admin: true } },
      schema: {
        tags: ['admin'],
        summary: "Ends one session of a user",
        description: `${adminOnly} Audit-logged (user.sessions_end). 404 admin.session_not_found when it is not an open session of that user.`,
        params: userSessionParams,
        querystring: noQuerySchema,
        response: { 200: successEnvelopeSchema(z.object({ ended: z.number().int() })), 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await endSessionsOf(ctx, request, request.params.id, request.params.session)),
  );
}
