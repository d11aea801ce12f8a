/**
 * Raw parameterised SQL on either driver (PGlite or node-postgres), and server-side cursors for
 * streaming large results with flat memory. Only allow-listed identifiers are ever written into
 * SQL text; every value goes as a parameter.
 */
import type pg from 'pg';
import type { Database } from '../db/client.ts';

export type SqlRow = Record<string, unknown>;

export async function query<T = SqlRow>(database: Database, text: string, params: unknown[] = []): Promise<T[]> {
  if (database.kind === 'pglite') {
    const res = await database.pglite!.query<T>(text, params);
    return res.rows;
  }
  const res = await database.pool!.query(text, params);
  return res.rows as T[];
}

/** Rows as arrays of column values (no object per row). */
export async function queryArrays(database: Database, text: string, params: unknown[] = []): Promise<unknown[][]> {
  if (database.kind === 'pglite') {
    const res = await database.pglite!.query<unknown[]>(text, params, { rowMode: 'array' });
    return res.rows;
  }
  const res = await database.pool!.query({ text, values: params, rowMode: 'array' });
  return res.rows as unknown[][];
}

/** Several statements without parameters (DDL, maintenance). */
export async function exec(database: Database, text: string): Promise<void> {
  if (database.kind === 'pglite') await database.pglite!.exec(text);
  else await database.pool!.query(text);
}

export type QueryFn = <T = SqlRow>(text: string, params?: unknown[]) => Promise<T[]>;

/** Runs fn in one transaction (a dedicated connection on PostgreSQL). */
export async function transaction<T>(database: Database, fn: (q: QueryFn) => Promise<T>): Promise<T> {
  if (database.kind === 'pglite') {
    return database.pglite!.transaction(async (tx) => {
      const q: QueryFn = async <R = SqlRow>(text: string, params: unknown[] = []) => (await tx.query<R>(text, params)).rows;
      return fn(q);
    });
  }
  const client = await database.pool!.connect();
  try {
    await client.query('BEGIN');
    const q: QueryFn = async <R = SqlRow>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as R[];
    const out = await fn(q);
    await client.query('COMMIT');
    return out;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

let cursorSeq = 0;

export interface CursorOptions {
  /** Rows as arrays of column values (no object per row). */
  rowMode?: 'array';
}

/**
 * Runs `text` through a server-side cursor and hands the rows over in batches. On PostgreSQL the
 * cursor lives in a transaction on a dedicated connection; on PGlite (one connection shared by
 * every request) it is a WITH HOLD cursor, so other requests can run between two fetches.
 * `onBatch` returning false stops early (the client went away).
 */
export async function withCursor<T = SqlRow>(
  database: Database,
  text: string,
  params: unknown[],
  batchSize: number,
  onBatch: (rows: T[]) => Promise<boolean | void>,
  options: CursorOptions = {},
): Promise<number> {
  const name = `bo_cur_${process.pid}_${++cursorSeq}`;
  const rowMode = options.rowMode ? { rowMode: options.rowMode } : undefined;
  let total = 0;
  if (database.kind === 'pglite') {
    const pglite = database.pglite!;
    // WITH HOLD runs the whole query when the DECLARE's (implicit) transaction commits.
    await pglite.query(`DECLARE ${name} NO SCROLL CURSOR WITH HOLD FOR ${text}`, params);
    try {
      for (;;) {
        const res = await pglite.query<T>(`FETCH FORWARD ${batchSize} FROM ${name}`, [], rowMode);
        if (res.rows.length === 0) break;
        total += res.rows.length;
        if ((await onBatch(res.rows)) === false) break;
        if (res.rows.length < batchSize) break;
      }
    } finally {
      await pglite.query(`CLOSE ${name}`).catch(() => undefined);
    }
    return total;
  }
  const client: pg.PoolClient = await database.pool!.connect();
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${text}`, params);
    for (;;) {
      const res = await client.query({ text: `FETCH FORWARD ${batchSize} FROM ${name}`, ...rowMode });
      if (res.rows.length === 0) break;
      total += res.rows.length;
      if ((await onBatch(res.rows as T[])) === false) break;
      if (res.rows.length < batchSize) break;
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
  return total;
}
