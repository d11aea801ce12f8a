/**
 * Deals on the resource layer (`/v1/deals`, screen `/partners/deals`): OpenRTB 2.6 deals with the
 * exchange's own fields (packages/core/src/resources/deals.ts), archived rather than deleted. The
 * OpenRTB deal id (`code`) is unique (a field error on conflict); the partner, publishers and ad
 * units must exist, and an ad unit must belong to a targeted publisher. A deal that trades (draft
 * or active) is refused when its floor is below the floor rule of its inventory, with the rule in
 * the message; rows carry `floor_below`, and the one-row answer the whole check (`floor_check`),
 * since rules change after a deal is saved (docs/decisions/019-deals.md).
 *   GET /v1/deals/:id/delivery?from&to   impressions, bids, wins, win rate and revenue by UTC day
 *   GET /v1/deals/:id/pmp                the OpenRTB 2.6 `pmp` object a bid request carries
 *   GET /v1/deals/partners|publishers|ad-units   the form's pickers (q= or ids=), under /v1/deals
 */
import { hasMoneyArea } from '@backoffice/core/dashboard';
import { isIsoDate } from '@backoffice/core/dates';
import { blockingRule, dealPmp, DELIVERY_MAX_DAYS, ruleKeysText } from '@backoffice/core/deals';
import { ok } from '@backoffice/core/envelope';
import { idParamsSchema, isIdText } from '@backoffice/core/ids';
import { dealInputSchema, deals, type DealType } from '@backoffice/core/resources/deals';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import { and, asc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { adUnits, deals as dealsTable, demandPartners, publishers, sites } from '../../db/schema-reports.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { callerOf } from '../../plugins/auth.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { resourceRoutes } from '../../resources/routes.ts';
import {
  dealDelivery,
  defaultDeliveryRange,
  floorReports,
  targetingErrors,
  type DealFloorSource,
} from './service.ts';

type Row = Record<string, unknown>;

const READ = { permission: { resource: deals.acl, action: 'read' } } as const;
const PICKER_MAX = 50;
const DAY_MS = 86_400_000;

/** Statuses whose deals trade (or are about to): their floor must meet the rules. */
const TRADING = new Set(['draft', 'active']);

const pickerQuery = z.strictObject({
  q: z.string().max(200).optional(),
  /** The resource layer's autocomplete calls it `name` (the list's filters use these pickers). */
  name: z.string().max(200).optional(),
  ids: z.string().max(2000).optional(),
  limit: z
    .string()
    .regex(/^[1-9]\d{0,2}$/, 'error.invalid_value')
    .optional(),
});

/** `1,2,3` as ids, or a 400 on `field`. */
function idListOf(text: string, field: string): number[] {
  const list = text.split(',').filter(Boolean);
  if (!list.every(isIdText)) throw badRequest('error.validation', { [field]: 'error.invalid_id' });
  return list.map(Number);
}

const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const floorSourceOf = (r: Row): DealFloorSource => ({
  demand_partner_id: Number(r.demand_partner_id),
  code: String(r.code),
  bidfloor: String(r.bidfloor),
  bidfloorcur: String(r.bidfloorcur),
  publisher_ids: (r.publisher_ids as number[] | undefined) ?? [],
  ad_unit_ids: (r.ad_unit_ids as number[] | undefined) ?? [],
});

export async function dealRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);

  // The floor check of a save, before the factory's transaction: it reads the shared rule index,
  // which on PGlite cannot be read while a transaction holds the connection. A body the schema
  // refuses is left to the factory, which answers its field errors.
  root.addHook('preHandler', async (request) => {
    const route = request.routeOptions.url;
    const isSave =
      (request.method === 'POST' && route === deals.path) ||
      (request.method === 'PUT' && route === `${deals.path}/:id`);
    if (!isSave || !request.body || typeof request.body !== 'object') return;
    const { version: _version, ...fields } = request.body as Row;
    const parsed = dealInputSchema.safeParse(fields);
    if (!parsed.success || !TRADING.has(parsed.data.status) || parsed.data.demand_partner_id === null) return;
    const [report] = await floorReports(ctx.database, [
      { ...parsed.data, demand_partner_id: parsed.data.demand_partner_id },
    ]);
    const rule = blockingRule(report!.checks);
    if (rule) {
      throw new AppError(400, 'error.validation', {
        errors: { bidfloor: 'deal.floor_below_rule' },
        params: {
          cpm: rule.cpm,
          currency: rule.currency,
          rule: rule.id ?? '?',
          keys: ruleKeysText(rule.keys),
        },
      });
    }
  });

  resourceRoutes(root, ctx, deals, {
    table: dealsTable,
    unique: [{ constraint: 'deals_code_idx', field: 'code', key: 'deal.code_taken' }],
    validate: (d, data) => targetingErrors(d, data),
    // Rules change after a deal is saved: each row says whether its floor is now below one, and
    // the one-row answer gives the check of each piece of its inventory.
    decorate: async (rows, _request, one) => {
      const reports = await floorReports(ctx.database, rows.map(floorSourceOf));
      return rows.map((r, i) =>
        one
          ? { ...r, floor_below: reports[i]!.below, floor_check: reports[i] }
          : { ...r, floor_below: reports[i]!.below },
      );
    },
    extraRoutes: (scope) => {
      const app = scope.withTypeProvider<ZodTypeProvider>();
      const tags = [deals.name];

      const findDeal = async (id: number) => {
        const [row] = await ctx.database.db.select().from(dealsTable).where(eq(dealsTable.id, id)).limit(1);
        if (!row) throw notFound('resource.not_found');
        return row;
      };

      app.get(
        `${deals.path}/:id/delivery`,
        {
          config: { auth: READ },
          schema: {
            tags,
            summary: "A deal's delivery by UTC day, from the warehouse",
            description:
              `from=YYYY-MM-DD&to=YYYY-MM-DD (UTC days, inclusive, at most ${DELIVERY_MAX_DAYS}); default the last 30 days up to today or to the last loaded day. ` +
              'Every day of the range with impressions, bid_requests, bids, wins, win_rate (wins / bids, %) and revenue (USD decimal text, ' +
              'null without a reports or finance permission: money_visible), and the totals. Read from stats_r_partner_supply at level 1.',
            params: idParamsSchema,
            querystring: z.strictObject({
              from: z.string().max(10).optional(),
              to: z.string().max(10).optional(),
            }),
            response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
          },
        },
        async (request) => {
          const deal = await findDeal(request.params.id);
          const { from: askedFrom, to: askedTo } = request.query;
          const errors: Record<string, string> = {};
          if (askedFrom !== undefined && !isIsoDate(askedFrom)) errors.from = 'deal.date_invalid';
          if (askedTo !== undefined && !isIsoDate(askedTo)) errors.to = 'deal.date_invalid';
          if (Object.keys(errors).length > 0) throw badRequest('error.validation', errors);
          const fallback = askedFrom && askedTo ? null : await defaultDeliveryRange(ctx.database);
          const to =
            askedTo ??
            (askedFrom
              ? new Date(Date.parse(askedFrom) + 29 * DAY_MS).toISOString().slice(0, 10)
              : fallback!.to);
          const from =
            askedFrom ??
            (askedTo
              ? new Date(Date.parse(askedTo) - 29 * DAY_MS).toISOString().slice(0, 10)
              : fallback!.from);
          const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
          if (days < 1 || days > DELIVERY_MAX_DAYS)
            throw badRequest('error.validation', { to: 'deal.delivery.range_invalid' });
          return ok(await dealDelivery(ctx.database, deal.id, from, to, hasMoneyArea(callerOf(request))));
        },
      );

      app.get(
        `${deals.path}/:id/pmp`,
        {
          config: { auth: READ },
          schema: {
            tags,
            summary: 'The OpenRTB 2.6 pmp object of a deal',
            description:
              'What a bid request carries for this deal: {private_auction (1 for PMP and PG, 0 for a preferred deal), deals: [{id, bidfloor, bidfloorcur, at, wseat?, wadomain?, guar? (1 for PG)}]}, numbers as JSON numbers.',
            params: idParamsSchema,
            response: { 404: errorEnvelopeSchema },
          },
        },
        async (request) => {
          const deal = await findDeal(request.params.id);
          return ok(
            dealPmp({
              code: deal.code,
              type: deal.type as DealType,
              bidfloor: deal.bidfloor,
              bidfloorcur: deal.bidfloorcur,
              auction_type: deal.auctionType,
              wseat: deal.wseat,
              wadomain: deal.wadomain,
            }),
          );
        },
      );

      /**
       * A picker of the form: [{id, value, …}] by `q` (name contains) or by `ids`, ordered by name.
       * `match` gives the condition on the ids, or null for any row.
       */
      const picker = (
        path: string,
        summary: string,
        run: (
          match: (column: Parameters<typeof inArray>[0]) => SQL | undefined,
          q: string | null,
          limit: number,
          query: Row,
        ) => Promise<unknown[]>,
        extraQuery: z.ZodRawShape = {},
      ) =>
        app.get(
          `${deals.path}/${path}`,
          {
            config: { auth: READ },
            schema: {
              tags,
              summary,
              description: `q=text (name contains) or ids=1,2; limit (default 20, at most ${PICKER_MAX}). Answers [{id, value}] by name.`,
              querystring: pickerQuery.extend(extraQuery),
            },
          },
          async (request) => {
            const query = request.query as Row & z.infer<typeof pickerQuery>;
            const idList = query.ids !== undefined ? idListOf(query.ids, 'ids') : null;
            const text = (query.q ?? query.name)?.trim();
            const q = idList === null && text ? text : null;
            const limit = idList ? PICKER_MAX : Math.min(Number(query.limit ?? 20), PICKER_MAX);
            const match = (column: Parameters<typeof inArray>[0]) =>
              idList === null ? undefined : idList.length > 0 ? inArray(column, idList) : sql`false`;
            return ok(await run(match, q, limit, query));
          },
        );

      picker('partners', 'Demand partners a deal can be for (the form picker)', (match, q, limit) =>
        ctx.database.db
          .select({ id: demandPartners.id, value: demandPartners.name, side: demandPartners.side })
          .from(demandPartners)
          .where(
            and(match(demandPartners.id), q ? ilike(demandPartners.name, containsPattern(q)) : undefined),
          )
          .orderBy(asc(demandPartners.name), asc(demandPartners.id))
          .limit(limit),
      );

      picker('publishers', 'Publishers a deal can target (the form picker)', (match, q, limit) =>
        ctx.database.db
          .select({ id: publishers.id, value: publishers.name })
          .from(publishers)
          .where(and(match(publishers.id), q ? ilike(publishers.name, containsPattern(q)) : undefined))
          .orderBy(asc(publishers.name), asc(publishers.id))
          .limit(limit),
      );

      picker(
        'ad-units',
        'Ad units a deal can target (the form picker), of some publishers (publisher_ids=1,2)',
        (match, q, limit, query) => {
          const within =
            query.ids === undefined && typeof query.publisher_ids === 'string' && query.publisher_ids !== ''
              ? idListOf(query.publisher_ids, 'publisher_ids')
              : null;
          return ctx.database.db
            .select({
              id: adUnits.id,
              value: adUnits.name,
              publisher_id: sites.publisherId,
              publisher: publishers.name,
            })
            .from(adUnits)
            .innerJoin(sites, eq(sites.id, adUnits.siteId))
            .innerJoin(publishers, eq(publishers.id, sites.publisherId))
            .where(
              and(
                match(adUnits.id),
                q ? ilike(adUnits.name, containsPattern(q)) : undefined,
                within ? inArray(sites.publisherId, within) : undefined,
              ),
            )
            .orderBy(asc(adUnits.name), asc(adUnits.id))
            .limit(limit);
        },
        { publisher_ids: z.string().max(2000).optional() },
      );
    },
  });
}
