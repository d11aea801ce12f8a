import { translate } from '@backoffice/core/i18n/catalogues';
import type { MenuEntry } from '@backoffice/core/menu';
import { MENU_GROUPS, MENU_ROUTES } from '@backoffice/core/routes';
import { describe, expect, it } from 'vitest';
import { MENU_ICONS } from './menu-icons.tsx';
import {
  activeEntry,
  ancestorKeys,
  entryHref,
  flattenMenu,
  groupKey,
  normalizeSearch,
  searchMenu,
  visibleMenu,
} from './menu-model.ts';

/** The seed menu as the API sends it: a tree of groups and entries. */
function seedTree(): MenuEntry[] {
  const groups = new Map<string, MenuEntry>();
  MENU_GROUPS.forEach((g, i) =>
    groups.set(g.id, {
      id: 1000 + i,
      id_parent: null,
      title: `menu.group.${g.id}`,
      icon: g.icon,
      prefix: '',
      slug: '',
      permission: '',
      hidden: false,
      order: i + 1,
      children: [],
    }),
  );
  const roots: MenuEntry[] = [];
  MENU_ROUTES.forEach((r, i) => {
    const parent = r.group ? groups.get(r.group) : undefined;
    const entry: MenuEntry = {
      id: i + 1,
      id_parent: parent ? parent.id : null,
      title: `menu.${r.id}`,
      icon: r.icon,
      prefix: r.prefix,
      slug: r.slug,
      permission: r.permission,
      hidden: r.hidden ?? false,
      order: i,
      children: [],
    };
    if (parent) parent.children!.push(entry);
    else roots.push(entry);
  });
  return [...roots, ...groups.values()];
}

const admin = { roles: [{ id: 1, name: 'ADMIN' }], acl: {} };
const finance = { roles: [{ id: 2, name: 'FINANCE' }], acl: { '/v1/billing': ['*'], '/v1/finances': ['read'] } };
const en = (key: string) => translate('en', key);
const es = (key: string) => translate('es', key);

describe('menu model', () => {
  it('flattens the API tree keeping parents', () => {
    const flat = flattenMenu(seedTree());
    expect(flat).toHaveLength(MENU_ROUTES.length + MENU_GROUPS.length);
    expect(flat.every((e) => e.children === undefined)).toBe(true);
    const ip = flat.find((e) => e.slug === 'ip');
    expect(ip?.id_parent).toBe(flat.find((e) => e.title === 'menu.group.settings')?.id);
  });

  it('shows ADMIN everything, hidden entries included', () => {
    const { flat } = visibleMenu(seedTree(), admin);
    expect(flat.some((e) => e.title === 'menu.logs_parametrization')).toBe(true);
    expect(flat).toHaveLength(MENU_ROUTES.length + MENU_GROUPS.length);
  });

  it('shows a role only its entries and their groups, never hidden ones', () => {
    const { flat, tree } = visibleMenu(seedTree(), finance);
    const titles = flat.map((e) => e.title);
    expect(titles).toContain('menu.dashboard');
    expect(titles).toContain('menu.bp_advertiser');
    expect(titles).toContain('menu.bs_advertiser');
    expect(titles).toContain('menu.finances_supply');
    expect(titles).toContain('menu.group.billing_ssp');
    expect(titles).not.toContain('menu.ip_firewall');
    expect(titles).not.toContain('menu.group.settings');
    expect(titles).not.toContain('menu.logs_parametrization');
    expect(tree.map((e) => e.title)).toEqual(['menu.dashboard', 'menu.group.billing_performance', 'menu.group.billing_ssp', 'menu.group.finances']);
  });

  it('searches translated titles, ignoring case and accents, and opens the groups', () => {
    const { tree } = visibleMenu(seedTree(), admin);
    const found = searchMenu(tree, 'FIREWALL', en);
    expect(found.tree).toHaveLength(1);
    expect(found.tree[0]?.title).toBe('menu.group.settings');
    expect(found.tree[0]?.children?.map((c) => c.title)).toEqual(['menu.ip_firewall']);
    expect(found.openKeys).toEqual([groupKey(found.tree[0]!)]);

    const accents = searchMenu(tree, 'facturacion', es);
    expect(accents.tree.length).toBeGreaterThan(0);
  });

  it('keeps every child of a group whose title matches', () => {
    const { tree } = visibleMenu(seedTree(), admin);
    const found = searchMenu(tree, 'builders', en);
    const builders = found.tree.find((e) => e.title === 'menu.group.builders');
    expect(builders?.children?.length).toBe(MENU_ROUTES.filter((r) => r.group === 'builders').length);
  });

  it('finds nothing for a query that matches nothing, and everything for an empty query', () => {
    const { tree } = visibleMenu(seedTree(), admin);
    expect(searchMenu(tree, 'zzzz-nothing', en).tree).toEqual([]);
    expect(searchMenu(tree, '   ', en).tree).toHaveLength(tree.length);
    expect(normalizeSearch('  Facturación   SSP ')).toBe('facturacion ssp');
  });

  it('finds the active entry by the longest path prefix, and its groups', () => {
    const { flat } = visibleMenu(seedTree(), admin);
    expect(activeEntry(flat, '/')?.title).toBe('menu.dashboard');
    expect(activeEntry(flat, '/reports/dataviewer/12')?.title).toBe('menu.dataviewers');
    expect(activeEntry(flat, '/utils/ssp/logs-data/parametrization')?.title).toBe('menu.logs_parametrization');
    expect(activeEntry(flat, '/nowhere')).toBeNull();
    const ip = activeEntry(flat, '/utils/ip');
    expect(ancestorKeys(flat, ip)).toEqual([groupKey(flat.find((e) => e.title === 'menu.group.settings')!)]);
  });

  it('links entries inside the locale', () => {
    expect(entryHref('es', { prefix: '/utils', slug: 'ip' })).toBe('/es/utils/ip');
    expect(entryHref('en', { prefix: '', slug: '' })).toBe('/en');
  });

  it('has an icon for every menu entry and group of the seed', () => {
    for (const r of MENU_ROUTES) expect(MENU_ICONS, r.icon).toHaveProperty(r.icon);
    for (const g of MENU_GROUPS) expect(MENU_ICONS, g.icon).toHaveProperty(g.icon);
  });
});
