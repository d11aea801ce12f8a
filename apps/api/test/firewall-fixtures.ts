/** Fixtures shared by the firewall, jobs and scale-out tests (not a test file itself). */
import type { Acl } from '@backoffice/core/acl';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/db/client.ts';
import { auditLog, firewallEntries, roles, userRoles, users } from '../src/db/schema.ts';

export function dbOf(app: FastifyInstance): Db {
  return app.ctx.database.db;
}

/** Creates a user with one role of its own (ACL as given) and returns auth headers for it. */
export async function userWithAcl(app: FastifyInstance, mail: string, acl: Acl, roleName = `ROLE_${mail.split('@')[0]!.toUpperCase().replace(/\W/g, '_')}`) {
  const db = dbOf(app);
  const [role] = await db.insert(roles).values({ name: roleName, acl }).returning();
  const [user] = await db.insert(users).values({ mail, name: mail.split('@')[0]!, passwordHash: 'not-a-login-user' }).returning();
  await db.insert(userRoles).values({ userId: user!.id, roleId: role!.id });
  const { token } = await app.sessions.issue(user!.id);
  return { id: user!.id, roleId: role!.id, headers: { authorization: `Bearer ${token}` } };
}

export async function setRoleAcl(app: FastifyInstance, roleId: number, acl: Acl): Promise<void> {
  await dbOf(app).update(roles).set({ acl }).where(eq(roles.id, roleId));
}

export async function countEntries(app: FastifyInstance): Promise<number> {
  const [row] = await dbOf(app).select({ n: sql<number>`count(*)::int` }).from(firewallEntries);
  return row!.n;
}

export async function countAudit(app: FastifyInstance, action?: string, entityId?: number): Promise<number> {
  const [row] = await dbOf(app)
    .select({ n: sql<number>`count(*)::int` })
    .from(auditLog)
    .where(
      and(
        action ? eq(auditLog.action, action) : undefined,
        entityId !== undefined ? eq(auditLog.entityId, String(entityId)) : undefined,
      ),
    );
  return row!.n;
}

export async function entryById(app: FastifyInstance, id: number) {
  const [row] = await dbOf(app).select().from(firewallEntries).where(eq(firewallEntries.id, id));
  return row ?? null;
}

/** Moves an entry's expiry into the past (what time would do). */
export async function expireNow(app: FastifyInstance, id: number, secondsAgo = 5): Promise<void> {
  await dbOf(app)
    .update(firewallEntries)
    .set({ expiresAt: sql`now() - make_interval(secs => ${secondsAgo}::int)` })
    .where(eq(firewallEntries.id, id));
}

/** Polls until check() is truthy (or throws after timeoutMs). */
export async function waitFor<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
