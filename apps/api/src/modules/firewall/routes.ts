/**
 * IP firewall API (spec sections 3, 7, 8; issue 2). Every route needs /v1/firewall.
 *   GET  /v1/firewall/ip                    {ip_origin}
 *   POST /v1/firewall/ip {ip, type}         {update_db_ip, update_firewall_ip, entry}: 'OK' or a translated text each
 *   GET  /v1/firewall/entries[/…]           the resource layer's reads (list, one entry, history,
 *                                           export, autocomplete): all for admins, own otherwise
 *   POST /v1/firewall/entries/:id/disable   {entry, update_firewall_ip}
 *   POST /v1/firewall/entries/:id/enable    {entry, update_firewall_ip}
 *   POST /v1/firewall/entries/:id/retry     {entry, update_firewall_ip}: apply again an entry in ERROR
 */
import { ok } from '@backoffice/core/envelope';
import {
  FIREWALL_OK,
  FIREWALL_RESOURCE,
  firewallEntryActionBodySchema,
  firewallEntryParamsSchema,
  firewallRequestSchema,
  type FirewallEntryActionResult,
} from '@backoffice/core/firewall';
import { localeFromAcceptLanguage, translate } from '@backoffice/core/i18n/catalogues';
import { isAdmin } from '@backoffice/core/acl';
import { firewallEntries as firewallEntriesResource } from '@backoffice/core/resources/firewall-entries';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { firewallEntries } from '../../db/schema.ts';
import { resourceRoutes } from '../../resources/routes.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { firewallServiceFor, originIp, type Outcome } from './service.ts';

const auth = { permission: { resource: FIREWALL_RESOURCE } } as const;
/** The bodies here are tiny; anything bigger is refused before it is parsed. */
const SMALL_BODY = 4 * 1024;

function text(request: FastifyRequest, outcome: Outcome): string {
  if (outcome === FIREWALL_OK) return FIREWALL_OK;
  return translate(localeFromAcceptLanguage(request.headers['accept-language']), outcome);
}

export async function firewallRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
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
      const result = await service.allow(request, request.body);
      return ok({ update_db_ip: text(request, result.db), update_firewall_ip: text(request, result.firewall), entry: result.entry });
    },
  );

  resourceRoutes(app, ctx, firewallEntriesResource, {
    table: firewallEntries,
    scope: (caller) => (isAdmin(caller.roles) ? undefined : eq(firewallEntries.ownerId, caller.id)),
  });

  const summaries = {
    disable: 'Disable an entry (owner or admin)',
    enable: 'Enable an entry again for its full duration (owner or admin)',
    retry: 'Apply an entry in ERROR again, keeping its expiry (owner or admin)',
  } as const;
  for (const action of ['disable', 'enable', 'retry'] as const) {
    app.post(
      `/v1/firewall/entries/:id/${action}`,
      {
        config: { auth },
        bodyLimit: SMALL_BODY,
        schema: {
          tags: ['firewall'],
          summary: summaries[action],
          params: firewallEntryParamsSchema,
          body: firewallEntryActionBodySchema,
        },
      },
      async (request) => {
        const { id } = request.params;
        const result = await service[action](request, id);
        const data: FirewallEntryActionResult = { entry: result.entry, update_firewall_ip: text(request, result.firewall) };
        return ok(data);
      },
    );
  }
}
