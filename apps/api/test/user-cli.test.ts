import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runUserCli, type CliIo } from '../src/lib/user-cli.ts';
import { dbOf, expectErrorEnvelope, freshIp, rows } from './auth-support.ts';
import { body, createTestApp, DEMO_PASSWORD, type TestApp } from './helpers.ts';

describe('user command (npm run user -- …)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  /** Runs the command on the test database; `input` lines answer password reads. */
  async function run(args: string[], input: string[] = [], config = t.config) {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      interactive: false,
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      readPassword: async () => input.shift() ?? '',
    };
    const code = await runUserCli(args, t.app.ctx.database, config, io);
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/v1/login', payload: { email, password }, remoteAddress: freshIp() });

  it('creates a user with a role who can then sign in, on the roster, audited', async () => {
    const res = await run(['create', '--mail', 'Nora.Vidal', '--name', 'Nora Vidal', '--role', 'FINANCE', '--password', 'Str0ng-pass!', '--greeting', 'Hola']);
    expect(res.code, res.err).toBe(0);
    expect(res.out).toContain('nora.vidal@adtech.example');
    const ok = await login('nora.vidal', 'Str0ng-pass!');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(body<{ roles: { name: string }[]; picture: string }>(ok).data.roles.map((r) => r.name)).toEqual(['FINANCE']);
    const welcome = await t.app.inject({ url: '/v1/staff/welcome?mail=nora.vidal@adtech.example', remoteAddress: freshIp() });
    expect(body(welcome).data).toMatchObject({ name: 'Nora Vidal', text: 'Hola' });
    const [audit] = await rows<{ action: string; after: { via: string; mail: string } }>(
      dbOf(t.app),
      sql`select action, after from audit_log where action = 'user.create' order by id desc limit 1`,
    );
    expect(audit).toMatchObject({ after: { via: 'cli', mail: 'nora.vidal@adtech.example' } });
    expect(JSON.stringify(audit)).not.toContain('Str0ng-pass!');
  });

  it('lists users and roles without printing hashes', async () => {
    const list = await run(['list']);
    expect(list.code).toBe(0);
    expect(list.out).toContain('admin@adtech.example');
    expect(list.out).toMatch(/norole@adtech\.example\s+active\s+-/);
    expect(list.out).not.toContain('scrypt');
    const roles = await run(['roles']);
    expect(roles.out).toContain('SCHEDULER_VIEWER');
  });

  const menuStatus = (token: string) => t.app.inject({ url: '/v1/admin/menu', headers: { authorization: `Bearer ${token}` } }).then((r) => r.statusCode);

  it('sets a password (from --password or stdin), which ends the sessions signed in with the old one', async () => {
    const before = body<{ token: string }>(await login('ssp.lead', DEMO_PASSWORD)).data.token;
    expect(await menuStatus(before)).toBe(200);
    expect((await run(['set-password', '--mail', 'ssp.lead', '--password', 'N3w-password'])).code).toBe(0);
    expect(await menuStatus(before)).toBe(401);
    expect((await login('ssp.lead', DEMO_PASSWORD)).statusCode).toBe(401);
    expect((await login('ssp.lead', 'N3w-password')).statusCode).toBe(200);
    expect((await run(['set-password', '--mail', 'ssp.lead@adtech.example', '--password-stdin'], ['Other-pass-9'])).code).toBe(0);
    expect((await login('ssp.lead', 'Other-pass-9')).statusCode).toBe(200);
  });

  it('assigns and removes roles, disables and enables users', async () => {
    expect((await run(['add-role', '--mail', 'norole', '--role', 'LEGAL'])).code).toBe(0);
    expect((await login('norole', DEMO_PASSWORD)).statusCode).toBe(200);
    expect((await run(['remove-role', '--mail', 'norole', '--role', 'legal'])).code).toBe(0);
    expectErrorEnvelope(await login('norole', DEMO_PASSWORD), 403, 'auth.no_permissions');
    const signedIn = body<{ token: string }>(await login('tech', DEMO_PASSWORD)).data.token;
    expect((await run(['disable', '--mail', 'tech'])).code).toBe(0);
    expectErrorEnvelope(await login('tech', DEMO_PASSWORD), 403, 'auth.user_disabled');
    expect(await menuStatus(signedIn)).toBe(401);
    expect((await run(['enable', '--mail', 'tech'])).code).toBe(0);
    expect((await login('tech', DEMO_PASSWORD)).statusCode).toBe(200);
    // Re-enabling does not revive the sessions from before.
    expect(await menuStatus(signedIn)).toBe(401);
  });

  it("lists a user's open sessions and ends them", async () => {
    const one = body<{ token: string }>(await login('marketing', DEMO_PASSWORD)).data.token;
    const list = await run(['sessions', '--mail', 'marketing']);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/\d+ open session\(s\) for marketing@adtech\.example/);
    expect(list.out).toContain('sign-in');
    const ended = await run(['end-sessions', '--mail', 'marketing']);
    expect(ended.out).toMatch(/Ended [1-9]\d* session\(s\) of marketing@adtech\.example/);
    expect(await menuStatus(one)).toBe(401);
    expect((await run(['sessions', '--mail', 'marketing'])).out).toContain('0 open session(s)');
  });

  it('refuses bad requests with a message and a non-zero exit code', async () => {
    const cases: [string[], RegExp, string[]?][] = [
      [['create', '--name', 'X', '--password', 'Str0ng-pass!'], /--mail is required/],
      [['create', '--mail', 'x@gmail.com', '--name', 'X', '--password', 'Str0ng-pass!'], /not on a company domain/],
      [['create', '--mail', 'admin', '--name', 'X', '--password', 'Str0ng-pass!'], /already exists/],
      [['create', '--mail', 'new.one', '--name', 'X', '--role', 'NOPE', '--password', 'Str0ng-pass!'], /No role NOPE/],
      [['create', '--mail', 'new.one', '--name', 'X', '--password', 'short'], /at least 8 characters/],
      [['set-password', '--mail', 'ghost', '--password', 'Str0ng-pass!'], /No user with mail ghost@adtech\.example/],
      [['frobnicate'], /Unknown command/],
      [['list', '--bogus'], /Unknown option/],
    ];
    for (const [args, message] of cases) {
      const res = await run(args);
      expect(res.code, args.join(' ')).toBeGreaterThan(0);
      expect(res.err, args.join(' ')).toMatch(message);
    }
    const [n] = await rows<{ n: number }>(dbOf(t.app), sql`select count(*)::int as n from users where mail = 'new.one@adtech.example'`);
    expect(n!.n).toBe(0);
  });

  it('refuses the demo password in production', async () => {
    const res = await run(['set-password', '--mail', 'admin', '--password', DEMO_PASSWORD], [], { ...t.config, env: 'production' });
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/demo password/);
  });

  it('installs the standard role catalogue', async () => {
    await dbOf(t.app).execute(sql`update roles set acl = '{}'::jsonb where name = 'HR'`);
    expect((await run(['seed-roles'])).out).toContain('16 standard role(s) installed');
    expect((await rows<{ acl: object }>(dbOf(t.app), sql`select acl from roles where name = 'HR'`))[0]!.acl).toEqual({});
    expect((await run(['seed-roles', '--update'])).code).toBe(0);
    expect((await rows<{ acl: object }>(dbOf(t.app), sql`select acl from roles where name = 'HR'`))[0]!.acl).not.toEqual({});
  });
});
