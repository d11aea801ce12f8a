/**
 * Opens the database: embedded PGlite (a data folder on disk) by default, or a PostgreSQL server
 * when DATABASE_URL is set. Same Drizzle schema and migrations on both.
 */
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { API_ROOT } from '../config.ts';
import * as reports from './schema-reports.ts';
import * as base from './schema.ts';

const schema = { ...base, ...reports };

export type Schema = typeof schema;
/** The Drizzle database, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Present on PGlite (pg-boss uses it through its PGlite adapter). */
  pglite: PGlite | null;
  /** Present on PostgreSQL. */
  pool: pg.Pool | null;
  /** Cheap reachability check for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Pool size on PostgreSQL. */
  poolMax?: number;
}

export const MIGRATIONS_DIR = path.join(API_ROOT, 'drizzle');

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    // Keep timestamps in UTC whatever the server's default is. No JIT compiling: the app's
    // statements (reports over rollups included) run in milliseconds, and compiling one took longer
    // than running it (a 90-day report: 110 ms with JIT, 55 ms without; bench/README.md).
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolMax ?? 10, options: '-c TimeZone=UTC -c jit=off' });
    // An idle client can be cut by the server (restart, failover, DROP DATABASE … WITH (FORCE)); pg
    // emits that on the pool, and an unhandled 'error' event would crash the process. The pool
    // replaces the client on the next checkout.
    pool.on('error', (err: Error & { code?: string }) => {
      if (err.code !== '57P01') console.warn(`database: idle client error: ${err.message}`);
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      kind: 'postgres',
      db,
      pglite: null,
      pool,
      async ping() {
        await pool.query('select 1');
      },
      async close() {
        await pool.end();
      },
    };
  }
  let pglite: PGlite;
  // Extensions the migrations create (CREATE EXTENSION) have to be offered to PGlite at start.
  const extensions = { pg_trgm };
  if (opts.dataDir === ':memory:') {
    pglite = new PGlite({ extensions });
  } else {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    pglite = new PGlite(opts.dataDir, { extensions });
  }
  await pglite.waitReady;
  await pglite.exec("SET TIME ZONE 'UTC'");
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    pglite,
    pool: null,
    async ping() {
      await pglite.query('select 1');
    },
    async close() {
      if (!pglite.closed) await pglite.close();
    },
  };
}

/**
 * Applies pending migrations. On PostgreSQL an advisory lock makes concurrent instances wait
 * for each other, so two servers starting together migrate once.
 */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
    return;
  }
  const client = await database.pool!.connect();
  try {
    await client.query('select pg_advisory_lock(7263541)');
    await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.query('select pg_advisory_unlock(7263541)').catch(() => undefined);
    client.release();
  }
}

/** Runs fn while holding a database-wide advisory lock (PostgreSQL) — PGlite has one connection anyway. */
export async function withAdvisoryLock<T>(database: Database, lockId: number, fn: () => Promise<T>): Promise<T> {
  if (database.kind === 'pglite') return fn();
  const client = await database.pool!.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [lockId]);
    return await fn();
  } finally {
    await client.query('select pg_advisory_unlock($1)', [lockId]).catch(() => undefined);
    client.release();
  }
}

export { sql };
