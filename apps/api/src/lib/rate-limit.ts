/**
 * Fixed-window rate limits kept in the database (table rate_limits), so every API instance on the
 * same database shares them: one atomic upsert per hit (insert … on conflict do update … returning),
 * with the window computed from the database clock. Nothing is held in process memory.
 *
 *   const state = await hitRateLimit(db, `login:ip:${ip}`, { max: 20, windowSec: 900 });
 *   if (state.limited) throw tooManyRequests(state);
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import { AppError } from './errors.ts';

export interface RateLimitRule {
  /** Hits allowed within one window; the hit after that is limited. */
  max: number;
  windowSec: number;
}

export interface RateLimitState {
  /** Hits counted in the current window (including this one, for hitRateLimit). */
  count: number;
  /** count > max */
  limited: boolean;
  /** Hits left in this window before the limit applies. */
  remaining: number;
  /** Seconds until the current window ends (at least 1). */
  retryAfterSec: number;
  /** Start of the window these hits were counted in (epoch seconds, from the database clock). */
  windowStartSec: number;
}

/** Counters older than this are removed by pruneRateLimits (longer than any window in use). */
export const RATE_LIMIT_RETENTION_SEC = 24 * 3600;

function windowStartSql(windowSec: number) {
  const w = Math.max(1, Math.trunc(windowSec));
  return sql`to_timestamp((floor(extract(epoch from now()) / ${w}::int) * ${w}::int)::float8)`;
}

function toState(count: number, windowStartEpoch: number, nowEpoch: number, rule: RateLimitRule): RateLimitState {
  const retryAfterSec = Math.max(1, Math.ceil(windowStartEpoch + rule.windowSec - nowEpoch));
  return { count, limited: count > rule.max, remaining: Math.max(0, rule.max - count), retryAfterSec, windowStartSec: windowStartEpoch };
}

/** Adds `cost` hits to `key` in the current window and answers the new state. */
export async function hitRateLimit(db: Db, key: string, rule: RateLimitRule, cost = 1): Promise<RateLimitState> {
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: windowStartSql(rule.windowSec), count: cost })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + excluded.count` },
    })
    .returning({
      count: rateLimits.count,
      windowStart: sql<number>`extract(epoch from ${rateLimits.windowStart})::float8`,
      now: sql<number>`extract(epoch from now())::float8`,
    });
  if (Math.random() < 0.01) await pruneRateLimits(db).catch(() => undefined);
  return toState(row!.count, Number(row!.windowStart), Number(row!.now), rule);
}

/** The current window's state without counting a hit. */
export async function peekRateLimit(db: Db, key: string, rule: RateLimitRule): Promise<RateLimitState> {
  const [row] = await db
    .select({
      count: sql<number>`coalesce(max(${rateLimits.count}), 0)::int`,
      windowStart: sql<number>`extract(epoch from ${windowStartSql(rule.windowSec)})::float8`,
      now: sql<number>`extract(epoch from now())::float8`,
    })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowStartSql(rule.windowSec))));
  return toState(Number(row?.count ?? 0), Number(row?.windowStart ?? 0), Number(row?.now ?? 0), rule);
}

/**
 * Gives back `cost` hits in the window `hit` counted them in (for example a sign-in that turned out
 * right). Not the current window: a sign-in that began in one window and ended in the next would
 * otherwise take a hit off the new window, which it never counted in.
 */
export async function refundRateLimit(db: Db, key: string, hit: Pick<RateLimitState, 'windowStartSec'>, cost = 1): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - ${cost}::int, 0)` })
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, sql`to_timestamp(${hit.windowStartSec}::float8)`)));
}

/** Forgets every window of `key` (a successful sign-in resets that mail's failures). */
export async function resetRateLimit(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** Housekeeping: removes windows older than `maxAgeSec`. Safe from any instance at any time. */
export async function pruneRateLimits(db: Db, maxAgeSec = RATE_LIMIT_RETENTION_SEC): Promise<number> {
  const removed = await db
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, sql`now() - make_interval(secs => ${maxAgeSec}::int)`))
    .returning({ key: rateLimits.key });
  return removed.length;
}

/** The 429 envelope for a limited state: translated message with {minutes}, and Retry-After. */
export function tooManyRequests(state: RateLimitState, key = 'error.rate_limited'): AppError {
  return new AppError(429, key, {
    params: { minutes: Math.max(1, Math.ceil(state.retryAfterSec / 60)), seconds: state.retryAfterSec },
    headers: { 'retry-after': String(state.retryAfterSec) },
  });
}
