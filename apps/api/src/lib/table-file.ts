/**
 * A table as a downloaded file (CSV or XLSX), streamed: the resource layer's exports and the
 * screens whose rows are figures (the partners' overview, the performance report) write through
 * here. CSV in UTF-8 with a BOM and CRLF, formula-like text defused; XLSX through ExcelJS's
 * streaming writer, numbers as numeric cells. The first batch of rows is read before the answer
 * starts, so a query that fails answers an error envelope, not a file cut off after its headers.
 */
import { exportFileName } from '@backoffice/core/export-name';
import ExcelJS from 'exceljs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';

export type TableFormat = 'csv' | 'xlsx';
export type TableCell = string | number | null;

/** Text a spreadsheet would run as a formula (CSV injection), except plain numbers such as -120.50. */
const FORMULA_LIKE = /^(?![-+]?\d+(?:\.\d+)?$)[=+\-@\t\r]/;

/** A CSV field: formula-like text gets a leading apostrophe, and quoting where needed. */
export function csvCell(value: TableCell): string {
  const text = value === null ? '' : String(value);
  const safe = FORMULA_LIKE.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export interface TableFile {
  /** The file name's prefix (`companies` -> `companies_YYYY-MM-DD_HHmmss.csv`). */
  name: string;
  format: TableFormat;
  titles: string[];
  /** The rows, in batches; the first is read before the answer starts. */
  batches: AsyncIterable<TableCell[][]>;
  /** The file's time zone for its name (default the server's). */
  timezone?: string;
  /**
   * Columns whose decimal texts become numeric cells in XLSX, so a spreadsheet adds them up (the
   * CSV keeps the exact decimals). Numbers are numeric cells anyway.
   */
  numeric?: readonly boolean[];
}

/** Waits until the reader has taken the buffer (or has gone away). */
function drained(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

export async function sendTableFile(request: FastifyRequest, reply: FastifyReply, file: TableFile) {
  const iterator = file.batches[Symbol.asyncIterator]();
  const first = await iterator.next();
  const stream = new PassThrough();
  reply
    .header('content-disposition', `attachment; filename="${exportFileName(file.name, file.format, new Date(), file.timezone)}"`)
    .type(file.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  async function* rest(): AsyncGenerator<TableCell[][]> {
    if (first.done) return;
    yield first.value;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  void (async () => {
    try {
      if (file.format === 'csv') {
        stream.write(`\ufeff${file.titles.map(csvCell).join(',')}\r\n`);
        for await (const rows of rest()) {
          if (stream.destroyed) return;
          if (rows.length > 0 && !stream.write(`${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`)) await drained(stream);
        }
        stream.end();
      } else {
        const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
        const sheet = workbook.addWorksheet(file.name.slice(0, 31));
        sheet.addRow(file.titles).commit();
        const numeric = file.numeric ?? [];
        const xlsxCell = (v: TableCell, i: number) => (v === null ? '' : numeric[i] && typeof v === 'string' && v !== '' ? Number(v) : v);
        for await (const rows of rest()) for (const r of rows) sheet.addRow(r.map(xlsxCell)).commit();
        sheet.commit();
        await workbook.commit();
      }
    } catch (err) {
      request.log.error({ err }, `${file.name}: export failed`);
      stream.destroy(err as Error);
    }
  })();
  return reply.send(stream);
}
