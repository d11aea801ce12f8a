/** Queries on firewall_entries. Times come from the database clock (now()) so every instance agrees. */
import type { FirewallDisabledReason, FirewallEntryItem, FirewallStatus, FirewallType } from '@backoffice/core/firewall';
import { and, eq, inArray, isNotNull, isNull, lte, ne, or, gt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firewallEntries, users } from '../../db/schema.ts';

export type EntryRow = typeof firewallEntries.$inferSelect;

/** now() plus the type's hours, or null (UNLIMITED). */
function expirySql(hours: number | null): SQL | null {
  return hours === null ? null : sql`now() + make_interval(hours => ${hours}::int)`;
}

/** The entry as it is. */
export async function getRow(db: Db, id: number): Promise<EntryRow | null> {
  const [row] = await db.select().from(firewallEntries).where(eq(firewallEntries.id, id));
  return row ?? null;
}

/**
 * What an audit entry keeps of an entry: its fields by the names the list uses (the resource's
 * history shows them with their labels). Not the owner: it never changes, and the entry that
 * created it names who asked.
 */
export function auditable(row: EntryRow): Record<string, unknown> {
  const at = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    id: row.id,
    ip: row.ip,
    type: row.type,
    status: row.status,
    error: row.error,
    disabled_reason: row.disabledReason,
    expires_at: at(row.expiresAt),
    created_at: at(row.createdAt),
    updated_at: at(row.updatedAt),
  };
}

/** The entry, locked for the rest of the transaction. */
export async function lockEntry(db: Db, id: number): Promise<EntryRow | null> {
  const [row] = await db.select().from(firewallEntries).where(eq(firewallEntries.id, id)).for('update');
  return row ?? null;
}

export async function lockOwnerEntry(db: Db, ownerId: number, ip: string): Promise<EntryRow | null> {
  const [row] = await db
    .select()
    .from(firewallEntries)
    .where(and(eq(firewallEntries.ownerId, ownerId), eq(firewallEntries.ip, ip)))
    .for('update');
  return row ?? null;
}

/** Creates the owner's entry for this address, or replaces it (new type, fresh expiry, PENDING). */
export async function upsertEntry(db: Db, values: { ownerId: number; ip: string; type: FirewallType; hours: number | null }): Promise<EntryRow> {
  const fresh = {
    type: values.type,
    status: 'PENDING' as const,
    error: null,
    disabledReason: null,
    expiresAt: expirySql(values.hours),
  };
  const [row] = await db
    .insert(firewallEntries)
    .values({ ownerId: values.ownerId, ip: values.ip, ...fresh })
    .onConflictDoUpdate({
      target: [firewallEntries.ownerId, firewallEntries.ip],
      set: { ...fresh, updatedAt: sql`now()` },
    })
    .returning();
  return row!;
}

export async function disableEntry(db: Db, id: number, reason: FirewallDisabledReason): Promise<EntryRow> {
  const [row] = await db
    .update(firewallEntries)
    .set({ status: 'DISABLED', disabledReason: reason, error: null, updatedAt: sql`now()` })
    .where(eq(firewallEntries.id, id))
    .returning();
  return row!;
}

/** Back to PENDING with its duration restarted from now. */
export async function reenableEntry(db: Db, id: number, hours: number | null): Promise<EntryRow> {
  const [row] = await db
    .update(firewallEntries)
    .set({ status: 'PENDING', disabledReason: null, error: null, expiresAt: expirySql(hours), updatedAt: sql`now()` })
    .where(eq(firewallEntries.id, id))
    .returning();
  return row!;
}

/** Not DISABLED and not expired: what the enforcement point must allow. */
const allowedNow = and(
  ne(firewallEntries.status, 'DISABLED'),
  or(isNull(firewallEntries.expiresAt), gt(firewallEntries.expiresAt, sql`now()`)),
);

export async function allowedEntries(db: Db): Promise<Pick<EntryRow, 'id' | 'ip' | 'status' | 'error'>[]> {
  return db
    .select({ id: firewallEntries.id, ip: firewallEntries.ip, status: firewallEntries.status, error: firewallEntries.error })
    .from(firewallEntries)
    .where(allowedNow)
    .orderBy(firewallEntries.id);
}

/**
 * After an apply: the PENDING/ERROR entries that were in the list become ACTIVE (success) or
 * ERROR with the message key (failure). Only rows that really change are touched.
 */
export async function settleEntries(db: Db, ids: readonly number[], outcome: { ok: true } | { ok: false; key: string }): Promise<number[]> {
  if (ids.length === 0) return [];
  const settleable = and(inArray(firewallEntries.id, [...ids]), inArray(firewallEntries.status, ['PENDING', 'ERROR']));
  const rows = outcome.ok
    ? await db
        .update(firewallEntries)
        .set({ status: 'ACTIVE', error: null, updatedAt: sql`now()` })
        .where(settleable)
        .returning({ id: firewallEntries.id })
    : await db
        .update(firewallEntries)
        .set({ status: 'ERROR', error: outcome.key, updatedAt: sql`now()` })
        .where(
          and(
            settleable,
            or(eq(firewallEntries.status, 'PENDING'), sql`${firewallEntries.error} is distinct from ${outcome.key}`),
          ),
        )
        .returning({ id: firewallEntries.id });
  return rows.map((r) => r.id);
}

/** Entries whose time is up but that are not DISABLED yet, locked (a concurrent sweep waits, then finds none). */
export async function lockDueForExpiry(db: Db): Promise<EntryRow[]> {
  return db
    .select()
    .from(firewallEntries)
    .where(and(ne(firewallEntries.status, 'DISABLED'), isNotNull(firewallEntries.expiresAt), lte(firewallEntries.expiresAt, sql`now()`)))
    .orderBy(firewallEntries.id)
    .for('update');
}

export async function markExpired(db: Db, ids: readonly number[]): Promise<EntryRow[]> {
  if (ids.length === 0) return [];
  return db
    .update(firewallEntries)
    .set({ status: 'DISABLED', disabledReason: 'expired', updatedAt: sql`now()` })
    .where(and(inArray(firewallEntries.id, [...ids]), ne(firewallEntries.status, 'DISABLED')))
    .returning();
}

const itemColumns = {
  id: firewallEntries.id,
  ip: firewallEntries.ip,
  type: firewallEntries.type,
  status: firewallEntries.status,
  error: firewallEntries.error,
  disabledReason: firewallEntries.disabledReason,
  createdAt: firewallEntries.createdAt,
  updatedAt: firewallEntries.updatedAt,
  expiresAt: firewallEntries.expiresAt,
  ownerId: users.id,
  ownerMail: users.mail,
  ownerName: users.name,
};

interface ItemRow {
  id: number;
  ip: string;
  type: string;
  status: string;
  error: string | null;
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date | null;
  ownerId: number;
  ownerMail: string;
  ownerName: string;
}

function toItem(r: ItemRow): FirewallEntryItem {
  return {
    id: r.id,
    ip: r.ip,
    owner: { id: r.ownerId, mail: r.ownerMail, name: r.ownerName },
    type: r.type as FirewallType,
    status: r.status as FirewallStatus,
    error: r.error,
    disabled_reason: (r.disabledReason as FirewallDisabledReason | null) ?? null,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    expires_at: r.expiresAt ? r.expiresAt.toISOString() : null,
  };
}

export async function getItem(db: Db, id: number): Promise<FirewallEntryItem | null> {
  const [row] = await db
    .select(itemColumns)
    .from(firewallEntries)
    .innerJoin(users, eq(users.id, firewallEntries.ownerId))
    .where(eq(firewallEntries.id, id));
  return row ? toItem(row) : null;
}
