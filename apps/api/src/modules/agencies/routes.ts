/** Agencies on the resource layer (a reference to their company, which then cannot be deleted). */
import { agencies } from '@backoffice/core/resources/agencies';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { agencies as agenciesTable } from '../../db/schema.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { resourceRoutes } from '../../resources/routes.ts';

export async function agencyRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(app);
  resourceRoutes(app, ctx, agencies, { table: agenciesTable });
}
