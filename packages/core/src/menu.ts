/** Menu filtering and route guarding (spec sections 4 and 6), shared by the API and the web app. */
import { isAdmin, isAllowed, type Acl, type RoleRef } from './acl.ts';

export interface MenuEntry {
  id: number;
  id_parent: number | null;
  title: string;
  icon: string;
  prefix: string;
  slug: string;
  permission: string;
  hidden: boolean;
  order?: number;
  children?: MenuEntry[];
}

export interface Caller {
  roles: readonly RoleRef[];
  acl: Acl;
}

/** Path of an entry: prefix + '/' + slug; group entries (no slug) have their prefix or ''. */
export function entryPath(e: Pick<MenuEntry, 'prefix' | 'slug'>): string {
  const p = [e.prefix, e.slug].filter(Boolean).join('/');
  if (p === '') return '/';
  return p.startsWith('/') ? p : `/${p}`;
}

/** A leaf entry is one that links to a screen (it has a slug, or it is the home entry). */
export function isLeaf(e: MenuEntry, all: readonly MenuEntry[]): boolean {
  return !all.some((c) => c.id_parent === e.id);
}

/**
 * The entries a caller may see, as a flat list: ADMIN gets everything (hidden included);
 * others get the entries whose permission they hold, plus their parents, never a hidden one.
 */
export function filterMenu(entries: readonly MenuEntry[], caller: Caller): MenuEntry[] {
  if (isAdmin(caller.roles)) return [...entries];
  const byId = new Map(entries.map((e) => [e.id, e]));
  const keep = new Set<number>();
  for (const e of entries) {
    if (e.hidden) continue;
    if (!isLeaf(e, entries)) continue;
    if (e.permission !== '' && !isAllowed(caller, { resource: e.permission })) continue;
    keep.add(e.id);
    let parent = e.id_parent !== null ? byId.get(e.id_parent) : undefined;
    while (parent) {
      if (parent.hidden) break;
      keep.add(parent.id);
      parent = parent.id_parent !== null ? byId.get(parent.id_parent) : undefined;
    }
  }
  // Drop a child whose parent was hidden and therefore not kept.
  return entries.filter((e) => keep.has(e.id) && (e.id_parent === null || keep.has(e.id_parent)));
}

/** A tree of menu entries as a flat list (children point to their parent). */
export function flattenMenu(tree: readonly MenuEntry[]): MenuEntry[] {
  const out: MenuEntry[] = [];
  const walk = (nodes: readonly MenuEntry[], parent: number | null) => {
    for (const node of nodes) {
      const { children, ...entry } = node;
      out.push({ ...entry, id_parent: entry.id_parent ?? parent });
      if (children?.length) walk(children, node.id);
    }
  };
  walk(tree, null);
  return out;
}

/** Nests a flat list into a tree (children sorted by order, then id). */
export function buildMenuTree(entries: readonly MenuEntry[]): MenuEntry[] {
  const nodes = new Map<number, MenuEntry>(entries.map((e) => [e.id, { ...e, children: [] }]));
  const roots: MenuEntry[] = [];
  for (const n of nodes.values()) {
    const parent = n.id_parent !== null ? nodes.get(n.id_parent) : undefined;
    if (parent) parent.children!.push(n);
    else roots.push(n);
  }
  const sort = (list: MenuEntry[]) => {
    list.sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || a.id - b.id);
    for (const n of list) if (n.children) sort(n.children);
  };
  sort(roots);
  return roots;
}

/** Normalises a path: no trailing slash (except '/'), no query or hash. */
export function normalizePath(path: string): string {
  const bare = path.split(/[?#]/)[0] ?? '';
  const trimmed = bare.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Paths every signed-in user may open (spec section 6: root and login; plus the forbidden panel). */
export const ALWAYS_ALLOWED_PATHS = ['/', '/login', '/not_allowed'] as const;

/**
 * May the caller open this app path (without the locale segment)? Root, login and not_allowed
 * always; ADMIN everything; others only paths at or below a leaf menu entry they can see.
 */
export function isPathAllowed(path: string, visibleEntries: readonly MenuEntry[], caller: Caller): boolean {
  const p = normalizePath(path);
  if ((ALWAYS_ALLOWED_PATHS as readonly string[]).includes(p)) return true;
  if (isAdmin(caller.roles)) return true;
  return visibleEntries.some((e) => {
    if (!e.slug && e.prefix === '') return false;
    if (!isLeaf(e, visibleEntries) && !e.slug) return false;
    const ep = entryPath(e);
    if (ep === '/') return false;
    const allowed = e.permission === '' || isAllowed(caller, { resource: e.permission });
    return allowed && (p === ep || p.startsWith(`${ep}/`));
  });
}
