/**
 * Demand partners on the resource layer (`/v1/partners/demand`): the warehouse's partners table
 * with the partner screens' fields. A network is registered once: the same name (any case) or the
 * same endpoint URL (stored normalised) is refused with a field error. Partners are archived
 * (status), never deleted: reports and deals refer to them. Changes are audited as
 * `demand_partner.update` with the fields' before and after, which the QPS graph shows as
 * annotations (a QPS cap change names both caps). The overview (GET /v1/partners/demand/overview)
 * is in overview.ts.
 */
import { localeFromAcceptLanguage } from '@backoffice/core/i18n/catalogues';
import { overviewExportQuerySchema, overviewQuerySchema } from '@backoffice/core/partner-overview';
import { demandPartners } from '@backoffice/core/resources/demand-partners';
import { ok } from '@backoffice/core/envelope';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { demandPartners as demandPartnersTable } from '../../db/schema-reports.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { sendTableFile } from '../../lib/table-file.ts';
import { callerOf } from '../../plugins/auth.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { resourceRoutes } from '../../resources/routes.ts';
import { domainValidator } from '../reports/validation.ts';
import { demandPartnerOverview, overviewExport } from './overview.ts';

export async function demandPartnerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(app);
  resourceRoutes(app, ctx, demandPartners, {
    table: demandPartnersTable,
    unique: [
      { constraint: 'demand_partners_name_idx', field: 'name', key: 'demand_partner.name_taken' },
      { constraint: 'demand_partners_endpoint_url_idx', field: 'endpoint_url', key: 'demand_partner.url_taken' },
    ],
  });
  app.withTypeProvider<ZodTypeProvider>().get('/v1/partners/demand/overview', {
    config: { auth: { permission: { resource: demandPartners.acl, action: 'read' } } },
    schema: {
      tags: ['demand-partners'],
      summary: 'Live SSP-side partners: QPS cap vs current, today\'s revenue, rates, margin, a 24-hour sparkline',
      querystring: overviewQuerySchema,
    },
    validatorCompiler: domainValidator,
  }, async (request) => ok(await demandPartnerOverview(ctx, callerOf(request), request.query)));
  app.withTypeProvider<ZodTypeProvider>().get('/v1/partners/demand/overview/export', {
    config: { auth: { permission: { resource: demandPartners.acl, action: 'read' } } },
    schema: {
      tags: ['demand-partners'],
      summary: 'The overview as CSV or XLSX: every partner the query filters, in its sort (page and page_size are ignored)',
      querystring: overviewExportQuerySchema,
    },
    validatorCompiler: domainValidator,
  }, async (request, reply) => {
    const { format, ...q } = request.query;
    const file = overviewExport(ctx, callerOf(request), q, localeFromAcceptLanguage(request.headers['accept-language']));
    return sendTableFile(request, reply, { name: 'demand_partners_overview', format, timezone: q.timezone, ...file });
  });
}
