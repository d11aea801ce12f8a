/** Queries of the DataViewer schedules: the DataViewer they belong to, the rows, and the run claims. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { dataviewers, dataviewerShares } from '../../db/schema-reports.ts';
import { dataviewerSchedules } from '../../db/schema-schedules.ts';

export type ScheduleRow = typeof dataviewerSchedules.$inferSelect;
export type ScheduleInsert = typeof dataviewerSchedules.$inferInsert;

export interface DataviewerRef {
  id: number;
  name: string;
  ownerId: number;
  ownerName: string;
  definition: unknown;
  sharedRoleIds: number[];
}

/** How long a claim holds a schedule; a run that crashed is picked up again after it. */
export const CLAIM_MINUTES = 15;

export async function findDataviewer(db: Db, id: number): Promise<DataviewerRef | null> {
  const [row] = await db
    .select({ id: dataviewers.id, name: dataviewers.name, ownerId: dataviewers.ownerId, ownerName: users.name, definition: dataviewers.definition })
    .from(dataviewers)
    .innerJoin(users, eq(users.id, dataviewers.ownerId))
    .where(eq(dataviewers.id, id));
  if (!row) return null;
  const shares = await db.select({ roleId: dataviewerShares.roleId }).from(dataviewerShares).where(eq(dataviewerShares.dataviewerId, id));
  return { ...row, sharedRoleIds: shares.map((s) => s.roleId) };
}

export async function listSchedules(db: Db, dataviewerId: number): Promise<(ScheduleRow & { createdByName: string })[]> {
  const rows = await db
    .select({ s: dataviewerSchedules, createdByName: users.name })
    .from(dataviewerSchedules)
    .innerJoin(users, eq(users.id, dataviewerSchedules.createdById))
    .where(eq(dataviewerSchedules.dataviewerId, dataviewerId))
    .orderBy(asc(dataviewerSchedules.id));
  return rows.map((r) => ({ ...r.s, createdByName: r.createdByName }));
}

export async function findSchedule(db: Db, dataviewerId: number, id: number): Promise<(ScheduleRow & { createdByName: string }) | null> {
  const all = await listSchedules(db, dataviewerId);
  return all.find((s) => s.id === id) ?? null;
}

export async function countSchedules(db: Db, dataviewerId: number): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(dataviewerSchedules).where(eq(dataviewerSchedules.dataviewerId, dataviewerId));
  return Number(row?.n ?? 0);
}

/**
 * Claims the most overdue due schedule for this instance, or null when none is left. The row is
 * picked with FOR UPDATE SKIP LOCKED and re-checked by the UPDATE, so two instances (or two
 * overlapping job runs) never claim the same occurrence.
 */
export async function claimNextDue(db: Db, instance: string): Promise<ScheduleRow | null> {
  const t = dataviewerSchedules;
  const [row] = await db
    .update(t)
    .set({ claimedUntil: sql`now() + make_interval(mins => ${CLAIM_MINUTES}::int)`, claimedBy: instance })
    .where(
      sql`${t.id} = (SELECT id FROM dataviewer_schedules
                     WHERE enabled AND next_run_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
                     ORDER BY next_run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
          AND ${t.enabled} AND ${t.nextRunAt} <= now() AND (${t.claimedUntil} IS NULL OR ${t.claimedUntil} < now())`,
    )
    .returning();
  return row ?? null;
}

/** Claims one schedule for "send now", whether due or not; null when another run holds it. */
export async function claimForSend(db: Db, id: number, instance: string): Promise<ScheduleRow | null> {
  const t = dataviewerSchedules;
  const [row] = await db
    .update(t)
    .set({ claimedUntil: sql`now() + make_interval(mins => ${CLAIM_MINUTES}::int)`, claimedBy: instance })
    .where(and(eq(t.id, id), sql`(${t.claimedUntil} IS NULL OR ${t.claimedUntil} < now())`))
    .returning();
  return row ?? null;
}

export interface RunRecord {
  at: Date;
  status: 'ok' | 'empty' | 'error';
  rows: number | null;
  error: string | null;
  range: { start: string; end: string } | null;
}

/**
 * Records a run and releases the claim. `nextRun` computes the next occurrence from the row as it
 * is now (it may have been edited while the mail was being sent); null keeps next_run_at as is.
 */
export async function finishRun(db: Db, id: number, instance: string, run: RunRecord, nextRun: ((row: ScheduleRow) => Date | null) | null): Promise<ScheduleRow | null> {
  const t = dataviewerSchedules;
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(t).where(eq(t.id, id)).for('update');
    if (!current) return null;
    const patch: Partial<ScheduleInsert> = {
      lastRunAt: run.at,
      lastStatus: run.status,
      lastRows: run.rows,
      lastError: run.error,
      lastRange: run.range,
    };
    if (current.claimedBy === instance) {
      patch.claimedUntil = null;
      patch.claimedBy = null;
    }
    if (nextRun) patch.nextRunAt = current.enabled ? nextRun(current) : null;
    const [row] = await tx.update(t).set(patch).where(eq(t.id, id)).returning();
    return row ?? null;
  });
}
