/**
 * The ACL matrix, generated from the OpenAPI document, so a new endpoint is covered without editing
 * this file: every operation answers 401 without a token (unless public), and every demo role,
 * signed in and simulated by an ADMIN (POST /v1/login/as {id_role}), gets 403 exactly where its
 * ACL lacks what the operation declares (`x-auth`: ADMIN only, or a resource with the action the
 * method implies; docs/decisions/010-read-and-write-actions.md).
 *
 * Requests carry harmless inputs: ids that exist nowhere and empty bodies, so an allowed request
 * ends in 400 or 404 (or reads), never in a change that would disturb the next one.
 */
import { isAdmin, isAllowed, type Acl } from '@backoffice/core/acl';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ROLES } from '../src/db/demo-data.ts';
import { roles, userRoles, users } from '../src/db/schema.ts';
import { dbOf } from './auth-support.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';
import { operationsOf, pathOf, type Operation } from './openapi-ops.ts';

const DENIED = new Set(['auth.forbidden', 'admin.only']);

describe('ACL matrix: every operation of the OpenAPI document against every demo role', () => {
  let t: TestApp;
  let ops: Operation[];
  /** Per role: its ACL and two bearer tokens, signed in and simulated by an ADMIN. */
  const sessions: { role: string; acl: Acl; how: string; token: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    ops = operationsOf(t.app);
    const db = dbOf(t.app);
    const admin = await signIn(t.app, 'admin@adtech.example');
    const catalogue = await db.select({ id: roles.id, name: roles.name, acl: roles.acl }).from(roles);
    for (const demo of DEMO_ROLES) {
      const role = catalogue.find((r) => r.name === demo.name)!;
      const local = `matrix.${demo.name.toLowerCase()}`;
      const [user] = await db.insert(users).values({ mail: `${local}@adtech.example`, name: local, passwordHash: 'not-a-login-user' }).returning();
      await db.insert(userRoles).values({ userId: user!.id, roleId: role.id });
      sessions.push({ role: demo.name, acl: role.acl, how: 'signed in', token: (await t.app.sessions.issue(user!.id)).token });
      // One ADMIN session per simulation (a new simulation replaces the one its session started).
      const own = await t.app.sessions.issue(admin.session.id);
      const simulated = await t.app.inject({ method: 'POST', url: '/v1/login/as', headers: { authorization: `Bearer ${own.token}` }, payload: { id_role: role.id } });
      if (simulated.statusCode !== 200) throw new Error(`simulating ${demo.name}: ${simulated.body}`);
      sessions.push({ role: demo.name, acl: role.acl, how: 'simulated', token: body<{ token: string }>(simulated).data.token });
    }
  });
  afterAll(async () => t?.close());

  const call = (op: Operation, token: string | null): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method: op.method as 'GET',
      url: pathOf(op),
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(op.body ? { payload: {} } : {}),
    });

  it('finds the operations and what each needs', () => {
    expect(ops.length).toBeGreaterThanOrEqual(30);
    const missing = ops.filter((op) => !op.auth).map((op) => `${op.method} ${op.path}`);
    expect(missing, 'operations without x-auth').toEqual([]);
    expect(sessions).toHaveLength(DEMO_ROLES.length * 2);
  });

  it('answers 401 without a token on every operation that is not public', async () => {
    const failures: string[] = [];
    for (const op of ops) {
      if ('public' in op.auth) continue;
      const res = await call(op, null);
      if (res.statusCode !== 401 || body(res).message !== 'auth.token_missing') failures.push(`${op.method} ${op.path}: ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  });

  // One test per role (its two sessions against every operation): the matrix grows with every
  // endpoint, and a role's share stays well inside a test's time limit.
  it.each(DEMO_ROLES.map((r) => r.name))('answers 403 exactly where %s lacks the permission, signed in or simulated', async (roleName) => {
    const failures: string[] = [];
    let checked = 0;
    for (const op of ops) {
      const auth = op.auth;
      // Public and "any signed-in user" operations need no permission (and refresh or logout would end the session).
      if ('public' in auth || 'authenticated' in auth) continue;
      for (const s of sessions.filter((x) => x.role === roleName)) {
        const who = { roles: [{ id: 0, name: s.role }], acl: s.acl };
        const allowed = 'admin' in auth ? isAdmin(who.roles) : isAllowed(who, auth.permission);
        const res = await call(op, s.token);
        const message = res.statusCode === 403 || res.statusCode === 401 ? body(res).message : '';
        const denied = res.statusCode === 403 && DENIED.has(message);
        checked += 1;
        if (res.statusCode === 401) failures.push(`${op.method} ${op.path} as ${s.role} (${s.how}): 401 ${message}`);
        else if (allowed && denied) failures.push(`${op.method} ${op.path} as ${s.role} (${s.how}): 403 ${message}, but the role holds ${JSON.stringify(auth)}`);
        else if (!allowed && !denied) failures.push(`${op.method} ${op.path} as ${s.role} (${s.how}): ${res.statusCode}, but the role lacks ${JSON.stringify(auth)}`);
        else if (res.statusCode >= 500) failures.push(`${op.method} ${op.path} as ${s.role} (${s.how}): ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
    // Both sessions of the role met every operation that needs a permission.
    expect(checked).toBe(2 * ops.filter((op) => !('public' in op.auth) && !('authenticated' in op.auth)).length);
    expect(checked).toBeGreaterThan(40);
  });
});
