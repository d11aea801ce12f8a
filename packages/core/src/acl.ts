/**
 * The ACL engine (spec section 6), shared by the API (route guards) and the web app
 * (menus, route guards, disabled fields).
 *
 * An ACL maps a resource to the actions allowed on it:
 *   { "/v1/firewall": ["read", "write", "firewall_unlimited"], "/v1/reports": ["*"] }
 * - A resource key grants itself and everything below it ("/v1/billing" grants "/v1/billing/ssp").
 * - A key that starts with "^" is a regular expression tested against the resource.
 * - The action "*" allows any action.
 * - The bypass marker key grants every resource outside the protected list.
 */

export type Acl = Record<string, string[]>;

export interface RoleRef {
  id: number | string;
  name: string;
}

/** ACL key that lets a user bypass checks for resources outside {@link PROTECTED_RESOURCES}. */
export const ACL_BYPASS = '__bypass__';

/** Wildcard action. */
export const ANY_ACTION = '*';

/** The admin role name (spec section 6). */
export const ADMIN_ROLE = 'ADMIN';

/** Protected areas (spec section 6): the bypass marker never opens these. */
export const PROTECTED_RESOURCES = ['/v1/scheduler-api', '/v1/admin', 'scheduler', 'resources_manager', '/v1/app-log'] as const;

/** Sub-permission (an action on /v1/firewall) needed for the unlimited firewall duration. */
export const FIREWALL_UNLIMITED = 'firewall_unlimited';

export interface Permission {
  resource: string;
  /** Omitted: any action on the resource is enough. */
  action?: string;
}

function keyCovers(key: string, resource: string): boolean {
  if (key.startsWith('^')) {
    try {
      return new RegExp(key).test(resource);
    } catch {
      return false;
    }
  }
  if (key === resource) return true;
  const base = key.endsWith('/') ? key : `${key}/`;
  return resource.startsWith(base);
}

function isProtected(resource: string): boolean {
  return PROTECTED_RESOURCES.some((p) => keyCovers(p, resource));
}

function actionsAllow(actions: readonly string[] | undefined, action: string | undefined): boolean {
  if (!actions || actions.length === 0) return false;
  if (action === undefined) return true;
  return actions.includes(ANY_ACTION) || actions.includes(action);
}

/** Does the ACL allow `action` (or any action, when omitted) on `resource`? */
export function can(acl: Acl | null | undefined, resource: string, action?: string): boolean {
  if (!acl) return false;
  for (const [key, actions] of Object.entries(acl)) {
    if (key === ACL_BYPASS) continue;
    if (keyCovers(key, resource) && actionsAllow(actions, action)) return true;
  }
  const bypass = acl[ACL_BYPASS];
  if (bypass && actionsAllow(bypass, action) && !isProtected(resource)) return true;
  return false;
}

/** A role check matches either the id or the name (spec section 6). Names compare case-insensitively. */
export function hasRole(roles: readonly RoleRef[] | null | undefined, idOrName: number | string): boolean {
  if (!roles) return false;
  const wanted = String(idOrName).toLowerCase();
  return roles.some((r) => String(r.id).toLowerCase() === wanted || r.name.toLowerCase() === wanted);
}

export function isAdmin(roles: readonly RoleRef[] | null | undefined): boolean {
  return hasRole(roles, ADMIN_ROLE);
}

/** Is this caller allowed: admins always, others through their ACL. */
export function isAllowed(
  who: { roles: readonly RoleRef[]; acl: Acl } | null | undefined,
  permission: Permission,
): boolean {
  if (!who) return false;
  if (isAdmin(who.roles)) return true;
  return can(who.acl, permission.resource, permission.action);
}

/** Union of several roles' ACLs (a user with two roles gets both). */
export function mergeAcls(acls: readonly Acl[]): Acl {
  const out: Record<string, Set<string>> = {};
  for (const acl of acls) {
    for (const [key, actions] of Object.entries(acl)) {
      const set = (out[key] ??= new Set());
      for (const a of actions) set.add(a);
    }
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v].sort()]));
}

/** Checks that every regular-expression key compiles; returns the keys that do not. */
export function invalidAclKeys(acl: Acl): string[] {
  return Object.keys(acl).filter((k) => {
    if (!k.startsWith('^')) return false;
    try {
      new RegExp(k);
      return false;
    } catch {
      return true;
    }
  });
}
