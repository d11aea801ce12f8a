/** GET /v1/admin/menu, GET /v1/admin/role, GET /v1/admin/role/:id/acl (spec section 7). */
import { ok } from '@backoffice/core/envelope';
import { menuTreeDocSchema, roleAclSchema, roleIdParamsSchema, roleSchema } from '@backoffice/core/schemas/admin';
import { errorEnvelopeSchema, noQuerySchema, successEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { callerOf } from '../../plugins/auth.ts';
import { requireRealAdmin } from '../auth/service.ts';
import { createMenuService, menuEncoding, roleAclFor, rolesFor } from './service.ts';

// ADMIN only, through requireRealAdmin rather than config.auth.admin: a simulated session acts
// with its real ADMIN's rights on the simulator's routes.
const adminOnly =
  'ADMIN only (a simulated session counts as its real ADMIN, so the simulator keeps working while simulating).';

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
      config: { auth: { authenticated: true } },
      preValidation: requireRealAdmin(ctx),
      schema: {
        tags: ['admin'],
        summary: 'Every role (id, name)',
        description: adminOnly,
        querystring: noQuerySchema,
        response: { 200: successEnvelopeSchema(z.array(roleSchema)), 401: errorEnvelopeSchema, 403: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await rolesFor(ctx, callerOf(request))),
  );

  app.get<{ Params: { id: number } }>(
    '/v1/admin/role/:id/acl',
    {
      config: { auth: { authenticated: true } },
      preValidation: requireRealAdmin(ctx),
      schema: {
        tags: ['admin'],
        summary: "A role's ACL (role simulation)",
        description: `${adminOnly} Audit-logged as simulate.role.`,
        params: roleIdParamsSchema,
        querystring: noQuerySchema,
        response: { 200: successEnvelopeSchema(roleAclSchema), 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await roleAclFor(ctx, request, callerOf(request), request.params.id)),
  );
}
