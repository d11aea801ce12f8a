/**
 * Authentication with the per-instance caches on (as in development and production, where
 * IDENTITY_CACHE_MS is 5 s): a signed-in request whose token and identity are cached is authorised
 * without a database read, with the same answers as the uncached path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, expectErrorEnvelope } from './auth-support.ts';
import { createTestApp, signIn, type TestApp } from './helpers.ts';

describe('authentication with cached tokens and identities', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ identityCacheMs: 60_000 });
  });
  afterAll(async () => t.close());

  it('answers the same on the first (read) and later (cached) requests: allowed, forbidden, admin-only', async () => {
    const finance = await signIn(t.app, DEMO.finance);
    for (let i = 0; i < 3; i += 1) {
      const menu = await t.app.inject({ url: '/v1/admin/menu', headers: finance.headers });
      expect(menu.statusCode, `menu #${i}`).toBe(200);
      expect(menu.json().data.length).toBeGreaterThan(0);
      // ADMIN only.
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/role', headers: finance.headers }), 403, 'admin.only');
      // A permission finance has, and one it has not.
      expect((await t.app.inject({ url: '/v1/reports/catalog', headers: finance.headers })).statusCode).toBe(200);
      expectErrorEnvelope(await t.app.inject({ url: '/v1/graphs/qps/demand?metrics=qps&ids=1', headers: finance.headers }), 403, 'auth.forbidden');
    }
  });

  it('keeps each token to its own user and simulation, and still refuses expired and bad tokens', async () => {
    const tech = await signIn(t.app, DEMO.tech);
    const marketing = await signIn(t.app, DEMO.marketing);
    // Each token is used (and cached) first, then refreshed: the answer is its own user's, and the
    // old token ends at once on this instance although its session was cached.
    for (const who of [tech, marketing]) expect((await t.app.inject({ url: '/v1/admin/menu', headers: who.headers })).statusCode).toBe(200);
    const a = (await t.app.inject({ url: '/v1/login/refresh', headers: tech.headers })).json().data;
    const b = (await t.app.inject({ url: '/v1/login/refresh', headers: marketing.headers })).json().data;
    expect(a.mail).toBe(DEMO.tech);
    expect(b.mail).toBe(DEMO.marketing);
    expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/menu', headers: tech.headers }), 401, 'auth.token_expired');
    expect((await t.app.inject({ url: '/v1/admin/menu', headers: { authorization: `Bearer ${a.token}` } })).statusCode).toBe(200);
    // Expiry is in whole seconds: a 1-second token signed at the end of a second has a
    // millisecond left. Two seconds leave at least one to use it; then wait past its expiry.
    const { token, exp } = await t.app.sessions.issue(tech.session.id, { ttlSec: 2 });
    const headers = { authorization: `Bearer ${token}` };
    expect((await t.app.inject({ url: '/v1/admin/menu', headers })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, exp * 1000 - Date.now()) + 50));
    expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/menu', headers }), 401, 'auth.token_expired');
    expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/menu', headers: { authorization: `Bearer ${token}x` } }), 401, 'auth.token_invalid');
    expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/menu', headers: { authorization: 'Bearer' } }), 401, 'auth.token_missing');
    expect((await t.app.inject({ url: '/v1/admin/menu', headers: { authorization: `bearer   ${b.token}` } })).statusCode).toBe(200);
  });
});
