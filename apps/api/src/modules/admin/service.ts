/** The caller's menu tree, and the role catalogue for the ADMIN's role simulator. */
import { isAdmin } from '@backoffice/core/acl';
import { ok } from '@backoffice/core/envelope';
import { buildMenuTree, filterMenu, type MenuEntry } from '@backoffice/core/menu';
import type { RoleAcl } from '@backoffice/core/schemas/admin';
import type { FastifyRequest } from 'fastify';
import zlib from 'node:zlib';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { audit } from '../../plugins/audit.ts';
import type { Caller } from '../../plugins/auth.ts';
import { endUserSessions, listOpenSessions, type SessionListItem } from '../../plugins/sessions.ts';
import { findUserById } from '../auth/repo.ts';
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
  let cached: { entries: MenuEntry[]; signature: string; at: number; trees: Map<string, MenuTree> } | null = null;
  let loading: Promise<MenuEntry[]> | null = null;
  const MAX_TREES = 500;

  async function entries(): Promise<NonNullable<typeof cached>> {
    if (cached && Date.now() - cached.at < MENU_CACHE_MS) return cached;
    loading ??= listMenuEntries(ctx.database.db).finally(() => (loading = null));
    const list = await loading;
    // The built trees (and their serialised, compressed bodies) stay while the table is unchanged.
    const signature = JSON.stringify(list);
    if (cached && cached.signature === signature) cached.at = Date.now();
    else cached = { entries: list, signature, at: Date.now(), trees: new Map() };
    return cached;
  }

  /** The tree for this caller's ACL, built once per ACL (and menu table read). */
  async function treeFor(caller: Caller): Promise<MenuTree> {
    const snapshot = await entries();
    const key = isAdmin(caller.roles) ? 'admin' : aclKey(caller.acl);
    let tree = snapshot.trees.get(key);
    if (!tree) {
      const list = buildMenuTree(filterMenu(snapshot.entries, caller));
      tree = { list, bodies: {} };
      if (snapshot.trees.size >= MAX_TREES) snapshot.trees.clear();
      snapshot.trees.set(key, tree);
    }
    return tree;
  }

  return {
    /**
     * The whole success envelope of the caller's menu as UTF-8 JSON, serialised (and compressed)
     * once per ACL: the admin tree is about 15 KB, and serialising and writing it was most of the
     * route's cost. `encoding` is what the client accepts (see `menuEncoding`).
     */
    async menuEnvelope(caller: Caller, encoding: MenuEncoding): Promise<Buffer> {
      const tree = await treeFor(caller);
      const json = (tree.bodies.identity ??= Buffer.from(JSON.stringify(ok(tree.list)), 'utf8'));
      if (encoding === 'br') {
        return (tree.bodies.br ??= zlib.brotliCompressSync(json, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: json.length },
        }));
      }
      if (encoding === 'gzip') return (tree.bodies.gzip ??= zlib.gzipSync(json, { level: 9 }));
      return json;
    },
  };
}

export type MenuEncoding = 'br' | 'gzip' | 'identity';

/** Accept-Encoding values seen lately and their answer (clients send a handful of distinct ones). */
const encodings = new Map<string, MenuEncoding>();

/** The best encoding of the menu a client accepts (Accept-Encoding; q=0 refuses one). */
export function menuEncoding(acceptEncoding: string | undefined): MenuEncoding {
  if (!acceptEncoding) return 'identity';
  let known = encodings.get(acceptEncoding);
  if (known === undefined) {
    known = parseMenuEncoding(acceptEncoding);
    if (encodings.size >= 100) encodings.clear();
    encodings.set(acceptEncoding, known);
  }
  return known;
}

function parseMenuEncoding(acceptEncoding: string): MenuEncoding {
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}

/** The text key of an ACL; the identity cache hands out the same ACL object, so it is made once. */
const aclKeys = new WeakMap<object, string>();
function aclKey(acl: Caller['acl']): string {
  let key = aclKeys.get(acl);
  if (key === undefined) {
    key = JSON.stringify(acl);
    aclKeys.set(acl, key);
  }
  return key;
}

interface MenuTree {
  list: MenuEntry[];
  /** The envelope as UTF-8 JSON bytes and its compressed forms, each made on first use. */
  bodies: Partial<Record<MenuEncoding, Buffer>>;
}

export async function rolesFor(ctx: AppContext) {
  return listRoles(ctx.database.db);
}

/** A role's ACL (what a role simulation applies). */
export async function roleAclFor(ctx: AppContext, roleId: number): Promise<RoleAcl> {
  const role = await findRole(ctx.database.db, roleId);
  if (!role) throw notFound('admin.role_not_found');
  return { id: role.id, name: role.name, acl: role.acl };
}

export async function sessionsOf(ctx: AppContext, userId: number): Promise<SessionListItem[]> {
  const user = await findUserById(ctx.database.db, userId);
  if (!user) throw notFound('admin.user_not_found');
  return listOpenSessions(ctx.database.db, userId);
}

/** Ends a user's open sessions (all, or one); audit-logged. */
export async function endSessionsOf(ctx: AppContext, request: FastifyRequest, userId: number, sessionId: string | null): Promise<{ ended: number }> {
  const db = ctx.database.db;
  const user = await findUserById(db, userId);
  if (!user) throw notFound('admin.user_not_found');
  const ended = await endUserSessions(db, userId, sessionId);
  if (sessionId !== null && !ended.includes(sessionId)) throw notFound('admin.session_not_found');
  if (ended.length > 0) {
    await audit(db, request, { action: 'user.sessions_end', entity: 'user', entityId: userId, after: { mail: user.mail, sessions: ended.length } });
  }
  return { ended: ended.length };
}
