/** Staff roster queries: one exact mail at a time (the roster is never listed). */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { staff } from '../../db/schema.ts';

/** The roster entry whose work mail is exactly `mail` (already lowercased), or null. */
export async function findStaffByMail(db: Db, mail: string): Promise<{ name: string; pic: string; text: string | null } | null> {
  const [row] = await db
    .select({ name: staff.name, pic: staff.pic, text: staff.text })
    .from(staff)
    .where(and(eq(staff.mail, mail), eq(staff.isDefault, false)))
    .limit(1);
  return row ?? null;
}

export async function findStaffName(db: Db, id: number): Promise<string | null> {
  const [row] = await db.select({ name: staff.name }).from(staff).where(eq(staff.id, id)).limit(1);
  return row?.name ?? null;
}
