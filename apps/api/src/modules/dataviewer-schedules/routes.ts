/**
 * E-mail schedules of a saved DataViewer:
 *   GET    /v1/reports/dataviewers/:id/schedules                        list (anyone who may open the DataViewer)
 *   POST   /v1/reports/dataviewers/:id/schedules                        create (owner or ADMIN)
 *   PATCH  /v1/reports/dataviewers/:id/schedules/:scheduleId            change, enable/pause (owner or ADMIN)
 *   DELETE /v1/reports/dataviewers/:id/schedules/:scheduleId            delete (owner or ADMIN)
 *   POST   /v1/reports/dataviewers/:id/schedules/:scheduleId/send       send now (owner or ADMIN)
 * Every route needs '/v1/reports' read, like the DataViewers; a DataViewer the caller may not open
 * answers 404 report.not_found. Bad input answers 400 with the first dvs.* key and writes nothing.
 * Changes are audit-logged (entity dataviewer_schedule).
 */
import { scheduleParamsSchema, scheduleSettingsSchema, scheduleUpdateSchema, SCHEDULE_ERRORS, SCHEDULE_LIMITS, type ScheduleSettings } from '@backoffice/core/dataviewer-schedules';
import { ok } from '@backoffice/core/envelope';
import { localeFromAcceptLanguage } from '@backoffice/core/i18n/catalogues';
import { DATAVIEWERS_RESOURCE, idParamsSchema } from '@backoffice/core/reports';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { dataviewerSchedules } from '../../db/schema-schedules.ts';
import { AppError } from '../../lib/errors.ts';
import { audit } from '../../plugins/audit.ts';
import { callerOf, type Caller } from '../../plugins/auth.ts';
import { countSchedules, findDataviewer, findSchedule, listSchedules, type DataviewerRef } from './repo.ts';
import { canEdit, canSee, checkSettings, scheduleErrors, mergeUpdate, sendNow, settingsColumns, settingsOf, validationError, view } from './service.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';

const READ = { permission: { resource: '/v1/reports', action: 'read' } } as const;
/** Saving, changing and deleting (POST, PATCH, DELETE): 'write' on saved DataViewers, by the method. */
const WRITE = { permission: { resource: DATAVIEWERS_RESOURCE } } as const;

// `any`: Fastify types the compiler with the route's whole schema object; it is called per part (a zod schema).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const scheduleValidator: FastifySchemaCompiler<any> = ({ schema }) => {
  const zodSchema = schema as z.ZodType;
  return (data: unknown) => {
    const result = zodSchema.safeParse(data === null || data === undefined ? {} : data);
    return result.success ? { value: result.data } : { error: validationError(scheduleErrors(result.error.issues)) };
  };
};

async function visibleDataviewer(db: Db, caller: Caller, id: number): Promise<DataviewerRef> {
  const dv = await findDataviewer(db, id);
  if (!dv || !canSee(caller, dv)) throw new AppError(404, SCHEDULE_ERRORS.dataviewerNotFound);
  return dv;
}

async function editableDataviewer(db: Db, caller: Caller, id: number): Promise<DataviewerRef> {
  const dv = await visibleDataviewer(db, caller, id);
  if (!canEdit(caller, dv)) throw new AppError(403, 'auth.forbidden');
  return dv;
}

async function existingSchedule(db: Db, dataviewerId: number, scheduleId: number) {
  const row = await findSchedule(db, dataviewerId, scheduleId);
  if (!row) throw new AppError(404, SCHEDULE_ERRORS.notFound);
  return row;
}

/** The schedule of `:id/schedules/:scheduleId`, when the caller may edit its DataViewer (else 403/404). */
async function editableSchedule(db: Db, request: FastifyRequest) {
  const { id, scheduleId } = request.params as { id: number; scheduleId: number };
  const dv = await editableDataviewer(db, callerOf(request), id);
  return { dv, row: await existingSchedule(db, dv.id, scheduleId) };
}

const instanceOf = (request: FastifyRequest) => request.server.jobs?.instanceId ?? `api:${process.pid}`;

export async function dataviewerScheduleRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx.database;
  const domains = ctx.config.companyDomains;
  const tags = ['reports'];
  const base = '/v1/reports/dataviewers/:id/schedules';
  const one = `${base}/:scheduleId`;

  app.get(base, {
    config: { auth: READ },
    schema: { tags, summary: 'E-mail schedules of a saved DataViewer', params: idParamsSchema },
    validatorCompiler: scheduleValidator,
  }, async (request) => {
    const caller = callerOf(request);
    const dv = await visibleDataviewer(db, caller, request.params.id);
    const editable = canEdit(caller, dv);
    return ok((await listSchedules(db, dv.id)).map((row) => view(row, editable)));
  });

  app.post(base, {
    config: { auth: WRITE },
    schema: { tags, summary: 'Adds an e-mail schedule to a saved DataViewer (owner or ADMIN)', params: idParamsSchema, body: scheduleSettingsSchema(domains) },
    validatorCompiler: scheduleValidator,
  }, async (request, reply) => {
    const caller = callerOf(request);
    const dv = await editableDataviewer(db, caller, request.params.id);
    const settings = request.body;
    if ((await countSchedules(db, dv.id)) >= SCHEDULE_LIMITS.maxSchedulesPerDataviewer) {
      throw new AppError(400, SCHEDULE_ERRORS.tooManySchedules, { errors: { _: SCHEDULE_ERRORS.tooManySchedules } });
    }
    const id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(dataviewerSchedules)
        .values({ dataviewerId: dv.id, createdById: caller.id, locale: localeFromAcceptLanguage(request.headers['accept-language']), ...settingsColumns(settings, Date.now()) })
        .returning({ id: dataviewerSchedules.id });
      await audit(tx as unknown as Db, request, { action: 'create', entity: 'dataviewer_schedule', entityId: row!.id, after: { dataviewer_id: dv.id, ...settings } });
      return row!.id;
    });
    return reply.code(201).send(ok(view((await findSchedule(db, dv.id, id))!, true)));
  });

  app.patch(one, {
    config: { auth: WRITE },
    schema: { tags, summary: 'Changes, pauses or resumes an e-mail schedule (owner or ADMIN)', params: scheduleParamsSchema, body: scheduleUpdateSchema },
    validatorCompiler: scheduleValidator,
  }, async (request) => {
    const { dv, row } = await editableSchedule(db, request);
    const patch = request.body;
    const before: ScheduleSettings = settingsOf(row);
    const settings = checkSettings(mergeUpdate(row, patch), domains);
    await db.transaction(async (tx) => {
      await tx.update(dataviewerSchedules).set({ ...settingsColumns(settings, Date.now()), updatedAt: new Date() }).where(eq(dataviewerSchedules.id, row.id));
      await audit(tx as unknown as Db, request, { action: 'update', entity: 'dataviewer_schedule', entityId: row.id, before, after: settings });
    });
    return ok(view((await findSchedule(db, dv.id, row.id))!, true));
  });

  app.delete(one, {
    config: { auth: WRITE },
    schema: { tags, summary: 'Deletes an e-mail schedule (owner or ADMIN)', params: scheduleParamsSchema },
    validatorCompiler: scheduleValidator,
  }, async (request) => {
    const { dv, row } = await editableSchedule(db, request);
    await db.transaction(async (tx) => {
      await tx.delete(dataviewerSchedules).where(eq(dataviewerSchedules.id, row.id));
      await audit(tx as unknown as Db, request, { action: 'delete', entity: 'dataviewer_schedule', entityId: row.id, before: { dataviewer_id: dv.id, ...settingsOf(row) } });
    });
    return ok({ id: row.id, deleted: true });
  });

  app.post(`${one}/send`, {
    config: { auth: WRITE },
    schema: { tags, summary: 'Sends an e-mail schedule now, for the dates it would send now (owner or ADMIN)', params: scheduleParamsSchema },
    validatorCompiler: scheduleValidator,
  }, async (request) => {
    const { dv, row } = await editableSchedule(db, request);
    const run = await sendNow(ctx, row.id, instanceOf(request), request.log);
    await audit(db, request, { action: 'send', entity: 'dataviewer_schedule', entityId: row.id, after: { status: run.status, rows: run.rows, error: run.error, range: run.range } });
    return ok(view((await findSchedule(db, dv.id, row.id))!, true));
  });
}
