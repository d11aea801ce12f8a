import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, verifyAgainstDummy, verifyPassword } from '../src/lib/password.ts';
import {
  hitRateLimit,
  peekRateLimit,
  slidingState,
  pruneRateLimits,
  refundRateLimit,
  resetRateLimit,
  tooManyRequests,
} from '../src/lib/rate-limit.ts';
import { awayFromWindowEdge, dbOf, rows } from './auth-support.ts';
import { createTestApp, DEMO_PASSWORD, type TestApp } from './helpers.ts';

describe('password hashing (scrypt)', () => {
  it('hashes with a random salt and verifies in constant time', async () => {
    const a = await hashPassword('Correct horse 1');
    const b = await hashPassword('Correct horse 1');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword('Correct horse 1', a)).toBe(true);
    expect(await verifyPassword('Correct horse 1', b)).toBe(true);
    expect(await verifyPassword('correct horse 1', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
    expect(await verifyAgainstDummy('anything')).toBe(false);
  });

  it('treats composed and decomposed accents as the same password', async () => {
    const hash = await hashPassword('Contraseña-1');
    expect(await verifyPassword('Contrasen\u0303a-1', hash)).toBe(true);
  });

  it('never matches a malformed or hostile hash', async () => {
    for (const stored of [
      '',
      'plain',
      'scrypt$1$2$3',
      'bcrypt$16384$8$1$c2FsdA==$a2V5',
      'scrypt$16384$8$1$$a2V5',
      'scrypt$4194304$8$1$c2FsdA==$a2V5',
      'scrypt$1000$8$1$c2FsdA==$a2V5',
    ]) {
      expect(await verifyPassword('x', stored), stored).toBe(false);
    }
  });

  it('applies the password rules of the user command', () => {
    expect(passwordProblem('short1')).toMatch(/8/);
    expect(passwordProblem('onlyletters')).toMatch(/mix/);
    expect(passwordProblem('Good-pass-1')).toBeNull();
    expect(passwordProblem(DEMO_PASSWORD, { demoPassword: DEMO_PASSWORD, production: true })).toMatch(/demo/);
    expect(passwordProblem(DEMO_PASSWORD, { demoPassword: DEMO_PASSWORD, production: false })).toBeNull();
  });
});

describe('database rate limiter', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());
  const rule = { max: 3, windowSec: 600 };

  it('counts hits in the sliding window and limits after max', async () => {
    await awayFromWindowEdge(rule.windowSec, 10_000);
    const db = dbOf(t.app);
    const states = [];
    for (let i = 0; i < 5; i++) states.push(await hitRateLimit(db, 'test:a', rule));
    expect(states.map((s) => s.count)).toEqual([1, 2, 3, 4, 5]);
    expect(states.map((s) => s.limited)).toEqual([false, false, false, true, true]);
    expect(states[0]!.remaining).toBe(2);
    expect(states[4]!.retryAfterSec).toBeGreaterThan(0);
    // Past max within this window: into the next one, while this window's hits decay.
    expect(states[4]!.retryAfterSec).toBeLessThanOrEqual(2 * 600);
    expect((await peekRateLimit(db, 'test:a', rule)).count).toBe(5);
    await refundRateLimit(db, 'test:a', states[4]!, 2);
    expect((await peekRateLimit(db, 'test:a', rule)).count).toBe(3);
    await resetRateLimit(db, 'test:a');
    expect((await peekRateLimit(db, 'test:a', rule)).count).toBe(0);
    expect((await peekRateLimit(db, 'test:never', rule)).limited).toBe(false);
  });

  it('is atomic under concurrent hits (one upsert each)', async () => {
    await awayFromWindowEdge(rule.windowSec, 10_000);
    const db = dbOf(t.app);
    const states = await Promise.all(
      Array.from({ length: 12 }, () => hitRateLimit(db, 'test:concurrent', { max: 5, windowSec: 600 })),
    );
    expect(states.map((s) => s.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect(states.filter((s) => !s.limited)).toHaveLength(5);
  });

  it('gives a refund back to the window the hit was counted in, not to the current one', async () => {
    await awayFromWindowEdge(rule.windowSec, 10_000);
    const db = dbOf(t.app);
    const hit = await hitRateLimit(db, 'test:refund', rule);
    await hitRateLimit(db, 'test:refund', rule);
    // The window moves on while the request runs: its hits now sit in the previous window and the
    // current one has counted 2 hits of other requests.
    await db.execute(
      sql`update rate_limits set window_start = window_start - make_interval(secs => ${rule.windowSec}::int) where key = 'test:refund'`,
    );
    await hitRateLimit(db, 'test:refund', rule);
    const current = await hitRateLimit(db, 'test:refund', rule);
    const earlier = { ...hit, windowStartSec: hit.windowStartSec - rule.windowSec };
    await refundRateLimit(db, 'test:refund', earlier);
    const counts = await rows<{ count: number }>(
      db,
      sql`select count from rate_limits where key = 'test:refund' order by window_start`,
    );
    expect(counts.map((r) => Number(r.count))).toEqual([1, 2]);
    // The sliding count of the current hit included the previous window's two hits, weighted.
    expect(current.count).toBeGreaterThanOrEqual(2);
    expect(current.count).toBeLessThanOrEqual(4);
  });

  it('slides: the previous window counts by the part of it still within the last windowSec', () => {
    const w = { max: 5, windowSec: 900 };
    // Start of a window: the previous window counts fully.
    expect(slidingState(0, 6, 0, 0, w)).toMatchObject({ count: 6, limited: true });
    // A third in: two thirds of it remain.
    expect(slidingState(1, 6, 300, 0, w)).toMatchObject({ count: 5, limited: false, remaining: 0 });
    // Half-way: 6 x 0.5 + 2 = 5.
    expect(slidingState(2, 6, 450, 0, w)).toMatchObject({ count: 5, limited: false });
    expect(slidingState(3, 6, 450, 0, w)).toMatchObject({ count: 6, limited: true });
    // Retry-After: when one more hit is allowed (weighted count at most max - 1).
    // 6 x (1 - (e + t)/900) + 1 <= 4  =>  e + t >= 450: from e = 100, 350 s.
    expect(slidingState(1, 6, 100, 0, w).retryAfterSec).toBe(350);
    // This window alone is over: into the next one, where its 6 decay: 6 x (1 - t/900) <= 4 => t >= 300.
    expect(slidingState(6, 0, 600, 0, w).retryAfterSec).toBe(300 + 300);
    expect(slidingState(0, 0, 10, 0, w)).toMatchObject({
      count: 0,
      limited: false,
      remaining: 5,
      retryAfterSec: 1,
    });
  });

  it('starts a new window after windowSec and prunes old windows', async () => {
    const db = dbOf(t.app);
    await hitRateLimit(db, 'test:old', rule);
    await db.execute(
      sql`update rate_limits set window_start = window_start - interval '2 days' where key = 'test:old'`,
    );
    // Pruned before the next hit: a hit prunes by itself once in a hundred (hitRateLimit), which
    // made the count below 0 when it ran in between.
    expect(await pruneRateLimits(db)).toBeGreaterThanOrEqual(1);
    expect(await rows(db, sql`select 1 from rate_limits where key = 'test:old'`)).toHaveLength(0);
    expect((await hitRateLimit(db, 'test:old', rule)).count).toBe(1);
    expect(await rows(db, sql`select 1 from rate_limits where key = 'test:old'`)).toHaveLength(1);
  });

  it('builds the 429 error with minutes and Retry-After', () => {
    const err = tooManyRequests(
      { count: 9, limited: true, remaining: 0, retryAfterSec: 61, windowStartSec: 0 },
      'auth.too_many_attempts',
    );
    expect(err.statusCode).toBe(429);
    expect(err.params).toEqual({ minutes: 2, seconds: 61 });
    expect(err.headers).toEqual({ 'retry-after': '61' });
  });
});

describe('embedded database folder lock', () => {
  it('refuses a folder a live process holds, and takes over a stale one', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { claimDataDir, dataDirHolder } = await import('../src/lib/data-dir-lock.ts');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-lock-'));
    try {
      fs.writeFileSync(path.join(dir, 'backoffice.pid'), String(process.ppid));
      expect(dataDirHolder(dir)).toBe(process.ppid);
      expect(() => claimDataDir(dir, 'the test')).toThrow(/pid \d+.*DATABASE_URL/s);
      fs.writeFileSync(path.join(dir, 'backoffice.pid'), '999999999');
      expect(dataDirHolder(dir)).toBeNull();
      claimDataDir(dir, 'the test');
      expect(fs.readFileSync(path.join(dir, 'backoffice.pid'), 'utf8')).toBe(String(process.pid));
      expect(() => claimDataDir(':memory:', 'the test')).not.toThrow();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
