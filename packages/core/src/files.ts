/**
 * Tabular file rules (spec sections 5 and 9): upload extension checks, CSV delimiter
 * detection (comma or semicolon) and the helper that drops rows with an empty value.
 * Parsing itself happens where the bytes are (papaparse / ExcelJS in the web app).
 */

export const UPLOAD_KINDS = ['csv', 'xlsx'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

export interface UploadRule {
  extension: string;
  /** The `accept` attribute of the file input. */
  accept: string;
  /** i18n key of the wrong-file message. */
  invalidMessage: 'upload.csv.invalid' | 'upload.xlsx.invalid';
}

export const UPLOAD_RULES: Readonly<Record<UploadKind, UploadRule>> = {
  csv: { extension: 'csv', accept: '.csv,text/csv', invalidMessage: 'upload.csv.invalid' },
  xlsx: {
    extension: 'xlsx',
    accept: '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    invalidMessage: 'upload.xlsx.invalid',
  },
};

/** Lowercase extension without the dot ('' when there is none). */
export function fileExtension(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** The i18n key of the error for a file of the wrong kind, or null when the extension fits. */
export function uploadError(fileName: string, kind: UploadKind): UploadRule['invalidMessage'] | null {
  const rule = UPLOAD_RULES[kind];
  return fileExtension(fileName) === rule.extension ? null : rule.invalidMessage;
}

export const CSV_DELIMITERS = [',', ';'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

/** Counts delimiter characters outside double-quoted fields in one line. */
function countOutsideQuotes(line: string, delimiter: string): number {
  let inQuotes = false;
  let count = 0;
  for (const ch of line) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && ch === delimiter) count += 1;
  }
  return count;
}

/**
 * Comma or semicolon, whichever splits the first lines into the same, largest number of
 * fields. Quoted fields are skipped, so `"1,5";"2,5"` is semicolon-separated. Comma when
 * nothing decides.
 */
export function detectDelimiter(text: string, sampleLines = 10): CsvDelimiter {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .filter((l) => l.trim() !== '')
    .slice(0, sampleLines);
  if (lines.length === 0) return ',';
  const score = (delimiter: CsvDelimiter) => {
    const counts = lines.map((l) => countOutsideQuotes(l, delimiter));
    const first = counts[0] ?? 0;
    if (first === 0) return 0;
    const consistent = counts.filter((c) => c === first).length;
    // Consistency across lines matters most, then the number of fields.
    return consistent * 1000 + first;
  };
  const comma = score(',');
  const semicolon = score(';');
  return semicolon > comma ? ';' : ',';
}

/** Empty means missing, or a string with nothing but spaces. */
export function isEmptyCellValue(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/**
 * Drops every row in which any value is empty (spec section 5). Rows may be arrays or
 * objects; for objects, `columns` names the values that count (default: the row's own keys).
 */
export function dropRowsWithEmptyValues<Row extends readonly unknown[] | Record<string, unknown>>(
  rows: readonly Row[],
  columns?: readonly string[],
): Row[] {
  return rows.filter((row) => {
    if (Array.isArray(row)) return row.length > 0 && !row.some(isEmptyCellValue);
    const record = row as Record<string, unknown>;
    const keys = columns ?? Object.keys(record);
    return keys.length > 0 && !keys.some((k) => isEmptyCellValue(record[k]));
  });
}
