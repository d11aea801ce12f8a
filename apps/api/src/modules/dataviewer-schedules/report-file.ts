/**
 * A DataViewer report as a CSV or XLSX file in memory (a mail attachment), run by the reports
 * engine (`streamReport`, `reportColumns`, `toSpec` of modules/reports/service.ts) and written in
 * the same format as POST /v1/reports/dataviewer/export: translated column titles, an "… ID"
 * column after each entity dimension, CSV in UTF-8 with BOM and CRLF keeping exact decimals, XLSX
 * with numeric cells.
 *
 * The export route keeps its header and cell helpers private (modules/reports/routes.ts), so they
 * are written out here; the reports module should export one writer for both (see the note in the
 * schedules work report) and this file should then call it.
 */
import { translate, type Locale } from '@backoffice/core/i18n/catalogues';
import type { ReportColumn, ReportRow } from '@backoffice/core/reports';
import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
import type { Database } from '../../db/client.ts';
import { reportColumns, streamReport, toSpec, type ReportDefinition } from '../reports/service.ts';

export interface ReportFile {
  rows: number;
  /** null when the report has no rows (Export empty) or the file grew past maxBytes. */
  content: Buffer | null;
  tooLarge: boolean;
}

function csvCell(v: string | number | null): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function header(columns: ReportColumn[], locale: Locale): { keys: string[]; titles: string[]; kinds: string[] } {
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

export async function renderReportFile(
  database: Database,
  def: ReportDefinition,
  locale: Locale,
  format: 'csv' | 'xlsx',
  maxBytes: number,
): Promise<ReportFile> {
  const spec = toSpec(def);
  const { keys, titles, kinds } = header(reportColumns(spec), locale);
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  const collect = (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) tooLarge = true;
    else chunks.push(chunk);
  };

  let workbook: ExcelJS.stream.xlsx.WorkbookWriter | null = null;
  let sheet: ExcelJS.Worksheet | null = null;
  const sink = new PassThrough();
  sink.on('data', collect);
  const finished = new Promise<void>((resolve, reject) => {
    sink.on('end', resolve);
    sink.on('error', reject);
  });

  let rows = 0;
  await streamReport(database, spec, locale, async (batch: ReportRow[]) => {
    if (rows === 0 && batch.length > 0) {
      if (format === 'csv') collect(Buffer.from(`\uFEFF${titles.map(csvCell).join(',')}\r\n`, 'utf8'));
      else {
        workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: false, useSharedStrings: false });
        sheet = workbook.addWorksheet('DataViewer');
        sheet.addRow(titles).commit();
      }
    }
    rows += batch.length;
    if (format === 'csv') {
      let out = '';
      for (const r of batch) out += `${keys.map((k) => csvCell(r[k] ?? null)).join(',')}\r\n`;
      collect(Buffer.from(out, 'utf8'));
    } else {
      for (const r of batch) sheet!.addRow(keys.map((k, i) => (kinds[i] === 'text' || r[k] === null ? r[k] : Number(r[k])))).commit();
    }
    return !tooLarge;
  });

  if (workbook) {
    sheet!.commit();
    await (workbook as ExcelJS.stream.xlsx.WorkbookWriter).commit();
  } else sink.end();
  await finished;
  if (rows === 0 || tooLarge) return { rows, content: null, tooLarge };
  return { rows, content: Buffer.concat(chunks), tooLarge };
}
