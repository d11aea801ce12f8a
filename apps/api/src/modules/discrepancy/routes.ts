/**
 * Discrepancy review (issue 24; screen `/process/discrepancy`). The contract and rules are core's
 * (packages/core/src/discrepancy.ts). ACL `/v1/discrepancy`: read to see, write for every change.
 */
import {
  DISCREPANCY_RESOURCE,
  discrepancyApplySchema,
  discrepancyDecisionSchema,
  discrepancyExportName,
  discrepancyListQuerySchema,
  discrepancyRequestSchema,
  discrepancyRowsExportName,
  discrepancyRowsQuerySchema,
  discrepancySettingsSchema,
  type DiscrepancyRequestDto,
  type DiscrepancyRowDto,
} from '@backoffice/core/discrepancy';
import { ok } from '@backoffice/core/envelope';
import { idParamsSchema } from '@backoffice/core/ids';
import { localeFromAcceptLanguage, translate } from '@backoffice/core/i18n/catalogues';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { sendTableFile, type TableCell } from '../../lib/table-file.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { whoOf } from '../billing/actions.ts';
import {
  applyRequest,
  decideRows,
  listRequests,
  listRows,
  readRequest,
  readSettings,
  requestDiscrepancy,
  retryRequest,
  searchNetworks,
  writeSettings,
  type Sender,
} from './service.ts';

const TAGS = ['discrepancy'];
const READ = { auth: { permission: { resource: DISCREPANCY_RESOURCE, action: 'read' } } } as const;
const WRITE = { auth: { permission: { resource: DISCREPANCY_RESOURCE, action: 'write' } } } as const;

const REQUEST_COLUMNS: { key: string; cell: (r: DiscrepancyRequestDto) => TableCell; numeric?: boolean }[] = [
  { key: 'discrepancy.col.id', cell: (r) => r.id },
  { key: 'discrepancy.col.date', cell: (r) => r.date },
  { key: 'discrepancy.col.period', cell: (r) => `${r.from_date} – ${r.date}` },
  { key: 'discrepancy.col.networks', cell: (r) => r.networks.map((n) => n.name).join(', ') },
  { key: 'discrepancy.col.state', cell: (r) => r.state },
  { key: 'discrepancy.col.tolerance', cell: (r) => r.tolerance_pct, numeric: true },
  { key: 'discrepancy.col.flagged', cell: (r) => r.counts.flagged },
  { key: 'discrepancy.col.undecided', cell: (r) => r.counts.undecided },
  { key: 'discrepancy.col.source', cell: (r) => r.file_name ?? r.source },
  { key: 'discrepancy.col.created_by', cell: (r) => r.created_by },
  { key: 'discrepancy.col.created_at', cell: (r) => r.created_at },
];
const ROW_COLUMNS: { key: string; cell: (r: DiscrepancyRowDto) => TableCell; numeric?: boolean }[] = [
  { key: 'discrepancy.col.day', cell: (r) => r.day },
  { key: 'discrepancy.col.network', cell: (r) => r.network },
  { key: 'discrepancy.col.currency', cell: (r) => r.currency },
  { key: 'discrepancy.col.ours_impressions', cell: (r) => r.ours_impressions },
  { key: 'discrepancy.col.theirs_impressions', cell: (r) => r.theirs_impressions },
  { key: 'discrepancy.col.impressions_delta', cell: (r) => r.impressions_delta_pct, numeric: true },
  { key: 'discrepancy.col.ours_revenue', cell: (r) => r.ours_revenue, numeric: true },
  { key: 'discrepancy.col.theirs_revenue', cell: (r) => r.theirs_revenue, numeric: true },
  { key: 'discrepancy.col.revenue_delta', cell: (r) => r.revenue_delta_pct, numeric: true },
  { key: 'discrepancy.flagged', cell: (r) => (r.flagged ? 'yes' : 'no') },
  { key: 'discrepancy.col.decision', cell: (r) => r.decision },
  { key: 'discrepancy.col.accepted', cell: (r) => r.accepted_revenue, numeric: true },
];

export async function discrepancyRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const database = ctx.database;
  const send: Sender = async (queue, data, options) => (root.jobs?.running ? root.jobs.send(queue, data, options) : null);

  app.get(
    '/v1/discrepancy/networks',
    {
      config: READ,
      schema: { tags: TAGS, summary: 'Demand partners a request can name (search by name or id)', querystring: z.strictObject({ search: z.string().max(200).default(''), ids: z.string().regex(/^(\d{1,10}(,\d{1,10}){0,199})?$/).default(''), limit: z.coerce.number().int().min(1).max(100).default(20) }) },
    },
    async (request) => {
      const ids = request.query.ids ? request.query.ids.split(',').map(Number).filter((n) => n <= 2_147_483_647) : [];
      return ok(await searchNetworks(database, request.query.search.trim(), ids, request.query.limit));
    },
  );

  app.get('/v1/discrepancy/settings', { config: READ, schema: { tags: TAGS, summary: 'The tolerance (%) beyond which rows are flagged, with its version' } }, async () => ok(await readSettings(database)));
  app.put(
    '/v1/discrepancy/settings',
    { config: WRITE, schema: { tags: TAGS, summary: 'Set the tolerance (409 when the version is stale)', body: discrepancySettingsSchema } },
    async (request) => ok(await writeSettings(database, request.body, whoOf(request)), 'discrepancy.tolerance_saved'),
  );

  app.get(
    '/v1/discrepancy/requests',
    { config: READ, schema: { tags: TAGS, summary: 'Discrepancy requests: state filter, sort, page; progress and flagged counts', querystring: discrepancyListQuerySchema } },
    async (request) => {
      const q = request.query;
      const out = await listRequests(database, q);
      return ok({ ...out, page: q.page, page_size: q.page_size }, out.total === 0 ? 'common.no_discrepancy_requests' : 'ok');
    },
  );

  app.get(
    '/v1/discrepancy/requests/export',
    { config: READ, schema: { tags: TAGS, summary: 'The filtered requests as CSV or XLSX', querystring: discrepancyListQuerySchema } },
    async (request, reply) => {
      const { rows } = await listRequests(database, request.query, true);
      if (rows.length === 0) throw badRequest('report.export_empty');
      const locale = localeFromAcceptLanguage(request.headers['accept-language']);
      return sendTableFile(request, reply, {
        name: discrepancyExportName,
        format: request.query.format ?? 'csv',
        titles: REQUEST_COLUMNS.map((c) => translate(locale, c.key)),
        numeric: REQUEST_COLUMNS.map((c) => Boolean(c.numeric)),
        batches: (async function* () {
          yield rows.map((r) => REQUEST_COLUMNS.map((c) => c.cell(r)));
        })(),
      });
    },
  );

  app.post(
    '/v1/discrepancy/requests',
    {
      config: WRITE,
      bodyLimit: 8 * 1024 * 1024,
      schema: { tags: TAGS, summary: "Request a comparison: a date (month to date), networks, the partner's figures typed or as CSV", body: discrepancyRequestSchema },
    },
    async (request, reply) => {
      const out = await requestDiscrepancy(ctx, request.body, whoOf(request), send);
      if (out.created) reply.code(201);
      return ok(out.request, 'common.discrepancy_added');
    },
  );

  app.get(
    '/v1/discrepancy/requests/:id',
    { config: READ, schema: { tags: TAGS, summary: 'One request: state, progress, counts, the result of applying', params: idParamsSchema } },
    async (request) => {
      const r = await readRequest(database, Number(request.params.id));
      if (!r) throw notFound();
      return ok(r);
    },
  );

  app.get(
    '/v1/discrepancy/requests/:id/rows',
    { config: READ, schema: { tags: TAGS, summary: "A request's rows per day and partner: filter (all, flagged, undecided), sort, page", params: idParamsSchema, querystring: discrepancyRowsQuerySchema } },
    async (request) => {
      const id = Number(request.params.id);
      if (!(await readRequest(database, id))) throw notFound();
      const q = request.query;
      return ok({ ...(await listRows(database, id, q)), page: q.page, page_size: q.page_size });
    },
  );

  app.get(
    '/v1/discrepancy/requests/:id/rows/export',
    { config: READ, schema: { tags: TAGS, summary: "A request's rows as CSV or XLSX", params: idParamsSchema, querystring: discrepancyRowsQuerySchema } },
    async (request, reply) => {
      const id = Number(request.params.id);
      const { rows } = await listRows(database, id, request.query, true);
      if (rows.length === 0) throw badRequest('report.export_empty');
      const locale = localeFromAcceptLanguage(request.headers['accept-language']);
      return sendTableFile(request, reply, {
        name: discrepancyRowsExportName(id),
        format: request.query.format ?? 'csv',
        titles: ROW_COLUMNS.map((c) => translate(locale, c.key)),
        numeric: ROW_COLUMNS.map((c) => Boolean(c.numeric)),
        batches: (async function* () {
          yield rows.map((r) => ROW_COLUMNS.map((c) => c.cell(r)));
        })(),
      });
    },
  );

  app.post(
    '/v1/discrepancy/requests/:id/decisions',
    { config: WRITE, schema: { tags: TAGS, summary: 'Accept ours, theirs or a split for rows (their versions; 409 when stale)', params: idParamsSchema, body: discrepancyDecisionSchema } },
    async (request) => {
      const out = await decideRows(database, Number(request.params.id), request.body, whoOf(request));
      return ok(out, 'discrepancy.decided');
    },
  );

  app.post(
    '/v1/discrepancy/requests/:id/apply',
    { config: WRITE, schema: { tags: TAGS, summary: "Write the accepted revenue to the partners' open billing rows (once; confirmed rows skipped)", params: idParamsSchema, body: discrepancyApplySchema } },
    async (request) => {
      const out = await applyRequest(database, Number(request.params.id), request.body.version, whoOf(request));
      return ok(out, 'discrepancy.applied');
    },
  );

  app.post(
    '/v1/discrepancy/requests/:id/retry',
    { config: WRITE, schema: { tags: TAGS, summary: 'Queue a failed request again (it resumes at the first day not done)', params: idParamsSchema } },
    async (request) => ok(await retryRequest(database, Number(request.params.id), whoOf(request), send), 'discrepancy.retried'),
  );
}
