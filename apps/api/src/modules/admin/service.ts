/** The caller's menu tree, and the role catalogue for the ADMIN's role simulator. */
import { isAdmin } from '@backoffice/core/acl';
import { buildMenuTree, filterMenu, type MenuEntry } from '@backoffice/core/menu';
import type { RoleAcl } from '@backoffice/core/schemas/admin';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { audit } from '../../plugins/audit.ts';
import type { Caller } from '../../plugins/auth.ts';
import { realAdminOf } from '../auth/service.ts';
import { findRole, listMenuEntries, listRoles } from './repo.ts';

/** How long an instance reuses the menu table it read (the table changes only with seeds and migrations). */
export const MENU_CACHE_MS = 10_000;

/**
 * The caller's menu as a tree: ADMIN every entry (hidden included); others the entries their ACL
 * grants, with their parents, never a hidden one. For a simulated session the caller is the
 * simulated user, so this is that user's menu.
 *
 * The menu is read on every screen load, so each instance keeps the table for MENU_CACHE_MS and the
 * trees it built per ACL (a read-through cache of seed data, not shared state: every instance reads
 * the same table and the worst case is a menu change showing up 10 s late).
 */
export function createMenuService(ctx: AppContext) {
  let cached: { entries: MenuEntry[]; at: number; trees: Map<string, MenuEntry[]> } | null = null;
  let loading: Promise<MenuEntry[]> | null = null;
  const MAX_TREES = 500;

  async function entries(): Promise<NonNullable<typeof cached>> {
    if (cached && Date.now() - cached.at < MENU_CACHE_MS) return cached;
    loading ??= listMenuEntries(ctx.database.db).finally(() => (loading = null));
    const list = await loading;
    if (!cached || cached.entries !== list) cached = { entries: list, at: Date.now(), trees: new Map() };
    return cached;
  }

  return {
    async menuFor(caller: Caller): Promise<MenuEntry[]> {
      const snapshot = await entries();
      const key = isAdmin(caller.roles) ? 'admin' : JSON.stringify(caller.acl);
      let tree = snapshot.trees.get(key);
      if (!tree) {
        tree = buildMenuTree(filterMenu(snapshot.entries, caller));
        if (snapshot.trees.size >= MAX_TREES) snapshot.trees.clear();
        snapshot.trees.set(key, tree);
      }
      return tree;
    },
  };
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
