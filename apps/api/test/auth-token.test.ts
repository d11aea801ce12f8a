import { sessionSchema } from '@backoffice/core/schemas/auth';
import { sql } from 'drizzle-orm';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, dbOf, expectErrorEnvelope } from './auth-support.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('tokens and GET /v1/login/refresh', () => {
  let t: TestApp;
  let finance: Awaited<ReturnType<typeof signIn>>;
  beforeAll(async () => {
    t = await createTestApp();
    finance = await signIn(t.app, DEMO.finance);
  });
  afterAll(async () => t.close());

  const authed = (token: string) => ({ authorization: `Bearer ${token}` });
  /** Every authenticated route of this module, so "anywhere" is checked. */
  const protectedCalls = (token: string) => [
    t.app.inject({ url: '/v1/login/refresh', headers: authed(token) }),
    t.app.inject({ url: '/v1/admin/menu', headers: authed(token) }),
    t.app.inject({ url: '/v1/admin/role', headers: authed(token) }),
    t.app.inject({ url: '/v1/admin/role/1/acl', headers: authed(token) }),
    t.app.inject({ method: 'POST', url: '/v1/login/as', headers: authed(token), payload: { id_user: 1 } }),
  ];

  it('answers a fresh session for a valid token', async () => {
    const res = await t.app.inject({ url: '/v1/login/refresh', headers: finance.headers });
    expect(res.statusCode, res.body).toBe(200);
    const session = sessionSchema.strict().parse(body(res).data);
    expect(session.id).toBe(finance.session.id);
    expect(session.mail).toBe(DEMO.finance);
    expect(session.simulated_by).toBeNull();
    expect(session.exp).toBeGreaterThanOrEqual((finance.session as unknown as { exp: number }).exp);
    // The new token works, and the old one has ended.
    expect((await t.app.inject({ url: '/v1/admin/menu', headers: authed(session.token) })).statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    for (const old of await Promise.all(protectedCalls(finance.token))) expectErrorEnvelope(old, 401, 'auth.token_expired');
    finance = await signIn(t.app, DEMO.finance);
  });

  it('lets exactly one of several concurrent refreshes with one token succeed', async () => {
    const user = await signIn(t.app, DEMO.finance);
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.app.inject({ url: '/v1/login/refresh', headers: user.headers })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401, 401, 401, 401]);
  });

  it('ends the session on logout: the token answers 401, other sessions of the user go on', async () => {
    const one = await signIn(t.app, DEMO.finance);
    const other = await signIn(t.app, DEMO.finance);
    const out = await t.app.inject({ method: 'POST', url: '/v1/logout', headers: one.headers });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toMatchObject({ status: 'success', data: null });
    for (const res of await Promise.all(protectedCalls(one.token))) expectErrorEnvelope(res, 401, 'auth.token_expired');
    expectErrorEnvelope(await t.app.inject({ method: 'POST', url: '/v1/logout', headers: one.headers }), 401, 'auth.token_expired');
    expect((await t.app.inject({ url: '/v1/admin/menu', headers: other.headers })).statusCode).toBe(200);
    const audits = await dbOf(t.app).execute(sql`select action from audit_log where action = 'auth.logout' and entity_id = ${String(one.session.id)}`);
    expect((audits as unknown as { rows: unknown[] }).rows.length).toBeGreaterThanOrEqual(1);
  });

  it('ends every session of a user whose password changes', async () => {
    const one = await signIn(t.app, DEMO.schedulerViewer);
    const two = await signIn(t.app, DEMO.schedulerViewer);
    await dbOf(t.app).execute(sql`update users set password_hash = password_hash || '' where mail = ${DEMO.schedulerViewer}`);
    // Same hash: not a change.
    expect((await t.app.inject({ url: '/v1/admin/menu', headers: one.headers })).statusCode).toBe(200);
    const [hash] = (await dbOf(t.app).execute(sql`select password_hash from users where mail = ${DEMO.schedulerViewer}`) as unknown as { rows: { password_hash: string }[] }).rows;
    await dbOf(t.app).execute(sql`update users set password_hash = 'x' where mail = ${DEMO.schedulerViewer}`);
    await dbOf(t.app).execute(sql`update users set password_hash = ${hash!.password_hash} where mail = ${DEMO.schedulerViewer}`);
    for (const who of [one, two]) expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/menu', headers: who.headers }), 401, 'auth.token_expired');
    expect((await signIn(t.app, DEMO.schedulerViewer)).token).toBeTruthy();
  });

  it('keeps the remember choice on refresh', async () => {
    const remembered = await signIn(t.app, DEMO.tech, undefined, { remember: true });
    const res = await t.app.inject({ url: '/v1/login/refresh', headers: remembered.headers });
    const session = body<{ token: string; exp: number }>(res).data;
    expect(session.exp - Math.floor(Date.now() / 1000)).toBeGreaterThan(t.config.tokenTtl + 60);
  });

  it('answers 401 auth.token_expired for an expired token on every authenticated route', async () => {
    const { token } = await t.app.sessions.issue(finance.session.id, { ttlSec: -30 });
    for (const res of await Promise.all(protectedCalls(token))) {
      expectErrorEnvelope(res, 401, 'auth.token_expired');
      expect(body(res).text).toBe('Token Expired, please logout and try again');
    }
  });

  it('refuses a token that expires after it was first accepted (verified tokens are remembered, their expiry is not)', async () => {
    const { token, exp } = await t.app.sessions.issue(finance.session.id, { ttlSec: 2 });
    expect((await t.app.inject({ url: '/v1/admin/menu', headers: authed(token) })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, exp * 1000 - Date.now()) + 50));
    for (const res of await Promise.all(protectedCalls(token))) expectErrorEnvelope(res, 401, 'auth.token_expired');
  });

  it('answers 401 auth.token_missing without a token', async () => {
    for (const res of await Promise.all(protectedCalls('').map(async (p) => p))) expect(res.statusCode).toBe(401);
    const res = await t.app.inject({ url: '/v1/login/refresh' });
    expectErrorEnvelope(res, 401, 'auth.token_missing');
    expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/menu', headers: { authorization: 'Basic abc' } }), 401, 'auth.token_missing');
  });

  it('answers 401 auth.token_invalid for malformed, tampered, wrong-key and alg:none tokens', async () => {
    const [header, payload, signature] = finance.token.split('.') as [string, string, string];
    const claims = decodeJwt(finance.token);
    const forged = {
      malformed: 'not-a-token',
      twoParts: `${header}.${payload}`,
      garbage: 'a.b.c',
      // Payload changed (another user), signature kept.
      tamperedPayload: `${header}.${b64url({ ...claims, sub: '1' })}.${signature}`,
      // Signature changed.
      tamperedSignature: `${header}.${payload}.${signature.slice(0, -4)}${signature.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`,
      wrongKey: await new SignJWT({ sub: '1' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject('1')
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('another-secret-of-enough-length-0123456789')),
      algNone: `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ sub: '1', exp: Math.floor(Date.now() / 1000) + 3600 })}.`,
      algNoneWithSig: `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ sub: '1', exp: Math.floor(Date.now() / 1000) + 3600 })}.${signature}`,
      // HS512 with the right secret is not an accepted algorithm either.
      otherAlg: await new SignJWT({})
        .setProtectedHeader({ alg: 'HS512' })
        .setSubject('1')
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(t.config.jwtSecret!)),
    };
    for (const [name, token] of Object.entries(forged)) {
      for (const res of await Promise.all(protectedCalls(token))) {
        expect(res.statusCode, name).toBe(401);
        expect(body(res).message, name).toBe('auth.token_invalid');
      }
    }
  });

  it('answers 401 for a validly signed token without a session, and for a disabled user (not revived by re-enabling)', async () => {
    const ghost = await t.app.tokens.sign(999_999, { sessionId: 'no-such-session-0123' });
    expectErrorEnvelope(await t.app.inject({ url: '/v1/login/refresh', headers: authed(ghost.token) }), 401, 'auth.token_invalid');
    const marketing = await signIn(t.app, DEMO.marketing);
    await dbOf(t.app).execute(sql`update users set active = false where mail = ${DEMO.marketing}`);
    try {
      expectErrorEnvelope(await t.app.inject({ url: '/v1/login/refresh', headers: marketing.headers }), 401, 'auth.token_expired');
      await dbOf(t.app).execute(sql`update users set active = true where mail = ${DEMO.marketing}`);
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/menu', headers: marketing.headers }), 401, 'auth.token_expired');
    } finally {
      await dbOf(t.app).execute(sql`update users set active = true where mail = ${DEMO.marketing}`);
    }
  });

  it('refuses to refresh a user whose roles were all taken away', async () => {
    const lead = await signIn(t.app, DEMO.demandLead);
    const db = dbOf(t.app);
    await db.execute(sql`delete from user_roles where user_id = ${lead.session.id}`);
    expectErrorEnvelope(await t.app.inject({ url: '/v1/login/refresh', headers: lead.headers }), 403, 'auth.no_permissions');
  });

  it('refuses query parameters on refresh and writes nothing', async () => {
    const fresh = await signIn(t.app, DEMO.finance);
    const res = await t.app.inject({ url: '/v1/login/refresh?x=1', headers: fresh.headers });
    expectErrorEnvelope(res, 400, 'error.validation', { x: 'error.unknown_field' });
  });
});
