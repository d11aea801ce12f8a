/**
 * Saved DataViewers (screens: /reports/dataviewer/{id}, /report/{id}):
 *   GET    /v1/reports/dataviewers            the caller's own and those shared with one of its roles
 *   POST   /v1/reports/dataviewers            save {name, definition, shared_role_ids}
 *   GET    /v1/reports/dataviewers/:id        open
 *   PATCH  /v1/reports/dataviewers/:id        rename / change the definition / share (owner or ADMIN)
 *   DELETE /v1/reports/dataviewers/:id        delete (owner or ADMIN)
 * Every route needs the reports permission ('/v1/reports'); what a person may do with one saved
 * DataViewer is decided by ownership: owner and ADMIN change it, roles it is shared with open it,
 * anybody else gets 404 (its existence is not revealed). Changes are audit-logged.
 */
import { ok } from '@backoffice/core/envelope';
import { DATAVIEWERS_RESOURCE, dataviewerCreateSchema, dataviewerUpdateSchema, idParamsSchema, REPORT_ERRORS, type SavedDataviewerView, type SavedDefinition } from '@backoffice/core/reports';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { roles, users } from '../../db/schema.ts';
import { dataviewers, dataviewerShares } from '../../db/schema-reports.ts';
import { AppError } from '../../lib/errors.ts';
import { audit } from '../../plugins/audit.ts';
import { callerOf, type Caller } from '../../plugins/auth.ts';
import { canEditDataviewer, canSeeDataviewer } from './access.ts';
import { domainValidator } from '../reports/validation.ts';

const READ = { permission: { resource: '/v1/reports', action: 'read' } } as const;
/** Saving, changing and deleting (POST, PATCH, DELETE): 'write' on saved DataViewers, by the method. */
const WRITE = { permission: { resource: DATAVIEWERS_RESOURCE } } as const;

async function load(db: Db, ids: number[] | null) {
  const rows = await db
    .select({ dv: dataviewers, ownerName: users.name })
    .from(dataviewers)
    .innerJoin(users, eq(users.id, dataviewers.ownerId))
    .where(ids ? inArray(dataviewers.id, ids) : undefined)
    .orderBy(dataviewers.name, dataviewers.id);
  const shareRows = rows.length
    ? await db
        .select({ dataviewerId: dataviewerShares.dataviewerId, roleId: roles.id, roleName: roles.name })
        .from(dataviewerShares)
        .innerJoin(roles, eq(roles.id, dataviewerShares.roleId))
        .where(inArray(dataviewerShares.dataviewerId, rows.map((r) => r.dv.id)))
    : [];
  return rows.map((r) => ({
    ...r,
    shares: shareRows.filter((s) => s.dataviewerId === r.dv.id).map((s) => ({ id: s.roleId, name: s.roleName })).sort((a, b) => a.id - b.id),
  }));
}

type Loaded = Awaited<ReturnType<typeof load>>[number];

const canSee = (caller: Caller, dv: Loaded) => canSeeDataviewer(caller, { ownerId: dv.dv.ownerId, sharedRoleIds: dv.shares.map((s) => s.id) });
const canEdit = (caller: Caller, dv: Loaded) => canEditDataviewer(caller, dv.dv);

function view(caller: Caller, dv: Loaded, withDefinition: boolean): SavedDataviewerView {
  return {
    id: dv.dv.id,
    name: dv.dv.name,
    owner: { id: dv.dv.ownerId, name: dv.ownerName },
    shared_roles: dv.shares,
    shared_role_ids: dv.shares.map((s) => s.id),
    created_at: dv.dv.createdAt.toISOString(),
    updated_at: dv.dv.updatedAt.toISOString(),
    can_edit: canEdit(caller, dv),
    ...(withDefinition ? { definition: dv.dv.definition as SavedDefinition } : {}),
  };
}

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

export async function dataviewerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { db } = ctx.database;
  const tags = ['reports'];

  // The roles a DataViewer can be shared with (id and name only): anyone who may save DataViewers
  // may share them, and GET /v1/admin/role is ADMIN-only.
  app.get('/v1/reports/roles', { config: { auth: READ }, schema: { tags, summary: 'Roles a DataViewer can be shared with' } }, async () =>
    ok(await db.select({ id: roles.id, name: roles.name }).from(roles).orderBy(asc(roles.name))),
  );

  app.get('/v1/reports/dataviewers', { config: { auth: READ }, schema: { tags, summary: 'Saved DataViewers the caller can open' } }, async (request) => {
    const caller = callerOf(request);
    const all = await load(db, null);
    return ok(all.filter((dv) => canSee(caller, dv)).map((dv) => view(caller, dv, false)));
  });

  app.post('/v1/reports/dataviewers', {
    config: { auth: WRITE },
    schema: { tags, summary: 'Saves a DataViewer', body: dataviewerCreateSchema },
    validatorCompiler: domainValidator,
  }, async (request, reply) => {
    const caller = callerOf(request);
    const body = request.body as { name: string; definition: SavedDefinition; shared_role_ids: number[] };
    await checkRoles(db, body.shared_role_ids);
    const id = await db.transaction(async (tx) => {
      const [row] = await tx.insert(dataviewers).values({ ownerId: caller.id, name: body.name, definition: body.definition }).returning({ id: dataviewers.id });
      const roleIds = [...new Set(body.shared_role_ids)];
      if (roleIds.length) await tx.insert(dataviewerShares).values(roleIds.map((roleId) => ({ dataviewerId: row!.id, roleId })));
      await audit(tx as unknown as Db, request, { action: 'create', entity: 'dataviewer', entityId: row!.id, after: { name: body.name, definition: body.definition, shared_role_ids: roleIds } });
      return row!.id;
    });
    const [dv] = await load(db, [id]);
    return reply.code(201).send(ok(view(caller, dv!, true)));
  });

  app.get('/v1/reports/dataviewers/:id', {
    config: { auth: READ },
    schema: { tags, summary: 'Opens a saved DataViewer', params: idParamsSchema },
    validatorCompiler: domainValidator,
  }, async (request) => {
    const caller = callerOf(request);
    const dv = await findVisible(db, caller, (request.params as { id: number }).id);
    return ok(view(caller, dv, true));
  });

  app.patch('/v1/reports/dataviewers/:id', {
    config: { auth: WRITE },
    schema: { tags, summary: 'Renames, redefines or shares a saved DataViewer (owner or ADMIN)', params: idParamsSchema, body: dataviewerUpdateSchema },
    validatorCompiler: domainValidator,
  }, async (request) => {
    const caller = callerOf(request);
    const id = (request.params as { id: number }).id;
    const body = request.body as { name?: string; definition?: SavedDefinition; shared_role_ids?: number[] };
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
        before: { name: dv.dv.name, definition: dv.dv.definition, shared_role_ids: dv.shares.map((s) => s.id) },
        after: body,
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
    const id = (request.params as { id: number }).id;
    const dv = await findVisible(db, caller, id);
    if (!canEdit(caller, dv)) throw new AppError(403, 'auth.forbidden');
    await db.transaction(async (tx) => {
      await tx.delete(dataviewers).where(and(eq(dataviewers.id, id)));
      await audit(tx as unknown as Db, request, {
        action: 'delete',
        entity: 'dataviewer',
        entityId: id,
        before: { name: dv.dv.name, definition: dv.dv.definition, shared_role_ids: dv.shares.map((s) => s.id) },
      });
    });
    return ok({ id, deleted: true });
  });
}
