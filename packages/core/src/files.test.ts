import { describe, expect, it } from 'vitest';
import { detectDelimiter, dropRowsWithEmptyValues, fileExtension, uploadError } from './files.ts';

describe('upload extension checks', () => {
  it('accepts the right extension, any case', () => {
    expect(uploadError('report.csv', 'csv')).toBeNull();
    expect(uploadError('REPORT.CSV', 'csv')).toBeNull();
    expect(uploadError('book.xlsx', 'xlsx')).toBeNull();
  });
  it('answers with the spec message key otherwise', () => {
    expect(uploadError('report.xlsx', 'csv')).toBe('upload.csv.invalid');
    expect(uploadError('report.csv.exe', 'csv')).toBe('upload.csv.invalid');
    expect(uploadError('csv', 'csv')).toBe('upload.csv.invalid');
    expect(uploadError('book.xls', 'xlsx')).toBe('upload.xlsx.invalid');
    expect(fileExtension('C:\\tmp\\a.b.Csv')).toBe('csv');
    expect(fileExtension('.csv')).toBe('');
  });
});

describe('detectDelimiter', () => {
  it('finds commas and semicolons', () => {
    expect(detectDelimiter('a,b,c\n1,2,3\n')).toBe(',');
    expect(detectDelimiter('a;b;c\r\n1;2;3\r\n')).toBe(';');
  });
  it('ignores delimiters inside quotes (European decimals)', () => {
    expect(detectDelimiter('name;amount\n"Acme, Inc";"1,5"\n"B";"2,5"')).toBe(';');
    expect(detectDelimiter('"a;b",c\n"d;e",f')).toBe(',');
  });
  it('prefers the delimiter that splits every line the same way', () => {
    expect(detectDelimiter('id;note\n1;a,b,c\n2;d,e\n3;f')).toBe(';');
  });
  it('defaults to comma, skipping a BOM and blank lines', () => {
    expect(detectDelimiter('')).toBe(',');
    expect(detectDelimiter('single column\nvalue')).toBe(',');
    expect(detectDelimiter('\uFEFF\n\na;b\n1;2')).toBe(';');
  });
});

describe('dropRowsWithEmptyValues', () => {
  it('drops array rows with an empty value', () => {
    expect(dropRowsWithEmptyValues([['a', 'b'], ['c', ''], ['d', '  '], ['e', null], ['f', 0], []])).toEqual([
      ['a', 'b'],
      ['f', 0],
    ]);
  });
  it('drops object rows with an empty value, optionally only in some columns', () => {
    const rows = [
      { id: 1, name: 'x', note: '' },
      { id: 2, name: 'y', note: 'ok' },
      { id: 3, name: undefined, note: 'ok' },
    ];
    expect(dropRowsWithEmptyValues(rows)).toEqual([{ id: 2, name: 'y', note: 'ok' }]);
    expect(dropRowsWithEmptyValues(rows, ['id', 'name'])).toEqual([rows[0], rows[1]]);
  });
});
