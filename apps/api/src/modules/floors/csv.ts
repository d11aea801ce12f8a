/**
 * The rules' CSV (issue 20): the export's rows, and the import's reading of a file edited in a
 * spreadsheet. Comma or semicolon, detected (spec); with the semicolon a decimal comma is read
 * ("1,25"). The file is the whole rule set: a rule not in it is removed. Each bad row is reported
 * with its line and reason (unknown publisher or partner, bad currency, negative or bad CPM, a key
 * that is not a country, device, media type or size, duplicate keys with the line it repeats), and
 * a file with any bad row applies nothing.
 */
import { detectDelimiter, type CsvDelimiter } from '@backoffice/core/files';
import { FLOOR_KEYS, duplicateRuleKeys, type FloorRule } from '@backoffice/core/floors';
import {
  FLOOR_CSV_COLUMNS,
  FLOOR_CSV_REQUIRED,
  checkFloorRule,
  type FloorField,
} from '@backoffice/core/floors-input';
import Papa from 'papaparse';
import type { Database } from '../../db/client.ts';
import { query } from '../../reports-data/sql.ts';

/** The most rules a file may hold. */
export const MAX_IMPORT_ROWS = 200_000;
/** The bad rows an answer lists (the count is always whole). */
export const MAX_LISTED_ERRORS = 500;

export interface ImportRowError {
  /** The line in the file (the header is line 1). */
  line: number;
  field: FloorField | null;
  /** i18n key of the reason. */
  key: string;
  /** What the cell held. */
  value: string;
  /** For a duplicate: the line of the rule it repeats. */
  first_line?: number;
}

export interface ParsedImport {
  delimiter: CsvDelimiter;
  /** The rules read, in file order (only when there is no error). */
  rules: FloorRule[];
  rows: number;
  errors: ImportRowError[];
  error_count: number;
  /** A problem of the whole file (no header, a missing column, too many rows): i18n key and params. */
  file_error: { key: string; params?: Record<string, string | number> } | null;
}

/** A cell a spreadsheet export defused with a leading apostrophe, read back. */
const undefuse = (v: string) => (/^'[=+\-@]/.test(v) ? v.slice(1) : v);

/** Reads and checks a file against the database's publishers and partners. */
export async function parseImport(database: Database, text: string): Promise<ParsedImport> {
  const clean = text.replace(/^\uFEFF/, '');
  const delimiter = detectDelimiter(clean);
  const result = Papa.parse<string[]>(clean, { delimiter, skipEmptyLines: false });
  const data = result.data;
  const empty: ParsedImport = { delimiter, rules: [], rows: 0, errors: [], error_count: 0, file_error: null };
  const header = (data[0] ?? []).map((h) => h.trim().toLowerCase());
  if (header.length === 0 || header.every((h) => h === ''))
    return { ...empty, file_error: { key: 'floors.import.empty' } };
  const missing = FLOOR_CSV_REQUIRED.filter((c) => !header.includes(c));
  if (missing.length > 0)
    return {
      ...empty,
      file_error: { key: 'floors.import.missing_columns', params: { columns: missing.join(', ') } },
    };
  const col = Object.fromEntries(FLOOR_CSV_COLUMNS.map((c) => [c, header.indexOf(c)])) as Record<
    (typeof FLOOR_CSV_COLUMNS)[number],
    number
  >;
  const cell = (row: string[], c: (typeof FLOOR_CSV_COLUMNS)[number]) =>
    col[c] >= 0 ? undefuse(String(row[col[c]] ?? '').trim()) : '';

  const rules: FloorRule[] = [];
  const lines: number[] = [];
  const errors: ImportRowError[] = [];
  let errorCount = 0;
  const report = (e: ImportRowError) => {
    errorCount++;
    if (errors.length < MAX_LISTED_ERRORS) errors.push(e);
  };
  let rows = 0;
  for (let i = 1; i < data.length; i++) {
    const row = data[i]!;
    if (row.every((v) => String(v).trim() === '')) continue;
    rows++;
    if (rows > MAX_IMPORT_ROWS)
      return {
        ...empty,
        rows,
        file_error: { key: 'floors.import.too_many_rows', params: { max: MAX_IMPORT_ROWS } },
      };
    const line = i + 1;
    const keys = Object.fromEntries(FLOOR_KEYS.map((k) => [k, cell(row, k)]));
    const checked = checkFloorRule(
      { keys, cpm: cell(row, 'cpm'), currency: cell(row, 'currency'), type: cell(row, 'type') },
      { decimalComma: delimiter === ';' },
    );
    if (!checked.rule) {
      for (const e of checked.errors) report({ line, field: e.field, key: e.key, value: cell(row, e.field) });
      continue;
    }
    rules.push(checked.rule);
    lines.push(line);
  }

  // Publishers and partners that exist.
  const ids = (k: 'publisher' | 'demand_partner') =>
    [...new Set(rules.map((r) => r.keys[k]).filter((v) => v !== '*'))].map(Number);
  const [pubs, partners] = await Promise.all([
    query<{ id: number }>(database, 'SELECT id FROM publishers WHERE id = ANY($1::int4[])', [
      ids('publisher'),
    ]),
    query<{ id: number }>(database, 'SELECT id FROM demand_partners WHERE id = ANY($1::int4[])', [
      ids('demand_partner'),
    ]),
  ]);
  const knownPubs = new Set(pubs.map((p) => String(p.id)));
  const knownPartners = new Set(partners.map((p) => String(p.id)));
  rules.forEach((r, i) => {
    if (r.keys.publisher !== '*' && !knownPubs.has(r.keys.publisher)) {
      report({
        line: lines[i]!,
        field: 'publisher',
        key: 'floors.error.unknown_publisher',
        value: r.keys.publisher,
      });
    }
    if (r.keys.demand_partner !== '*' && !knownPartners.has(r.keys.demand_partner)) {
      report({
        line: lines[i]!,
        field: 'demand_partner',
        key: 'floors.error.unknown_partner',
        value: r.keys.demand_partner,
      });
    }
  });
  for (const [dup, first] of duplicateRuleKeys(rules)) {
    report({
      line: lines[dup]!,
      field: null,
      key: 'floors.error.duplicate_keys',
      value: '',
      first_line: lines[first]!,
    });
  }
  errors.sort((a, b) => a.line - b.line);
  return {
    delimiter,
    rules: errorCount > 0 ? [] : rules,
    rows,
    errors,
    error_count: errorCount,
    file_error: null,
  };
}
