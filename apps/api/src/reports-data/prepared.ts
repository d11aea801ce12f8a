/**
 * Report statements prepared once per SQL text on PGlite.
 *
 * `PGlite.query` parses, describes and plans its statement on every call, in six round trips into
 * the WebAssembly module. A report's SQL text depends only on the report's shape (dimensions,
 * metrics, filters' dimensions, source table, time levels); its values are all parameters. So the
 * same few texts come back all day, and here each is parsed once into a named statement. A run is
 * one round trip: Bind, Execute, Sync. Each run is still planned with its own values (a "custom"
 * plan, `plan_cache_mode = force_custom_plan`, set on PGlite's one session, where only these
 * statements are named): left to itself (`auto`), PostgreSQL switches to one generic plan after
 * five runs when that plan's estimate is not dearer, and for Q2 of the reports bench (five time
 * levels in a UNION ALL) that plan took 300 ms instead of 90. PostgreSQL re-analyses a statement
 * by itself when a table it reads changes. Q3 of the bench spends about 1.3 ms less per run this
 * way (7 against 8.3 ms in-process).
 *
 * PostgreSQL servers keep the plain path: a pool spreads the runs over connections, each of which
 * would hold its own copy of every statement, and parsing there costs about 0.2 ms.
 */
import { protocol, type PGlite } from '@electric-sql/pglite';
import type { Database } from '../db/client.ts';
import { query, type SqlRow } from './sql.ts';

const { serialize } = protocol;

/** Named statements kept per PGlite instance; the least recently used one is closed beyond this. */
export const MAX_STATEMENTS = 200;

interface Statement {
  name: string;
  fields: { name: string; dataTypeID: number }[];
}

interface Message {
  name: string;
  fields?: unknown[];
}

/** PGlite's own locks (declared in its types): the one of queries, and the one of transactions. */
interface PGliteLocks {
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * A parameter in PostgreSQL's text format; arrays as array literals with every element quoted
 * (nested arrays as inner literals: a multidimensional array).
 */
export function textParam(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value))
    return `{${value
      .map((v) => {
        if (Array.isArray(v)) return textParam(v)!;
        const t = textParam(v);
        return t === null ? 'NULL' : `"${t.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
      })
      .join(',')}}`;
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as string | number | bigint);
}

class StatementCache {
  /** Map order is use order: the first entry is the least recently used. */
  private readonly statements = new Map<string, Statement>();
  private seq = 0;
  private ready = false;

  constructor(private readonly pglite: PGlite) {}

  run<T>(text: string, params: unknown[]): Promise<T[]> {
    const locks = this.pglite as unknown as PGliteLocks;
    // Same order as PGlite's query(): never inside another caller's open transaction.
    return locks._runExclusiveTransaction(() =>
      locks._runExclusiveQuery(async () => {
        try {
          return await this.execute<T>(text, params);
        } catch (err) {
          // The statement is gone (DEALLOCATE) or its columns changed under it: prepare it again.
          const code = (err as { code?: string }).code;
          if (code !== '26000' && code !== '0A000') throw err;
          this.statements.delete(text);
          return this.execute<T>(text, params);
        }
      }),
    );
  }

  private async execute<T>(text: string, params: unknown[]): Promise<T[]> {
    const statement = this.statements.get(text) ?? (await this.prepare(text));
    this.statements.delete(text);
    this.statements.set(text, statement);
    const messages = (await this.pglite.execProtocolStream(
      concat([
        serialize.bind({ statement: statement.name, values: params.map(textParam) }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    )) as Message[];
    const parsers = this.pglite.parsers;
    const rows: T[] = [];
    for (const m of messages) {
      if (m.name !== 'dataRow') continue;
      const row: SqlRow = {};
      statement.fields.forEach((f, i) => {
        const v = m.fields![i] as string | null;
        const parse = parsers[f.dataTypeID];
        row[f.name] = v === null || !parse ? v : parse(v, f.dataTypeID);
      });
      rows.push(row as T);
    }
    return rows;
  }

  private async prepare(text: string): Promise<Statement> {
    if (!this.ready) {
      await this.pglite.execProtocolStream(serialize.query('SET plan_cache_mode = force_custom_plan'), {
        syncToFs: false,
      });
      this.ready = true;
    }
    if (this.statements.size >= MAX_STATEMENTS) {
      const [oldest, st] = this.statements.entries().next().value as [string, Statement];
      this.statements.delete(oldest);
      await this.pglite.execProtocolStream(
        concat([serialize.close({ type: 'S', name: st.name }), serialize.sync()]),
        {
          syncToFs: false,
        },
      );
    }
    const name = `bo_report_${++this.seq}`;
    const messages = (await this.pglite.execProtocolStream(
      concat([
        serialize.parse({ name, text, types: [] }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    )) as Message[];
    const description = messages.find((m) => m.name === 'rowDescription') as
      { fields: { name: string; dataTypeID: number }[] } | undefined;
    return {
      name,
      fields: (description?.fields ?? []).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
    };
  }
}

const caches = new WeakMap<PGlite, StatementCache>();

/**
 * `query` through a statement prepared once per text on PGlite (read-only statements: no sync of
 * the data folder follows); the plain `query` on PostgreSQL.
 */
export function queryPrepared<T = SqlRow>(
  database: Database,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  if (database.kind !== 'pglite') return query<T>(database, text, params);
  const pglite = database.pglite!;
  let cache = caches.get(pglite);
  if (!cache) caches.set(pglite, (cache = new StatementCache(pglite)));
  return cache.run<T>(text, params);
}
