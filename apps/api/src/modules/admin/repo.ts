/** Queries for the menu and roles. */
import type { MenuEntry } from '@backoffice/core/menu';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { menuEntries, roles, type Acl } from '../../db/schema.ts';

/** Every menu entry, flat, in the API's field names. */
export async function listMenuEntries(db: Db): Promise<MenuEntry[]> {
  const rows = await db.select().from(menuEntries).orderBy(asc(menuEntries.order), asc(menuEntries.id));
  return rows.map((r) => ({
    id: r.id,
    id_parent: r.idParent,
    title: r.title,
    icon: r.icon,
    prefix: r.prefix,
    slug: r.slug,
    permission: r.permission,
    hidden: r.hidden,
    order: r.order,
  }));
}

export async function listRoles(db: Db): Promise<{ id: number; name: string }[]> {
  return db.select({ id: roles.id, name: roles.name }).from(roles).orderBy(asc(roles.id));
}

export async function findRole(db: Db, id: number): Promise<{ id: number; name: string; acl: Acl } | null> {
  const [row] = await db.select({ id: roles.id, name: roles.name, acl: roles.acl }).from(roles).where(eq(roles.id, id));
  return row ?? null;
}
