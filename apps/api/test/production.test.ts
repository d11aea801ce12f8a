import { sql } from 'drizzle-orm';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Config } from '../src/config.ts';
import { ProductionGuardError, accountsWithDemoPassword, assertProductionReady } from '../src/lib/production-guard.ts';
import { hashPassword } from '../src/lib/password.ts';
import { rows } from './auth-support.ts';
import { baseTestConfig, dropDatabase, testDatabaseUrl, withDatabase } from './db-template.ts';
import { DEMO_PASSWORD, freshDatabase, type TestDb } from './helpers.ts';

/** An empty database (no migrations, no seed): a brand-new production install. */
async function emptyDatabase(): Promise<{ config: Pick<Config, 'databaseUrl' | 'dataDir'>; destroy(): Promise<void> }> {
  const server = testDatabaseUrl();
  if (server) {
    const name = `bo_t_empty_${crypto.randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`).finally(() => admin.end());
    return { config: { databaseUrl: withDatabase(server, name), dataDir: '' }, destroy: () => dropDatabase(server, name) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-empty-'));
  return { config: { databaseUrl: null, dataDir: dir }, destroy: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const production = (db: Pick<Config, 'databaseUrl' | 'dataDir'>, extra: Partial<Config> = {}) =>
  baseTestConfig({ ...db, env: 'production', seedDemo: false, ...extra });

describe('production', { timeout: 120_000 }, () => {
  let seeded: TestDb;
  beforeAll(async () => {
    seeded = await freshDatabase();
  });
  afterAll(async () => seeded.destroy());

  it('refuses to start while an account still has the demo password, naming them', async () => {
    const database = await seeded.open();
    try {
      expect(await accountsWithDemoPassword(database, DEMO_PASSWORD)).toHaveLength(8);
      await expect(assertProductionReady(database, production(seeded.config))).rejects.toThrow(ProductionGuardError);
      // Not in development.
      await expect(assertProductionReady(database, baseTestConfig(seeded.config))).resolves.toBeUndefined();
      // A custom DEMO_PASSWORD is what is checked.
      await expect(assertProductionReady(database, production(seeded.config, { demoPassword: 'Something-else-1' }))).resolves.toBeUndefined();
    } finally {
      await database.close();
    }
    const err = await buildApp(production(seeded.config)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ProductionGuardError);
    expect((err as Error).message).toContain('admin@adtech.example');
    expect((err as Error).message).toContain('npm run user -- set-password');
  });

  it('starts once every demo password was changed, without seeding demo data again', async () => {
    const database = await seeded.open();
    try {
      const hash = await hashPassword('A-real-Passw0rd');
      await database.db.execute(sql`update users set password_hash = ${hash}`);
    } finally {
      await database.close();
    }
    const app = await buildApp(production(seeded.config));
    try {
      expect((await app.inject('/readyz')).statusCode).toBe(200);
      const res = await app.inject({ method: 'POST', url: '/v1/login', payload: { email: 'admin', password: 'A-real-Passw0rd' } });
      expect(res.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('seeds only the menu and the ADMIN role on an empty production database', async () => {
    const empty = await emptyDatabase();
    try {
      const app = await buildApp(production(empty.config, { seedDemo: true }));
      try {
        const db = app.ctx.database.db;
        const [counts] = await rows<Record<string, number>>(
          db,
          sql`select (select count(*) from users)::int as users, (select count(*) from staff)::int as staff,
                     (select count(*) from menu_entries)::int as menu, (select count(*) from settings where key = 'demo_seeded_at')::int as marker`,
        );
        expect(counts).toEqual({ users: 0, staff: 0, menu: expect.any(Number), marker: 0 });
        expect(counts!.menu).toBeGreaterThan(50);
        expect((await rows<{ name: string }>(db, sql`select name from roles`)).map((r) => r.name)).toEqual(['ADMIN']);
        const res = await app.inject({ method: 'POST', url: '/v1/login', payload: { email: 'admin', password: DEMO_PASSWORD } });
        expect(res.statusCode).toBe(401);
      } finally {
        await app.close();
      }
    } finally {
      await empty.destroy();
    }
  });
});
