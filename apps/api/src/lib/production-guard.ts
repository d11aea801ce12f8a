/**
 * Production start-up check: the server refuses to start while any account (active or not) still
 * has the demo password, checked by verifying each stored hash against DEMO_PASSWORD.
 */
import { asc } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { verifyPassword } from './password.ts';

export class ProductionGuardError extends Error {
  override readonly name = 'ProductionGuardError';
}

/** Mails of the accounts whose password is the demo password. */
export async function accountsWithDemoPassword(database: Database, demoPassword: string): Promise<string[]> {
  const rows = await database.db.select({ mail: users.mail, hash: users.passwordHash }).from(users).orderBy(asc(users.id));
  const found: string[] = [];
  // A few at a time: each check is one scrypt run on the thread pool.
  for (let i = 0; i < rows.length; i += 4) {
    const batch = rows.slice(i, i + 4);
    const matches = await Promise.all(batch.map((r) => verifyPassword(demoPassword, r.hash)));
    batch.forEach((r, j) => matches[j] && found.push(r.mail));
  }
  return found;
}

/** Throws ProductionGuardError (with what to do) when config.env is production and a demo password remains. */
export async function assertProductionReady(database: Database, config: Config): Promise<void> {
  if (config.env !== 'production') return;
  const mails = await accountsWithDemoPassword(database, config.demoPassword);
  if (mails.length === 0) return;
  throw new ProductionGuardError(
    `Refusing to start in production: ${mails.length} account(s) still have the demo password: ${mails.join(', ')}.\n` +
      'Set a new password for each (npm run user -- set-password --mail <mail>) and start again.',
  );
}
