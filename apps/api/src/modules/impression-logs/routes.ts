/**
 * Impression logs (screen `/process/impressions-log`; rules in packages/core/src/impression-logs.ts,
 * docs/decisions/032-impression-logs.md):
 *   GET  /v1/impressions-log                   the requests: status, progress, rows, size, requester, expiry; paged
 *   GET  /v1/impressions-log/export            the filtered list as CSV or XLSX
 *   GET  /v1/impressions-log/options           the networks and publishers the form offers
 *   POST /v1/impressions-log                   ask for an extract (day, network, columns, filters); a job writes it
 *   POST /v1/impressions-log/process-pending   send a fresh job for every pending request
 *   GET  /v1/impressions-log/:id               one request
 *   POST /v1/impressions-log/:id/retry         run a failed or expired request again
 *   POST /v1/impressions-log/:id/link          a download link of a finished extract, valid for minutes
 *   GET  /v1/impressions-log/files/:id         the file, through a link (no session: the link's signature)
 * ACL `/v1/impressions-log`: read to see and download, write to ask, retry and process.
 */
import { ok } from '@backoffice/core/envelope';
import { localeFromAcceptLanguage, translate } from '@backoffice/core/i18n/catalogues';
import { idParamsSchema } from '@backoffice/core/ids';
import {
  IMPRESSION_LOGS_EXPORT_NAME,
  IMPRESSION_LOGS_RESOURCE,
  describeFilter,
  impressionLogExportQuerySchema,
  impressionLogListQuerySchema,
  type ImpressionLogListAnswer,
} from '@backoffice/core/impression-logs';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { sendTableFile, type TableCell } from '../../lib/table-file.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { query } from '../../reports-data/sql.ts';
import { createRequest, downloadLink, listRequests, openLink, processPending, requestOr404, retryRequest, type SendJob } from './service.ts';

const EXPORT_MAX = 50_000;

const requestBodySchema = z.looseObject({
  date: z.unknown().optional().describe('YYYY-MM-DD, not in the future (UTC)'),
  network_id: z.unknown().optional().describe('a demand partner id'),
  columns: z.unknown().optional().describe('at least one of the column catalogue'),
  filters: z.unknown().optional().describe('at least one condition: {field: country|publisher|device|format|size|environment, values: [...]}, {field: min_win_price, value: "1.25"}, {field: deal, value: deal|open}'),
  idempotency_key: z.string().trim().min(8).max(100).regex(/^[A-Za-z0-9_-]+$/).optional().describe('a key per click: the same key makes one request'),
});

const linkQuerySchema = z.object({ exp: z.coerce.number().int().positive(), sig: z.string().min(10).max(100) });

export async function impressionLogRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;
  const tags = ['impression logs'];
  const READ = { auth: { permission: { resource: IMPRESSION_LOGS_RESOURCE, action: 'read' } } } as const;
  const WRITE = { auth: { permission: { resource: IMPRESSION_LOGS_RESOURCE, action: 'write' } } } as const;
  const base = IMPRESSION_LOGS_RESOURCE;
  const send: SendJob = async (queue, data) => (root.jobs ? root.jobs.send(queue, data) : null);

  app.get(
    base,
    {
      config: READ,
      schema: {
        tags,
        summary: 'The impression-log requests: status, progress, rows, size, requester and expiry; paged',
        description:
          'search (network, requester or day), status (comma-separated: pending, running, done, failed, expired), network_id, sort (requested_at, date, network, status, rows, bytes; -field descending), page, page_size (at most 100). ' +
          'active counts the requests pending or running (the screen polls while there are any).',
        querystring: impressionLogListQuerySchema,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const out = await listRequests(database, f, { limit: page_size, offset: (page - 1) * page_size });
      return ok({ ...out, page, page_size } satisfies ImpressionLogListAnswer);
    },
  );

  app.get(
    `${base}/export`,
    {
      config: READ,
      schema: {
        tags,
        summary: 'The filtered impression-log requests as CSV or XLSX',
        description: `The list's filters and sort, and format=csv|xlsx. File ${IMPRESSION_LOGS_EXPORT_NAME}_YYYY-MM-DD_HHmmss.<ext>; titles in the request's language.`,
        querystring: impressionLogExportQuerySchema,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const { format, ...f } = request.query;
      const { items } = await listRequests(database, f, { limit: EXPORT_MAX, offset: 0 });
      const locale = localeFromAcceptLanguage(request.headers['accept-language']);
      const t = (key: string) => translate(locale, key);
      const titles = ['id', 'date', 'network', 'status', 'rows', 'bytes', 'columns', 'filters', 'requested_by', 'requested_at', 'finished_at', 'expires_at', 'error'].map((k) => t(`impressions_log.col.${k}`));
      async function* batches() {
        yield items.map((r): TableCell[] => [
          r.id,
          r.date,
          r.network,
          t(`impressions_log.status.${r.status}`),
          r.rows_done,
          r.bytes,
          r.columns.join(' '),
          r.filters.map((x) => describeFilter(x, t)).join('; '),
          r.requested_by ?? '',
          r.requested_at,
          r.finished_at ?? '',
          r.expires_at ?? '',
          r.error ?? '',
        ]);
      }
      reply.header('cache-control', 'no-store');
      return sendTableFile(request, reply, {
        name: IMPRESSION_LOGS_EXPORT_NAME,
        format,
        titles,
        numeric: [true, false, false, false, true, true, false, false, false, false, false, false, false],
        batches: batches(),
      });
    },
  );

  app.get(
    `${base}/options`,
    { config: READ, schema: { tags, summary: 'The networks (demand partners) and publishers the request form offers, by name' } },
    async () => {
      const networks = await query<{ id: number; name: string; status: string }>(database, `SELECT id, name, status FROM demand_partners ORDER BY lower(name), id`);
      const publishers = await query<{ id: number; name: string }>(database, `SELECT id, name FROM publishers ORDER BY lower(name), id LIMIT 5000`);
      return ok({ networks, publishers });
    },
  );

  app.post(
    base,
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Ask for an impression-log extract; a job writes it as a gzip CSV (LogImpression added successfully)',
        description:
          'date (YYYY-MM-DD, not in the future), network_id (an existing demand partner), columns (at least one), filters (not empty; one per field). ' +
          'Errors: impressions_log.date_required / date_invalid / date_future, network_required / network_not_found, columns_required, filters_required, filter_duplicate, filter_value_required, min_price_invalid. ' +
          'The answer is the request (pending); its job (impression-log-extract) samples the day’s log from the warehouse when needed, then writes the file with progress.',
        body: requestBodySchema,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const { idempotency_key, ...body } = request.body;
      const out = await createRequest(ctx, request, body, idempotency_key ?? null, send);
      return ok(out.item, 'impressions_log.added');
    },
  );

  app.post(
    `${base}/process-pending`,
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Send a fresh job for every pending request (There is not pending process when none)',
        description: 'For requests left pending (jobs off, a lost job). A job of an earlier generation then does nothing. 409 impressions_log.no_pending when nothing is pending.',
        response: { 409: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await processPending(ctx, request, send), 'impressions_log.processing'),
  );

  app.get(
    `${base}/:id`,
    { config: READ, schema: { tags, summary: 'One impression-log request with its progress', params: idParamsSchema, response: { 404: errorEnvelopeSchema } } },
    async (request) => ok(await requestOr404(database, request.params.id)),
  );

  app.post(
    `${base}/:id/retry`,
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Run a failed or expired request again (idempotent: a pending or running request is answered as it is)',
        description: '409 impressions_log.not_retryable for a finished extract whose file is still there.',
        params: idParamsSchema,
        response: { 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await retryRequest(ctx, request, request.params.id, send), 'impressions_log.retried'),
  );

  app.post(
    `${base}/:id/link`,
    {
      config: READ,
      schema: {
        tags,
        summary: 'A download link of a finished extract (signed, valid for 15 minutes and never past the file’s expiry)',
        description: '410 impressions_log.file_unavailable when the extract is not finished or its file has expired.',
        params: idParamsSchema,
        response: { 404: errorEnvelopeSchema, 410: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await downloadLink(ctx, request, request.params.id)),
  );

  app.get(
    `${base}/files/:id`,
    {
      config: { auth: { public: true } },
      schema: {
        tags,
        summary: 'The extract’s file (application/gzip) through a download link',
        description: 'exp and sig come from POST /v1/impressions-log/:id/link. 403 impressions_log.link_invalid (signature), 410 impressions_log.link_expired (link or file expired).',
        params: idParamsSchema,
        querystring: linkQuerySchema,
        response: { 403: errorEnvelopeSchema, 410: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const file = await openLink(ctx, request.params.id, request.query.exp, request.query.sig);
      reply
        .header('content-type', 'application/gzip')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'private, no-store');
      if (file.bytes !== null) reply.header('content-length', String(file.bytes));
      return reply.send(file.stream);
    },
  );
}
