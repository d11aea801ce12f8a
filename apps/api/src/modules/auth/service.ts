/**
 * Sign-in, token refresh and user simulation (spec sections 4, 6 and 7).
 *
 * Sign-in rules:
 * - The mail is trimmed and lowercased; without '@' it gets the primary company domain.
 * - Only company domains may sign in. A foreign domain answers 400 auth.domain_not_allowed: that
 *   answer depends on the typed domain alone (the login form applies the same public rule), never
 *   on the database, so it tells nothing about which accounts exist.
 * - Unknown mail and wrong password give the same 401 auth.invalid_credentials, after the same
 *   scrypt work (a dummy hash for unknown mails), so neither the message nor the timing says
 *   which part was wrong. Disabled accounts and accounts with no role are only revealed to a
 *   caller who typed the right password.
 * - Sign-ins are limited in sliding windows kept in the database (lib/rate-limit.ts), so that a
 *   stranger cannot lock a user out:
 *   - per source address, every attempt (LOGIN_MAX_PER_IP): a password sprayer is stopped;
 *   - per source address and account, every attempt (LOGIN_MAX_PER_MAIL): a guesser is stopped,
 *     the account's owner at another address is not;
 *   - per account from anywhere, failures only slow sign-ins down (LOGIN_SLOW_AFTER, then 1 s
 *     doubling up to LOGIN_SLOW_MAX_MS): a distributed guesser is slowed, the owner still gets in.
 *   Attempts are counted before the password is checked (parallel guesses cannot slip past a
 *   limit, and a limited caller learns nothing about the password). A right password resets the
 *   account's counts and gives the address its attempt back. The address is the client's as the
 *   proxy reports it when TRUST_PROXY says which proxies to believe (README, Configuration).
 *
 * Sessions (plugins/sessions.ts): every token names a session kept in the database; logout,
 * refresh (the old token), the end of a simulation, a new password and a disabled account end it.
 */
import { isAdmin, type Acl, type RoleRef } from '@backoffice/core/acl';
import { isCompanyMail, normalizeMail } from '@backoffice/core/mail';
import type { LoginAsRequest, LoginRequest, Session } from '@backoffice/core/schemas/auth';
import { and, eq, isNull } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError, forbidden, notFound, unauthorized } from '../../lib/errors.ts';
import { verifyAgainstDummy, verifyPassword } from '../../lib/password.ts';
import { sessions } from '../../db/schema.ts';
import {
  hitRateLimit,
  peekRateLimit,
  refundRateLimit,
  resetRateLimit,
  tooManyRequests,
  type RateLimitRule,
  type RateLimitState,
} from '../../lib/rate-limit.ts';
import { audit } from '../../plugins/audit.ts';
import { loadCallerIdentity, type Caller, type Identity } from '../../plugins/auth.ts';
import { adoptChildren, loadSession, revokeChildren, revokeSession, revokeSessions } from '../../plugins/sessions.ts';
import { findRole } from '../admin/repo.ts';
import { findUserById, findUserByMail, pictureFor } from './repo.ts';

export const loginMailKey = (mail: string) => `login:mail:${mail}`;
export const loginIpKey = (ip: string) => `login:ip:${ip}`;
export const loginIpMailKey = (ip: string, mail: string) => `login:ipmail:${ip}|${mail}`;

interface SessionOptions {
  remember: boolean;
  /** The simulating ADMIN (shown as simulated_by) and the ADMIN session that started it. */
  simulation: { admin: Identity; parentId: string; parentExp: number; role: { id: number; name: string; acl: Acl } | null } | null;
  request: FastifyRequest;
}

/** Opens a session and builds its answer (data of login, refresh and login/as). */
export async function buildSession(ctx: AppContext, identity: Identity, opts: SessionOptions): Promise<Session> {
  const sim = opts.simulation;
  const { token, exp } = await ctx.sessions.issue(identity.id, {
    remember: opts.remember,
    simulatedBy: sim ? sim.admin.id : null,
    simulatedRoleId: sim?.role ? sim.role.id : null,
    parentId: sim ? sim.parentId : null,
    maxExp: sim ? sim.parentExp : undefined,
    request: opts.request,
  });
  const role = sim?.role ?? null;
  return {
    id: identity.id,
    mail: identity.mail,
    name: identity.name,
    token,
    roles: role ? [{ id: role.id, name: role.name }] : identity.roles.map((r: RoleRef) => ({ id: Number(r.id), name: r.name })),
    acl: role ? role.acl : identity.acl,
    exp,
    picture: await pictureFor(ctx.database.db, identity.mail),
    simulated_by: sim ? { id: sim.admin.id, mail: sim.admin.mail, name: sim.admin.name } : null,
    simulated_role: role ? { id: role.id, name: role.name } : null,
  };
}

function loginRules(ctx: AppContext): { ip: RateLimitRule; ipMail: RateLimitRule; mail: RateLimitRule } {
  const windowSec = ctx.config.loginWindowSec;
  return {
    ip: { max: ctx.config.loginMaxPerIp, windowSec },
    ipMail: { max: ctx.config.loginMaxPerMail, windowSec },
    mail: { max: ctx.config.loginSlowAfter, windowSec },
  };
}

/**
 * How long a sign-in for an account waits once the account has had `slowAfter` failures (from
 * anywhere) in the window: 1 s, doubling with every further failure, at most `maxMs`. The
 * right password still works, only later: a stranger can slow a user's sign-in, never stop it.
 */
export function accountDelayMs(failures: number, slowAfter: number, maxMs: number): number {
  if (failures < slowAfter || maxMs <= 0) return 0;
  return Math.min(maxMs, 1000 * 2 ** Math.min(20, failures - slowAfter));
}

async function auditFailure(ctx: AppContext, request: FastifyRequest, mail: string, reason: string, userId: number | null) {
  await audit(ctx.database.db, request, {
    action: 'auth.login_failed',
    entity: 'user',
    entityId: userId,
    actorId: null,
    simulatedById: null,
    after: { mail, reason },
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function login(ctx: AppContext, request: FastifyRequest, body: LoginRequest): Promise<Session> {
  const db = ctx.database.db;
  const mail = normalizeMail(body.email, ctx.config.companyDomains);
  const rules = loginRules(ctx);
  // Every attempt counts against its address (a password sprayer's address gets limited); the
  // failures for one account count against that account from that address (a guesser is
  // limited, the account's owner elsewhere is not); and the account's failures from anywhere
  // only slow its sign-ins down.
  const ipState = await hitRateLimit(db, loginIpKey(request.ip), rules.ip);

  if (!isCompanyMail(mail, ctx.config.companyDomains)) {
    if (ipState.limited) throw await blocked(ctx, request, mail, [[ipState, rules.ip]]);
    await auditFailure(ctx, request, mail, 'domain_not_allowed', null);
    throw new AppError(400, 'auth.domain_not_allowed', { errors: { email: 'auth.domain_not_allowed' } });
  }

  const ipMailState = await hitRateLimit(db, loginIpMailKey(request.ip, mail), rules.ipMail);
  if (ipState.limited || ipMailState.limited) {
    throw await blocked(ctx, request, mail, [[ipState, rules.ip], [ipMailState, rules.ipMail]]);
  }
  const accountState = await peekRateLimit(db, loginMailKey(mail), rules.mail);
  const delay = accountDelayMs(accountState.count, ctx.config.loginSlowAfter, ctx.config.loginSlowMaxMs);
  if (delay > 0) await sleep(delay);

  const user = await findUserByMail(db, mail);
  const passwordOk = user ? await verifyPassword(body.password, user.passwordHash) : await verifyAgainstDummy(body.password);
  if (!user || !passwordOk) {
    await hitRateLimit(db, loginMailKey(mail), rules.mail);
    await auditFailure(ctx, request, mail, 'invalid_credentials', user?.id ?? null);
    throw unauthorized('auth.invalid_credentials');
  }

  // The right password: forget this account's failures and give the address its attempt back.
  await resetRateLimit(db, loginIpMailKey(request.ip, mail));
  await resetRateLimit(db, loginMailKey(mail));
  await refundRateLimit(db, loginIpKey(request.ip), ipState);

  const identity = user.active ? await loadCallerIdentity(ctx.database, user.id) : null;
  if (!identity) {
    await auditFailure(ctx, request, mail, 'disabled', user.id);
    throw forbidden('auth.user_disabled');
  }
  if (identity.roles.length === 0) {
    await auditFailure(ctx, request, mail, 'no_permissions', user.id);
    throw forbidden('auth.no_permissions');
  }
  const remember = body.remember === true;
  const session = await buildSession(ctx, identity, { remember, simulation: null, request });
  await audit(db, request, {
    action: 'auth.login',
    entity: 'user',
    entityId: user.id,
    actorId: user.id,
    simulatedById: null,
    after: { remember, exp: session.exp },
  });
  return session;
}

/** The 429 for a limited sign-in; audited once, when a limit is first crossed. */
async function blocked(ctx: AppContext, request: FastifyRequest, mail: string, checks: [RateLimitState, RateLimitRule][]) {
  const limited = checks.map(([state]) => state).filter((s) => s.limited);
  const worst = limited.reduce((a, b) => (b.retryAfterSec > a.retryAfterSec ? b : a));
  if (checks.some(([state, rule]) => state.count === rule.max + 1)) await auditFailure(ctx, request, mail, 'too_many_attempts', null);
  return tooManyRequests(worst, 'auth.too_many_attempts');
}

/** The ADMIN simulating a session (whose own session started it); null when the session is not a simulation. */
async function simulationOf(ctx: AppContext, caller: Caller): Promise<{ admin: Identity; parentId: string; parentExp: number } | null> {
  if (caller.simulatedBy === null) return null;
  const admin = caller.simulatedBy === caller.id && caller.simulatedRole ? await loadCallerIdentity(ctx.database, caller.id) : await loadCallerIdentity(ctx.database, caller.simulatedBy);
  // The simulation ends when the simulating account stops being an active ADMIN.
  if (!admin || !isAdmin(admin.roles)) throw unauthorized('auth.token_expired');
  const own = await loadSession(ctx.database, caller.sessionId);
  const parent = own?.parentId ? await loadSession(ctx.database, own.parentId) : null;
  if (!parent || parent.revoked || parent.exp <= Math.floor(Date.now() / 1000)) throw unauthorized('auth.token_expired');
  return { admin, parentId: parent.id, parentExp: parent.exp };
}

/**
 * A fresh session for a valid token: same user, same simulation, same "remember" choice. The old
 * token's session ends (exactly one of several concurrent refreshes with it succeeds), and the
 * simulations an ADMIN session started move to the new one.
 */
export async function refresh(ctx: AppContext, request: FastifyRequest, caller: Caller): Promise<Session> {
  const db = ctx.database.db;
  const simulation = await simulationOf(ctx, caller);
  if (caller.roles.length === 0) throw forbidden('auth.no_permissions');
  if (!(await revokeSession(db, caller.sessionId, 'refreshed'))) throw unauthorized('auth.token_expired');
  let role: { id: number; name: string; acl: Acl } | null = null;
  if (caller.simulatedRole) role = { ...caller.simulatedRole, acl: caller.acl };
  const identity = caller.simulatedRole ? (await loadCallerIdentity(ctx.database, caller.id))! : caller;
  const session = await buildSession(ctx, identity, {
    remember: caller.remember,
    simulation: simulation ? { ...simulation, role } : null,
    request,
  });
  if (!simulation) {
    const fresh = decodeJwt(session.token).jti;
    if (typeof fresh === 'string') await adoptChildren(db, caller.sessionId, fresh);
  }
  return session;
}

/** Ends the caller's session and the simulations it started (idempotent: 200 again). */
export async function logout(ctx: AppContext, request: FastifyRequest, caller: Caller): Promise<void> {
  const ended = await revokeSessions(ctx.database.db, eq(sessions.id, caller.sessionId), caller.simulatedBy !== null ? 'simulation_ended' : 'logout');
  if (ended.length === 0) return;
  await audit(ctx.database.db, request, {
    action: caller.simulatedBy !== null ? 'simulate.stop' : 'auth.logout',
    entity: 'user',
    entityId: caller.id,
    after: { sessions: ended.length },
  });
}

/** The ADMIN's own session, required to start a simulation: a simulated session never starts one. */
function ownAdminSession(caller: Caller): Caller {
  if (caller.simulatedBy !== null) throw forbidden('auth.simulated_session');
  if (!isAdmin(caller.roles)) throw forbidden('admin.only');
  return caller;
}

/**
 * ADMIN only, from the ADMIN's own session: a session of another user (id_user) or of the ADMIN
 * with a role's ACL (id_role), recording who simulates. It replaces the simulation this ADMIN
 * session started before, ends when the ADMIN session ends, and never outlives it. The ADMIN's own
 * id ends the current simulation and answers a fresh session of the ADMIN (like a refresh).
 * Audit-logged.
 */
export async function loginAs(ctx: AppContext, request: FastifyRequest, caller: Caller, target: LoginAsRequest): Promise<Session> {
  const admin = ownAdminSession(caller);
  const db = ctx.database.db;
  const previous = await db
    .select({ userId: sessions.userId, roleId: sessions.simulatedRoleId })
    .from(sessions)
    .where(and(eq(sessions.parentId, admin.sessionId), isNull(sessions.revokedAt)));
  const before = previous.length > 0 ? { simulating: previous.map((p) => (p.roleId !== null ? { id_role: p.roleId } : { id_user: p.userId })) } : { simulating: null };
  const adminIdentity: Identity = { id: admin.id, mail: admin.mail, name: admin.name, roles: admin.roles, acl: admin.acl };
  const simulationBase = { admin: adminIdentity, parentId: admin.sessionId, parentExp: admin.exp };

  if (target.id_role !== undefined) {
    const role = await findRole(db, target.id_role);
    if (!role) throw notFound('admin.role_not_found');
    await revokeChildren(db, admin.sessionId);
    const session = await buildSession(ctx, adminIdentity, {
      remember: false,
      simulation: { ...simulationBase, role: { id: role.id, name: role.name, acl: role.acl } },
      request,
    });
    await audit(db, request, {
      action: 'simulate.role', entity: 'role', entityId: role.id, actorId: admin.id, simulatedById: null,
      before, after: { id_role: role.id, name: role.name },
    });
    return session;
  }

  const found = await findUserById(db, target.id_user!);
  if (!found) throw notFound('admin.user_not_found');
  if (found.id === admin.id) {
    await revokeChildren(db, admin.sessionId);
    const session = await refresh(ctx, request, admin);
    await audit(db, request, {
      action: 'simulate.stop', entity: 'user', entityId: admin.id, actorId: admin.id, simulatedById: null,
      before, after: null,
    });
    return session;
  }
  if (!found.active) throw forbidden('auth.user_disabled');
  const identity = await loadCallerIdentity(ctx.database, found.id);
  if (!identity) throw forbidden('auth.user_disabled');
  if (identity.roles.length === 0) throw forbidden('auth.no_permissions');
  await revokeChildren(db, admin.sessionId);
  const session = await buildSession(ctx, identity, { remember: false, simulation: { ...simulationBase, role: null }, request });
  await audit(db, request, {
    action: 'simulate.user', entity: 'user', entityId: found.id, actorId: admin.id, simulatedById: null,
    before,
    after: { id_user: found.id, mail: found.mail, roles: session.roles.map((r) => r.name) },
  });
  return session;
}
