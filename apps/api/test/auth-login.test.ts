import { sessionSchema } from '@backoffice/core/schemas/auth';
import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginIpMailKey, loginMailKey } from '../src/modules/auth/service.ts';
import {
  DEMO,
  DEMO_WITH_ROLES,
  awayFromWindowEdge,
  dbOf,
  expectErrorEnvelope,
  freshIp,
  postBadInputCases,
  rows,
  writeCounts,
} from './auth-support.ts';
import { DEMO_PASSWORD, body, createTestApp, type TestApp } from './helpers.ts';

describe('POST /v1/login', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Slowing by account starts after 3 failures and stays short, so the test can see it.
    t = await createTestApp({ loginSlowAfter: 3, loginSlowMaxMs: 1500 });
  });
  afterAll(async () => t.close());

  const login = (email: unknown, password: unknown = DEMO_PASSWORD, extra: Record<string, unknown> = {}, ip = freshIp(), lang = 'en') =>
    t.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { email, password, ...extra },
      remoteAddress: ip,
      headers: { 'accept-language': lang },
    });

  it('signs every demo user with a role in and answers the session', async () => {
    for (const mail of DEMO_WITH_ROLES) {
      const res = await login(mail);
      expect(res.statusCode, res.body).toBe(200);
      const b = body<Record<string, unknown>>(res);
      expect(b.status).toBe('success');
      // Exactly the session's fields: no password hash or anything else leaks.
      const session = sessionSchema.strict().parse(b.data);
      expect(session.mail).toBe(mail);
      expect(session.roles.length).toBeGreaterThan(0);
      expect(session.simulated_by).toBeNull();
      expect(session.picture).toMatch(/^\/v1\/staff\/pic\/\d+\.svg$/);
      expect(res.body).not.toContain('scrypt$');
      const claims = decodeJwt(session.token);
      expect(claims.sub).toBe(String(session.id));
      expect(claims.exp).toBe(session.exp);
      expect(Number.isInteger(session.exp)).toBe(true);
    }
  });

  it('gives the token a configured lifetime in seconds, longer with remember', async () => {
    const now = Math.floor(Date.now() / 1000);
    const normal = body<{ exp: number; token: string }>(await login(DEMO.finance)).data;
    const remembered = body<{ exp: number; token: string }>(await login(DEMO.finance, DEMO_PASSWORD, { remember: true })).data;
    expect(normal.exp - now).toBeGreaterThanOrEqual(t.config.tokenTtl - 5);
    expect(normal.exp - now).toBeLessThanOrEqual(t.config.tokenTtl + 5);
    expect(remembered.exp - now).toBeGreaterThanOrEqual(t.config.tokenTtlRemember - 5);
    // The choice is the session's, kept in the database.
    const kept = await rows<{ remember: boolean }>(dbOf(t.app), sql`select remember from sessions where id = ${decodeJwt(remembered.token).jti!}`);
    expect(kept).toEqual([{ remember: true }]);
  });

  it('appends the primary domain to a mail without @ and compares in lowercase', async () => {
    for (const typed of ['finance', 'FINANCE', '  Finance  ', 'FINANCE@ADTECH.EXAMPLE', 'Finance@AdTech.Example']) {
      const res = await login(typed);
      expect(res.statusCode, typed).toBe(200);
      expect(body<{ mail: string }>(res).data.mail).toBe(DEMO.finance);
    }
  });

  it('refuses mails outside the company domains without looking the account up', async () => {
    for (const mail of ['finance@gmail.com', 'finance@adtech.example.evil.com', 'admin@example.org']) {
      const res = await login(mail);
      expectErrorEnvelope(res, 400, 'auth.domain_not_allowed', { email: 'auth.domain_not_allowed' });
    }
    // A company domain other than the primary one is accepted (unknown account here).
    expectErrorEnvelope(await login('finance@ssp.example'), 401, 'auth.invalid_credentials');
  });

  it('answers the same 401 whether the mail or the password was wrong, after the same hashing work', async () => {
    const wrongPassword = await login(DEMO.finance, 'not-the-password');
    const unknownMail = await login('nobody.here@adtech.example', DEMO_PASSWORD);
    const bothWrong = await login('nobody.here@adtech.example', 'x');
    for (const res of [wrongPassword, unknownMail, bothWrong]) expectErrorEnvelope(res, 401, 'auth.invalid_credentials');
    expect(unknownMail.body).toBe(wrongPassword.body);
    expect(bothWrong.body).toBe(wrongPassword.body);
    expect(body(wrongPassword).text).toBe('Wrong e-mail or password');
    // Unknown mails still pay for one scrypt verification (no fast path telling they do not exist).
    const time = async (mail: string) => {
      const start = performance.now();
      await login(mail, 'wrong-password-1');
      return performance.now() - start;
    };
    expect(await time('nobody.else@adtech.example')).toBeGreaterThan(15);
    expect(await time(DEMO.marketing)).toBeGreaterThan(15);
  });

  it("tells a user with no role 'Your User has no permissions' (en and es)", async () => {
    const en = await login(DEMO.noRole);
    expectErrorEnvelope(en, 403, 'auth.no_permissions');
    expect(body(en).text).toBe('Your User has no permissions. Please contact with the IT team.');
    const es = await login(DEMO.noRole, DEMO_PASSWORD, {}, freshIp(), 'es');
    expect(body(es).text).toBe('Tu usuario no tiene permisos. Por favor, contacta con el equipo de IT.');
    // Only with the right password: a wrong one gives the generic answer.
    expectErrorEnvelope(await login(DEMO.noRole, 'wrong-password'), 401, 'auth.invalid_credentials');
  });

  it('refuses a disabled account (only revealed with the right password)', async () => {
    const db = dbOf(t.app);
    await db.execute(sql`insert into users (mail, name, password_hash, active)
      select 'disabled.user@adtech.example', 'Disabled User', password_hash, false from users where mail = ${DEMO.finance}`);
    await db.execute(sql`insert into user_roles (user_id, role_id)
      select u.id, r.id from users u, roles r where u.mail = 'disabled.user@adtech.example' and r.name = 'FINANCE'`);
    expectErrorEnvelope(await login('disabled.user'), 403, 'auth.user_disabled');
    expectErrorEnvelope(await login('disabled.user', 'wrong-password'), 401, 'auth.invalid_credentials');
  });

  it('audits sign-ins and failures without storing the password', async () => {
    const db = dbOf(t.app);
    const ip = freshIp();
    await login(DEMO.sspLead, DEMO_PASSWORD, {}, ip);
    await login(DEMO.sspLead, 'Secret-Guess-123', {}, ip);
    await login('ghost@adtech.example', 'Secret-Guess-123', {}, ip);
    const audit = await rows<{ action: string; actor_id: number | null; entity_id: string | null; ip: string; after: unknown }>(
      db,
      sql`select action, actor_id, entity_id, ip, after from audit_log where ip = ${ip} order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['auth.login', 'auth.login_failed', 'auth.login_failed']);
    const [userRow] = await rows<{ id: number }>(db, sql`select id from users where mail = ${DEMO.sspLead}`);
    expect(audit[0]).toMatchObject({ actor_id: userRow!.id, entity_id: String(userRow!.id) });
    expect(audit[1]).toMatchObject({ actor_id: null, entity_id: String(userRow!.id), after: { mail: DEMO.sspLead, reason: 'invalid_credentials' } });
    expect(audit[2]).toMatchObject({ actor_id: null, entity_id: null, after: { mail: 'ghost@adtech.example', reason: 'invalid_credentials' } });
    expect(JSON.stringify(audit)).not.toContain('Secret-Guess-123');
  });

  describe('sign-in limits (sliding windows in the database)', () => {
    it("limits one address's attempts for an account (429, Retry-After), not the owner at another address", async () => {
      const mail = DEMO.marketing;
      const stranger = freshIp();
      for (let i = 0; i < 5; i++) expectErrorEnvelope(await login(mail, `wrong-${i}`, {}, stranger), 401, 'auth.invalid_credentials');
      const blocked = await login(mail, DEMO_PASSWORD, {}, stranger);
      expectErrorEnvelope(blocked, 429, 'auth.too_many_attempts');
      const retryAfter = Number(blocked.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(2 * t.config.loginWindowSec);
      expect(blocked.json().params).toMatchObject({ minutes: Math.ceil(retryAfter / 60) });
      expect(body(blocked).text).toBe(`Too many failed sign-in attempts. Try again in ${Math.ceil(retryAfter / 60)} minutes.`);
      // The counter is a database row, not process memory.
      const [row] = await rows<{ count: number }>(dbOf(t.app), sql`select count from rate_limits where key = ${loginIpMailKey(stranger, mail)}`);
      expect(row!.count).toBeGreaterThanOrEqual(6);
      // The stranger's five wrong passwords do not stop the user's own sign-in from another address.
      expect((await login(mail, DEMO_PASSWORD, {}, freshIp())).statusCode).toBe(200);
      // Nor another account from the stranger's address.
      expect((await login(DEMO.tech, DEMO_PASSWORD, {}, stranger)).statusCode).toBe(200);
      // Two windows later (moved back in the table), the stranger's address may try again.
      await dbOf(t.app).execute(
        sql`update rate_limits set window_start = window_start - make_interval(secs => ${2 * t.config.loginWindowSec}::int) where key = ${loginIpMailKey(stranger, mail)}`,
      );
      expect((await login(mail, DEMO_PASSWORD, {}, stranger)).statusCode).toBe(200);
    });

    it('counts the previous clock window too: a burst just before a window ends is still limited after it', async () => {
      // Not at the very end of a clock window (the moved attempts would then be two windows back).
      await awayFromWindowEdge(t.config.loginWindowSec, 5000);
      const mail = DEMO.schedulerViewer;
      const ip = freshIp();
      for (let i = 0; i < 6; i++) await login(mail, 'wrong', {}, ip);
      // Move the six attempts into the previous clock window: a fixed window would forget them.
      await dbOf(t.app).execute(
        sql`update rate_limits set window_start = window_start - make_interval(secs => ${t.config.loginWindowSec}::int) where key = ${loginIpMailKey(ip, mail)}`,
      );
      const [clock] = await rows<{ elapsed: number }>(
        dbOf(t.app),
        sql`select (extract(epoch from now())::numeric % ${t.config.loginWindowSec})::float8 as elapsed`,
      );
      // The six attempts count with the part of the previous window still within the last 15
      // minutes: limited while more than a third of it is (then 6 x weight + this attempt > 5).
      const w = t.config.loginWindowSec;
      const boundary = w / 3;
      if (Math.abs(Number(clock!.elapsed) - boundary) < 3) await new Promise((r) => setTimeout(r, 6000));
      const res = await login(mail, DEMO_PASSWORD, {}, ip);
      const [after] = await rows<{ elapsed: number }>(dbOf(t.app), sql`select (extract(epoch from now())::numeric % ${w})::float8 as elapsed`);
      expect(res.statusCode).toBe(Number(after!.elapsed) < boundary ? 429 : 200);
    });

    it("slows (never blocks) an account's sign-ins after failures from many addresses; the right password still works", async () => {
      const mail = DEMO.sspLead;
      await dbOf(t.app).execute(sql`delete from rate_limits where key = ${loginMailKey(mail)}`);
      // Three failures from three addresses: no delay yet (slowing starts after 3).
      for (let i = 0; i < 3; i++) expectErrorEnvelope(await login(mail, 'wrong', {}, freshIp()), 401, 'auth.invalid_credentials');
      let started = Date.now();
      expectErrorEnvelope(await login(mail, 'wrong', {}, freshIp()), 401, 'auth.invalid_credentials');
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      started = Date.now();
      const owner = await login(mail, DEMO_PASSWORD, {}, freshIp());
      expect(owner.statusCode).toBe(200);
      // 1 s doubled for the fifth attempt, capped at LOGIN_SLOW_MAX_MS (1.5 s here).
      expect(Date.now() - started).toBeGreaterThanOrEqual(1450);
      // The right password forgot the account's failures: no delay now.
      started = Date.now();
      expect((await login(mail, DEMO_PASSWORD, {}, freshIp())).statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(900);
    });

    it('allows 20 attempts per address across mails, then 429 for that address only', async () => {
      const ip = freshIp();
      // Successes from the address do not use its allowance.
      for (let i = 0; i < 3; i++) expect((await login(DEMO.finance, DEMO_PASSWORD, {}, ip)).statusCode).toBe(200);
      for (let i = 0; i < 20; i++) {
        const res = await login(`someone${i}@adtech.example`, 'wrong', {}, ip);
        expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
      }
      const blocked = await login(DEMO.finance, DEMO_PASSWORD, {}, ip);
      expectErrorEnvelope(blocked, 429, 'auth.too_many_attempts');
      expect(blocked.headers['retry-after']).toBeDefined();
      // The same user from another address is fine.
      expect((await login(DEMO.finance, DEMO_PASSWORD, {}, freshIp())).statusCode).toBe(200);
      // The crossing of the limit is audited once.
      const audits = await rows(dbOf(t.app), sql`select 1 from audit_log where ip = ${ip} and after->>'reason' = 'too_many_attempts'`);
      expect(audits).toHaveLength(1);
    });

    it('behind a proxy (TRUST_PROXY), limits by the client address the proxy reports', async () => {
      const proxied = await createTestApp({ trustProxy: true });
      try {
        const via = (client: string, password: string) =>
          proxied.app.inject({
            method: 'POST',
            url: '/v1/login',
            payload: { email: DEMO.finance, password },
            remoteAddress: '10.0.0.2',
            headers: { 'x-forwarded-for': client },
          });
        for (let i = 0; i < 5; i++) expect((await via('203.0.113.7', 'wrong')).statusCode).toBe(401);
        expect((await via('203.0.113.7', DEMO_PASSWORD)).statusCode).toBe(429);
        // Another client behind the same proxy is not limited.
        expect((await via('203.0.113.8', DEMO_PASSWORD)).statusCode).toBe(200);
        const keys = await rows<{ key: string }>(dbOf(proxied.app), sql`select key from rate_limits where key like 'login:ipmail:%' order by key`);
        expect(keys.map((k) => k.key)).toEqual([`login:ipmail:203.0.113.7|${DEMO.finance}`]);
      } finally {
        await proxied.close();
      }
    });
  });

  describe('bad input writes nothing', () => {
    const valid = { email: DEMO.finance, password: DEMO_PASSWORD };
    for (const c of postBadInputCases('/v1/login', valid, { email: 42, password: ['x'], remember: 'yes' })) {
      it(c.name, async () => {
        const before = await writeCounts(dbOf(t.app));
        const res = await t.app.inject({ ...c.options, remoteAddress: freshIp() });
        expectErrorEnvelope(res, c.status, c.message, c.errors);
        expect(await writeCounts(dbOf(t.app))).toEqual(before);
      });
    }

    it('empty mail and password give the login form keys', async () => {
      const before = await writeCounts(dbOf(t.app));
      const res = await login('   ', '');
      expectErrorEnvelope(res, 400, 'error.validation', { email: 'login.mail.required', password: 'login.password.required' });
      expect(await writeCounts(dbOf(t.app))).toEqual(before);
    });

    it('overlong mail and password are refused before any hashing', async () => {
      expectErrorEnvelope(await login(`${'a'.repeat(250)}@adtech.example`), 400, 'error.validation', { email: 'error.invalid_value' });
      expectErrorEnvelope(await login(DEMO.finance, 'x'.repeat(300)), 400, 'error.validation', { password: 'error.invalid_value' });
    });
  });
});
