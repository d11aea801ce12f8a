/**
 * Reports API (see README.md beside this file):
 *   GET  /v1/reports/catalog                               dimensions, metrics, limits, loaded range
 *   POST /v1/reports/dataviewer/query                      one page + totals
 *   POST /v1/reports/dataviewer/export?format=csv|xlsx     the whole result, streamed
 *   GET  /v1/reports/dimensions/:dimension/values          filter autocomplete
 */
import { ok } from '@backoffice/core/envelope';
import { exportFileName } from '@backoffice/core/export-name';
import { localeFromAcceptLanguage, type Locale } from '@backoffice/core/i18n/catalogues';
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
  type ReportExport,
  type ReportQuery,
} from '@backoffice/core/reports';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { writeReportExport } from './export-writer.ts';
import { datasetRange, lookupValues, runReport, toSpec } from './service.ts';
import { domainValidator } from './validation.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';

export const REPORTS_PERMISSION = { resource: '/v1/reports', action: 'read' } as const;

const localeOf = (request: FastifyRequest): Locale => localeFromAcceptLanguage(request.headers['accept-language']);

export async function reportsRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
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
    // The domain validator resolves the date preset into a range: its output is a ReportQuery.
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
    const { format } = request.query;
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
    const { dimension } = request.params;
    const q = request.query;
    const ids = q.ids !== undefined ? q.ids.split(',').filter(Boolean).map(Number).slice(0, 500) : undefined;
    return ok(await lookupValues(database, dimension, { search: q.search, limit: q.limit, ids }, localeOf(request)));
  });
}

// ---------------------------------------------------------------------------------------------
// Export

/** Bytes an export may hold in its buffers before it waits for the client to read. */
const EXPORT_BUFFER_BYTES = 4 * 1024 * 1024;

async function exportReport(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  def: ReportExport,
  format: 'csv' | 'xlsx',
): Promise<FastifyReply> {
  const locale = localeOf(request);
  const spec = toSpec(def);
  const stream = new PassThrough();
  // The client went away: stop reading. (request.raw is already ended once the body was read, so
  // only the response tells.)
  let aborted = false;
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) aborted = true;
  });
  /** Waits until the buffers are below `limit` bytes again (or the response is gone). */
  const drained = async (limit: number) => {
    while (!aborted && !stream.destroyed && stream.writableLength + stream.readableLength > limit) {
      await new Promise<void>((resolve) => {
        const done = () => {
          stream.off('drain', done);
          stream.off('close', done);
          reply.raw.off('close', done);
          clearTimeout(timer);
          resolve();
        };
        // 'drain' fires when the writable side empties; the timer re-checks the readable side.
        const timer = setTimeout(done, 50);
        stream.once('drain', done);
        stream.once('close', done);
        reply.raw.once('close', done);
      });
    }
  };

  // The first rows decide between 'Export empty' and a file; after them the answer streams.
  let started = false;
  let resolveFirst!: (hasRows: boolean) => void;
  const first = new Promise<boolean>((r) => (resolveFirst = r));
  const done = writeReportExport(ctx.database, spec, locale, format, {
    stream,
    onStart: () => {
      started = true;
      resolveFirst(true);
    },
    flow: async () => {
      await drained(EXPORT_BUFFER_BYTES);
      return !aborted;
    },
    stopped: () => aborted,
  }).then(
    () => {
      if (!started) resolveFirst(false);
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
