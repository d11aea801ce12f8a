/**
 * SSP logs (screens `/process/ssp-logs-tool` and `/utils/ssp/logs-data/parametrization`; contract in
 * packages/core/src/ssp-logs.ts, docs/decisions/035-ssp-logs.md):
 *   GET /v1/ssp-logs                               sampled auction logs: filters, sort, page (no JSON)
 *   GET /v1/ssp-logs/export                        the filtered logs as CSV or XLSX (no JSON)
 *   GET /v1/ssp-logs/lookups                       publishers and partners for the filters
 *   GET /v1/ssp-logs/status                        the sampling status and what is kept
 *   GET /v1/ssp-logs/parametrization               the sampling setting, with its version
 *   PUT /v1/ssp-logs/parametrization               change it (version; 409 when stale; audited)
 *   GET /v1/ssp-logs/parametrization/history       its changes, newest first
 *   GET /v1/ssp-logs/:id                           one log with its OpenRTB 2.6 request and response
 * ACL: `/v1/ssp-logs` read for the logs; `/v1/ssp-logs/parametrization` read / write for the setting.
 */
import { ok } from '@backoffice/core/envelope';
import { localeFromAcceptLanguage, translate } from '@backoffice/core/i18n/catalogues';
import { idParamsSchema } from '@backoffice/core/ids';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import {
  SSP_LOGS_EXPORT_MAX,
  SSP_LOGS_EXPORT_NAME,
  SSP_LOGS_PARAMETRIZATION_RESOURCE,
  SSP_LOGS_RESOURCE,
  SSP_LOGS_RETENTION_DAYS,
  parametrizationBodySchema,
  sspLogExportQuerySchema,
  sspLogListQuerySchema,
  type SspLogsAnswer,
} from '@backoffice/core/ssp-logs';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { sendTableFile, type TableCell } from '../../lib/table-file.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { historyOf } from '../../resources/routes.ts';
import { SAMPLING_ENTITY, exportLogs, getSetting, listLogs, logOr404, lookups, samplingStatus, updateSetting } from './service.ts';

export async function sspLogRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;
  const now = () => ctx.now?.() ?? Date.now();
  const tags = ['ssp-logs'];
  const READ = { auth: { permission: { resource: SSP_LOGS_RESOURCE, action: 'read' } } } as const;
  const PARAM_READ = { auth: { permission: { resource: SSP_LOGS_PARAMETRIZATION_RESOURCE, action: 'read' } } } as const;
  const PARAM_WRITE = { auth: { permission: { resource: SSP_LOGS_PARAMETRIZATION_RESOURCE, action: 'write' } } } as const;
  const base = SSP_LOGS_RESOURCE;
  const filtersText =
    'request_id (exact OpenRTB BidRequest.id), publisher_id, partner_id, outcome (won, lost, no_bid, below_floor, timeout, error), ' +
    'from (inclusive) and to (exclusive): instants with a zone (2026-01-31T10:00:00Z), sort (time, latency; -field descending; default -time).';

  app.get(
    base,
    {
      config: READ,
      schema: {
        tags,
        summary: 'Sampled auction logs (one row per bid request sent to a demand partner), newest first, paged; without the OpenRTB JSON',
        description: `${filtersText} page, page_size (at most 100). Prices are CPM decimal text with their currency.`,
        querystring: sspLogListQuerySchema,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const q = request.query;
      const out = await listLogs(database, q);
      return ok({ ...out, page: q.page, page_size: q.page_size } satisfies SspLogsAnswer);
    },
  );

  app.get(
    `${base}/export`,
    {
      config: READ,
      schema: {
        tags,
        summary: 'The filtered logs as CSV or XLSX (without the OpenRTB JSON)',
        description: `${filtersText} format=csv|xlsx. File ${SSP_LOGS_EXPORT_NAME}_YYYY-MM-DD_HHmmss.<ext>, at most ${SSP_LOGS_EXPORT_MAX} rows; titles in the request's language.`,
        querystring: sspLogExportQuerySchema,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const { format, ...q } = request.query;
      const rows = await exportLogs(database, { ...q, format }, SSP_LOGS_EXPORT_MAX);
      const locale = localeFromAcceptLanguage(request.headers['accept-language']);
      const t = (key: string) => translate(locale, key);
      const keys = ['id', 'time', 'request_id', 'publisher', 'inventory', 'environment', 'media_type', 'partner', 'endpoint', 'region', 'deal', 'outcome', 'latency', 'bid_price', 'currency', 'clearing_price', 'floor'];
      async function* batches() {
        for (let i = 0; i < rows.length; i += 1000)
          yield rows.slice(i, i + 1000).map((r): TableCell[] => [
            r.id,
            r.logged_at,
            r.request_id,
            r.publisher.name,
            r.inventory,
            r.environment,
            r.media_type,
            r.partner.name,
            r.endpoint,
            r.region,
            r.deal_id ?? '',
            t(`ssp_logs.outcome.${r.outcome}`),
            r.latency_ms,
            r.bid_price,
            r.bid_currency ?? '',
            r.clearing_price,
            r.floor,
          ]);
      }
      reply.header('cache-control', 'no-store');
      return sendTableFile(request, reply, {
        name: SSP_LOGS_EXPORT_NAME,
        format,
        titles: keys.map((k) => t(`ssp_logs.col.${k}`)),
        numeric: [true, false, false, false, false, false, false, false, false, false, false, false, true, true, false, true, true],
        batches: batches(),
      });
    },
  );

  app.get(
    `${base}/lookups`,
    { config: READ, schema: { tags, summary: 'The SSP publishers and demand partners, for the filters (id, name)' } },
    async () => ok(await lookups(database)),
  );

  app.get(
    `${base}/status`,
    {
      config: READ,
      schema: {
        tags,
        summary: 'Whether sampling is on (rate, scope, start, end, rows logged) and the logs kept',
        description: `Logs are kept ${SSP_LOGS_RETENTION_DAYS} days (the job ssp-logs-prune deletes older ones).`,
      },
    },
    async () => ok(await samplingStatus(database, now())),
  );

  app.get(
    `${base}/parametrization`,
    { config: PARAM_READ, schema: { tags, summary: 'The sampling setting: active, sample rate, duration, partner scope, version, the current run' } },
    async () => ok(await getSetting(database, now())),
  );

  app.put(
    `${base}/parametrization`,
    {
      config: PARAM_WRITE,
      schema: {
        tags,
        summary: 'Change the sampling setting (optimistic concurrency; audited)',
        description:
          'active, sample_rate_pct (integer 0-100; not 0 while active), duration_mode (minutes | until), duration_minutes (15-1440) or until (an instant in the future, at most 7 days ahead), ' +
          'partner_scope (all | partners) and partner_ids (existing SSP partners, live or testing; required for partners), version. Switching on (or changing a running duration) starts a run now. ' +
          'A stale version answers 409 resource.conflict with data {current}. The job ssp-logs-sample logs the sampled auctions every minute while the run lasts and switches sampling off when it ends.',
        body: parametrizationBodySchema,
        response: { 400: errorEnvelopeSchema, 409: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await updateSetting(database, request, request.body, now()), 'ssp_logs.param.saved'),
  );

  app.get(
    `${base}/parametrization/history`,
    { config: PARAM_READ, schema: { tags, summary: 'The sampling setting’s changes (people and the sampler ending a run), newest first; at most 200' } },
    async () => ok(await historyOf(database.db, SAMPLING_ENTITY, 1)),
  );

  app.get(
    `${base}/:id`,
    {
      config: READ,
      schema: { tags, summary: 'One log with its OpenRTB 2.6 BidRequest and BidResponse (null without a bid)', params: idParamsSchema, response: { 404: errorEnvelopeSchema } },
    },
    async (request) => ok(await logOr404(database, request.params.id)),
  );
}
