/**
 * Reading uploaded tables: CSV through papaparse with the delimiter (comma or semicolon)
 * detected by the core rule, XLSX through ExcelJS loaded on demand (it is large, so it stays
 * out of the main bundle). Both give the same shape.
 */
import { detectDelimiter, dropRowsWithEmptyValues } from '@backoffice/core/files';
import Papa from 'papaparse';

export type CellValue = string | number | boolean | null;

export interface ParsedTable {
  fileName: string;
  /** Header names (the first row) when read with a header, else empty. */
  columns: string[];
  /** Data rows as arrays, header excluded; padded to the header's width. */
  rows: CellValue[][];
  /** Data rows keyed by header name (empty without a header). */
  records: Record<string, CellValue>[];
  /** Rows left out because a value was empty (with `dropEmpty`). */
  dropped: number;
}

export interface ParseOptions {
  /** The first row holds column names. Default true. */
  header?: boolean;
  /** Leave out every row with an empty value (spec section 5). Default false. */
  dropEmpty?: boolean;
}

function finish(fileName: string, table: CellValue[][], options: ParseOptions): ParsedTable {
  const header = options.header ?? true;
  const nonBlank = table.filter((row) => row.some((v) => v !== null && String(v).trim() !== ''));
  const columns = header
    ? (nonBlank[0] ?? []).map((v, i) =>
        v === null || String(v).trim() === '' ? `column_${i + 1}` : String(v).trim(),
      )
    : [];
  let rows = header ? nonBlank.slice(1) : nonBlank;
  if (header)
    rows = rows.map((row) =>
      Array.from({ length: Math.max(columns.length, row.length) }, (_, i) => row[i] ?? null),
    );
  const kept = options.dropEmpty ? dropRowsWithEmptyValues(rows) : rows;
  const records = header
    ? kept.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i] ?? null])))
    : [];
  return { fileName, columns, rows: kept, records, dropped: rows.length - kept.length };
}

/** Parses CSV text; the delimiter is detected (comma or semicolon). */
export function parseCsvText(text: string, fileName = 'data.csv', options: ParseOptions = {}): ParsedTable {
  const clean = text.replace(/^\uFEFF/, '');
  const result = Papa.parse<string[]>(clean, { delimiter: detectDelimiter(clean), skipEmptyLines: 'greedy' });
  const table = result.data.map((row) => row.map((v) => (v === '' ? null : v)));
  return finish(fileName, table, options);
}

export async function parseCsvFile(file: File, options: ParseOptions = {}): Promise<ParsedTable> {
  return parseCsvText(await file.text(), file.name, options);
}

/** A plain value for an ExcelJS cell value (rich text, formulas, links, dates, errors). */
function plainCell(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) {
    // Excel dates carry no zone; ExcelJS reads them as UTC.
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19);
  }
  if (typeof value === 'object') {
    const v = value as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: string };
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text).join('');
    if ('result' in v) return plainCell(v.result);
    if (v.text !== undefined) return plainCell(v.text);
    if (v.error !== undefined) return null;
  }
  return String(value);
}

/** Parses the first worksheet of an XLSX workbook. */
export async function parseXlsxBuffer(
  buffer: ArrayBuffer,
  fileName = 'data.xlsx',
  options: ParseOptions = {},
): Promise<ParsedTable> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer);
  const sheet = workbook.worksheets[0];
  const table: CellValue[][] = [];
  sheet?.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: CellValue[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      cells[col - 1] = plainCell(cell.value);
    });
    table[rowNumber - 1] = Array.from(cells, (v) => v ?? null);
  });
  return finish(
    fileName,
    Array.from(table, (row) => row ?? []),
    options,
  );
}

export async function parseXlsxFile(file: File, options: ParseOptions = {}): Promise<ParsedTable> {
  return parseXlsxBuffer(await file.arrayBuffer(), file.name, options);
}
