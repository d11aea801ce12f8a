/**
 * Reports API (see README.md beside this file):
 *   GET  /v1/reports/catalog                               dimensions, metrics, limits, loaded range
 *   POST /v1/reports/dataviewer/query                      one page + totals
 *   POST /v1/reports/dataviewer/export?format=csv|xlsx     the whole result, streamed
 *   GET  /v1/reports/dimensions/:dimension/values          filter autocomplete
 */
import { ok } from '@backoffice/core/envelope';
import { exportFileName } from '@backoffice/core/export-name';
import { localeFromAcceptLanguage, translate, type Locale } from '@backoffice/core/i18n/catalogues';
import {
  DIMENSION_DEFS,
  DIMENSIONS,
  METRIC_DEFS,
  METRICS,
  QPS_LIMITS,
  REPORT_CURRENCY,
  REPORT_LIMITS,
  dimensionValuesParamsSchema,
  dimensionValuesQuerySchema,
  exportFormatQuerySchema,
  reportExportSchema,
  reportQuerySchema,
  type FilterDimension,
  type ReportColumn,
  type ReportExport,
  type ReportQuery,
  type ReportRow,
} from '@backoffice/core/reports';
import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { datasetRange, lookupValues, reportColumns, runReport, streamReport, toSpec } from './service.ts';
import { domainValidator } from './validation.ts';

export const REPORTS_PERMISSION = { resource: '/v1/reports', action: 'read' } as const;

const localeOf = (request: FastifyRequest): Locale => localeFromAcceptLanguage(request.headers['accept-language']);

export async function reportsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { database } = ctx;

  app.get('/v1/reports/catalog', {
    config: { auth: { permission: REPORTS_PERMISSION } },
    schema: { tags: ['reports'], summary: 'Dimensions, metrics, limits and the loaded data range' },
  }, async () => {
    const range = await datasetRange(database);
    return ok({
      dimensions: DIMENSIONS.map((d) => DIMENSION_DEFS[d]),
      metrics: METRICS.map((m) => METRIC_DEFS[m]),
      limits: REPORT_LIMITS,
      qps: QPS_LIMITS,
      currency: REPORT_CURRENCY,
      data: range ? { start: new Date(range.startMs).toISOString(), end: new Date(range.endMs).toISOString() } : null,
    });
  });

  app.post('/v1/reports/dataviewer/query', {
    config: { auth: { permission: REPORTS_PERMISSION } },
    schema: { tags: ['reports'], summary: 'Runs a DataViewer report (one page, totals and the row count)', body: reportQuerySchema },
    validatorCompiler: domainValidator,
  }, async (request) => {
    const q = request.body as ReportQuery;
    const result = await runReport(database, toSpec(q), { limit: q.limit, offset: q.offset }, localeOf(request));
    return ok(result);
  });

  app.post('/v1/reports/dataviewer/export', {
    config: { auth: { permission: REPORTS_PERMISSION } },
    schema: {
      tags: ['reports'],
      summary: 'Streams the whole result of a report as CSV or XLSX (dataviewer_YYYY-MM-DD_HHmmss.ext)',
      body: reportExportSchema,
      querystring: exportFormatQuerySchema,
    },
    validatorCompiler: domainValidator,
  }, async (request, reply) => {
    const def = request.body as ReportExport;
    const { format } = request.query as { format: 'csv' | 'xlsx' };
    return exportReport(ctx, request, reply, def, format);
  });

  app.get('/v1/reports/dimensions/:dimension/values', {
    config: { auth: { permission: REPORTS_PERMISSION } },
    schema: {
      tags: ['reports'],
      summary: 'Values of a dimension for filter autocomplete: [{id, value}]',
      params: dimensionValuesParamsSchema,
      querystring: dimensionValuesQuerySchema,
    },
    validatorCompiler: domainValidator,
  }, async (request) => {
    const { dimension } = request.params as { dimension: FilterDimension };
    const q = request.query as { search: string; limit: number; ids?: string };
    const ids = q.ids !== undefined ? q.ids.split(',').filter(Boolean).map(Number).slice(0, 500) : undefined;
    return ok(await lookupValues(database, dimension, { search: q.search, limit: q.limit, ids }, localeOf(request)));
  });
}

// ---------------------------------------------------------------------------------------------
// Export

function csvCell(v: string | number | null): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Export columns: entity dimensions get their name and their id. */
function exportHeader(columns: ReportColumn[], locale: Locale): { keys: string[]; titles: string[]; kinds: string[] } {
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

async function exportReport(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  def: ReportExport,
  format: 'csv' | 'xlsx',
): Promise<FastifyReply> {
  const locale = localeOf(request);
  const spec = toSpec(def);
  const { keys, titles, kinds } = exportHeader(reportColumns(spec), locale);
  const stream = new PassThrough();
  // The client went away: stop reading the cursor. (request.raw is already ended once the body
  // was read, so only the response tells.)
  let aborted = false;
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) aborted = true;
  });
  const write = async (chunk: string | Buffer) => {
    if (!stream.write(chunk)) await once(stream, 'drain');
  };

  // The first batch decides between 'Export empty' and a file; after it the answer streams.
  let started = false;
  let resolveFirst!: (hasRows: boolean) => void;
  const first = new Promise<boolean>((r) => (resolveFirst = r));
  let workbook: ExcelJS.stream.xlsx.WorkbookWriter | null = null;
  let sheet: ExcelJS.Worksheet | null = null;

  const onBatch = async (rows: ReportRow[]): Promise<boolean> => {
    if (!started) {
      started = true;
      resolveFirst(rows.length > 0);
      if (rows.length === 0) return false;
      if (format === 'csv') await write(`\uFEFF${titles.map(csvCell).join(',')}\r\n`);
      else {
        workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
        sheet = workbook.addWorksheet('DataViewer');
        sheet.addRow(titles).commit();
      }
    }
    if (aborted) return false;
    if (format === 'csv') {
      let out = '';
      for (const r of rows) out += `${keys.map((k) => csvCell(r[k] ?? null)).join(',')}\r\n`;
      await write(out);
    } else {
      for (const r of rows) {
        // Spreadsheet cells are numbers so that people can add them up; the CSV keeps exact decimals.
        sheet!.addRow(keys.map((k, i) => (kinds[i] === 'text' || r[k] === null ? r[k] : Number(r[k])))).commit();
      }
      await new Promise((r) => setImmediate(r));
    }
    return true;
  };

  const done = streamReport(ctx.database, spec, locale, onBatch, 20_000).then(
    async () => {
      if (!started) resolveFirst(false);
      if (workbook) {
        sheet!.commit();
        await (workbook as ExcelJS.stream.xlsx.WorkbookWriter).commit();
      } else stream.end();
    },
    (err: unknown) => {
      if (!started) {
        started = true;
        resolveFirst(false);
        throw err;
      }
      request.log.error({ err }, 'report export failed while streaming');
      stream.destroy(err instanceof Error ? err : new Error(String(err)));
    },
  );

  const hasRows = await Promise.race([first, done.then(() => false)]);
  if (!hasRows) {
    await done;
    throw new AppError(422, 'report.export_empty');
  }
  const name = exportFileName('dataviewer', format, new Date(), def.timezone);
  reply
    .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`)
    .header('cache-control', 'no-store');
  return reply.send(stream);
}
