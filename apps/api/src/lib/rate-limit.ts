/**
 * Sliding-window rate limits kept in the database (table rate_limits), so every API instance on
 * the same database shares them. Counts are kept per fixed window, and a limit looks at the last
 * `windowSec` seconds as a sliding window: the current window's count plus the previous window's,
 * weighted by how much of it still lies within the last `windowSec` seconds (the usual sliding
 * window counter). A burst at the end of one clock window is therefore still counted at the start
 * of the next, and a limit lifts gradually, not all at once on the clock. One statement per hit
 * (an upsert that also reads the previous window), with the database clock. Nothing is held in
 * process memory.
 *
 *   const state = await hitRateLimit(db, `login:ip:${ip}`, { max: 20, windowSec: 900 });
 *   if (state.limited) throw tooManyRequests(state);
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import { AppError } from './errors.ts';

export interface RateLimitRule {
  /** Hits allowed within any `windowSec` seconds; the hit after that is limited. */
  max: number;
  windowSec: number;
}

export interface RateLimitState {
  /** Hits counted in the sliding window (including this one, for hitRateLimit), rounded up. */
  count: number;
  /** count > max */
  limited: boolean;
  /** Hits left before the limit applies. */
  remaining: number;
  /** Seconds until one more hit would be allowed (at least 1). */
  retryAfterSec: number;
  /** Start of the clock window these hits were counted in (epoch seconds, database clock). */
  windowStartSec: number;
}

/** Counters older than this are removed by pruneRateLimits (longer than two of any window in use). */
export const RATE_LIMIT_RETENTION_SEC = 24 * 3600;

function windowStartSql(windowSec: number) {
  const w = Math.max(1, Math.trunc(windowSec));
  return sql`to_timestamp((floor(extract(epoch from now()) / ${w}::int) * ${w}::int)::float8)`;
}

/**
 * The sliding-window state from the counts of the current clock window (`current`) and the one
 * before (`previous`), `elapsed` seconds into the current one. Pure; exported for tests.
 */
export function slidingState(current: number, previous: number, elapsed: number, windowStartSec: number, rule: RateLimitRule): RateLimitState {
  const w = Math.max(1, rule.windowSec);
  const e = Math.min(Math.max(0, elapsed), w);
  const weighted = previous * ((w - e) / w) + current;
  const count = Math.max(0, Math.ceil(weighted - 1e-9));
  // When is one more hit allowed, i.e. the weighted count at most max - 1?
  let retry: number;
  const room = rule.max - 1;
  if (weighted <= room) retry = 0;
  else if (current <= room && previous > 0) {
    // Within this window, as the previous window's weight decays.
    retry = w * (1 - (room - current) / previous) - e;
  } else {
    // In the next window, where this window's count is the one that decays.
    const next = current > 0 ? w * Math.max(0, 1 - room / current) : 0;
    retry = w - e + next;
  }
  return {
    count,
    limited: count > rule.max,
    remaining: Math.max(0, rule.max - count),
    retryAfterSec: Math.max(1, Math.ceil(retry)),
    windowStartSec,
  };
}

type WindowRow = { count: number | string; previous: number | string; window_start: number | string; now: number | string };

function rowsOf(result: unknown): WindowRow[] {
  return ((result as { rows?: WindowRow[] }).rows ?? []) as WindowRow[];
}

function stateOf(row: WindowRow | undefined, rule: RateLimitRule): RateLimitState {
  const start = Number(row?.window_start ?? 0);
  return slidingState(Number(row?.count ?? 0), Number(row?.previous ?? 0), Number(row?.now ?? 0) - start, start, rule);
}

/** Adds `cost` hits to `key` and answers the new sliding-window state. */
export async function hitRateLimit(db: Db, key: string, rule: RateLimitRule, cost = 1): Promise<RateLimitState> {
  const w = Math.max(1, Math.trunc(rule.windowSec));
  const result = await db.execute(sql`
    with hit as (
      insert into ${rateLimits} (key, window_start, count)
      values (${key}, ${windowStartSql(w)}, ${cost}::int)
      on conflict (key, window_start) do update set count = ${rateLimits}.count + excluded.count
      returning count, window_start
    )
    select hit.count,
      coalesce((select r.count from ${rateLimits} r
                 where r.key = ${key} and r.window_start = hit.window_start - make_interval(secs => ${w}::int)), 0) as previous,
      extract(epoch from hit.window_start)::float8 as window_start,
      extract(epoch from now())::float8 as now
    from hit`);
  if (Math.random() < 0.01) await pruneRateLimits(db).catch(() => undefined);
  return stateOf(rowsOf(result)[0], rule);
}

/** The sliding-window state without counting a hit. */
export async function peekRateLimit(db: Db, key: string, rule: RateLimitRule): Promise<RateLimitState> {
  const w = Math.max(1, Math.trunc(rule.windowSec));
  const result = await db.execute(sql`
    select
      coalesce((select r.count from ${rateLimits} r where r.key = ${key} and r.window_start = ws.start), 0) as count,
      coalesce((select r.count from ${rateLimits} r
                 where r.key = ${key} and r.window_start = ws.start - make_interval(secs => ${w}::int)), 0) as previous,
      extract(epoch from ws.start)::float8 as window_start,
      extract(epoch from now())::float8 as now
    from (select ${windowStartSql(w)} as start) ws`);
  return stateOf(rowsOf(result)[0], rule);
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
