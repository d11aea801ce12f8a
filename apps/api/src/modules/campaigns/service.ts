/**
 * Campaigns' own rules and queries beyond the resource layer (docs/decisions/043-offers-and-campaigns.md):
 * - spend from the warehouse: a campaign belongs to an advertiser (a performance-side demand
 *   partner), and its spend is what that partner earned us (revenue) on the campaign's UTC days, in
 *   its targeted countries and devices (all when none), read from the partner × country × device
 *   rollup by UTC day (stats_r_partner_country_device, level 1), up to the pacing instant;
 * - the postback test: resolve, send, record and answer, one test in flight per event.
 */
import {
  campaignBounds,
  campaignPacing,
  DAY_MS,
  type CampaignPacing,
} from '@backoffice/core/campaign-pacing';
import {
  exampleValues,
  resolveMacros,
  type MacroValues,
  type PostbackMacro,
  type PostbackTestDto,
} from '@backoffice/core/postback';
import { COUNTRIES, DEVICES } from '@backoffice/core/reports';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import crypto from 'node:crypto';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { campaignEvents, campaigns, postbackTests } from '../../db/schema-offers.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { audit } from '../../plugins/audit.ts';
import { HOUR_MS } from '../../reports-data/rollups.ts';
import { query } from '../../reports-data/sql.ts';
import { datasetRange } from '../reports/service.ts';
import { sendPostback } from './postback-sender.ts';

type Row = Record<string, unknown>;

/**
 * The instant the pacing is computed at: the start of the current hour (the warehouse holds whole
 * hours), or the end of the loaded data when that is earlier (a demo loaded days ago), as the
 * budgets' pacing does.
 */
export async function pacingInstant(ctx: AppContext): Promise<number> {
  const nowHour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
  const range = await datasetRange(ctx.database);
  return range ? Math.min(nowHour, range.endMs) : nowHour;
}

/** What the spend query needs of a campaign. */
export interface SpendSource {
  id: number;
  advertiser_id: number;
  start_date: string;
  end_date: string;
  countries: string[];
  devices: string[];
}

/** The warehouse's ids of the targeted countries and devices (positions + 1, reports-data/catalog.ts). */
const idsOf = (list: readonly string[], values: readonly string[]) =>
  values.map((v) => list.indexOf(v) + 1).filter((id) => id > 0);

/** The rollup rows of a campaign, as a join condition on `s` for the campaign row `c`. */
const SPEND_JOIN = `stats_r_partner_country_device s ON s.lvl = 1 AND s.demand_partner_id = c.partner
        AND s.ts >= c.from_ts AND s.ts < c.to_ts
        AND (cardinality(c.countries) = 0 OR s.country_id = ANY(c.countries))
        AND (cardinality(c.devices) = 0 OR s.device_id = ANY(c.devices))`;
const SOURCES = `jsonb_to_recordset($1::jsonb) AS c(id int4, partner int4, from_ts timestamptz, to_ts timestamptz, today_ts timestamptz, countries int4[], devices int4[])`;

function sourcesJson(list: SpendSource[], asOfMs: number): string {
  const todayMs = Math.floor(asOfMs / DAY_MS) * DAY_MS;
  return JSON.stringify(
    list.map((c) => {
      const { startMs, endMs } = campaignBounds(c.start_date, c.end_date);
      return {
        id: c.id,
        partner: c.advertiser_id,
        from_ts: new Date(startMs).toISOString(),
        // Up to the pacing instant: a day's row holds the hours loaded so far.
        to_ts: new Date(Math.max(startMs, Math.min(endMs, asOfMs))).toISOString(),
        today_ts: new Date(todayMs).toISOString(),
        countries: idsOf(COUNTRIES, c.countries),
        devices: idsOf(DEVICES, c.devices),
      };
    }),
  );
}

/** Spent in all and on asOf's UTC day, per campaign (micro-units), in one query. */
export async function campaignSpend(
  ctx: AppContext,
  list: SpendSource[],
  asOfMs: number,
): Promise<Map<number, { spent: bigint; today: bigint }>> {
  if (list.length === 0) return new Map();
  const rows = await query<{ id: number; spent: string; today: string }>(
    ctx.database,
    `SELECT c.id, COALESCE(sum(s.revenue_micros), 0)::text AS spent,
            COALESCE(sum(s.revenue_micros) FILTER (WHERE s.ts >= c.today_ts), 0)::text AS today
       FROM ${SOURCES}
       LEFT JOIN ${SPEND_JOIN}
      GROUP BY c.id`,
    [sourcesJson(list, asOfMs)],
  );
  return new Map(rows.map((r) => [Number(r.id), { spent: BigInt(r.spent), today: BigInt(r.today) }]));
}

/** A campaign's spend by UTC day (the days with some). */
async function spendByDay(
  ctx: AppContext,
  c: SpendSource,
  asOfMs: number,
): Promise<{ day: string; micros: bigint }[]> {
  const rows = await query<{ day: string; micros: string }>(
    ctx.database,
    `SELECT to_char(s.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, sum(s.revenue_micros)::text AS micros
       FROM ${SOURCES}
       JOIN ${SPEND_JOIN}
      GROUP BY 1 ORDER BY 1`,
    [sourcesJson([c], asOfMs)],
  );
  return rows.map((r) => ({ day: r.day, micros: BigInt(r.micros) }));
}

export const spendSourceOf = (r: Row): SpendSource => ({
  id: Number(r.id),
  advertiser_id: Number(r.advertiser_id),
  start_date: String(r.start_date),
  end_date: String(r.end_date),
  countries: (r.countries as string[] | undefined) ?? [],
  devices: (r.devices as string[] | undefined) ?? [],
});

/** Each list row with its spend, phase and pacing status (one query for the page). */
export async function withSpend(ctx: AppContext, rows: Row[]): Promise<Row[]> {
  const asOfMs = await pacingInstant(ctx);
  const spend = await campaignSpend(ctx, rows.map(spendSourceOf), asOfMs);
  return rows.map((r) => {
    const s = spend.get(Number(r.id)) ?? { spent: 0n, today: 0n };
    const p = campaignPacing({
      start_date: String(r.start_date),
      end_date: String(r.end_date),
      total_budget: String(r.total_budget),
      daily_budget: r.daily_budget === null ? null : String(r.daily_budget),
      currency: String(r.currency),
      spentMicros: s.spent,
      todayMicros: s.today,
      days: [],
      asOfMs,
    });
    return {
      ...r,
      spent: p.total.spent,
      phase: p.phase,
      pace_status: p.total.status,
      usage_pct: p.total.usage_pct,
      over_budget: p.total.alert,
    };
  });
}

export interface PacingAnswer extends CampaignPacing {
  currency: string;
  /** What the spend is restricted to: the targeted countries and devices (empty: all). */
  scope: { countries: string[]; devices: string[]; platforms_applied: false };
}

/** The Pacing panel of one campaign. */
export async function campaignPacingOf(ctx: AppContext, id: number): Promise<PacingAnswer> {
  const [c] = await ctx.database.db.select().from(campaigns).where(eq(campaigns.id, id)).limit(1);
  if (!c) throw notFound('resource.not_found');
  const source: SpendSource = {
    id: c.id,
    advertiser_id: c.advertiserId,
    start_date: c.startDate,
    end_date: c.endDate,
    countries: c.countries,
    devices: c.devices,
  };
  const asOfMs = await pacingInstant(ctx);
  const [spend, days] = await Promise.all([
    campaignSpend(ctx, [source], asOfMs),
    spendByDay(ctx, source, asOfMs),
  ]);
  const s = spend.get(c.id) ?? { spent: 0n, today: 0n };
  const pacing = campaignPacing({
    start_date: c.startDate,
    end_date: c.endDate,
    total_budget: c.totalBudget,
    daily_budget: c.dailyBudget,
    currency: c.currency,
    spentMicros: s.spent,
    todayMicros: s.today,
    days,
    asOfMs,
  });
  return {
    ...pacing,
    currency: c.currency,
    scope: { countries: c.countries, devices: c.devices, platforms_applied: false },
  };
}

// ---------------------------------------------------------------------------------------------
// Postback tests

/** A 'sending' test older than this was interrupted (a restart): it no longer blocks new ones. */
const STALE_SENDING_MS = 30_000;
const TESTS_SHOWN = 20;

export type PostbackTestAnswer = PostbackTestDto;

async function testsOf(d: Db, eventId: number, testId?: number): Promise<PostbackTestAnswer[]> {
  const rows = await d
    .select({ t: postbackTests, name: users.name })
    .from(postbackTests)
    .leftJoin(users, eq(users.id, postbackTests.requestedBy))
    .where(
      and(
        eq(postbackTests.eventId, eventId),
        testId !== undefined ? eq(postbackTests.id, testId) : undefined,
      ),
    )
    .orderBy(desc(postbackTests.id))
    .limit(TESTS_SHOWN);
  return rows.map(({ t, name }) => ({
    id: t.id,
    event_id: t.eventId,
    requested_at: t.requestedAt.toISOString(),
    requested_by: { id: t.requestedBy, name: name ?? null },
    status: t.status as PostbackTestAnswer['status'],
    url: t.url,
    values: t.macroValues,
    http_status: t.httpStatus,
    response_headers: t.responseHeaders,
    response_body: t.responseBody,
    redirects: t.redirects,
    error_key: t.errorKey,
    error_detail: t.errorDetail,
    duration_ms: t.durationMs,
  }));
}

/** The event of a campaign (404 when the event is not the campaign's), with what its macros need. */
async function eventOf(d: Db, campaignId: number, eventId: number) {
  const [row] = await d
    .select({ event: campaignEvents, offerId: campaigns.offerId, currency: campaigns.currency })
    .from(campaignEvents)
    .innerJoin(campaigns, eq(campaigns.id, campaignEvents.campaignId))
    .where(and(eq(campaignEvents.id, eventId), eq(campaignEvents.campaignId, campaignId)))
    .limit(1);
  if (!row) throw notFound('resource.not_found');
  return row;
}

export async function postbackTestsOf(
  ctx: AppContext,
  campaignId: number,
  eventId: number,
): Promise<PostbackTestAnswer[]> {
  await eventOf(ctx.database.db, campaignId, eventId);
  return testsOf(ctx.database.db, eventId);
}

const isUniqueViolation = (err: unknown, constraint: string) => {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  return (e.code ?? e.cause?.code) === '23505' && (e.constraint ?? e.cause?.constraint) === constraint;
};

/** What a test sends: the given values, the event's own figures and ids, examples for the rest. */
export function testValues(
  e: { payout: string; revenue: string; code: string; id: number; campaignId: number },
  offerId: number,
  currency: string,
  given: MacroValues,
  nowMs: number,
): Record<PostbackMacro, string> {
  const values = exampleValues({
    payout: e.payout,
    revenue: e.revenue,
    event: e.code,
    event_id: e.id,
    campaign_id: e.campaignId,
    offer_id: offerId,
    currency,
  });
  // A test is a conversion now, with a click id of its own (a receiver may drop a repeated one).
  values.timestamp = String(Math.floor(nowMs / 1000));
  values.click_id = `test-${crypto.randomBytes(6).toString('hex')}`;
  for (const [name, value] of Object.entries(given) as [PostbackMacro, string | undefined][]) {
    if (value !== undefined && value.trim() !== '') values[name] = value.trim();
  }
  return values;
}

/**
 * Fires one test conversion of an event: its saved postback URL with the values, sent with the
 * sender's bounds, recorded (and audited) with the answer. One test in flight per event (409
 * campaign.postback.in_flight); a retried request with the same idempotency key answers the test
 * it made (`already: true`).
 */
export async function runPostbackTest(
  ctx: AppContext,
  request: FastifyRequest,
  campaignId: number,
  eventId: number,
  body: { values?: MacroValues; idempotency_key?: string },
  callerId: number | null,
): Promise<PostbackTestAnswer> {
  const db = ctx.database.db;
  const { event, offerId, currency } = await eventOf(db, campaignId, eventId);
  const key = body.idempotency_key ?? null;
  const replay = async (): Promise<PostbackTestAnswer | null> => {
    if (key === null) return null;
    const [earlier] = await db
      .select({ id: postbackTests.id, status: postbackTests.status })
      .from(postbackTests)
      .where(and(eq(postbackTests.eventId, eventId), eq(postbackTests.idempotencyKey, key)))
      .limit(1);
    if (!earlier) return null;
    if (earlier.status === 'sending') throw new AppError(409, 'campaign.postback.in_flight');
    return { ...(await testsOf(db, eventId, earlier.id))[0]!, already: true };
  };
  const earlier = await replay();
  if (earlier) return earlier;

  // A test left 'sending' by an interrupted server no longer holds the event.
  await db
    .update(postbackTests)
    .set({ status: 'error', errorKey: 'campaign.postback.network_error', errorDetail: 'interrupted' })
    .where(
      and(
        eq(postbackTests.eventId, eventId),
        eq(postbackTests.status, 'sending'),
        sql`${postbackTests.requestedAt} < now() - make_interval(secs => ${STALE_SENDING_MS / 1000})`,
      ),
    );

  const values = testValues(event, offerId, currency, body.values ?? {}, Date.now());
  const url = resolveMacros(event.postbackUrl, values);
  let testId: number;
  try {
    const [created] = await db
      .insert(postbackTests)
      .values({
        eventId,
        requestedBy: callerId,
        idempotencyKey: key,
        status: 'sending',
        url,
        macroValues: values,
      })
      .returning({ id: postbackTests.id });
    testId = created!.id;
  } catch (err) {
    if (isUniqueViolation(err, 'postback_tests_in_flight_idx'))
      throw new AppError(409, 'campaign.postback.in_flight');
    if (isUniqueViolation(err, 'postback_tests_key_idx')) {
      const again = await replay();
      if (again) return again;
    }
    throw err;
  }

  const outcome = await sendPostback(url, { allowPrivate: ctx.config.allowPrivateFetches });
  // PostgreSQL text and jsonb take no NUL character; an answer may have one.
  const clean = (text: string) => text.replaceAll('\u0000', '');
  const result =
    outcome.kind === 'answered'
      ? {
          status: 'done' as const,
          httpStatus: outcome.status,
          responseHeaders: Object.fromEntries(Object.entries(outcome.headers).map(([k, v]) => [k, clean(v)])),
          responseBody: clean(outcome.body),
          errorKey: null,
          errorDetail: null,
        }
      : {
          status: outcome.kind === 'refused' ? ('refused' as const) : ('error' as const),
          httpStatus: null,
          responseHeaders: null,
          responseBody: null,
          errorKey: outcome.errorKey,
          errorDetail: outcome.detail === null ? null : clean(outcome.detail),
        };
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await t
      .update(postbackTests)
      .set({ ...result, redirects: outcome.redirects, durationMs: outcome.durationMs })
      .where(eq(postbackTests.id, testId));
    await audit(t, request, {
      action: 'campaign_event.postback_test',
      entity: 'campaign_event',
      entityId: eventId,
      after: {
        test_id: testId,
        url,
        status: result.status,
        http_status: result.httpStatus,
        error_key: result.errorKey,
      },
    });
  });
  return (await testsOf(db, eventId, testId))[0]!;
}
