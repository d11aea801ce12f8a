/**
 * The extract: the sampled log rows of a (day, network) that pass the filters, the chosen columns,
 * as CSV through gzip into the storage adapter. Rows are read in pages by key (day, network, seq >
 * last), so memory stays flat whatever the size, and every page is a short query of its own (on
 * PGlite the one connection serves other requests between pages). Every value is turned into text
 * by the database (prices exact from integer micro-units), and CSV-escaped here.
 */
import {
  IMPRESSION_LOG_COLUMNS,
  IMPRESSION_LOG_CURRENCY,
  type ImpressionLogColumn,
  type ImpressionLogFilter,
} from '@backoffice/core/impression-logs';
import { COUNTRIES, DEVICES, ENVIRONMENTS, FORMATS, OPERATING_SYSTEMS, SIZES } from '@backoffice/core/reports';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Database } from '../../db/client.ts';
import { csvCell } from '../../lib/table-file.ts';
import type { Storage, StoredObject } from '../../lib/storage.ts';
import { query, queryArrays } from '../../reports-data/sql.ts';

/** Rows per page of the extract. */
export const EXTRACT_PAGE_ROWS = 5000;

/** A constant array of core's enum names as SQL (they are identifiers-like literals: letters, digits, 'x'). */
function enumArray(values: readonly string[]): string {
  if (!values.every((v) => /^[A-Za-z0-9]+$/.test(v))) throw new Error('enum names must be plain words');
  return `ARRAY[${values.map((v) => `'${v}'`).join(',')}]::text[]`;
}

/** The SQL text of each column (allow-listed: only these strings are ever written into the query). */
const COLUMN_SQL: Record<ImpressionLogColumn, string> = {
  timestamp: `to_char(r.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  request_id: `md5(r.log_date::text || ':' || r.demand_partner_id || ':' || r.seq)::uuid::text`,
  publisher_id: `r.publisher_id::text`,
  publisher: `p.name`,
  site: `s.name`,
  ad_unit: `u.name`,
  environment: `(${enumArray(ENVIRONMENTS)})[r.environment_id]`,
  country: `(${enumArray(COUNTRIES)})[r.country_id]`,
  device: `(${enumArray(DEVICES)})[r.device_id]`,
  os: `(${enumArray(OPERATING_SYSTEMS)})[r.os_id]`,
  format: `(${enumArray(FORMATS)})[r.format_id]`,
  size: `(${enumArray(SIZES)})[r.size_id]`,
  deal_id: `COALESCE(d.code, '')`,
  bid_price: `(r.bid_micros::numeric / 1000000)::numeric(14,4)::text`,
  win_price: `(r.win_micros::numeric / 1000000)::numeric(14,4)::text`,
  revenue: `(r.win_micros::numeric / 1000000000)::numeric(16,7)::text`,
  currency: `'${IMPRESSION_LOG_CURRENCY}'`,
};

const JOINS: Partial<Record<ImpressionLogColumn, string>> = {
  publisher: 'LEFT JOIN publishers p ON p.id = r.publisher_id',
  site: 'LEFT JOIN sites s ON s.id = r.site_id',
  ad_unit: 'LEFT JOIN ad_units u ON u.id = r.ad_unit_id',
  deal_id: 'LEFT JOIN deals d ON d.id = r.deal_id',
};

const idsOf = (all: readonly string[], values: readonly string[]) => values.map((v) => all.indexOf(v) + 1).filter((i) => i > 0);

/**
 * The WHERE conditions of the filters, with their parameters numbered from `first`. Parameters
 * $1 (day) and $2 (network) are the key's.
 */
export function filterSql(filters: readonly ImpressionLogFilter[], first: number): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  const add = (text: (n: string) => string, value: unknown) => {
    params.push(value);
    sql.push(text(`$${first + params.length - 1}`));
  };
  for (const f of filters) {
    switch (f.field) {
      case 'country':
        add((n) => `r.country_id = ANY(${n}::smallint[])`, idsOf(COUNTRIES, f.values));
        break;
      case 'device':
        add((n) => `r.device_id = ANY(${n}::smallint[])`, idsOf(DEVICES, f.values));
        break;
      case 'format':
        add((n) => `r.format_id = ANY(${n}::smallint[])`, idsOf(FORMATS, f.values));
        break;
      case 'size':
        add((n) => `r.size_id = ANY(${n}::smallint[])`, idsOf(SIZES, f.values));
        break;
      case 'environment':
        add((n) => `r.environment_id = ANY(${n}::smallint[])`, idsOf(ENVIRONMENTS, f.values));
        break;
      case 'publisher':
        add((n) => `r.publisher_id = ANY(${n}::int[])`, f.values);
        break;
      case 'min_win_price':
        add((n) => `r.win_micros >= ${n}::bigint`, cpmMicros(f.value).toString());
        break;
      case 'deal':
        sql.push(f.value === 'deal' ? 'r.deal_id <> 0' : 'r.deal_id = 0');
        break;
    }
  }
  return { sql, params };
}

/** A CPM text (at most 4 decimals) in micro-units, exactly. */
export function cpmMicros(text: string): bigint {
  const [whole, frac = ''] = text.split('.');
  return BigInt(whole!) * 1_000_000n + BigInt((frac + '000000').slice(0, 6));
}

/** How many rows the extract will have. */
export async function countRows(database: Database, day: string, networkId: number, filters: readonly ImpressionLogFilter[]): Promise<number> {
  const f = filterSql(filters, 3);
  const [row] = await query<{ n: number }>(
    database,
    `SELECT count(*)::int AS n FROM impression_log_rows r WHERE r.log_date = $1::date AND r.demand_partner_id = $2${f.sql.map((c) => ` AND ${c}`).join('')}`,
    [day, networkId, ...f.params],
  );
  return row?.n ?? 0;
}

export interface ExtractSpec {
  day: string;
  networkId: number;
  columns: readonly ImpressionLogColumn[];
  filters: readonly ImpressionLogFilter[];
}

/** The page query of an extract: $1 day, $2 network, $3 the last seq, then the filters'. */
function pageQuery(spec: ExtractSpec, pageRows: number): { text: string; params: unknown[] } {
  const columns = IMPRESSION_LOG_COLUMNS.filter((c) => spec.columns.includes(c));
  const joins = [...new Set(columns.map((c) => JOINS[c]).filter(Boolean))];
  const f = filterSql(spec.filters, 4);
  const text =
    `SELECT r.seq, ${columns.map((c) => COLUMN_SQL[c]).join(', ')}
       FROM impression_log_rows r ${joins.join(' ')}
      WHERE r.log_date = $1::date AND r.demand_partner_id = $2 AND r.seq > $3::int${f.sql.map((c) => ` AND ${c}`).join('')}
      ORDER BY r.seq
      LIMIT ${pageRows}`;
  return { text, params: [spec.day, spec.networkId, 0, ...f.params] };
}

/**
 * The CSV text of the extract in chunks (header, then one chunk per page); `onPage` hears the rows
 * written so far after each page and may throw to stop (a run that was superseded).
 */
export async function* extractCsv(
  database: Database,
  spec: ExtractSpec,
  onPage: (rowsDone: number) => Promise<void>,
  pageRows = EXTRACT_PAGE_ROWS,
): AsyncGenerator<string> {
  const columns = IMPRESSION_LOG_COLUMNS.filter((c) => spec.columns.includes(c));
  yield `${columns.join(',')}\r\n`;
  const { text, params } = pageQuery(spec, pageRows);
  let last = 0;
  let done = 0;
  for (;;) {
    params[2] = last;
    const rows = await queryArrays(database, text, params);
    if (rows.length === 0) break;
    let chunk = '';
    for (const row of rows) {
      for (let i = 1; i < row.length; i++) {
        if (i > 1) chunk += ',';
        chunk += csvCell(row[i] as string | null);
      }
      chunk += '\r\n';
    }
    last = Number(rows[rows.length - 1]![0]);
    done += rows.length;
    yield chunk;
    await onPage(done);
    if (rows.length < pageRows) break;
  }
}

/** Writes the extract gzip-compressed under `key`; answers the stored object and the rows written. */
export async function writeExtract(
  database: Database,
  storage: Storage,
  key: string,
  spec: ExtractSpec,
  onPage: (rowsDone: number) => Promise<void>,
  pageRows = EXTRACT_PAGE_ROWS,
): Promise<StoredObject & { rows: number }> {
  let rows = 0;
  const source = Readable.from(
    extractCsv(
      database,
      spec,
      async (n) => {
        rows = n;
        await onPage(n);
      },
      pageRows,
    ),
  );
  const gzip = createGzip({ level: 6 });
  // A failing page (or a superseded run) destroys the gzip stream, which fails the put (no file is left).
  const [, stored] = await Promise.all([pipeline(source, gzip), storage.put(key, gzip)]);
  return { ...stored, rows };
}
