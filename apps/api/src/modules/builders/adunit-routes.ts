/**
 * What the ad unit generator starts from when the subject is one of our ad units (decision 039;
 * the generator itself is served by routes.ts):
 *   GET /v1/builders/adunit/ad-units/:id   the unit's name (Prebid's code), site, publisher, media
 *                                          type and size, and the floor the floors screen resolves
 *                                          for it (hard or soft, with its currency)
 * ACL: `/v1/builders` read; the floor only for a caller who may also read `/v1/floors` (null
 * otherwise), as the floors screen itself would show it.
 */
import { isAllowed } from '@backoffice/core/acl';
import type { AdUnitFacts } from '@backoffice/core/builders/adunit';
import { BUILDER_PERMISSION } from '@backoffice/core/builders/common';
import { ok } from '@backoffice/core/envelope';
import { idParamsSchema } from '@backoffice/core/ids';
import { FORMATS, SIZES } from '@backoffice/core/reports';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { callerOf } from '../../plugins/auth.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { query } from '../../reports-data/sql.ts';
import { FLOORS_RESOURCE } from '../floors/routes.ts';
import { currentFloorIndex } from '../floors/store.ts';

export async function adunitBuilderRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const READ = { auth: { permission: { resource: BUILDER_PERMISSION.adunit, action: 'read' } } } as const;

  app.get(
    '/v1/builders/adunit/ad-units/:id',
    {
      config: READ,
      schema: {
        tags: ['builders'],
        summary: 'An ad unit as the ad unit generator starts from it: name, site, publisher, media type, size and floor',
        description:
          'The floor is the one the floors rules resolve for the unit (publisher, site, ad unit name, media type, size; no country, device, partner or deal), ' +
          'null without a matching rule or when the caller may not read /v1/floors. 404 error.not_found for an unknown unit. ACL: read on /v1/builders.',
        params: idParamsSchema,
        response: { 404: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const [row] = await query<{ id: number; name: string; format_id: number; size_id: number; site: string; publisher_id: number; publisher: string }>(
        ctx.database,
        `SELECT u.id, u.name, u.format_id, u.size_id, s.name AS site, p.id AS publisher_id, p.name AS publisher
           FROM ad_units u JOIN sites s ON s.id = u.site_id JOIN publishers p ON p.id = s.publisher_id WHERE u.id = $1`,
        [request.params.id],
      );
      if (!row) throw notFound();
      const media_type = FORMATS[Number(row.format_id) - 1] ?? null;
      const size = SIZES[Number(row.size_id) - 1] ?? null;
      let floor: AdUnitFacts['floor'] = null;
      if (isAllowed(callerOf(request), { resource: FLOORS_RESOURCE, action: 'read' })) {
        const { index } = await currentFloorIndex(ctx.database);
        const winner = index.resolve({ publisher: String(row.publisher_id), site: row.site, ad_unit: row.name, media_type, size }).winner;
        if (winner) floor = { cpm: winner.rule.cpm, currency: winner.rule.currency, type: winner.rule.type };
      }
      const facts: AdUnitFacts = {
        id: Number(row.id),
        name: String(row.name),
        site: String(row.site),
        publisher: { id: Number(row.publisher_id), name: String(row.publisher) },
        media_type,
        size,
        floor,
      };
      return ok(facts);
    },
  );
}
