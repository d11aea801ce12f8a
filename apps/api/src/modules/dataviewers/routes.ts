/**
 * Saved DataViewers (screens: /reports/dataviewer/{id}, /report/{id}):
 *   GET    /v1/reports/dataviewers[/…]        the resource layer's reads (savedDataviewers in core):
 *                                             the list of those the caller may open (its own and
 *                                             those shared with one of its roles; all for ADMIN),
 *                                             paginated, sorted, filtered by name, with owner, roles
 *                                             and can_edit; export, autocomplete, history, used-by;
 *                                             GET …/:id opens one (with its definition)
 *   POST   /v1/reports/dataviewers            save {name, definition, shared_role_ids}
 *   PATCH  /v1/reports/dataviewers/:id        rename / change the definition / share (owner or ADMIN)
 *   DELETE /v1/reports/dataviewers/:id        delete (owner or ADMIN)
 * Every route needs the reports permission ('/v1/reports'); what a person may do with one saved
 * DataViewer is decided by ownership: owner and ADMIN change it, roles it is shared with open it,
 * anybody else gets 404 (its existence is not revealed). Changes are audit-logged (entity
 * 'dataviewer', actions create/update/delete, before and after in full: the history's diff).
 */
import { ok } from '@backoffice/core/envelope';
import { DATAVIEWERS_RESOURCE, dataviewerCreateSchema, dataviewerUpdateSchema, idParamsSchema, REPORT_ERRORS, type SavedDataviewerView, type SavedDefinition } from '@backoffice/core/reports';
import { savedDataviewers } from '@backoffice/core/resources/saved-dataviewers';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { roles, users } from '../../db/schema.ts';
import { dataviewers, dataviewerShares } from '../../db/schema-reports.ts';
import { AppError } from '../../lib/errors.ts';
import { audit } from '../../plugins/audit.ts';
import { callerOf, type Caller } from '../../plugins/auth.ts';
import { resourceRoutes } from '../../resources/routes.ts';
import { canEditDataviewer, canSeeDataviewer, dataviewerScope } from './access.ts';
import { domainValidator } from '../reports/validation.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';

const READ = { permission: { resource: '/v1/reports', action: 'read' } } as const;
/** Saving, changing and deleting (POST, PATCH, DELETE): 'write' on saved DataViewers, by the method. */
const WRITE = { permission: { resource: DATAVIEWERS_RESOURCE } } as const;

/** The roles each of these DataViewers is shared with, by DataViewer id (one query). */
async function sharesOf(db: Db, ids: number[]): Promise<Map<number, { id: number; name: string }[]>> {
  const out = new Map<number, { id: number; name: string }[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await db
    .select({ dataviewerId: dataviewerShares.dataviewerId, roleId: roles.id, roleName: roles.name })
    .from(dataviewerShares)
    .innerJoin(roles, eq(roles.id, dataviewerShares.roleId))
    .where(inArray(dataviewerShares.dataviewerId, ids))
    .orderBy(asc(roles.id));
  for (const r of rows) out.get(r.dataviewerId)?.push({ id: r.roleId, name: r.roleName });
  return out;
}

async function load(db: Db, ids: number[]) {
  const rows = await db
    .select({ dv: dataviewers, ownerName: users.name })
    .from(dataviewers)
    .innerJoin(users, eq(users.id, dataviewers.ownerId))
    .where(inArray(dataviewers.id, ids));
  const shares = await sharesOf(db, rows.map((r) => r.dv.id));
  return rows.map((r) => ({ ...r, shares: shares.get(r.dv.id) ?? [] }));
}

type Loaded = Awaited<ReturnType<typeof load>>[number];

const canSee = (caller: Caller, dv: Loaded) => canSeeDataviewer(caller, { ownerId: dv.dv.ownerId, sharedRoleIds: dv.shares.map((s) => s.id) });
const canEdit = (caller: Caller, dv: Loaded) => canEditDataviewer(caller, dv.dv);

function view(caller: Caller, dv: Loaded, withDefinition: boolean): SavedDataviewerView {
  return {
    id: dv.dv.id,
    name: dv.dv.name,
    owner_id: dv.dv.ownerId,
    owner_id_label: dv.ownerName,
    owner: { id: dv.dv.ownerId, name: dv.ownerName },
    shared_roles: dv.shares,
    shared_role_ids: dv.shares.map((s) => s.id),
    created_at: dv.dv.createdAt.toISOString(),
    updated_at: dv.dv.updatedAt.toISOString(),
    can_edit: canEdit(caller, dv),
    ...(withDefinition ? { definition: dv.dv.definition as SavedDefinition } : {}),
  };
}

/** What an audit entry keeps of a saved DataViewer (before and after a change, in full). */
const audited = (name: string, definition: unknown, roleIds: number[]) => ({ name, definition, shared_role_ids: [...new Set(roleIds)].sort((a, b) => a - b) });

async function checkRoles(db: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await db.select({ id: roles.id }).from(roles).where(inArray(roles.id, ids));
  if (found.length !== new Set(ids).size) throw new AppError(400, 'report.role_unknown', { errors: { shared_role_ids: 'report.role_unknown' } });
}

async function findVisible(db: Db, caller: Caller, id: number): Promise<Loaded> {
  const [dv] = await load(db, [id]);
  if (!dv || !canSee(caller, dv)) throw new AppError(404, REPORT_ERRORS.notFound);
  return dv;
}

type Row = Record<string, unknown>;

/**
 * The layer's rows (id, name, owner_id and its label, created_at, updated_at) as the screen reads
 * them (SavedDataviewerView): owner, the roles shared with and can_edit, for a whole page in one
 * query; one opened by id also carries its definition.
 */
async function decorate(db: Db, rows: Row[], request: FastifyRequest, one: boolean): Promise<Row[]> {
  const caller = callerOf(request);
  const ids = rows.map((r) => r.id as number);
  const [shares, definitions] = await Promise.all([
    sharesOf(db, ids),
    one ? db.select({ id: dataviewers.id, definition: dataviewers.definition }).from(dataviewers).where(inArray(dataviewers.id, ids)) : [],
  ]);
  const definitionOf = new Map(definitions.map((d) => [d.id, d.definition]));
  return rows.map((r) => {
    const id = r.id as number;
    const ownerId = r.owner_id as number;
    const roleList = shares.get(id) ?? [];
    return {
      ...r,
      owner: { id: ownerId, name: (r.owner_id_label as string | null) ?? '' },
      shared_roles: roleList,
      shared_role_ids: roleList.map((s) => s.id),
      can_edit: canEditDataviewer(caller, { ownerId }),
      ...(one ? { definition: definitionOf.get(id) ?? null } : {}),
    };
  });
}

export async function dataviewerRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  const tags = ['reports'];

  // The roles a DataViewer can be shared with (id and name only): anyone who may save DataViewers
  // may share them, and GET /v1/admin/role is ADMIN-only.
  app.get('/v1/reports/roles', { config: { auth: READ }, schema: { tags, summary: 'Roles a DataViewer can be shared with' } }, async () =>
    ok(await db.select({ id: roles.id, name: roles.name }).from(roles).orderBy(asc(roles.name))),
  );

  // The reads: the resource layer, scoped to what the caller may open (404 for anything else),
  // each row with its owner, the roles it is shared with and whether the caller may change it;
  // opened by id, its definition too. The owner is a reference to users (a lookup of the layer).
  resourceRoutes(app, ctx, savedDataviewers, {
    table: dataviewers,
    scope: dataviewerScope,
    decorate: async (rows, request, one) => decorate(ctx.database.db, rows, request, one),
  });

  app.post('/v1/reports/dataviewers', {
    config: { auth: WRITE },
    schema: { tags, summary: 'Saves a DataViewer', body: dataviewerCreateSchema },
    validatorCompiler: domainValidator,
  }, async (request, reply) => {
    const caller = callerOf(request);
    const body = request.body;
    await checkRoles(db, body.shared_role_ids);
    const id = await db.transaction(async (tx) => {
      const [row] = await tx.insert(dataviewers).values({ ownerId: caller.id, name: body.name, definition: body.definition }).returning({ id: dataviewers.id });
      const roleIds = [...new Set(body.shared_role_ids)];
      if (roleIds.length) await tx.insert(dataviewerShares).values(roleIds.map((roleId) => ({ dataviewerId: row!.id, roleId })));
      await audit(tx as unknown as Db, request, { action: 'create', entity: 'dataviewer', entityId: row!.id, after: audited(body.name, body.definition, roleIds) });
      return row!.id;
    });
    const [dv] = await load(db, [id]);
    return reply.code(201).send(ok(view(caller, dv!, true)));
  });

  app.patch('/v1/reports/dataviewers/:id', {
    config: { auth: WRITE },
    schema: { tags, summary: 'Renames, redefines or shares a saved DataViewer (owner or ADMIN)', params: idParamsSchema, body: dataviewerUpdateSchema },
    validatorCompiler: domainValidator,
  }, async (request) => {
    const caller = callerOf(request);
    const id = request.params.id;
    const body = request.body;
    const dv = await findVisible(db, caller, id);
    if (!canEdit(caller, dv)) throw new AppError(403, 'auth.forbidden');
    if (body.shared_role_ids) await checkRoles(db, body.shared_role_ids);
    await db.transaction(async (tx) => {
      const patch: Partial<typeof dataviewers.$inferInsert> = { updatedAt: new Date() };
      if (body.name !== undefined) patch.name = body.name;
      if (body.definition !== undefined) patch.definition = body.definition;
      await tx.update(dataviewers).set(patch).where(eq(dataviewers.id, id));
      if (body.shared_role_ids) {
        await tx.delete(dataviewerShares).where(eq(dataviewerShares.dataviewerId, id));
        const roleIds = [...new Set(body.shared_role_ids)];
        if (roleIds.length) await tx.insert(dataviewerShares).values(roleIds.map((roleId) => ({ dataviewerId: id, roleId })));
      }
      await audit(tx as unknown as Db, request, {
        action: 'update',
        entity: 'dataviewer',
        entityId: id,
        before: audited(dv.dv.name, dv.dv.definition, dv.shares.map((s) => s.id)),
        after: audited(body.name ?? dv.dv.name, body.definition ?? dv.dv.definition, body.shared_role_ids ?? dv.shares.map((s) => s.id)),
      });
    });
    const [fresh] = await load(db, [id]);
    return ok(view(caller, fresh!, true));
  });

  app.delete('/v1/reports/dataviewers/:id', {
    config: { auth: WRITE },
    schema: { tags, summary: 'Deletes a saved DataViewer (owner or ADMIN)', params: idParamsSchema },
    validatorCompiler: domainValidator,
  }, async (request) => {
    const caller = callerOf(request);
    const id = request.params.id;
    const dv = await findVisible(db, caller, id);
    if (!canEdit(caller, dv)) throw new AppError(403, 'auth.forbidden');
    await db.transaction(async (tx) => {
      await tx.delete(dataviewers).where(and(eq(dataviewers.id, id)));
      await audit(tx as unknown as Db, request, {
        action: 'delete',
        entity: 'dataviewer',
        entityId: id,
        before: audited(dv.dv.name, dv.dv.definition, dv.shares.map((s) => s.id)),
      });
    });
    return ok({ id, deleted: true });
  });
}
