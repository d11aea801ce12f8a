/**
 * The DataViewer export file, written once for every user of it (the export route streams it to
 * the browser; scheduled DataViewers attach it to a mail): translated column titles, an "… ID"
 * column after each entity dimension; CSV in UTF-8 with BOM and CRLF keeping the exact decimal
 * strings (lines written by the database), XLSX with numeric cells through ExcelJS's streaming
 * writer.
 */
import { translate, type Locale } from '@backoffice/core/i18n/catalogues';
import type { ReportColumn } from '@backoffice/core/reports';
import ExcelJS from 'exceljs';
import { Transform, type PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../db/client.ts';
import { csvField, type ReportSpec } from './engine.ts';
import { reportColumns, streamReportCsv, streamReportValues, type ExportOptions } from './service.ts';

export type ExportFormat = 'csv' | 'xlsx';

/** Export columns: entity dimensions get their name and their id. */
export function exportHeader(columns: ReportColumn[], locale: Locale): { keys: string[]; titles: string[]; kinds: string[] } {
  const keys: string[] = [];
  const titles: string[] = [];
  const kinds: string[] = [];
  for (const c of columns) {
    keys.push(c.key);
    titles.push(translate(locale, c.label));
    kinds.push(c.kind === 'metric' ? c.type : 'text');
    if (c.idKey) {
      keys.push(c.idKey);
      titles.push(`${translate(locale, c.label)} ID`);
      kinds.push('count');
    }
  }
  return { keys, titles, kinds };
}

export interface ExportTarget {
  /** Where the file's bytes go. Ended when the file is complete (or when there are no rows). */
  stream: PassThrough;
  /** The first rows arrived: the file starts (nothing is written before, so "no rows" can still be answered). */
  onStart?: () => void;
  /**
   * After each batch is written: waits for the reader as needed, then answers whether to go on
   * (false stops the export: the client went away, the file is too large…).
   */
  flow: () => Promise<boolean>;
  /** True once the reader is gone: nothing more is written. */
  stopped?: () => boolean;
}

/** Writes a report's export file into `target.stream`; resolves to the number of rows. */
export async function writeReportExport(
  database: Database,
  spec: ReportSpec,
  locale: Locale,
  format: ExportFormat,
  target: ExportTarget,
  opts: ExportOptions = {},
): Promise<number> {
  const { titles, kinds } = exportHeader(reportColumns(spec), locale);
  const { stream } = target;
  let started = false;
  let workbook: ExcelJS.stream.xlsx.WorkbookWriter | null = null;
  let sheet: ExcelJS.Worksheet | null = null;
  // Bytes the XLSX zip has written so far (it writes through this counter into the stream).
  let zipped = 0;
  const start = (): void => {
    started = true;
    target.onStart?.();
    if (format === 'csv') stream.write(`\uFEFF${titles.map(csvField).join(',')}\r\n`);
    else {
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          zipped += chunk.length;
          done(null, chunk);
        },
      });
      counter.pipe(stream);
      workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: counter as unknown as PassThrough, useStyles: false, useSharedStrings: false });
      sheet = workbook.addWorksheet('DataViewer');
      sheet.addRow(titles).commit();
    }
  };

  // CSV: the database writes the lines (exact decimal strings), chunk by chunk; this only passes
  // them on, waiting for the reader between chunks.
  const onCsv = async (text: string): Promise<boolean> => {
    if (target.stopped?.()) return false;
    if (!started) start();
    stream.write(text);
    return target.flow();
  };
  // XLSX: spreadsheet cells are numbers so that people can add them up (the CSV keeps exact
  // decimals). ExcelJS ignores back-pressure, so the reader is waited for after each batch.
  const onValues = async (rows: unknown[][]): Promise<boolean> => {
    if (target.stopped?.()) return false;
    if (rows.length === 0) return true;
    if (!started) start();
    for (const r of rows) {
      const cells = new Array<unknown>(r.length);
      for (let i = 0; i < r.length; i++) cells[i] = kinds[i] === 'text' || r[i] === null ? r[i] : Number(r[i]);
      sheet!.addRow(cells).commit();
    }
    // Let the zip deflate what was committed before the next statement: its output grows while a
    // backlog is left (deflate runs on the thread pool, and hands over only when the event loop
    // turns; on PGlite the next statement would block the loop and the backlog pile up in memory).
    let seen = -1;
    while (zipped !== seen && !target.stopped?.()) {
      seen = zipped;
      await sleep(4);
    }
    return target.flow();
  };

  const rows =
    format === 'csv' ? await streamReportCsv(database, spec, locale, onCsv, opts) : await streamReportValues(database, spec, locale, onValues, opts);
  if (workbook) {
    sheet!.commit();
    await (workbook as ExcelJS.stream.xlsx.WorkbookWriter).commit();
  } else stream.end();
  return rows;
}
