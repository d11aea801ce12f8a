/**
 * Fresh databases for integration tests. A template is migrated and seeded once per run (global
 * setup); each test file gets its own copy: a copied PGlite data folder, or on PostgreSQL
 * (TEST_DATABASE_URL) a database created from the template database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig, type Config } from '../src/config.ts';
import { migrateDatabase, openDatabase } from '../src/db/client.ts';
import { seed } from '../src/db/seed.ts';

/** Per-run template name, so concurrent runs on one server never drop each other's template. */
export const TEMPLATE_DB = `bo_tpl_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;

export function testDatabaseUrl(): string | null {
  return process.env.TEST_DATABASE_URL?.trim() || null;
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export function baseTestConfig(overrides: Partial<Config> = {}): Config {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', JOBS: 'false', JWT_SECRET: 'test-secret-0123456789-abcdefghij', WEB_DIST: '' });
  return { ...config, ...overrides };
}

/** Creates the template (migrated + seeded); returns where it is. */
export async function createTemplate(): Promise<{ kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string }> {
  const url = testDatabaseUrl();
  const config = baseTestConfig();
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
    } finally {
      await admin.end();
    }
    const tplUrl = withDatabase(url, TEMPLATE_DB);
    const database = await openDatabase({ databaseUrl: tplUrl, dataDir: '' });
    await migrateDatabase(database);
    await seed(database, config);
    await database.close();
    return { kind: 'postgres', url: tplUrl };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-tpl-'));
  const database = await openDatabase({ databaseUrl: null, dataDir: dir });
  await migrateDatabase(database);
  await seed(database, config);
  await database.close();
  return { kind: 'pglite', dir };
}

/**
 * Drops a test database. WITH (FORCE) ends leftover sessions; a role without pg_signal_backend
 * cannot end an autovacuum worker that happens to be on the database, so that case waits for
 * the worker and tries again.
 */
export async function dropDatabase(url: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        return;
      } catch (err) {
        const code = (err as { code?: string }).code;
        // 42501: insufficient privilege to signal a superuser process; 55006: object in use.
        if ((code !== '42501' && code !== '55006') || attempt >= 20) throw err;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  } finally {
    await admin.end();
  }
}
