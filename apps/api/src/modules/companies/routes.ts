/** Companies on the resource layer: list, one, create, update, delete, history, used by, export, autocomplete. */
import { companies } from '@backoffice/core/resources/companies';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { companies as companiesTable } from '../../db/schema.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { resourceRoutes } from '../../resources/routes.ts';

export async function companyRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(app);
  resourceRoutes(app, ctx, companies, {
    table: companiesTable,
    unique: [{ constraint: 'companies_country_tax_id_idx', field: 'tax_id', key: 'company.tax_id_taken' }],
  });
}
