/**
 * A DataViewer report as a CSV or XLSX file in memory (a mail attachment): the same file as
 * POST /v1/reports/dataviewer/export, written by the reports module's export writer.
 */
import type { Locale } from '@backoffice/core/i18n/catalogues';
import { PassThrough } from 'node:stream';
import type { Database } from '../../db/client.ts';
import { writeReportExport } from '../reports/export-writer.ts';
import { toSpec, type ReportDefinition } from '../reports/service.ts';

export interface ReportFile {
  rows: number;
  /** null when the report has no rows (Export empty) or the file grew past maxBytes. */
  content: Buffer | null;
  tooLarge: boolean;
}

export async function renderReportFile(
  database: Database,
  def: ReportDefinition,
  locale: Locale,
  format: 'csv' | 'xlsx',
  maxBytes: number,
): Promise<ReportFile> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) tooLarge = true;
    else chunks.push(chunk);
  });
  const finished = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  const rows = await writeReportExport(database, toSpec(def), locale, format, { stream, flow: async () => !tooLarge });
  await finished;
  if (rows === 0 || tooLarge) return { rows, content: null, tooLarge };
  return { rows, content: Buffer.concat(chunks), tooLarge };
}
