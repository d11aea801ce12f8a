/**
 * Authentication (JWT, HS256, `exp` in seconds, `jti` naming a session kept in the database) and
 * authorisation: every /v1 route declares what it needs in `config.auth`, and the same ACL engine
 * as the web app (@backoffice/core/acl) decides.
 *   { public: true }                      no token needed
 *   { authenticated: true }               any signed-in user
 *   { admin: true }                       ADMIN only (the session's roles: a simulated role is not ADMIN)
 *   { permission: { resource, action? } } ADMIN, or an ACL that grants it. Without an action the
 *                                         method decides: GET and HEAD need 'read', any other
 *                                         method 'write' (docs/decisions/010-read-and-write-actions.md).
 * A /v1 route without `config.auth` makes the server refuse to start.
 *
 * A token is accepted while its session is open (plugins/sessions.ts). The session also carries a
 * simulation: a simulated user's session answers with that user's identity and ACL, a simulated
 * role's with the ADMIN's identity and that role's roles and ACL; either ends when the simulating
 * account stops being an active ADMIN.
 */
import { isAdmin, isAllowed, mergeAcls, type Acl, type Permission, type RoleRef } from '@backoffice/core/acl';
import { eq, and } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import crypto from 'node:crypto';
import type { Database } from '../db/client.ts';
import { roles, settings, userRoles, users } from '../db/schema.ts';
import { AppError, forbidden, unauthorized } from '../lib/errors.ts';
import { cachedSession, insertSession, newSessionId, peekSession, type SessionRecord } from './sessions.ts';

export type RouteAuth =
  | { public: true }
  | { authenticated: true }
  | { admin: true }
  | { permission: Permission };

export interface Caller {
  id: number;
  mail: string;
  name: string;
  roles: RoleRef[];
  acl: Acl;
  /** The ADMIN who is simulating (this user, or a role), if any. */
  simulatedBy: number | null;
  /** The simulated role of a role simulation (then `id` is the ADMIN's own id). */
  simulatedRole: { id: number; name: string } | null;
  /** The session (token `jti`) of this request. */
  sessionId: string;
  /** The session's "remember" choice and expiry (seconds since the epoch). */
  remember: boolean;
  exp: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyInstance {
    tokens: TokenService;
    sessions: SessionIssuer;
  }
}

export interface TokenClaims {
  sub: string;
  /** The session id. */
  jti: string;
}

export interface TokenService {
  /** A signed token for a session; `exp` is its expiry (at most `maxExp`, when given). */
  sign(userId: number, opts: { sessionId: string; remember?: boolean; ttlSec?: number; maxExp?: number }): Promise<{ token: string; exp: number }>;
  verify(token: string): Promise<TokenClaims & { exp: number }>;
  /** The claims of a token this service already verified, without a promise; undefined when it has
   * not seen the token; throws auth.token_expired once it has expired. */
  verifiedClaims(token: string): (TokenClaims & { exp: number }) | undefined;
}

export interface IssueOptions {
  remember?: boolean;
  /** Lifetime in seconds instead of the configured one. */
  ttlSec?: number;
  /** The session's expiry is at most this (seconds since the epoch): a simulation ends with its ADMIN's session. */
  maxExp?: number;
  simulatedBy?: number | null;
  simulatedRoleId?: number | null;
  parentId?: string | null;
  request?: FastifyRequest | null;
}

/** Opens a session (a row in the database) and signs its token. */
export interface SessionIssuer {
  issue(userId: number, opts?: IssueOptions): Promise<{ token: string; exp: number; sessionId: string }>;
}

export function createSessionIssuer(database: Database, tokens: TokenService): SessionIssuer {
  return {
    async issue(userId, opts = {}) {
      const sessionId = newSessionId();
      const { token, exp } = await tokens.sign(userId, { sessionId, remember: opts.remember, ttlSec: opts.ttlSec, maxExp: opts.maxExp });
      const request = opts.request ?? null;
      const agent = request?.headers['user-agent'];
      await insertSession(database.db, {
        id: sessionId,
        userId,
        simulatedBy: opts.simulatedBy ?? null,
        simulatedRoleId: opts.simulatedRoleId ?? null,
        parentId: opts.parentId ?? null,
        remember: opts.remember === true,
        exp,
        ip: request?.ip ?? null,
        userAgent: typeof agent === 'string' ? agent : null,
      });
      return { token, exp, sessionId };
    },
  };
}

/** The JWT secret: JWT_SECRET, else one generated once and shared by every instance through the database. */
export async function resolveJwtSecret(database: Database, configured: string | null): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  const fresh = crypto.randomBytes(48).toString('base64url');
  await database.db.insert(settings).values({ key: 'jwt_secret', value: fresh }).onConflictDoNothing();
  const [row] = await database.db.select().from(settings).where(eq(settings.key, 'jwt_secret'));
  return new TextEncoder().encode(row!.value);
}

/** How many verified tokens a token service remembers (a bounded map, cleared when full). */
const VERIFIED_TOKENS_MAX = 10_000;

export function createTokenService(secret: Uint8Array, ttl: { normal: number; remember: number }): TokenService {
  // A token's signature and claims never change, so a verified token is remembered until it
  // expires: every request of a session pays the HMAC check once, not on every call (the expiry
  // is still checked on every call, and who the user is comes from the identity cache).
  const verified = new Map<string, TokenClaims & { exp: number }>();
  const verifiedClaims = (token: string): (TokenClaims & { exp: number }) | undefined => {
    const known = verified.get(token);
    if (known && known.exp <= Math.floor(Date.now() / 1000)) {
      verified.delete(token);
      throw unauthorized('auth.token_expired');
    }
    return known;
  };
  return {
    async sign(userId, opts) {
      const now = Math.floor(Date.now() / 1000);
      let exp = now + (opts.ttlSec ?? (opts.remember ? ttl.remember : ttl.normal));
      if (opts.maxExp !== undefined) exp = Math.min(exp, opts.maxExp);
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(userId))
        .setJti(opts.sessionId)
        .setIssuedAt(now)
        .setExpirationTime(exp)
        .sign(secret);
      return { token, exp };
    },
    verifiedClaims,
    async verify(token) {
      const known = verifiedClaims(token);
      if (known) return known;
      try {
        const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
        if (
          typeof payload.sub !== 'string' ||
          !/^\d{1,9}$/.test(payload.sub) ||
          typeof payload.exp !== 'number' ||
          typeof payload.jti !== 'string' ||
          !/^[A-Za-z0-9_-]{16,64}$/.test(payload.jti)
        ) {
          throw unauthorized('auth.token_invalid');
        }
        const claims = { sub: payload.sub, jti: payload.jti, exp: payload.exp };
        if (verified.size >= VERIFIED_TOKENS_MAX) verified.clear();
        verified.set(token, claims);
        return claims;
      } catch (err) {
        if (err instanceof AppError) throw err;
        if (err instanceof joseErrors.JWTExpired) throw unauthorized('auth.token_expired');
        throw unauthorized('auth.token_invalid');
      }
    },
  };
}

/** A user as the database says: mail, name, roles and their merged ACL. */
export type Identity = Pick<Caller, 'id' | 'mail' | 'name' | 'roles' | 'acl'>;

/** Loads an active user with roles and merged ACL, or null. */
export async function loadCallerIdentity(database: Database, userId: number): Promise<Identity | null> {
  const rows = await database.db
    .select({
      id: users.id,
      mail: users.mail,
      name: users.name,
      roleId: roles.id,
      roleName: roles.name,
      acl: roles.acl,
    })
    .from(users)
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(users.id, userId), eq(users.active, true)));
  const first = rows[0];
  if (!first) return null;
  const roleList: RoleRef[] = [];
  const acls: Acl[] = [];
  for (const r of rows) {
    if (r.roleId !== null && r.roleName !== null) {
      roleList.push({ id: r.roleId, name: r.roleName });
      acls.push(r.acl ?? {});
    }
  }
  roleList.sort((a, b) => Number(a.id) - Number(b.id));
  return { id: first.id, mail: first.mail, name: first.name, roles: roleList, acl: mergeAcls(acls) };
}

/**
 * Identities are read from the database, cached per process for IDENTITY_CACHE_MS so an authenticated
 * request costs no query. The database stays the source of truth: a role or ACL change, or a
 * disabled account, takes effect on every instance within that time.
 */
const identityCache = new Map<string, { at: number; identity: CallerIdentity }>();

function identityKey(database: Database, userId: number): string {
  return `${identityCacheScope.get(database) ?? ''}:${userId}`;
}

/** A cached identity still fresh, without a promise (undefined when it must be read). */
function peekIdentity(database: Database, userId: number, ttlMs: number): CallerIdentity | undefined {
  if (ttlMs <= 0) return undefined;
  const hit = identityCache.get(identityKey(database, userId));
  return hit && Date.now() - hit.at < ttlMs ? hit.identity : undefined;
}

async function cachedIdentity(database: Database, userId: number, ttlMs: number): Promise<CallerIdentity> {
  if (ttlMs <= 0) return loadCallerIdentity(database, userId);
  const hit = peekIdentity(database, userId, ttlMs);
  if (hit !== undefined) return hit;
  const now = Date.now();
  const identity = await loadCallerIdentity(database, userId);
  if (identityCache.size > 10_000) identityCache.clear();
  identityCache.set(identityKey(database, userId), { at: now, identity });
  return identity;
}

type CallerIdentity = Awaited<ReturnType<typeof loadCallerIdentity>>;

/** Each database object gets its own cache scope (tests run several apps in one process). */
const identityCacheScope = new WeakMap<Database, string>();
let scopeSeq = 0;

/** Drops cached identities (after a change made in this process to users or roles). */
export function invalidateIdentityCache(): void {
  identityCache.clear();
}

function bearer(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (!h) return null;
  const value = h.trim();
  // "Bearer" (any case), then white space, then the token.
  if (value.length < 8 || value.slice(0, 6).toLowerCase() !== 'bearer' || !/\s/.test(value[6]!)) return null;
  const token = value.slice(7).trim();
  return token === '' ? null : token;
}

/** The ACL action a permission route needs: its own, else 'read' for GET and HEAD and 'write' otherwise. */
export function requiredAction(permission: Permission, method: string): string {
  if (permission.action !== undefined) return permission.action;
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

/**
 * The caller of a request from its token's claims, its session, the session user's identity and,
 * for a simulation, the simulating ADMIN's identity. Throws the 401 that ends a session.
 */
function callerFrom(
  claims: TokenClaims & { exp: number },
  session: SessionRecord | null,
  identity: CallerIdentity,
  admin: CallerIdentity,
): Caller {
  if (!session || session.userId !== Number(claims.sub)) throw unauthorized('auth.token_invalid');
  // Logged out, refreshed, simulation ended, password changed, disabled, ended by an admin.
  if (session.revoked || session.exp <= Math.floor(Date.now() / 1000)) throw unauthorized('auth.token_expired');
  if (!identity) throw unauthorized('auth.token_invalid');
  if (session.simulatedBy !== null && (!admin || !isAdmin(admin.roles))) throw unauthorized('auth.token_expired');
  const base = { sessionId: session.id, remember: session.remember, exp: session.exp };
  if (session.simulatedRole) {
    const role = session.simulatedRole;
    return {
      ...identity,
      ...base,
      roles: [{ id: role.id, name: role.name }],
      acl: role.acl,
      simulatedBy: identity.id,
      simulatedRole: { id: role.id, name: role.name },
    };
  }
  return { ...identity, ...base, simulatedBy: session.simulatedBy, simulatedRole: null };
}

export function registerAuth(app: FastifyInstance, database: Database, tokens: TokenService, identityTtlMs = 0, issuer = createSessionIssuer(database, tokens)): void {
  identityCacheScope.set(database, String(++scopeSeq));
  app.decorate('tokens', tokens);
  app.decorate('sessions', issuer);
  app.decorateRequest('caller', null);

  app.addHook('onRoute', (route) => {
    const url = route.url;
    if (!url.startsWith('/v1') || url.startsWith('/v1/docs')) return;
    if (!route.config?.auth) {
      throw new Error(`Route ${String(route.method)} ${url} declares no auth requirement (config.auth)`);
    }
  });

  /** The Caller built for a session; reused while the session, identity and admin are the same objects. */
  const callers = new WeakMap<object, { identity: object; admin: object | null; caller: Caller }>();
  const callerOfSession = (
    claims: TokenClaims & { exp: number },
    session: SessionRecord | null,
    identity: CallerIdentity,
    admin: CallerIdentity,
  ): Caller => {
    if (session && identity) {
      const known = callers.get(session);
      if (known && known.identity === identity && known.admin === admin && session.exp > Date.now() / 1000) return known.caller;
    }
    const caller = callerFrom(claims, session, identity, admin);
    if (session && identity) callers.set(session, { identity, admin, caller });
    return caller;
  };

  const authorise = (request: FastifyRequest, auth: Exclude<RouteAuth, { public: true }>, caller: Caller) => {
    request.caller = caller;
    if ('authenticated' in auth) return;
    if ('admin' in auth) {
      if (!isAdmin(caller.roles)) throw forbidden('admin.only');
      return;
    }
    const permission = { resource: auth.permission.resource, action: requiredAction(auth.permission, request.method) };
    if (!isAllowed(caller, permission)) throw forbidden('auth.forbidden');
  };

  /** The simulating ADMIN of a session (the user itself for a role simulation); null when none. */
  const adminId = (session: SessionRecord | null | undefined, sub: number): number | null =>
    session && session.simulatedBy !== null && session.simulatedBy !== sub ? session.simulatedBy : null;

  // A callback hook rather than an async one: a signed-in request whose token, session and
  // identity are cached (nearly all of them) is authorised without a promise.
  app.addHook('preValidation', (request, _reply, done) => {
    const auth = request.routeOptions.config?.auth;
    // Public routes need nothing.
    if (!auth || 'public' in auth) return done();
    try {
      const token = bearer(request);
      if (!token) throw unauthorized('auth.token_missing');
      const claims = tokens.verifiedClaims(token);
      if (claims) {
        const sub = Number(claims.sub);
        const session = peekSession(database, claims.jti, identityTtlMs);
        const identity = session !== undefined ? peekIdentity(database, sub, identityTtlMs) : undefined;
        const otherAdmin = session !== undefined ? adminId(session, sub) : null;
        const admin = otherAdmin === null ? identity : peekIdentity(database, otherAdmin, identityTtlMs);
        if (session !== undefined && identity !== undefined && admin !== undefined) {
          authorise(request, auth, callerOfSession(claims, session, identity, admin));
          return done();
        }
      }
      void (async () => {
        const verified = claims ?? (await tokens.verify(token));
        const sub = Number(verified.sub);
        const session = await cachedSession(database, verified.jti, identityTtlMs);
        const identity = await cachedIdentity(database, sub, identityTtlMs);
        const otherAdmin = adminId(session, sub);
        const admin = otherAdmin === null ? identity : await cachedIdentity(database, otherAdmin, identityTtlMs);
        authorise(request, auth, callerOfSession(verified, session, identity, admin));
      })().then(() => done(), (err: Error) => done(err));
    } catch (err) {
      done(err as Error);
    }
  });
}

/** The caller of a route that requires authentication (never null there). */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized('auth.token_missing');
  return request.caller;
}
