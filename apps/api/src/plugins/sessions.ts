/**
 * Sessions kept in the database (table sessions): every token names its session (`jti`), and a
 * token is accepted only while that session is neither revoked nor expired. Sessions end on
 * logout, on refresh (the old token), when a simulation ends, and, through a database trigger, when
 * the user's password changes or the account is disabled. An ADMIN can list and end a user's
 * sessions.
 *
 * Each instance reads a session once per IDENTITY_CACHE_MS (the same bound as identities): the
 * instance that ends a session forgets it at once; another instance stops accepting it within that
 * time (5 s by default, 0 in tests). See docs/decisions/009-sessions-in-the-database.md.
 */
import type { Acl } from '@backoffice/core/acl';
import { and, desc, eq, gt, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import crypto from 'node:crypto';
import type { Database, Db } from '../db/client.ts';
import { roles, sessions, users } from '../db/schema.ts';

export type RevokeReason =
  | 'logout'
  | 'refreshed'
  | 'simulation_ended'
  | 'password_changed'
  | 'user_disabled'
  | 'ended_by_admin';

export interface SessionRecord {
  id: string;
  userId: number;
  simulatedBy: number | null;
  /** The simulated role of a role simulation (the user is then the ADMIN). */
  simulatedRole: { id: number; name: string; acl: Acl } | null;
  parentId: string | null;
  remember: boolean;
  /** Expiry, seconds since the epoch. */
  exp: number;
  revoked: boolean;
}

/** A new random session id (128 bits, URL-safe). */
export function newSessionId(): string {
  return crypto.randomBytes(16).toString('base64url');
}

export interface NewSession {
  id: string;
  userId: number;
  simulatedBy: number | null;
  simulatedRoleId: number | null;
  parentId: string | null;
  remember: boolean;
  exp: number;
  ip: string | null;
  userAgent: string | null;
}

export async function insertSession(db: Db, s: NewSession): Promise<void> {
  await db.insert(sessions).values({
    id: s.id,
    userId: s.userId,
    simulatedBy: s.simulatedBy,
    simulatedRoleId: s.simulatedRoleId,
    parentId: s.parentId,
    remember: s.remember,
    expiresAt: sql`to_timestamp(${s.exp}::float8)`,
    ip: s.ip,
    userAgent: s.userAgent === null ? null : s.userAgent.slice(0, 300),
  });
}

/** The session with this id (revoked or not), with its simulated role; null when unknown. */
export async function loadSession(database: Database, id: string): Promise<SessionRecord | null> {
  const [row] = await database.db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      simulatedBy: sessions.simulatedBy,
      parentId: sessions.parentId,
      remember: sessions.remember,
      exp: sql<number>`extract(epoch from ${sessions.expiresAt})::float8`,
      revokedAt: sessions.revokedAt,
      roleId: roles.id,
      roleName: roles.name,
      roleAcl: roles.acl,
    })
    .from(sessions)
    .leftJoin(roles, eq(roles.id, sessions.simulatedRoleId))
    .where(eq(sessions.id, id))
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    userId: row.userId,
    simulatedBy: row.simulatedBy,
    simulatedRole: row.roleId !== null && row.roleName !== null ? { id: row.roleId, name: row.roleName, acl: row.roleAcl ?? {} } : null,
    parentId: row.parentId,
    remember: row.remember,
    exp: Math.floor(Number(row.exp)),
    revoked: row.revokedAt !== null,
  };
}

/**
 * Per-process cache of session records, keyed by database scope and session id. Entries are
 * dropped at once when this process ends a session.
 */
const cache = new Map<string, { at: number; record: SessionRecord | null }>();
const scopes = new WeakMap<Database, string>();
let scopeSeq = 0;
const CACHE_MAX = 20_000;

function cacheKey(database: Database, id: string): string {
  let scope = scopes.get(database);
  if (scope === undefined) {
    scope = String(++scopeSeq);
    scopes.set(database, scope);
  }
  return `${scope}:${id}`;
}

/** A cached record still fresh, without a promise (undefined when it must be read). */
export function peekSession(database: Database, id: string, ttlMs: number): SessionRecord | null | undefined {
  if (ttlMs <= 0) return undefined;
  const hit = cache.get(cacheKey(database, id));
  return hit && Date.now() - hit.at < ttlMs ? hit.record : undefined;
}

export async function cachedSession(database: Database, id: string, ttlMs: number): Promise<SessionRecord | null> {
  if (ttlMs <= 0) return loadSession(database, id);
  const hit = peekSession(database, id, ttlMs);
  if (hit !== undefined) return hit;
  const at = Date.now();
  const record = await loadSession(database, id);
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(cacheKey(database, id), { at, record });
  return record;
}

/** Forgets every cached session (after sessions were ended in this process). */
export function forgetCachedSessions(): void {
  cache.clear();
}

/**
 * Ends sessions and the simulations they started (children, recursively one level: a simulation
 * never starts another). Answers the ids that were still open. Idempotent.
 */
export async function revokeSessions(db: Db, where: SQL, reason: RevokeReason): Promise<string[]> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(where, isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  const ids = ended.map((r) => r.id);
  if (ids.length > 0) {
    const children = await db
      .update(sessions)
      .set({ revokedAt: sql`now()`, revokedReason: reason === 'refreshed' ? 'simulation_ended' : reason })
      .where(and(inArray(sessions.parentId, ids), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    ids.push(...children.map((r) => r.id));
  }
  forgetCachedSessions();
  return ids;
}

/**
 * Ends one session, unless already ended. Answers whether this call ended it (exactly one of
 * several concurrent calls does).
 */
export async function revokeSession(db: Db, id: string, reason: RevokeReason): Promise<boolean> {
  const ended = await revokeSessions(db, eq(sessions.id, id), reason);
  return ended.includes(id);
}

/** Ends the simulations an ADMIN session started (a new simulation replaces the previous one). */
export async function revokeChildren(db: Db, parentId: string): Promise<void> {
  await revokeSessions(db, eq(sessions.parentId, parentId), 'simulation_ended');
}

/** Moves the simulations of a refreshed ADMIN session to its new session. */
export async function adoptChildren(db: Db, oldParentId: string, newParentId: string): Promise<void> {
  await db.update(sessions).set({ parentId: newParentId }).where(and(eq(sessions.parentId, oldParentId), isNull(sessions.revokedAt)));
}

export interface SessionListItem {
  id: string;
  created_at: string;
  expires_at: string;
  ip: string | null;
  user_agent: string | null;
  remember: boolean;
  simulated_by: { id: number; mail: string } | null;
  simulated_role: { id: number; name: string } | null;
}

/**
 * A user's open sessions (not revoked, not expired), newest first: their own sign-ins, the
 * simulations others run as them, and the role simulations they run.
 */
export async function listOpenSessions(db: Db, userId: number): Promise<SessionListItem[]> {
  const rows = await db
    .select({
      id: sessions.id,
      createdAt: sql<string>`to_char(${sessions.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
      expiresAt: sql<string>`to_char(${sessions.expiresAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
      ip: sessions.ip,
      userAgent: sessions.userAgent,
      remember: sessions.remember,
      simulatedBy: sessions.simulatedBy,
      simulatedByMail: users.mail,
      roleId: roles.id,
      roleName: roles.name,
    })
    .from(sessions)
    .leftJoin(users, eq(users.id, sessions.simulatedBy))
    .leftJoin(roles, eq(roles.id, sessions.simulatedRoleId))
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
    .orderBy(desc(sessions.createdAt), desc(sessions.id))
    .limit(500);
  return rows.map((r) => ({
    id: r.id,
    created_at: r.createdAt,
    expires_at: r.expiresAt,
    ip: r.ip,
    user_agent: r.userAgent,
    remember: r.remember,
    simulated_by: r.simulatedBy !== null && r.simulatedByMail !== null ? { id: r.simulatedBy, mail: r.simulatedByMail } : null,
    simulated_role: r.roleId !== null && r.roleName !== null ? { id: r.roleId, name: r.roleName } : null,
  }));
}

/** Ends a user's open sessions (all, or one by id); answers the ids ended. */
export async function endUserSessions(db: Db, userId: number, sessionId: string | null): Promise<string[]> {
  const where = sessionId === null ? eq(sessions.userId, userId) : and(eq(sessions.userId, userId), eq(sessions.id, sessionId))!;
  return revokeSessions(db, where, 'ended_by_admin');
}

/** Housekeeping: removes sessions that expired or were ended more than `days` ago. */
export async function pruneSessions(db: Db, days = 7): Promise<number> {
  const removed = await db
    .delete(sessions)
    .where(
      or(
        lt(sessions.expiresAt, sql`now() - make_interval(days => ${days}::int)`),
        lt(sessions.revokedAt, sql`now() - make_interval(days => ${days}::int)`),
      ),
    )
    .returning({ id: sessions.id });
  return removed.length;
}
