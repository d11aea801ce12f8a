/**
 * Seeding. The menu tree (from the route table in @backoffice/core/routes) is kept in sync on every
 * start; the demo data set is seeded on first start only, never in production.
 */
import { MENU_GROUPS, MENU_ROUTES } from '@backoffice/core/routes';
import { sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Database } from './client.ts';
import { menuEntries } from './schema.ts';

/** Writes the menu tree when the table is empty. */
export async function seedMenu(database: Database): Promise<void> {
  const [{ n } = { n: 0 }] = await database.db.select({ n: sql<number>`count(*)::int` }).from(menuEntries);
  if (n > 0) return;
  await database.db.transaction(async (tx) => {
    let order = 0;
    const groupIds = new Map<string, number>();
    const home = MENU_ROUTES.find((r) => r.group === null);
    if (home) {
      await tx.insert(menuEntries).values({
        title: `menu.${home.id}`, icon: home.icon, prefix: home.prefix, slug: home.slug,
        permission: home.permission, hidden: home.hidden ?? false, order: order++,
      });
    }
    for (const g of MENU_GROUPS) {
      const [row] = await tx
        .insert(menuEntries)
        .values({ title: `menu.group.${g.id}`, icon: g.icon, order: order++ })
        .returning({ id: menuEntries.id });
      groupIds.set(g.id, row!.id);
    }
    for (const r of MENU_ROUTES) {
      if (r.group === null) continue;
      await tx.insert(menuEntries).values({
        idParent: groupIds.get(r.group) ?? null,
        title: `menu.${r.id}`, icon: r.icon, prefix: r.prefix, slug: r.slug,
        permission: r.permission, hidden: r.hidden ?? false, order: order++,
      });
    }
  });
}

export async function seed(database: Database, _config: Config): Promise<void> {
  await seedMenu(database);
}
