/** The caller's menu tree, and the role catalogue for the ADMIN's role simulator. */
import { buildMenuTree, filterMenu, type MenuEntry } from '@backoffice/core/menu';
import type { RoleAcl } from '@backoffice/core/schemas/admin';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { audit } from '../../plugins/audit.ts';
import type { Caller } from '../../plugins/auth.ts';
import { realAdminOf } from '../auth/service.ts';
import { findRole, listMenuEntries, listRoles } from './repo.ts';

/**
 * The caller's menu as a tree: ADMIN every entry (hidden included); others the entries their ACL
 * grants, with their parents, never a hidden one. For a simulated session the caller is the
 * simulated user, so this is that user's menu.
 */
export async function menuFor(ctx: AppContext, caller: Caller): Promise<MenuEntry[]> {
  const entries = await listMenuEntries(ctx.database.db);
  return buildMenuTree(filterMenu(entries, caller));
}

export async function rolesFor(ctx: AppContext, caller: Caller) {
  await realAdminOf(ctx, caller);
  return listRoles(ctx.database.db);
}

/** A role's ACL, which the simulator loads to simulate that role; audit-logged (simulate.role). */
export async function roleAclFor(ctx: AppContext, request: FastifyRequest, caller: Caller, roleId: number): Promise<RoleAcl> {
  const admin = await realAdminOf(ctx, caller);
  const role = await findRole(ctx.database.db, roleId);
  if (!role) throw notFound('admin.role_not_found');
  await audit(ctx.database.db, request, {
    action: 'simulate.role',
    entity: 'role',
    entityId: role.id,
    actorId: admin.id,
    simulatedById: null,
    after: { name: role.name },
  });
  return { id: role.id, name: role.name, acl: role.acl };
}
