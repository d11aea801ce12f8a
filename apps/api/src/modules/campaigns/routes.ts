/**
 * Premium offers and campaigns (issue 26, docs/decisions/043-offers-and-campaigns.md) on the
 * resource layer: `/v1/offers` (ACL /v1/offers), `/v1/campaigns` and their events
 * `/v1/campaign-events` (both ACL /v1/campaigns) get list, row, create, update with version (409),
 * delete (409 while used), history, used-by, autocomplete and export from the factory. Offers and
 * events answer `warnings` ({payout: 'offer.payout_above_revenue'} when the payout is above the
 * revenue: allowed, but said). The advertiser of an offer or a campaign must be a performance-side
 * demand partner, and a campaign's offer one of its advertiser's; an event's code is unique within
 * its campaign. Campaign rows carry their spend, phase and pacing status (warehouse, one query a page).
 * What the layer does not give:
 *   GET  /v1/offers/advertisers, /v1/campaigns/advertisers   the pickers of performance-side partners
 *   GET  /v1/campaigns/offers                                the picker of offers (advertiser_id= narrows)
 *   GET  /v1/campaigns/:id/pacing                            spend against budgets, linear pacing, by day
 *   POST /v1/campaigns/:id/events/:eventId/postback-test     fire a test conversion, record the answer
 *   GET  /v1/campaigns/:id/events/:eventId/postback-tests    the event's last tests
 */
import { ok } from '@backoffice/core/envelope';
import { idText, isIdText } from '@backoffice/core/ids';
import { POSTBACK_MACRO_NAMES } from '@backoffice/core/postback';
import { campaignEvents } from '@backoffice/core/resources/campaign-events';
import { campaigns } from '@backoffice/core/resources/campaigns';
import { moneyWarnings, premiumOffers } from '@backoffice/core/resources/offers';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import { and, asc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import {
  campaignEvents as eventsTable,
  campaigns as campaignsTable,
  offers as offersTable,
} from '../../db/schema-offers.ts';
import { demandPartners } from '../../db/schema-reports.ts';
import { badRequest } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { callerOf } from '../../plugins/auth.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { resourceRoutes } from '../../resources/routes.ts';
import { campaignPacingOf, postbackTestsOf, runPostbackTest, withSpend } from './service.ts';

type Row = Record<string, unknown>;

const PICKER_MAX = 50;

const pickerQuery = z.strictObject({
  /** The layer's reference select searches by the referenced resource's title field (`name`). */
  name: z.string().max(200).optional(),
  q: z.string().max(200).optional(),
  ids: z.string().max(2000).optional(),
  limit: z
    .string()
    .regex(/^[1-9]\d{0,2}$/, 'error.invalid_value')
    .optional(),
});
type PickerQuery = z.infer<typeof pickerQuery>;

const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The condition of a picker's query on `column` (ids= or name contains), and its limit. */
function pickerMatch(
  query: PickerQuery,
  idColumn: Parameters<typeof inArray>[0],
  nameColumn: Parameters<typeof ilike>[0],
): { where: SQL | undefined; limit: number } {
  if (query.ids !== undefined) {
    const list = query.ids.split(',').filter(Boolean);
    if (!list.every(isIdText)) throw badRequest('error.validation', { ids: 'error.invalid_id' });
    return { where: list.length > 0 ? inArray(idColumn, list.map(Number)) : sql`false`, limit: PICKER_MAX };
  }
  const text = (query.name ?? query.q)?.trim();
  return {
    where: text ? ilike(nameColumn, containsPattern(text)) : undefined,
    limit: Math.min(Number(query.limit ?? 20), PICKER_MAX),
  };
}

const isPerformancePartner = async (d: Db, id: number) => {
  const [found] = await d
    .select({ id: demandPartners.id })
    .from(demandPartners)
    .where(and(eq(demandPartners.id, id), eq(demandPartners.side, 'performance')))
    .limit(1);
  return Boolean(found);
};

/** GET {path}: the demand partners of the performance side, by name or ids ([{id, value}]). */
function advertiserPicker(
  root: FastifyInstance,
  ctx: AppContext,
  path: string,
  acl: string,
  tag: string,
): void {
  root.withTypeProvider<ZodTypeProvider>().get(
    path,
    {
      config: { auth: { permission: { resource: acl, action: 'read' } } },
      schema: {
        tags: [tag],
        summary: 'Advertisers: the demand partners of the performance side (the form picker)',
        description: `name= or q= (name contains) or ids=1,2; limit (default 20, at most ${PICKER_MAX}). Answers [{id, value}] by name.`,
        querystring: pickerQuery,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const { where, limit } = pickerMatch(request.query, demandPartners.id, demandPartners.name);
      return ok(
        await ctx.database.db
          .select({ id: demandPartners.id, value: demandPartners.name })
          .from(demandPartners)
          .where(and(eq(demandPartners.side, 'performance'), where))
          .orderBy(asc(demandPartners.name), asc(demandPartners.id))
          .limit(limit),
      );
    },
  );
}

export async function offerRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  resourceRoutes(root, ctx, premiumOffers, {
    table: offersTable,
    // The side is checked when the advertiser is chosen: an offer whose partner later left the
    // performance side keeps its other edits.
    validate: async (d, data, before) => {
      if (before && before.advertiser_id === data.advertiser_id) return undefined;
      return (await isPerformancePartner(d, data.advertiser_id as number))
        ? undefined
        : { advertiser_id: 'offer.advertiser_not_performance' };
    },
    warnings: moneyWarnings,
    extraRoutes: (scope) =>
      advertiserPicker(
        scope,
        ctx,
        `${premiumOffers.path}/advertisers`,
        premiumOffers.acl,
        premiumOffers.name,
      ),
  });
}

const READ_CAMPAIGNS = { permission: { resource: campaigns.acl, action: 'read' } } as const;
const WRITE_CAMPAIGNS = { permission: { resource: campaigns.acl } } as const;

const eventParams = z.strictObject({ id: idText, eventId: idText });

const postbackTestBody = z.strictObject({
  /** Values of some macros (the others: the event's own figures, or examples). */
  values: z
    .partialRecord(
      z.enum(POSTBACK_MACRO_NAMES, { error: 'error.unknown_field' }),
      z.string({ error: 'campaign.postback.value_invalid' }).max(500, 'campaign.postback.value_invalid'),
    )
    .optional(),
  /** One per click: a retried request with the same key answers the test it made. */
  idempotency_key: z.string().trim().min(8, 'error.invalid_value').max(100, 'error.invalid_value').optional(),
});

export async function campaignRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  resourceRoutes(root, ctx, campaigns, {
    table: campaignsTable,
    validate: async (d, data, before) => {
      const errors: Record<string, string> = {};
      const advertiser = data.advertiser_id as number;
      if (!(before && before.advertiser_id === advertiser) && !(await isPerformancePartner(d, advertiser))) {
        errors.advertiser_id = 'offer.advertiser_not_performance';
      }
      if (!(before && before.offer_id === data.offer_id && before.advertiser_id === advertiser)) {
        const [offer] = await d
          .select({ advertiserId: offersTable.advertiserId })
          .from(offersTable)
          .where(eq(offersTable.id, data.offer_id as number))
          .limit(1);
        if (offer && offer.advertiserId !== advertiser) errors.offer_id = 'campaign.offer_other_advertiser';
      }
      return Object.keys(errors).length > 0 ? errors : undefined;
    },
    decorate: (rows) => withSpend(ctx, rows),
    extraRoutes: (scope) => {
      const app = scope.withTypeProvider<ZodTypeProvider>();
      const tags = [campaigns.name];
      advertiserPicker(scope, ctx, `${campaigns.path}/advertisers`, campaigns.acl, campaigns.name);

      app.get(
        `${campaigns.path}/offers`,
        {
          config: { auth: READ_CAMPAIGNS },
          schema: {
            tags,
            summary: 'Offers a campaign can run (the form picker)',
            description: `name= or q= (name contains) or ids=1,2; advertiser_id= narrows to one advertiser's offers; limit (default 20, at most ${PICKER_MAX}). Answers [{id, value, advertiser_id}] by name; archived offers only by ids.`,
            querystring: pickerQuery.extend({ advertiser_id: z.string().max(12).optional() }),
            response: { 400: errorEnvelopeSchema },
          },
        },
        async (request) => {
          const { advertiser_id: advertiser, ...rest } = request.query;
          if (advertiser !== undefined && !isIdText(advertiser))
            throw badRequest('error.validation', { advertiser_id: 'error.invalid_id' });
          const { where, limit } = pickerMatch(rest, offersTable.id, offersTable.name);
          return ok(
            await ctx.database.db
              .select({
                id: offersTable.id,
                value: offersTable.name,
                advertiser_id: offersTable.advertiserId,
              })
              .from(offersTable)
              .where(
                and(
                  where,
                  advertiser !== undefined ? eq(offersTable.advertiserId, Number(advertiser)) : undefined,
                  rest.ids === undefined ? sql`${offersTable.status} <> 'archived'` : undefined,
                ),
              )
              .orderBy(asc(offersTable.name), asc(offersTable.id))
              .limit(limit),
          );
        },
      );

      app.get(
        `${campaigns.path}/:id/pacing`,
        {
          config: { auth: READ_CAMPAIGNS },
          schema: {
            tags,
            summary: "A campaign's spend against its budgets, with linear pacing",
            description:
              'Spend: the advertiser’s (performance-side demand partner’s) revenue in the warehouse on the campaign’s UTC days, in its targeted countries and devices (all when none; platforms are not in the rollup), ' +
              'read from stats_r_partner_country_device at level 1 up to the last loaded hour. Answers {phase, as_of, currency, comparable, total {budget, spent, elapsed_pct, expected, pace_pct, usage_pct, status, alert}, ' +
              'today {day, budget, spent, expected, usage_pct, alert} | null, days [{day, spent, over_daily_budget}] (the last 31 days up to as_of), scope}. Money as decimal text (USD for spend).',
            params: z.strictObject({ id: idText }),
            response: { 404: errorEnvelopeSchema },
          },
        },
        async (request) => ok(await campaignPacingOf(ctx, request.params.id)),
      );

      app.post(
        `${campaigns.path}/:id/events/:eventId/postback-test`,
        {
          config: { auth: WRITE_CAMPAIGNS },
          schema: {
            tags,
            summary: 'Fire a test conversion of an event: send its postback and record the answer',
            description:
              'Body {values? {macro: text}, idempotency_key?}. The saved postback URL is resolved with the values (the event’s own payout, revenue, code and ids, the campaign’s currency, now as timestamp, a fresh test click id, examples for the rest), URL-encoded, ' +
              'and sent with GET: http or https, public addresses only (private, loopback and reserved ranges are refused: status refused, error_key campaign.postback.private_address), at most 3 redirects, 5 s. ' +
              'Answers the recorded test {id, url, values, status (done | refused | error), http_status, response_headers, response_body (first 2 KB), redirects, error_key, duration_ms}. ' +
              'One test in flight per event (409 campaign.postback.in_flight); the same idempotency_key answers the test it made (already: true). Audited as campaign_event.postback_test.',
            params: eventParams,
            body: postbackTestBody,
            response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
          },
        },
        async (request) => {
          const caller = callerOf(request);
          return ok(
            await runPostbackTest(
              ctx,
              request,
              request.params.id,
              request.params.eventId,
              request.body,
              caller.id,
            ),
          );
        },
      );

      app.get(
        `${campaigns.path}/:id/events/:eventId/postback-tests`,
        {
          config: { auth: READ_CAMPAIGNS },
          schema: {
            tags,
            summary: "An event's last postback tests, newest first",
            description: 'At most 20, each as the test answer gives it.',
            params: eventParams,
            response: { 404: errorEnvelopeSchema },
          },
        },
        async (request) => ok(await postbackTestsOf(ctx, request.params.id, request.params.eventId)),
      );
    },
  });

  resourceRoutes(root, ctx, campaignEvents, {
    table: eventsTable,
    unique: [{ constraint: 'campaign_events_code_idx', field: 'code', key: 'campaign.event.code_taken' }],
    warnings: (row: Row) => moneyWarnings(row),
  });
}
