import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from './dataviewer-api.ts';
import { formatBytes } from './dataviewer-export.tsx';

describe('export helpers', () => {
  it('takes the file name from Content-Disposition (filename* first)', () => {
    expect(fileNameFromDisposition(`attachment; filename="dataviewer_2025-03-01_101500.csv"; filename*=UTF-8''dataviewer_2025-03-01_101500.csv`, 'x.csv')).toBe(
      'dataviewer_2025-03-01_101500.csv',
    );
    expect(fileNameFromDisposition('attachment; filename="a b.xlsx"', 'x.xlsx')).toBe('a b.xlsx');
    expect(fileNameFromDisposition(`attachment; filename*=UTF-8''informe%20espa%C3%B1a.csv`, 'x.csv')).toBe('informe españa.csv');
    expect(fileNameFromDisposition(null, 'dataviewer.csv')).toBe('dataviewer.csv');
  });

  it('shows the bytes received in readable units', () => {
    expect(formatBytes(512, 'en')).toBe('512 B');
    expect(formatBytes(1536, 'en')).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024, 'es')).toBe('5 MB');
  });
});
