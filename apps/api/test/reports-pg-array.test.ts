import { describe, expect, it } from 'vitest';
import { parseTextArray2D } from '../src/modules/reports/pg-array.ts';
import { query } from '../src/reports-data/sql.ts';
import { freshDatabase } from './helpers.ts';

describe('parseTextArray2D (array_out of a text[][])', () => {
  it('reads plain rows, NULLs and no rows', () => {
    expect(parseTextArray2D('{{1766620800,1,488586,45607641},{1766624400,2,NULL,0}}')).toEqual([
      ['1766620800', '1', '488586', '45607641'],
      ['1766624400', '2', null, '0'],
    ]);
    expect(parseTextArray2D('{{a}}')).toEqual([['a']]);
    expect(parseTextArray2D(null)).toEqual([]);
    expect(parseTextArray2D('{}')).toEqual([]);
  });
  it('unquotes and unescapes quoted elements, keeping a quoted "NULL" as text', () => {
    const text = String.raw`{{"El Diario, S.L.",12,"say \"hi\"","back\\slash","{braces}",""},{"NULL",NULL,"a b",x,"  ",y}}`;
    expect(parseTextArray2D(text)).toEqual([
      ['El Diario, S.L.', '12', 'say "hi"', 'back\\slash', '{braces}', ''],
      ['NULL', null, 'a b', 'x', '  ', 'y'],
    ]);
  });
});

describe('parseTextArray2D against the database (array_agg of text arrays, as the engine builds it)', () => {
  it('gives back exactly the texts and NULLs that went in', async () => {
    const db = await freshDatabase();
    const database = await db.open();
    try {
      const cells = ['El Diario, S.L.', 'say "hi"', 'back\\slash', '{braces}', '', 'NULL', null, 'a  b', ' lead', 'tab\there', 'ñandú €', '12', '-0.500000'];
      const rows = [cells, [...cells].reverse()];
      const [out] = await query<{ rows: string }>(
        database,
        `SELECT array_agg(x ORDER BY n)::text AS rows FROM (VALUES (1, $1::text[]), (2, $2::text[])) AS v(n, x)`,
        rows,
      );
      expect(parseTextArray2D(out!.rows)).toEqual(rows);
    } finally {
      await database.close();
      await db.destroy();
    }
  });
});
