/**
 * IP firewall API (spec sections 3, 7, 8; issue 2). Every route needs /v1/firewall.
 *   GET  /v1/firewall/ip                    {ip_origin}
 *   POST /v1/firewall/ip {ip, type}         {update_db_ip, update_firewall_ip, entry}: 'OK' or a translated text each
 *   GET  /v1/firewall/entries               {items, total, page, pageSize}: all for admins, own otherwise
 *   POST /v1/firewall/entries/:id/disable   {entry, update_firewall_ip}
 *   POST /v1/firewall/entries/:id/enable    {entry, update_firewall_ip}
 */
import { ok } from '@backoffice/core/envelope';
import {
  FIREWALL_OK,
  FIREWALL_RESOURCE,
  firewallEntriesQuerySchema,
  firewallEntryActionBodySchema,
  firewallEntryParamsSchema,
  firewallRequestSchema,
  type FirewallEntriesQuery,
  type FirewallEntryActionResult,
  type FirewallType,
} from '@backoffice/core/firewall';
import { localeFromAcceptLanguage, translate } from '@backoffice/core/i18n/catalogues';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { callerOf } from '../../plugins/auth.ts';
import { firewallServiceFor, originIp, type Outcome } from './service.ts';

const auth = { permission: { resource: FIREWALL_RESOURCE } } as const;
/** The bodies here are tiny; anything bigger is refused before it is parsed. */
const SMALL_BODY = 4 * 1024;

function text(request: FastifyRequest, outcome: Outcome): string {
  if (outcome === FIREWALL_OK) return FIREWALL_OK;
  return translate(localeFromAcceptLanguage(request.headers['accept-language']), outcome);
}

export async function firewallRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(app);
  const service = firewallServiceFor(ctx);

  app.get(
    '/v1/firewall/ip',
    { config: { auth }, schema: { tags: ['firewall'], summary: "The caller's address as the firewall sees it" } },
    async (request) => ok({ ip_origin: originIp(request) }),
  );

  app.post(
    '/v1/firewall/ip',
    {
      config: { auth },
      bodyLimit: SMALL_BODY,
      schema: { tags: ['firewall'], summary: 'Allow an address for a duration (UNLIMITED needs firewall_unlimited)', body: firewallRequestSchema },
    },
    async (request) => {
      const body = request.body as { ip: string; type: FirewallType };
      const result = await service.allow(request, body);
      return ok({ update_db_ip: text(request, result.db), update_firewall_ip: text(request, result.firewall), entry: result.entry });
    },
  );

  app.get(
    '/v1/firewall/entries',
    {
      config: { auth },
      schema: { tags: ['firewall'], summary: 'Allow-list entries (all for admins, own otherwise), paginated', querystring: firewallEntriesQuerySchema },
    },
    async (request) => ok(await service.list(callerOf(request), request.query as FirewallEntriesQuery)),
  );

  for (const action of ['disable', 'enable'] as const) {
    app.post(
      `/v1/firewall/entries/:id/${action}`,
      {
        config: { auth },
        bodyLimit: SMALL_BODY,
        schema: {
          tags: ['firewall'],
          summary: action === 'disable' ? 'Disable an entry (owner or admin)' : 'Enable an entry again for its full duration (owner or admin)',
          params: firewallEntryParamsSchema,
          body: firewallEntryActionBodySchema,
        },
      },
      async (request) => {
        const { id } = request.params as { id: number };
        const result = action === 'disable' ? await service.disable(request, id) : await service.enable(request, id);
        const data: FirewallEntryActionResult = { entry: result.entry, update_firewall_ip: text(request, result.firewall) };
        return ok(data);
      },
    );
  }
}
