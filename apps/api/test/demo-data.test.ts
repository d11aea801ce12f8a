import { DATAVIEWERS_RESOURCE } from '@backoffice/core/reports';
import { ACL_BYPASS, ADMIN_ROLE, FIREWALL_UNLIMITED, can, invalidAclKeys, isAllowed } from '@backoffice/core/acl';
import { MENU_ROUTES } from '@backoffice/core/routes';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ROLES, DEMO_USERS } from '../src/db/demo-data.ts';
import { demoLogins, seed } from '../src/db/seed.ts';
import { verifyPassword } from '../src/lib/password.ts';
import { dbOf, rows } from './auth-support.ts';
import { DEMO_PASSWORD, createTestApp, type TestApp } from './helpers.ts';

/** Role labels of spec section 6, as role names. */
const SPEC_ROLES = [
  'ADMIN', 'DEMAND_LEAD', 'DEMAND_HEAD', 'PERFORMANCE_LEAD', 'PERFORMANCE_HEAD', 'TECH', 'TECH_SUPPLY', 'TECH_DEMAND',
  'FINANCE', 'MARKETING', 'HR', 'LEGAL', 'SSP_SUPPLY_LEAD', 'SSP_SUPPLY_HEAD', 'SCHEDULER_ADMIN', 'SCHEDULER_VIEWER',
];

describe('demo role catalogue (pure data)', () => {
  const asCaller = (name: string) => {
    const role = DEMO_ROLES.find((r) => r.name === name)!;
    return { roles: [{ id: 0, name }], acl: role.acl };
  };

  it('has ADMIN and every role label of spec section 6, each granting at least one screen', () => {
    expect(DEMO_ROLES.map((r) => r.name).sort()).toEqual([...SPEC_ROLES].sort());
    for (const role of DEMO_ROLES) {
      expect(role.description.length, role.name).toBeGreaterThan(10);
      expect(MENU_ROUTES.some((r) => r.permission !== '' && can(role.acl, r.permission)), role.name).toBe(true);
    }
  });

  it('uses only known resources, valid regular expressions, and the bypass marker', () => {
    const known = new Set([...MENU_ROUTES.map((r) => r.permission).filter(Boolean), '/v1/app-log', 'scheduler', ACL_BYPASS, DATAVIEWERS_RESOURCE]);
    let regexKeys = 0;
    for (const role of DEMO_ROLES) {
      expect(invalidAclKeys(role.acl), role.name).toEqual([]);
      for (const [key, actions] of Object.entries(role.acl)) {
        if (key.startsWith('^')) regexKeys++;
        else expect(known.has(key), `${role.name}: ${key}`).toBe(true);
        expect(actions.length, `${role.name}: ${key}`).toBeGreaterThan(0);
        for (const a of actions) expect(['read', 'write', 'approve', 'delete', '*', FIREWALL_UNLIMITED], `${role.name}: ${key}`).toContain(a);
      }
    }
    expect(regexKeys).toBeGreaterThanOrEqual(2);
    expect(DEMO_ROLES.filter((r) => ACL_BYPASS in r.acl).map((r) => r.name)).toEqual(['TECH']);
  });

  it('fits each job', () => {
    const finance = asCaller('FINANCE');
    for (const res of ['/v1/billing/ssp', '/v1/billing/performance', '/v1/invoices', '/v1/payouts', '/v1/finances', '/v1/finance-reports']) {
      expect(isAllowed(finance, { resource: res }), res).toBe(true);
    }
    expect(isAllowed(finance, { resource: '/v1/invoices', action: 'approve' })).toBe(true);
    expect(isAllowed(finance, { resource: '/v1/scheduler-api' })).toBe(false);
    for (const name of ['DEMAND_LEAD', 'DEMAND_HEAD']) {
      expect(isAllowed(asCaller(name), { resource: '/v1/partners/demand', action: 'write' }), name).toBe(true);
      expect(isAllowed(asCaller(name), { resource: '/v1/reports', action: 'read' }), name).toBe(true);
      expect(isAllowed(asCaller(name), { resource: DATAVIEWERS_RESOURCE, action: 'write' }), name).toBe(true);
    }
    expect(isAllowed(asCaller('SCHEDULER_VIEWER'), { resource: '/v1/scheduler-api', action: 'read' })).toBe(true);
    expect(isAllowed(asCaller('SCHEDULER_VIEWER'), { resource: '/v1/scheduler-api', action: 'write' })).toBe(false);
    expect(isAllowed(asCaller('SCHEDULER_ADMIN'), { resource: '/v1/scheduler-api', action: 'write' })).toBe(true);
    // The bypass opens unprotected resources (read only) but never the protected ones.
    const tech = asCaller('TECH');
    expect(isAllowed(tech, { resource: '/v1/billing/ssp', action: 'read' })).toBe(true);
    expect(isAllowed(tech, { resource: '/v1/billing/ssp', action: 'approve' })).toBe(false);
    expect(isAllowed(tech, { resource: '/v1/scheduler-api' })).toBe(false);
    expect(isAllowed(tech, { resource: '/v1/admin' })).toBe(false);
    expect(isAllowed(tech, { resource: '/v1/discrepancy', action: 'write' })).toBe(true);
  });

  it('gives firewall_unlimited to exactly ADMIN and one other role (TECH)', () => {
    const holders = DEMO_ROLES.filter((r) => isAllowed(asCaller(r.name), { resource: '/v1/firewall', action: FIREWALL_UNLIMITED }));
    expect(holders.map((r) => r.name).sort()).toEqual([ADMIN_ROLE, 'TECH']);
  });

  it('gives the firewall control to every demo user with a role; HR and LEGAL do without', () => {
    for (const u of DEMO_USERS) {
      if (!u.role) continue;
      expect(isAllowed(asCaller(u.role), { resource: '/v1/firewall', action: 'write' }), u.role).toBe(true);
    }
    expect(isAllowed(asCaller('HR'), { resource: '/v1/firewall' })).toBe(false);
    expect(isAllowed(asCaller('LEGAL'), { resource: '/v1/firewall' })).toBe(false);
  });
});

describe('seeded demo data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('stores every role with its ACL and the demo users with salted scrypt hashes of the demo password', async () => {
    const db = dbOf(t.app);
    const roleRows = await rows<{ name: string; acl: Record<string, string[]> }>(db, sql`select name, acl from roles`);
    for (const r of DEMO_ROLES) expect(roleRows.find((x) => x.name === r.name)?.acl, r.name).toEqual(r.acl);
    const users = await rows<{ mail: string; password_hash: string; roles: string | null }>(
      db,
      sql`select u.mail, u.password_hash, string_agg(r.name, ',') as roles from users u
          left join user_roles ur on ur.user_id = u.id left join roles r on r.id = ur.role_id group by u.id order by u.id`,
    );
    expect(users.map((u) => u.mail)).toEqual(DEMO_USERS.map((u) => `${u.local}@adtech.example`));
    for (const u of users) {
      const demo = DEMO_USERS.find((d) => `${d.local}@adtech.example` === u.mail)!;
      expect(u.roles).toBe(demo.role);
      expect(u.password_hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
      expect(await verifyPassword(DEMO_PASSWORD, u.password_hash)).toBe(true);
    }
    expect(new Set(users.map((u) => u.password_hash.split('$')[4])).size).toBe(users.length);
  });

  it('seeds the demo data only once', async () => {
    const db = dbOf(t.app);
    const count = async () => (await rows<{ n: number }>(db, sql`select (select count(*) from users) + (select count(*) from staff) + (select count(*) from roles) + (select count(*) from menu_entries) as n`))[0]!.n;
    const before = Number(await count());
    await db.execute(sql`delete from users where mail = 'marketing@adtech.example'`);
    await seed(t.app.ctx.database, t.config);
    // The deleted demo user is not brought back, and nothing is duplicated.
    expect(Number(await count())).toBe(before - 1);
  });

  it('lists the demo logins for the start-up banner (never in production)', async () => {
    const logins = await demoLogins(t.app.ctx.database, t.config);
    expect(logins.map((l) => l.mail)).toContain('admin@adtech.example');
    expect(logins.find((l) => l.mail === 'admin@adtech.example')!.roles).toEqual(['ADMIN']);
    expect(logins.find((l) => l.mail === 'norole@adtech.example')!.roles).toEqual([]);
    expect(await demoLogins(t.app.ctx.database, { ...t.config, env: 'production' })).toEqual([]);
  });
});
