import { describe, expect, it } from 'vitest';
import { exportFileName, safeFileBaseName } from './export-name.ts';

describe('exportFileName', () => {
  it('is name_YYYY-MM-DD_HHmmss.ext in local time', () => {
    expect(exportFileName('billing', 'csv', new Date(2024, 4, 5, 9, 7, 3))).toBe(
      'billing_2024-05-05_090703.csv',
    );
    expect(exportFileName('billing', 'xlsx', new Date(2024, 11, 31, 23, 59, 59))).toBe(
      'billing_2024-12-31_235959.xlsx',
    );
  });
  it('can stamp in a given time zone', () => {
    expect(exportFileName('r', 'csv', new Date('2024-05-05T23:30:00Z'), 'Europe/Madrid')).toBe(
      'r_2024-05-06_013000.csv',
    );
    expect(exportFileName('r', 'csv', new Date('2024-05-05T00:00:00Z'), 'UTC')).toBe(
      'r_2024-05-05_000000.csv',
    );
  });
  it('makes the name safe for file systems', () => {
    expect(safeFileBaseName('Facturación SSP / mayo')).toBe('Facturación_SSP_mayo');
    expect(safeFileBaseName('../../etc/passwd')).toBe('etc_passwd');
    expect(safeFileBaseName('  ')).toBe('export');
    expect(exportFileName('a:b*c?', 'csv', new Date(2024, 0, 1))).toBe('a_b_c_2024-01-01_000000.csv');
  });
});
