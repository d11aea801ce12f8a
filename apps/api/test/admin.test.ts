import { can, FIREWALL_UNLIMITED } from '@backoffice/core/acl';
import { entryPath, type MenuEntry } from '@backoffice/core/menu';
import { MENU_ROUTES } from '@backoffice/core/routes';
import { menuEntrySchema, roleAclSchema } from '@backoffice/core/schemas/admin';
import { sessionSchema, type Session } from '@backoffice/core/schemas/auth';
import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import zlib from 'node:zlib';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, DEMO_WITH_ROLES, dbOf, expectErrorEnvelope, postBadInputCases, rows, writeCounts } from './auth-support.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

type SignedIn = Awaited<ReturnType<typeof signIn>>;

function flatten(tree: MenuEntry[]): MenuEntry[] {
  return tree.flatMap((e) => [e, ...flatten(e.children ?? [])]);
}
const titles = (tree: MenuEntry[]) => new Set(flatten(tree).map((e) => e.title));

describe('menus, roles and simulation', () => {
  let t: TestApp;
  const users: Record<string, SignedIn> = {};
  let totalEntries = 0;
  beforeAll(async () => {
    t = await createTestApp();
    for (const mail of DEMO_WITH_ROLES) users[mail] = await signIn(t.app, mail);
    const [n] = await rows<{ n: number }>(dbOf(t.app), sql`select count(*)::int as n from menu_entries`);
    totalEntries = Number(n!.n);
  });
  afterAll(async () => t.close());

  const menuOf = async (headers: Record<string, string>) => {
    const res = await t.app.inject({ url: '/v1/admin/menu', headers });
    expect(res.statusCode, res.body).toBe(200);
    return body<MenuEntry[]>(res).data;
  };

  describe('GET /v1/admin/menu', () => {
    it('answers the same tree compressed (br, gzip) to clients that accept it, and plain JSON otherwise', async () => {
      const plain = await t.app.inject({ url: '/v1/admin/menu', headers: users[DEMO.finance]!.headers });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
      const tree = body<MenuEntry[]>(plain).data;
      const cases: [string, string | undefined, (b: Buffer) => Buffer][] = [
        ['gzip, deflate, br', 'br', (b) => zlib.brotliDecompressSync(b)],
        ['gzip', 'gzip', (b) => zlib.gunzipSync(b)],
        ['br;q=0, gzip', 'gzip', (b) => zlib.gunzipSync(b)],
        ['identity', undefined, (b) => b],
      ];
      for (const [accept, encoding, decode] of cases) {
        const res = await t.app.inject({ url: '/v1/admin/menu', headers: { ...users[DEMO.finance]!.headers, 'accept-encoding': accept } });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding'], accept).toBe(encoding);
        const decoded = JSON.parse(decode(res.rawPayload).toString('utf8')) as { status: string; data: MenuEntry[] };
        expect(decoded.status).toBe('success');
        expect(decoded.data).toEqual(tree);
      }
      // Another ACL gets its own tree, not the cached one of the first.
      const admin = await t.app.inject({ url: '/v1/admin/menu', headers: { ...users[DEMO.admin]!.headers, 'accept-encoding': 'gzip' } });
      const adminTree = (JSON.parse(zlib.gunzipSync(admin.rawPayload).toString('utf8')) as { data: MenuEntry[] }).data;
      expect(flatten(adminTree).length).toBeGreaterThan(flatten(tree).length);
    });

    it('answers a well-formed tree for every demo user', async () => {
      for (const mail of DEMO_WITH_ROLES) {
        const tree = await menuOf(users[mail]!.headers);
        expect(tree.length, mail).toBeGreaterThan(1);
        const check = (list: MenuEntry[], parent: number | null) => {
          for (const e of list) {
            expect(e.id_parent, `${mail} ${e.title}`).toBe(parent);
            expect(Object.keys(e).sort()).toEqual(['children', 'hidden', 'icon', 'id', 'id_parent', 'order', 'permission', 'prefix', 'slug', 'title']);
            expect(e.title).toMatch(/^menu\./);
            check(e.children ?? [], e.id);
          }
        };
        check(tree, null);
        // Every listed group has at least one visible child; every dashboard-level leaf is allowed.
        for (const e of flatten(tree)) {
          if (e.title.startsWith('menu.group.')) expect(e.children!.length, `${mail} ${e.title}`).toBeGreaterThan(0);
        }
      }
    });

    it('matches the shared zod schema (strict, any depth)', async () => {
      const tree = await menuOf(users[DEMO.admin]!.headers);
      expect(() => z.array(menuEntrySchema.strict()).parse(tree)).not.toThrow();
    });

    it('gives ADMIN every entry, hidden ones included', async () => {
      const tree = await menuOf(users[DEMO.admin]!.headers);
      const all = flatten(tree);
      expect(all).toHaveLength(totalEntries);
      expect(all.some((e) => e.hidden)).toBe(true);
      expect(titles(tree).has('menu.logs_parametrization')).toBe(true);
    });

    it('gives others only what their ACL grants, never a hidden entry', async () => {
      for (const mail of DEMO_WITH_ROLES.filter((m) => m !== DEMO.admin)) {
        const { session } = users[mail]!;
        const entries = flatten(await menuOf(users[mail]!.headers));
        expect(entries.length).toBeLessThan(totalEntries);
        for (const e of entries) {
          expect(e.hidden, `${mail} ${e.title}`).toBe(false);
          if (e.permission) expect(can(session.acl, e.permission), `${mail} ${e.title}`).toBe(true);
        }
        // And nothing they are allowed is missing.
        const shown = new Set(entries.map((e) => e.title));
        for (const r of MENU_ROUTES) {
          if (r.hidden) continue;
          const allowed = r.permission === '' || can(session.acl, r.permission);
          expect(shown.has(`menu.${r.id}`), `${mail} menu.${r.id}`).toBe(allowed);
        }
        // Everyone with a role holds the firewall control.
        expect(shown.has('menu.ip_firewall'), mail).toBe(true);
      }
    });

    it('shows each job its own area', async () => {
      const finance = titles(await menuOf(users[DEMO.finance]!.headers));
      for (const k of ['menu.bp_advertiser', 'menu.bs_advertiser_billing', 'menu.invoices_preview_ssp', 'menu.bp_publisher_payouts', 'menu.finances_supply', 'menu.report_networks']) {
        expect(finance.has(k), k).toBe(true);
      }
      expect(finance.has('menu.scheduler')).toBe(false);
      expect(finance.has('menu.discrepancy')).toBe(false);

      const viewer = titles(await menuOf(users[DEMO.schedulerViewer]!.headers));
      expect(viewer.has('menu.scheduler')).toBe(true);
      expect(viewer.has('menu.bp_advertiser')).toBe(false);
      expect(users[DEMO.schedulerViewer]!.session.acl['/v1/scheduler-api']).toEqual(['read']);

      const demand = titles(await menuOf(users[DEMO.demandLead]!.headers));
      for (const k of ['menu.dp_ssp', 'menu.dp_performance', 'menu.floors', 'menu.dataviewers']) expect(demand.has(k), k).toBe(true);
      expect(demand.has('menu.bp_advertiser')).toBe(false);

      const ssp = titles(await menuOf(users[DEMO.sspLead]!.headers));
      for (const k of ['menu.publishers_ssp', 'menu.bs_advertiser_billing', 'menu.precreation_ssp']) expect(ssp.has(k), k).toBe(true);

      // Tech: the operations area, and read access through the bypass marker, but not the protected areas.
      const tech = titles(await menuOf(users[DEMO.tech]!.headers));
      for (const k of ['menu.discrepancy', 'menu.impressions_log', 'menu.ssp_logs_tool', 'menu.endpoints_management', 'menu.bp_advertiser']) {
        expect(tech.has(k), k).toBe(true);
      }
      expect(tech.has('menu.scheduler')).toBe(false);
      expect(tech.has('menu.resources_manager')).toBe(false);
      expect(tech.has('menu.logs_parametrization')).toBe(false);

      const marketing = titles(await menuOf(users[DEMO.marketing]!.headers));
      for (const k of ['menu.resources_manager', 'menu.info_creative_sizes', 'menu.signature_manager']) expect(marketing.has(k), k).toBe(true);
      expect(marketing.has('menu.bp_advertiser')).toBe(false);
    });

    it('lets exactly ADMIN and TECH use the unlimited firewall duration among the demo users', async () => {
      const unlimited = DEMO_WITH_ROLES.filter((m) => {
        const s = users[m]!.session as unknown as Session;
        return s.roles.some((r) => r.name === 'ADMIN') || can(s.acl, '/v1/firewall', FIREWALL_UNLIMITED);
      });
      expect(unlimited.sort()).toEqual([DEMO.admin, DEMO.tech].sort());
    });

    it('every leaf path the menu shows is a real app route', () => {
      const paths = new Set(MENU_ROUTES.map((r) => entryPath(r)));
      expect(paths.size).toBe(MENU_ROUTES.length);
    });
  });

  describe('GET /v1/admin/role and /v1/admin/role/:id/acl', () => {
    it('lists every role for ADMIN', async () => {
      const res = await t.app.inject({ url: '/v1/admin/role', headers: users[DEMO.admin]!.headers });
      expect(res.statusCode).toBe(200);
      const list = body<{ id: number; name: string }[]>(res).data;
      expect(list.map((r) => r.name)).toEqual(expect.arrayContaining(['ADMIN', 'FINANCE', 'TECH', 'SCHEDULER_VIEWER', 'SCHEDULER_ADMIN']));
      for (const r of list) expect(Object.keys(r).sort()).toEqual(['id', 'name']);
    });

    it('gives 403 to everyone else and 401 without a token', async () => {
      for (const mail of DEMO_WITH_ROLES.filter((m) => m !== DEMO.admin)) {
        expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/role', headers: users[mail]!.headers }), 403, 'admin.only');
        expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/role/1/acl', headers: users[mail]!.headers }), 403, 'admin.only');
        // Checked before validation: no hint about the route's input.
        expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/role/abc/acl?x=1', headers: users[mail]!.headers }), 403, 'admin.only');
      }
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/role' }), 401, 'auth.token_missing');
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/role/1/acl' }), 401, 'auth.token_missing');
    });

    it("answers a role's ACL", async () => {
      const admin = users[DEMO.admin]!;
      const [finance] = await rows<{ id: number }>(dbOf(t.app), sql`select id from roles where name = 'FINANCE'`);
      const res = await t.app.inject({ url: `/v1/admin/role/${finance!.id}/acl`, headers: admin.headers });
      expect(res.statusCode, res.body).toBe(200);
      const data = roleAclSchema.strict().parse(body(res).data);
      expect(data).toMatchObject({ id: finance!.id, name: 'FINANCE' });
      expect(can(data.acl, '/v1/billing/ssp', 'approve')).toBe(true);
      expect(can(data.acl, '/v1/scheduler-api')).toBe(false);
    });

    it('answers 404 for an unknown role and 400 for a bad id or extra query, writing nothing', async () => {
      const headers = users[DEMO.admin]!.headers;
      const before = await writeCounts(dbOf(t.app));
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/role/99999/acl', headers }), 404, 'admin.role_not_found');
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/role/abc/acl', headers }), 400, 'error.validation', { id: 'error.invalid_id' });
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/role/0x10/acl', headers }), 400, 'error.validation', { id: 'error.invalid_id' });
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/role/-1/acl', headers }), 400, 'error.validation');
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/role/1/acl?verbose=1', headers }), 400, 'error.validation', { verbose: 'error.unknown_field' });
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/role?page=2', headers }), 400, 'error.validation', { page: 'error.unknown_field' });
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/menu?all=1', headers }), 400, 'error.validation', { all: 'error.unknown_field' });
      expect(await writeCounts(dbOf(t.app))).toEqual(before);
    });
  });

  describe('POST /v1/login/as', () => {
    const loginAs = (headers: Record<string, string>, id_user: unknown) =>
      t.app.inject({ method: 'POST', url: '/v1/login/as', headers, payload: { id_user } });

    it("answers the user's session with simulated_by, audited, and the token acts as that user", async () => {
      const admin = await signIn(t.app, DEMO.admin);
      const financeId = users[DEMO.finance]!.session.id;
      const res = await loginAs(admin.headers, financeId);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const session = sessionSchema.strict().parse(body(res).data);
      expect(session).toMatchObject({ id: financeId, mail: DEMO.finance, simulated_by: { id: admin.session.id, mail: DEMO.admin, name: 'Carmen Ortega' }, simulated_role: null });
      expect(session.roles.map((r) => r.name)).toEqual(['FINANCE']);
      expect(decodeJwt(session.token)).toMatchObject({ sub: String(financeId) });
      const [audit] = await rows<{ actor_id: number; simulated_by_id: number | null; entity_id: string; after: { mail: string } }>(
        dbOf(t.app),
        sql`select actor_id, simulated_by_id, entity_id, after from audit_log where action = 'simulate.user' order by id desc limit 1`,
      );
      expect(audit).toMatchObject({ actor_id: admin.session.id, entity_id: String(financeId), after: { mail: DEMO.finance } });

      // The simulated token sees the finance menu (no hidden entries, no scheduler), not the admin's.
      const headers = { authorization: `Bearer ${session.token}` };
      const menu = titles(await menuOf(headers));
      expect(menu.has('menu.bp_advertiser')).toBe(true);
      expect(menu.has('menu.logs_parametrization')).toBe(false);
      expect(menu.has('menu.scheduler')).toBe(false);

      // Refresh keeps the simulation (and ends the old simulated token).
      const refreshed = body<Session>(await t.app.inject({ url: '/v1/login/refresh', headers })).data;
      expect(refreshed.simulated_by).toMatchObject({ id: admin.session.id });
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/menu', headers }), 401, 'auth.token_expired');
      const simHeaders = { authorization: `Bearer ${refreshed.token}` };

      // A simulated session acts as the user: no admin routes, and it never starts a simulation or
      // gets the ADMIN's session back (not even with the ADMIN's own id).
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/role', headers: simHeaders }), 403, 'admin.only');
      expectErrorEnvelope(await loginAs(simHeaders, admin.session.id), 403, 'admin.only');
      // The ADMIN's own session goes on meanwhile and switches to another user, ending the first simulation.
      const techId = users[DEMO.tech]!.session.id;
      const switched = body<Session>(await loginAs(admin.headers, techId)).data;
      expect(switched).toMatchObject({ id: techId, simulated_by: { id: admin.session.id } });
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/menu', headers: simHeaders }), 401, 'auth.token_expired');
      // Ending the simulation from the simulated session (the web app's "Back to my session"): logout.
      const switchedHeaders = { authorization: `Bearer ${switched.token}` };
      expect((await t.app.inject({ method: 'POST', url: '/v1/logout', headers: switchedHeaders })).statusCode).toBe(200);
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/menu', headers: switchedHeaders }), 401, 'auth.token_expired');
      expect((await t.app.inject({ url: '/v1/admin/role', headers: admin.headers })).statusCode).toBe(200);
      // The admin's own id ends a simulation from the admin's session, with a fresh admin session.
      const again = body<Session>(await loginAs(admin.headers, techId)).data;
      const back = await loginAs(admin.headers, admin.session.id);
      expect(back.statusCode, back.body).toBe(200);
      expect(body<Session>(back).data).toMatchObject({ id: admin.session.id, simulated_by: null });
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/menu', headers: { authorization: `Bearer ${again.token}` } }), 401, 'auth.token_expired');
      const actions = await rows<{ action: string; actor_id: number }>(
        dbOf(t.app),
        sql`select action, actor_id from audit_log where action like 'simulate.%' order by id desc limit 2`,
      );
      expect(actions).toEqual([
        { action: 'simulate.stop', actor_id: admin.session.id },
        { action: 'simulate.user', actor_id: admin.session.id },
      ]);
    });

    it("simulates a role on the server: the role's ACL is enforced, and audits name the ADMIN and the role", async () => {
      const admin = await signIn(t.app, DEMO.admin);
      const [finance] = await rows<{ id: number }>(dbOf(t.app), sql`select id from roles where name = 'FINANCE'`);
      const res = await t.app.inject({ method: 'POST', url: '/v1/login/as', headers: admin.headers, payload: { id_role: finance!.id } });
      expect(res.statusCode, res.body).toBe(200);
      const session = sessionSchema.strict().parse(body(res).data);
      expect(session).toMatchObject({
        id: admin.session.id,
        mail: DEMO.admin,
        roles: [{ id: finance!.id, name: 'FINANCE' }],
        simulated_by: { id: admin.session.id },
        simulated_role: { id: finance!.id, name: 'FINANCE' },
      });
      expect(can(session.acl, '/v1/billing/ssp', 'approve')).toBe(true);
      const headers = { authorization: `Bearer ${session.token}` };
      // The API answers with the role's ACL: reports yes, graphs and the admin routes no.
      expect((await t.app.inject({ url: '/v1/reports/catalog', headers })).statusCode).toBe(200);
      expectErrorEnvelope(await t.app.inject({ url: '/v1/graphs/qps/demand?metrics=qps&ids=1', headers }), 403, 'auth.forbidden');
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/role', headers }), 403, 'admin.only');
      expect(titles(await menuOf(headers)).has('menu.scheduler')).toBe(false);
      // A write while simulating is audited with the real ADMIN and the simulated role.
      const fw = await t.app.inject({ method: 'POST', url: '/v1/firewall/ip', headers, payload: { ip: '127.0.0.1', type: 'HOUR_1' } });
      expect(fw.statusCode, fw.body).toBe(200);
      const [entry] = await rows<{ actor_id: number; simulated_by_id: number; simulated_role_id: number }>(
        dbOf(t.app),
        sql`select actor_id, simulated_by_id, simulated_role_id from audit_log where entity = 'firewall_entry' and action <> 'firewall.apply' order by id desc limit 1`,
      );
      expect(entry).toEqual({ actor_id: admin.session.id, simulated_by_id: admin.session.id, simulated_role_id: finance!.id });
      const [started] = await rows<{ entity: string; entity_id: string; actor_id: number }>(
        dbOf(t.app),
        sql`select entity, entity_id, actor_id from audit_log where action = 'simulate.role' order by id desc limit 1`,
      );
      expect(started).toEqual({ entity: 'role', entity_id: String(finance!.id), actor_id: admin.session.id });
      // Refresh keeps the role; the ADMIN's logout ends the simulation with it.
      const refreshed = body<Session>(await t.app.inject({ url: '/v1/login/refresh', headers })).data;
      expect(refreshed.simulated_role).toEqual({ id: finance!.id, name: 'FINANCE' });
      const refreshedHeaders = { authorization: `Bearer ${refreshed.token}` };
      expect((await t.app.inject({ url: '/v1/reports/catalog', headers: refreshedHeaders })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'POST', url: '/v1/logout', headers: admin.headers })).statusCode).toBe(200);
      expectErrorEnvelope(await t.app.inject({ url: '/v1/reports/catalog', headers: refreshedHeaders }), 401, 'auth.token_expired');
      expectErrorEnvelope(
        await t.app.inject({ method: 'POST', url: '/v1/login/as', headers: (await signIn(t.app, DEMO.admin)).headers, payload: { id_role: 99_999 } }),
        404,
        'admin.role_not_found',
      );
    });

    it("lets an ADMIN list a user's open sessions and end them", async () => {
      const admin = await signIn(t.app, DEMO.admin);
      const one = await signIn(t.app, DEMO.marketing);
      const two = await signIn(t.app, DEMO.marketing, undefined, { remember: true });
      const id = one.session.id;
      const list = await t.app.inject({ url: `/v1/admin/users/${id}/sessions`, headers: admin.headers });
      expect(list.statusCode, list.body).toBe(200);
      const open = body<{ id: string; remember: boolean; ip: string | null; expires_at: string }[]>(list).data;
      const ids = open.map((o) => o.id);
      expect(ids).toContain(decodeJwt(one.token).jti);
      expect(ids).toContain(decodeJwt(two.token).jti);
      expect(open.find((o) => o.id === decodeJwt(two.token).jti)).toMatchObject({ remember: true, ip: '127.0.0.1' });
      // One, then all.
      const endOne = await t.app.inject({ method: 'DELETE', url: `/v1/admin/users/${id}/sessions/${decodeJwt(one.token).jti}`, headers: admin.headers });
      expect(body(endOne).data).toEqual({ ended: 1 });
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/menu', headers: one.headers }), 401, 'auth.token_expired');
      expect((await t.app.inject({ url: '/v1/admin/menu', headers: two.headers })).statusCode).toBe(200);
      expectErrorEnvelope(
        await t.app.inject({ method: 'DELETE', url: `/v1/admin/users/${id}/sessions/${decodeJwt(one.token).jti}`, headers: admin.headers }),
        404,
        'admin.session_not_found',
      );
      const endAll = await t.app.inject({ method: 'DELETE', url: `/v1/admin/users/${id}/sessions`, headers: admin.headers });
      expect(body<{ ended: number }>(endAll).data.ended).toBeGreaterThanOrEqual(1);
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/menu', headers: two.headers }), 401, 'auth.token_expired');
      expect(body<unknown[]>(await t.app.inject({ url: `/v1/admin/users/${id}/sessions`, headers: admin.headers })).data).toEqual([]);
      const [audit] = await rows<{ actor_id: number; entity_id: string }>(
        dbOf(t.app),
        sql`select actor_id, entity_id from audit_log where action = 'user.sessions_end' order by id desc limit 1`,
      );
      expect(audit).toEqual({ actor_id: admin.session.id, entity_id: String(id) });
      // Others may not; unknown users are 404.
      expectErrorEnvelope(await t.app.inject({ url: `/v1/admin/users/${id}/sessions`, headers: users[DEMO.tech]!.headers }), 403, 'admin.only');
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/users/99999/sessions', headers: admin.headers }), 404, 'admin.user_not_found');
      users[DEMO.marketing] = await signIn(t.app, DEMO.marketing);
    });

    it('refuses a user with no role, an unknown user, and non-admins', async () => {
      const admin = users[DEMO.admin]!;
      const [norole] = await rows<{ id: number }>(dbOf(t.app), sql`select id from users where mail = ${DEMO.noRole}`);
      expectErrorEnvelope(await loginAs(admin.headers, norole!.id), 403, 'auth.no_permissions');
      expectErrorEnvelope(await loginAs(admin.headers, 99_999), 404, 'admin.user_not_found');
      for (const mail of DEMO_WITH_ROLES.filter((m) => m !== DEMO.admin)) {
        expectErrorEnvelope(await loginAs(users[mail]!.headers, admin.session.id), 403, 'admin.only');
      }
      expectErrorEnvelope(await loginAs({}, 1), 401, 'auth.token_missing');
    });

    it('ends simulations whose admin is no longer ADMIN', async () => {
      const db = dbOf(t.app);
      // A second admin, so the demo admin stays intact for the other tests.
      await db.execute(sql`insert into users (mail, name, password_hash)
        select 'second.admin@adtech.example', 'Second Admin', password_hash from users where mail = ${DEMO.admin}`);
      await db.execute(sql`insert into user_roles (user_id, role_id)
        select u.id, r.id from users u, roles r where u.mail = 'second.admin@adtech.example' and r.name = 'ADMIN'`);
      const second = await signIn(t.app, 'second.admin@adtech.example');
      const sim = body<Session>(await loginAs(second.headers, users[DEMO.marketing]!.session.id)).data;
      const first = { authorization: `Bearer ${sim.token}` };
      const refreshed = await t.app.inject({ url: '/v1/login/refresh', headers: first });
      expect(refreshed.statusCode).toBe(200);
      const headers = { authorization: `Bearer ${body<Session>(refreshed).data.token}` };
      await db.execute(sql`delete from user_roles where user_id = ${second.session.id}`);
      // The simulated session ends on every route, not only on refresh.
      expectErrorEnvelope(await t.app.inject({ url: '/v1/admin/menu', headers }), 401, 'auth.token_expired');
      expectErrorEnvelope(await t.app.inject({ url: '/v1/login/refresh', headers }), 401, 'auth.token_expired');
      expectErrorEnvelope(await loginAs(second.headers, users[DEMO.finance]!.session.id), 403, 'admin.only');
    });

    describe('bad input writes nothing', () => {
      const cases = () =>
        postBadInputCases('/v1/login/as', { id_user: users[DEMO.finance]!.session.id }, { id_user: '12' }, users[DEMO.admin]!.headers);
      it('the matrix', async () => {
        for (const c of cases()) {
          const before = await writeCounts(dbOf(t.app));
          const res = await t.app.inject(c.options);
          try {
            expectErrorEnvelope(res, c.status, c.message, c.errors);
          } catch (err) {
            throw new Error(`${c.name}: ${(err as Error).message}`);
          }
          expect(await writeCounts(dbOf(t.app)), c.name).toEqual(before);
        }
        expectErrorEnvelope(
          await t.app.inject({ method: 'POST', url: '/v1/login/as', headers: users[DEMO.admin]!.headers, payload: { id_user: 2, id_role: 1 } }),
          400,
          'error.validation',
          { id_user: 'error.required' },
        );
        for (const bad of [0, -5, 2 ** 31]) {
          expectErrorEnvelope(await loginAs(users[DEMO.admin]!.headers, bad), 400, 'error.validation', { id_user: 'error.invalid_value' });
        }
        expectErrorEnvelope(await loginAs(users[DEMO.admin]!.headers, 1.5), 400, 'error.validation', { id_user: 'error.invalid_type' });
        expectErrorEnvelope(await loginAs(users[DEMO.admin]!.headers, null), 400, 'error.validation', { id_user: 'error.invalid_type' });
      });
    });
  });

  describe('OpenAPI document', () => {
    it('documents every route of these modules with its zod schemas, and every $ref resolves', async () => {
      const res = await t.app.inject('/v1/docs/json');
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      const ops: [string, string][] = [
        ['/v1/login', 'post'], ['/v1/login/refresh', 'get'], ['/v1/login/as', 'post'], ['/v1/admin/menu', 'get'],
        ['/v1/admin/role', 'get'], ['/v1/admin/role/{id}/acl', 'get'], ['/v1/staff/welcome', 'get'], ['/v1/staff/pic/{id}.svg', 'get'],
      ];
      for (const [path, method] of ops) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
      const login = doc.paths['/v1/login'].post;
      expect(login.requestBody.content['application/json'].schema).toMatchObject({
        type: 'object', required: ['email', 'password'], additionalProperties: false,
      });
      expect(login.security).toEqual([]);
      expect(Object.keys(login.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '429']));
      expect(doc.paths['/v1/login/as'].post.requestBody.content['application/json'].schema.properties.id_user.type).toBe('integer');
      expect(doc.paths['/v1/staff/welcome'].get.parameters).toEqual([expect.objectContaining({ name: 'mail', in: 'query', required: true })]);
      const text = JSON.stringify(doc);
      for (const ref of text.match(/"#\/[^"]+"/g) ?? []) {
        const target = JSON.parse(ref).slice(2).split('/').reduce((o: Record<string, unknown> | undefined, k: string) => o?.[k] as Record<string, unknown> | undefined, doc);
        expect(target, ref).toBeDefined();
      }
    });

    it('serves the interactive docs page', async () => {
      const res = await t.app.inject('/v1/docs');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    });
  });
});
