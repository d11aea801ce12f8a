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
 * - Failed sign-ins are limited per mail and per source address in fixed windows kept in the
 *   database. Each attempt is counted before the password is checked (so parallel guesses cannot
 *   slip past the limit, and a limited caller learns nothing about the password); a right password
 *   resets the mail's count and gives the address its attempt back.
 */
import { isAdmin, type RoleRef } from '@backoffice/core/acl';
import { isCompanyMail, normalizeMail } from '@backoffice/core/mail';
import type { LoginRequest, Session } from '@backoffice/core/schemas/auth';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError, forbidden, notFound, unauthorized } from '../../lib/errors.ts';
import { verifyAgainstDummy, verifyPassword } from '../../lib/password.ts';
import { hitRateLimit, refundRateLimit, resetRateLimit, tooManyRequests, type RateLimitRule, type RateLimitState } from '../../lib/rate-limit.ts';
import { audit } from '../../plugins/audit.ts';
import { callerOf, loadCallerIdentity, type Caller } from '../../plugins/auth.ts';
import { findUserById, findUserByMail, pictureFor } from './repo.ts';

type Identity = NonNullable<Awaited<ReturnType<typeof loadCallerIdentity>>>;

export const loginMailKey = (mail: string) => `login:mail:${mail}`;
export const loginIpKey = (ip: string) => `login:ip:${ip}`;

/** Builds the session answer (data of login, refresh and login/as) with a fresh token. */
export async function buildSession(
  ctx: AppContext,
  identity: Identity,
  opts: { remember: boolean; simulatedBy: { id: number; mail: string; name: string } | null },
): Promise<Session> {
  const { token, exp } = await ctx.tokens.sign(identity.id, { remember: opts.remember, simulatedBy: opts.simulatedBy?.id ?? null });
  return {
    id: identity.id,
    mail: identity.mail,
    name: identity.name,
    token,
    roles: identity.roles.map((r: RoleRef) => ({ id: Number(r.id), name: r.name })),
    acl: identity.acl,
    exp,
    picture: await pictureFor(ctx.database.db, identity.mail),
    simulated_by: opts.simulatedBy,
  };
}

function loginRules(ctx: AppContext): { mail: RateLimitRule; ip: RateLimitRule } {
  const windowSec = ctx.config.loginWindowSec;
  return { mail: { max: ctx.config.loginMaxPerMail, windowSec }, ip: { max: ctx.config.loginMaxPerIp, windowSec } };
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

export async function login(ctx: AppContext, request: FastifyRequest, body: LoginRequest): Promise<Session> {
  const db = ctx.database.db;
  const mail = normalizeMail(body.email, ctx.config.companyDomains);
  const rules = loginRules(ctx);
  const ipState = await hitRateLimit(db, loginIpKey(request.ip), rules.ip);

  if (!isCompanyMail(mail, ctx.config.companyDomains)) {
    if (ipState.limited) throw await blocked(ctx, request, mail, [[ipState, rules.ip]]);
    await auditFailure(ctx, request, mail, 'domain_not_allowed', null);
    throw new AppError(400, 'auth.domain_not_allowed', { errors: { email: 'auth.domain_not_allowed' } });
  }

  const mailState = await hitRateLimit(db, loginMailKey(mail), rules.mail);
  if (ipState.limited || mailState.limited) {
    throw await blocked(ctx, request, mail, [[ipState, rules.ip], [mailState, rules.mail]]);
  }

  const user = await findUserByMail(db, mail);
  const passwordOk = user ? await verifyPassword(body.password, user.passwordHash) : await verifyAgainstDummy(body.password);
  if (!user || !passwordOk) {
    await auditFailure(ctx, request, mail, 'invalid_credentials', user?.id ?? null);
    throw unauthorized('auth.invalid_credentials');
  }

  // The right password: forget this mail's failures and give the address its attempt back.
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
  const session = await buildSession(ctx, identity, { remember, simulatedBy: null });
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

/** The 429 for a limited sign-in; audited once, when the limit is first crossed. */
async function blocked(ctx: AppContext, request: FastifyRequest, mail: string, checks: [RateLimitState, RateLimitRule][]) {
  const limited = checks.map(([state]) => state).filter((s) => s.limited);
  const worst = limited.reduce((a, b) => (b.retryAfterSec > a.retryAfterSec ? b : a));
  if (checks.some(([state, rule]) => state.count === rule.max + 1)) await auditFailure(ctx, request, mail, 'too_many_attempts', null);
  return tooManyRequests(worst, 'auth.too_many_attempts');
}

/**
 * The ADMIN behind a caller: the caller itself, or, for a simulated session, the admin who is
 * simulating (who must still be an active ADMIN). Throws 403 admin.only otherwise.
 */
export async function realAdminOf(ctx: AppContext, caller: Caller): Promise<Identity> {
  const id = caller.simulatedBy ?? caller.id;
  const identity = id === caller.id ? caller : await loadCallerIdentity(ctx.database, id);
  if (!identity || !isAdmin(identity.roles)) throw forbidden('admin.only');
  return { id: identity.id, mail: identity.mail, name: identity.name, roles: identity.roles, acl: identity.acl };
}

/** A fresh session for a valid token: same user, same simulation, same "remember" choice. */
export async function refresh(ctx: AppContext, caller: Caller): Promise<Session> {
  let simulatedBy: Session['simulated_by'] = null;
  if (caller.simulatedBy !== null) {
    const admin = await loadCallerIdentity(ctx.database, caller.simulatedBy);
    // The simulation ends when the simulating account stops being an active ADMIN.
    if (!admin || !isAdmin(admin.roles)) throw unauthorized('auth.token_invalid');
    simulatedBy = { id: admin.id, mail: admin.mail, name: admin.name };
  }
  if (caller.roles.length === 0) throw forbidden('auth.no_permissions');
  return buildSession(ctx, caller, { remember: caller.remember, simulatedBy });
}

/**
 * ADMIN only: a session of another user that records who simulates it. While already simulating,
 * the real admin (the token's `sim`) simulates the new user; choosing the real admin's own id ends
 * the simulation. Audit-logged.
 */
export async function loginAs(ctx: AppContext, request: FastifyRequest, caller: Caller, targetId: number): Promise<Session> {
  const admin = await realAdminOf(ctx, caller);
  const db = ctx.database.db;
  const target = await findUserById(db, targetId);
  if (!target) throw notFound('admin.user_not_found');
  const previous = caller.simulatedBy !== null ? caller.id : null;
  if (target.id === admin.id) {
    const session = await buildSession(ctx, admin, { remember: false, simulatedBy: null });
    await audit(db, request, {
      action: 'simulate.stop', entity: 'user', entityId: admin.id, actorId: admin.id, simulatedById: null,
      before: { simulating: previous }, after: null,
    });
    return session;
  }
  if (!target.active) throw forbidden('auth.user_disabled');
  const identity = await loadCallerIdentity(ctx.database, target.id);
  if (!identity) throw forbidden('auth.user_disabled');
  if (identity.roles.length === 0) throw forbidden('auth.no_permissions');
  const session = await buildSession(ctx, identity, {
    remember: false,
    simulatedBy: { id: admin.id, mail: admin.mail, name: admin.name },
  });
  await audit(db, request, {
    action: 'simulate.user', entity: 'user', entityId: target.id, actorId: admin.id, simulatedById: null,
    before: { simulating: previous },
    after: { id_user: target.id, mail: target.mail, roles: session.roles.map((r) => r.name) },
  });
  return session;
}

/** Route hook: ADMIN only (a simulated session counts as its real ADMIN), checked before validation. */
export function requireRealAdmin(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    await realAdminOf(ctx, callerOf(request));
  };
}
