import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { parseCsvText, parseXlsxBuffer } from './table-file.ts';

describe('parseCsvText', () => {
  it('reads comma-separated files with a header', () => {
    const table = parseCsvText('network,impressions,revenue\nGoogle,1200,15.5\nMagnite,800,9.25\n', 'a.csv');
    expect(table.columns).toEqual(['network', 'impressions', 'revenue']);
    expect(table.rows).toEqual([
      ['Google', '1200', '15.5'],
      ['Magnite', '800', '9.25'],
    ]);
    expect(table.records[1]).toEqual({ network: 'Magnite', impressions: '800', revenue: '9.25' });
  });

  it('detects semicolons, keeps quoted commas, skips a BOM and blank lines', () => {
    const table = parseCsvText('\uFEFFred;importe\r\n"Acme, S.L.";"1,50"\r\n\r\nBeta;2\r\n');
    expect(table.columns).toEqual(['red', 'importe']);
    expect(table.rows).toEqual([
      ['Acme, S.L.', '1,50'],
      ['Beta', '2'],
    ]);
  });

  it('can drop rows with an empty value, counting them', () => {
    const table = parseCsvText('a,b\n1,2\n3,\n,4\n5', 'x.csv', { dropEmpty: true });
    expect(table.rows).toEqual([['1', '2']]);
    expect(table.dropped).toBe(3);
  });

  it('reads files without a header as plain rows', () => {
    const table = parseCsvText('1;2\n3;4', 'x.csv', { header: false });
    expect(table.columns).toEqual([]);
    expect(table.rows).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(table.records).toEqual([]);
  });
});

async function workbook(rows: unknown[][]): Promise<ArrayBuffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Data');
  for (const row of rows) sheet.addRow(row);
  return (await wb.xlsx.writeBuffer()) as ArrayBuffer;
}

describe('parseXlsxBuffer', () => {
  it('reads the first sheet with numbers, dates, formulas and rich text as plain values', async () => {
    const buffer = await workbook([
      ['network', 'day', 'revenue', 'total'],
      ['Google', new Date(Date.UTC(2024, 4, 15)), 12.5, { formula: 'C2*2', result: 25 }],
      [
        { richText: [{ text: 'Mag' }, { text: 'nite' }] },
        new Date(Date.UTC(2024, 4, 16)),
        3,
        { formula: 'C3*2', result: 6 },
      ],
    ]);
    const table = await parseXlsxBuffer(buffer, 'book.xlsx');
    expect(table.columns).toEqual(['network', 'day', 'revenue', 'total']);
    expect(table.rows).toEqual([
      ['Google', '2024-05-15', 12.5, 25],
      ['Magnite', '2024-05-16', 3, 6],
    ]);
  });

  it('drops rows with empty cells when asked', async () => {
    const buffer = await workbook([
      ['a', 'b'],
      [1, 2],
      [3, null],
      [null, 4],
    ]);
    const table = await parseXlsxBuffer(buffer, 'book.xlsx', { dropEmpty: true });
    expect(table.rows).toEqual([[1, 2]]);
    expect(table.dropped).toBe(2);
  });

  it('fails on a file that is not a workbook', async () => {
    await expect(
      parseXlsxBuffer(new TextEncoder().encode('a,b\n1,2').buffer as ArrayBuffer),
    ).rejects.toThrow();
  });
});
