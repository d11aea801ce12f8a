/** Queries for sign-in and sessions. */
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { staff, users } from '../../db/schema.ts';

export interface UserRow {
  id: number;
  mail: string;
  name: string;
  passwordHash: string;
  active: boolean;
}

/** The account with this mail (compared in lowercase), or null. */
export async function findUserByMail(db: Db, mail: string): Promise<UserRow | null> {
  const [row] = await db
    .select({ id: users.id, mail: users.mail, name: users.name, passwordHash: users.passwordHash, active: users.active })
    .from(users)
    .where(eq(sql`lower(${users.mail})`, mail.toLowerCase()))
    .limit(1);
  return row ?? null;
}

export async function findUserById(db: Db, id: number): Promise<Omit<UserRow, 'passwordHash'> | null> {
  const [row] = await db
    .select({ id: users.id, mail: users.mail, name: users.name, active: users.active })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row ?? null;
}

/** The person's roster picture, else the roster's default picture, else null. */
export async function pictureFor(db: Db, mail: string): Promise<string | null> {
  const rows = await db
    .select({ pic: staff.pic, isDefault: staff.isDefault })
    .from(staff)
    .where(sql`${staff.mail} = ${mail.toLowerCase()} or ${staff.isDefault}`)
    .orderBy(asc(staff.isDefault), asc(staff.id))
    .limit(1);
  return rows[0]?.pic ?? null;
}

