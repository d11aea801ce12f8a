/**
 * Endpoints on the resource layer, with their token (docs/decisions/013-endpoint-tokens.md):
 *   POST /v1/endpoints                            the 201 answer carries `token` once
 *   POST /v1/endpoints/:id/actions/rotate-token   a new token, shown once; the old one stops at once
 * The token is 32 random bytes (base64url) behind a `boep_` prefix; the database keeps its SHA-256
 * and its last four characters only. Rotation bumps the row's version and is audited without the
 * token (`endpoint.rotate_token`, the hint before and after).
 */
import { ok } from '@backoffice/core/envelope';
import { idParamsSchema } from '@backoffice/core/ids';
import { endpoints } from '@backoffice/core/resources/endpoints';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { endpoints as endpointsTable, users } from '../../db/schema.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { audit } from '../../plugins/audit.ts';
import { callerOf } from '../../plugins/auth.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { resourceRoutes } from '../../resources/routes.ts';
import { newEndpointToken } from './token.ts';

const rotateBodySchema = z.strictObject({ version: z.number().int().min(1).max(2_147_483_647) });

export async function endpointRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(app);
  resourceRoutes(app, ctx, endpoints, {
    table: endpointsTable,
    unique: [{ constraint: 'endpoints_name_idx', field: 'name', key: 'endpoint.name_taken' }],
    beforeCreate: () => {
      const { token, hash, hint } = newEndpointToken();
      return { values: { token_hash: hash, token_hint: hint, token_rotated_at: new Date() }, reveal: { token } };
    },
    extraRoutes: (scope) => {
      scope.withTypeProvider<ZodTypeProvider>().post(
        `${endpoints.path}/:id/actions/rotate-token`,
        {
          config: { auth: { permission: { resource: endpoints.acl, action: 'write' } } },
          bodyLimit: 1024,
          schema: {
            tags: [endpoints.name],
            summary: "Replace an endpoint's token (the old one stops working at once)",
            description:
              "Send the row's `version`. Answers {token, row}: the token is shown this once. A stale version answers 409 resource.conflict with data {current}.",
            params: idParamsSchema,
            body: rotateBodySchema,
            response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
          },
        },
        async (request) => {
          const id = request.params.id;
          const { version } = request.body;
          const caller = callerOf(request);
          const { token, hash, hint } = newEndpointToken();
          const row = await ctx.database.db.transaction(async (tx) => {
            const t = tx as unknown as Db;
            const [before] = await t.select().from(endpointsTable).where(eq(endpointsTable.id, id)).for('update');
            if (!before) throw notFound('resource.not_found');
            const [after] = await t
              .update(endpointsTable)
              .set({ tokenHash: hash, tokenHint: hint, tokenRotatedAt: sql`now()`, version: sql`${endpointsTable.version} + 1`, updatedAt: sql`now()`, updatedBy: caller.id })
              .where(and(eq(endpointsTable.id, id), eq(endpointsTable.version, version)))
              .returning();
            if (!after) {
              const [by] = before.updatedBy === null ? [] : await t.select({ name: users.name }).from(users).where(eq(users.id, before.updatedBy));
              throw new AppError(409, 'resource.conflict', {
                data: { current: { id: before.id, version: before.version, token_hint: before.tokenHint, updated_at: before.updatedAt.toISOString() } },
                params: { name: by?.name ?? '?', at: before.updatedAt.toISOString() },
              });
            }
            await audit(t, request, {
              action: 'endpoint.rotate_token',
              entity: 'endpoint',
              entityId: id,
              before: { token_hint: before.tokenHint, token_rotated_at: before.tokenRotatedAt.toISOString(), version: before.version },
              after: { token_hint: after.tokenHint, token_rotated_at: after.tokenRotatedAt.toISOString(), version: after.version },
            });
            return after;
          });
          return ok({ token, row: { id: row.id, version: row.version, token_hint: row.tokenHint, token_rotated_at: row.tokenRotatedAt.toISOString() } });
        },
      );
    },
  });
}
