import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { MAX_STATEMENTS, queryPrepared, textParam } from '../src/reports-data/prepared.ts';
import { query } from '../src/reports-data/sql.ts';
import { freshDatabase, type TestDb } from './helpers.ts';

describe('textParam (values in PostgreSQL text format)', () => {
  it('writes arrays as literals with every element quoted and escaped', () => {
    expect(textParam([1, 2, 3])).toBe('{"1","2","3"}');
    expect(textParam(['a,b', 'say "hi"', 'back\\slash', null, '{x}'])).toBe(
      String.raw`{"a,b","say \"hi\"","back\\slash",NULL,"{x}"}`,
    );
    expect(textParam([])).toBe('{}');
    expect(
      textParam([
        [1, 2],
        [3, null],
      ]),
    ).toBe('{{"1","2"},{"3",NULL}}');
    expect(textParam(null)).toBeNull();
    expect(textParam(undefined)).toBeNull();
    expect(textParam(new Date(Date.UTC(2025, 11, 31, 23)))).toBe('2025-12-31T23:00:00.000Z');
    expect(textParam(true)).toBe('t');
    expect(textParam(12n)).toBe('12');
  });
});

describe('queryPrepared (report statements prepared once per text)', () => {
  let db: TestDb;
  let database: Database;
  beforeAll(async () => {
    db = await freshDatabase();
    database = await db.open();
  });
  afterAll(async () => {
    await database.close();
    await db.destroy();
  });

  const text = `SELECT $1::int4[] AS ids, $2::text[] AS names, $3::timestamptz AS at, $4::bool AS flag,
    $5::text AS nothing, $6::numeric AS amount, cardinality($2::text[]) AS n, $7::jsonb AS doc`;

  it('answers exactly what the plain query answers, run after run with other values', async () => {
    const runs: unknown[][] = [
      [
        [1, 2, 3],
        ['El Diario, S.L.', 'say "hi"', 'back\\slash', null, '{braces}', ''],
        new Date(Date.UTC(2025, 11, 31, 23)),
        true,
        null,
        '12.500000',
        { a: [1, 'x'] },
      ],
      [[], ['ñandú €'], '2026-01-01T00:00:00.000Z', false, null, '-0.5', null],
      [[42], [], new Date(0), null, null, null, { b: null }],
    ];
    for (let round = 0; round < 2; round++)
      for (const params of runs)
        expect(await queryPrepared(database, text, params)).toEqual(await query(database, text, params));
    const [row] = await queryPrepared<{ names: string[]; n: number }>(database, text, runs[0]!);
    expect(row!.names).toEqual(['El Diario, S.L.', 'say "hi"', 'back\\slash', null, '{braces}', '']);
    expect(row!.n).toBe(6);
    expect(
      await queryPrepared(database, 'SELECT $1::int4[] AS a', [
        [
          [1, 2],
          [3, 4],
        ],
      ]),
    ).toEqual([
      {
        a: [
          [1, 2],
          [3, 4],
        ],
      },
    ]);
  });

  it('gives the database error of a bad statement or value, and keeps working after it', async () => {
    await expect(queryPrepared(database, 'SELECT nope FROM nowhere', [])).rejects.toMatchObject({
      code: '42P01',
    });
    await expect(queryPrepared(database, 'SELECT $1::int AS v', ['x'])).rejects.toMatchObject({
      code: '22P02',
    });
    expect(await queryPrepared(database, 'SELECT $1::int AS v', ['7'])).toEqual([{ v: 7 }]);
  });

  it('prepares again what was deallocated behind its back, and closes the least recently used statements beyond its limit', async () => {
    if (database.kind !== 'pglite') return; // PostgreSQL servers take the plain path
    expect(await queryPrepared(database, 'SELECT $1::int + 1 AS v', [1])).toEqual([{ v: 2 }]);
    await database.pglite!.exec('DEALLOCATE ALL');
    expect(await queryPrepared(database, 'SELECT $1::int + 1 AS v', [2])).toEqual([{ v: 3 }]);
    for (let i = 0; i < MAX_STATEMENTS + 10; i++)
      expect(await queryPrepared(database, `SELECT $1::int + ${i} AS v`, [1])).toEqual([{ v: 1 + i }]);
    const [{ n }] = (await query<{ n: number }>(
      database,
      'SELECT count(*)::int AS n FROM pg_prepared_statements',
    )) as [{ n: number }];
    expect(n).toBe(MAX_STATEMENTS);
    expect(await queryPrepared(database, 'SELECT $1::int + 0 AS v', [5])).toEqual([{ v: 5 }]);
  });

  it('plans every run with its own values on PGlite (no switch to a generic plan after five runs)', async () => {
    if (database.kind !== 'pglite') return;
    const sql = 'SELECT count(*)::int AS n FROM generate_series(1, 100) g WHERE g < $1::int';
    for (let i = 1; i <= 12; i++) expect(await queryPrepared(database, sql, [i])).toEqual([{ n: i - 1 }]);
    const plans = await query<{ generic_plans: number; custom_plans: number }>(
      database,
      'SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE statement = $1',
      [sql],
    );
    expect(plans).toEqual([{ generic_plans: 0, custom_plans: 12 }]);
  });

  it("never runs inside another caller's open transaction on PGlite", async () => {
    if (database.kind !== 'pglite') return; // each PostgreSQL connection has its own transactions
    await query(database, 'CREATE TABLE prep_t (x int)');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const didInsert = new Promise<void>((r) => (inserted = r));
    const tx = database.pglite!.transaction(async (t) => {
      await t.query('INSERT INTO prep_t VALUES (1)');
      inserted();
      await held;
      await t.query('INSERT INTO prep_t VALUES (2)');
    });
    await didInsert;
    const counted = queryPrepared<{ n: number }>(
      database,
      'SELECT count(*)::int AS n FROM prep_t WHERE x > $1',
      [0],
    );
    await new Promise((r) => setTimeout(r, 50));
    release();
    await tx;
    expect(await counted).toEqual([{ n: 2 }]);
  });
});
