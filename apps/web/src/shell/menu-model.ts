/**
 * The sidebar's model, kept pure for tests: the API's menu tree filtered for the caller
 * (core/menu.ts: ADMIN sees everything including hidden entries), searched by translated title
 * (groups with matches open), and the entry that matches the current path.
 */
import { buildMenuTree, entryPath, filterMenu, flattenMenu, type Caller, type MenuEntry } from '@backoffice/core/menu';

export { flattenMenu };

export interface VisibleMenu {
  flat: MenuEntry[];
  tree: MenuEntry[];
}

export function visibleMenu(tree: readonly MenuEntry[], caller: Caller): VisibleMenu {
  const flat = filterMenu(flattenMenu(tree), caller);
  return { flat, tree: buildMenuTree(flat) };
}

/** Lowercase, accents removed, spaces collapsed: 'Facturación' matches 'facturacion'. */
export function normalizeSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

export const groupKey = (entry: Pick<MenuEntry, 'id'>) => `group-${entry.id}`;
export const leafKey = (entry: Pick<MenuEntry, 'id'>) => `entry-${entry.id}`;

export const isGroup = (entry: MenuEntry) => Boolean(entry.children && entry.children.length > 0);

/**
 * Keeps the entries whose translated title matches the query; a matching group keeps all its
 * children. Returns the filtered tree and the groups to open. An empty query changes nothing.
 */
export function searchMenu(
  tree: readonly MenuEntry[],
  query: string,
  translate: (key: string) => string,
): { tree: MenuEntry[]; openKeys: string[] } {
  const q = normalizeSearch(query);
  if (q === '') return { tree: [...tree], openKeys: [] };
  const openKeys: string[] = [];
  const filter = (nodes: readonly MenuEntry[]): MenuEntry[] => {
    const kept: MenuEntry[] = [];
    for (const node of nodes) {
      const matches = normalizeSearch(translate(node.title)).includes(q);
      if (isGroup(node)) {
        const children = matches ? node.children! : filter(node.children!);
        if (children.length > 0) {
          kept.push({ ...node, children });
          openKeys.push(groupKey(node));
        }
      } else if (matches) {
        kept.push(node);
      }
    }
    return kept;
  };
  return { tree: filter(tree), openKeys };
}

/** The leaf whose path is the longest prefix of the current path (the dashboard only for '/'). */
export function activeEntry(flat: readonly MenuEntry[], path: string): MenuEntry | null {
  let best: MenuEntry | null = null;
  let bestLength = -1;
  for (const entry of flat) {
    if (flat.some((c) => c.id_parent === entry.id)) continue;
    const p = entryPath(entry);
    const hit = p === '/' ? path === '/' : path === p || path.startsWith(`${p}/`);
    if (hit && p.length > bestLength) {
      best = entry;
      bestLength = p.length;
    }
  }
  return best;
}

/** Group keys on the way to an entry (to open its group). */
export function ancestorKeys(flat: readonly MenuEntry[], entry: MenuEntry | null): string[] {
  const keys: string[] = [];
  let parentId = entry?.id_parent ?? null;
  while (parentId !== null) {
    const parent = flat.find((e) => e.id === parentId);
    if (!parent) break;
    keys.unshift(groupKey(parent));
    parentId = parent.id_parent;
  }
  return keys;
}

/** The link of an entry inside the locale: `/es/utils/ip`, `/es` for the dashboard. */
export function entryHref(lang: string, entry: Pick<MenuEntry, 'prefix' | 'slug'>): string {
  const p = entryPath(entry);
  return p === '/' ? `/${lang}` : `/${lang}${p}`;
}
