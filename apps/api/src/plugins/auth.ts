/**
 * Authentication (JWT, HS256, `exp` in seconds) and authorisation: every /v1 route declares what it
 * needs in `config.auth`, and the same ACL engine as the web app (@backoffice/core/acl) decides.
 *   { public: true }                      no token needed
 *   { authenticated: true }               any signed-in user
 *   { admin: true }                       ADMIN only
 *   { permission: { resource, action? } } ADMIN, or an ACL that grants it
 * A /v1 route without `config.auth` makes the server refuse to start.
 */
import { isAdmin, isAllowed, mergeAcls, type Acl, type Permission, type RoleRef } from '@backoffice/core/acl';
import { eq, and } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import crypto from 'node:crypto';
import type { Database } from '../db/client.ts';
import { roles, settings, userRoles, users } from '../db/schema.ts';
import { AppError, forbidden, unauthorized } from '../lib/errors.ts';

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
  /** The ADMIN who is simulating this user, if any. */
  simulatedBy: number | null;
  /** Token claims. */
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
  }
}

export interface TokenClaims {
  sub: string;
  /** id of the simulating ADMIN */
  sim?: number;
  rem?: boolean;
}

export interface TokenService {
  sign(userId: number, opts: { remember?: boolean; simulatedBy?: number | null; ttlSec?: number }): Promise<{ token: string; exp: number }>;
  verify(token: string): Promise<TokenClaims & { exp: number }>;
  /** The claims of a token this service already verified, without a promise; undefined when it has
   * not seen the token; throws auth.token_expired once it has expired. */
  verifiedClaims(token: string): (TokenClaims & { exp: number }) | undefined;
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
      const exp = now + (opts.ttlSec ?? (opts.remember ? ttl.remember : ttl.normal));
      const claims: Record<string, unknown> = {};
      if (opts.simulatedBy) claims.sim = opts.simulatedBy;
      if (opts.remember) claims.rem = true;
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(userId))
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
        if (typeof payload.sub !== 'string' || !/^\d+$/.test(payload.sub) || typeof payload.exp !== 'number') {
          throw unauthorized('auth.token_invalid');
        }
        const claims = { sub: payload.sub, sim: typeof payload.sim === 'number' ? payload.sim : undefined, rem: payload.rem === true, exp: payload.exp };
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

/** Loads an active user with roles and merged ACL, or null. */
export async function loadCallerIdentity(
  database: Database,
  userId: number,
): Promise<Pick<Caller, 'id' | 'mail' | 'name' | 'roles' | 'acl'> | null> {
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

export function registerAuth(app: FastifyInstance, database: Database, tokens: TokenService, identityTtlMs = 0): void {
  identityCacheScope.set(database, String(++scopeSeq));
  app.decorate('tokens', tokens);
  app.decorateRequest('caller', null);

  app.addHook('onRoute', (route) => {
    const url = route.url;
    if (!url.startsWith('/v1') || url.startsWith('/v1/docs')) return;
    if (!route.config?.auth) {
      throw new Error(`Route ${String(route.method)} ${url} declares no auth requirement (config.auth)`);
    }
  });

  /** The Caller built for a token's claims from an identity; reused while the identity is the same. */
  const callers = new WeakMap<object, { identity: object; caller: Caller }>();
  const callerOfClaims = (claims: TokenClaims & { exp: number }, identity: NonNullable<CallerIdentity>): Caller => {
    const known = callers.get(claims);
    if (known && known.identity === identity) return known.caller;
    const caller: Caller = { ...identity, simulatedBy: claims.sim ?? null, remember: claims.rem === true, exp: claims.exp };
    callers.set(claims, { identity, caller });
    return caller;
  };

  const authorise = (request: FastifyRequest, auth: Exclude<RouteAuth, { public: true }>, identity: CallerIdentity, claims: TokenClaims & { exp: number }) => {
    if (!identity) throw unauthorized('auth.token_invalid');
    request.caller = callerOfClaims(claims, identity);
    if ('authenticated' in auth) return;
    if ('admin' in auth) {
      if (!isAdmin(identity.roles)) throw forbidden('admin.only');
      return;
    }
    if (!isAllowed(request.caller, auth.permission)) throw forbidden('auth.forbidden');
  };

  // A callback hook rather than an async one: a signed-in request whose token and identity are
  // cached (nearly all of them) is authorised without a promise.
  app.addHook('preValidation', (request, _reply, done) => {
    const auth = request.routeOptions.config?.auth;
    // Public routes need nothing.
    if (!auth || 'public' in auth) return done();
    try {
      const token = bearer(request);
      if (!token) throw unauthorized('auth.token_missing');
      const claims = tokens.verifiedClaims(token);
      const identity = claims ? peekIdentity(database, Number(claims.sub), identityTtlMs) : undefined;
      if (claims && identity !== undefined) {
        authorise(request, auth, identity, claims);
        return done();
      }
      void (async () => {
        const verified = claims ?? (await tokens.verify(token));
        authorise(request, auth, await cachedIdentity(database, Number(verified.sub), identityTtlMs), verified);
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
