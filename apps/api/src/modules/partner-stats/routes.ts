/**
 * Partner-reported figures (screens `/utils/ssp/stats-manual` and `/utils/amazon_csv`; contract in
 * packages/core/src/partner-stats.ts, docs/decisions/034-partner-reported-figures.md).
 * ACL `/v1/stats-manual` and `/v1/amazon`: read to see, write to change.
 */
import { ok } from '@backoffice/core/envelope';
import { localeFromAcceptLanguage, translate } from '@backoffice/core/i18n/catalogues';
import { idParamsSchema } from '@backoffice/core/ids';
import { utcToday } from '@backoffice/core/billing-accounts';
import {
  STATS_EXPORT_NAME,
  amazonImportBodySchema,
  amazonImportsQuerySchema,
  amazonMappingBodySchema,
  amazonPreviewBodySchema,
  enterStatsBodySchema,
  sampleApsCsv,
  statsExportQuerySchema,
  statsListQuerySchema,
  type AmazonImportsAnswer,
  type StatsAnswer,
} from '@backoffice/core/partner-stats';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { sendTableFile, type TableCell } from '../../lib/table-file.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { deleteMapping, importAmazon, listImports, listMappings, previewAmazon, saveMapping, undoImport } from './amazon.ts';
import { enterStats, listStats, manualPartners } from './service.ts';

export const STATS_RESOURCE = '/v1/stats-manual';
export const AMAZON_RESOURCE = '/v1/amazon';
const EXPORT_MAX = 100_000;
/** An APS month is a few hundred kB; the limit leaves room (core caps the text at 4 M characters). */
const FILE_BODY_LIMIT = 12 * 1024 * 1024;

export async function partnerStatsRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;
  const perm = (resource: string, action: 'read' | 'write') => ({ auth: { permission: { resource, action } } }) as const;
  const S_READ = perm(STATS_RESOURCE, 'read');
  const S_WRITE = perm(STATS_RESOURCE, 'write');
  const A_READ = perm(AMAZON_RESOURCE, 'read');
  const A_WRITE = perm(AMAZON_RESOURCE, 'write');
  const sTags = ['stats-manual'];
  const aTags = ['amazon'];

  app.get(
    STATS_RESOURCE,
    {
      config: S_READ,
      schema: {
        tags: sTags,
        summary: 'Partner-reported daily figures (manual, uploaded, Amazon CSV), paged, with totals',
        description: 'partner (comma-separated ids), from, to (YYYY-MM-DD, inclusive), source (manual|upload|amazon_csv), sort (day, partner, impressions, revenue, source, updated_at; -field descending), page, page_size (at most 100). Revenue is decimal text in USD.',
        querystring: statsListQuerySchema,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const { page, page_size, ...q } = request.query;
      const out = await listStats(database, q, { limit: page_size, offset: (page - 1) * page_size });
      return ok({ ...out, page, page_size } satisfies StatsAnswer);
    },
  );

  app.get(
    `${STATS_RESOURCE}/export`,
    {
      config: S_READ,
      schema: {
        tags: sTags,
        summary: 'The filtered figures as CSV or XLSX',
        description: `The list's filters and sort, and format=csv|xlsx. File ${STATS_EXPORT_NAME}_YYYY-MM-DD_HHmmss.<ext>; titles in the request's language.`,
        querystring: statsExportQuerySchema,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const { format, ...q } = request.query;
      const { items } = await listStats(database, q, { limit: EXPORT_MAX, offset: 0 });
      const t = (key: string) => translate(localeFromAcceptLanguage(request.headers['accept-language']), key);
      const titles = ['day', 'partner', 'impressions', 'revenue', 'currency', 'source', 'updated_by', 'updated_at'].map((k) => t(`stats.col.${k}`));
      async function* batches() {
        for (let i = 0; i < items.length; i += 1000)
          yield items.slice(i, i + 1000).map((s): TableCell[] => [s.day, s.partner, s.impressions, s.revenue, s.currency, t(`stats.source.${s.source}`), s.updated_by ?? '', s.updated_at]);
      }
      reply.header('cache-control', 'no-store');
      return sendTableFile(request, reply, { name: STATS_EXPORT_NAME, format, titles, numeric: [false, false, true, true, false, false, false, false], batches: batches() });
    },
  );

  app.get(
    `${STATS_RESOURCE}/partners`,
    { config: S_READ, schema: { tags: sTags, summary: 'The SSP demand partners that report by hand (reporting = manual), with their last entered day' } },
    async () => ok(await manualPartners(database)),
  );

  app.post(
    STATS_RESOURCE,
    {
      config: S_WRITE,
      schema: {
        tags: sTags,
        summary: 'Enter daily figures for manual partners (a form, or rows of an uploaded CSV/XLSX)',
        description:
          'entries [{ day, demand_partner_id, impressions, revenue, currency }] (at most 1000), source (manual|upload), replace. ' +
          'Each entry is checked: 400 error.validation with errors keyed entries.{i}.{field}. Days that already hold other figures answer 409 stats.replace_confirm with data.days (what is there and what would come) unless replace is true; ' +
          'days equal to what is stored are left alone (entering the same twice changes nothing). The months’ open SSP billing rows take the figures at once, marked manual.',
        body: enterStatsBodySchema,
        response: { 400: errorEnvelopeSchema, 409: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const out = await enterStats(database, request, request.body);
      return ok(out, out.inserted + out.replaced === 0 ? 'stats.nothing_changed' : 'stats.saved');
    },
  );

  // ------------------------------------------------------------------------------------------
  // Amazon

  app.get(
    `${AMAZON_RESOURCE}/example.csv`,
    { config: A_READ, schema: { tags: aTags, summary: 'A sample Amazon Publisher Services earnings report (CSV) of the last five days' } },
    async (_request, reply) => {
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="aps_earnings_example.csv"');
      return sampleApsCsv(utcToday());
    },
  );

  app.get(
    `${AMAZON_RESOURCE}/partners`,
    { config: A_READ, schema: { tags: aTags, summary: 'The Amazon partners an APS file may be imported for (SSP, type amazon, reporting manual)' } },
    async () => ok((await manualPartners(database)).filter((p) => p.type === 'amazon')),
  );

  app.get(
    `${AMAZON_RESOURCE}/mappings`,
    { config: A_READ, schema: { tags: aTags, summary: 'The saved column mappings (shared by the team), by name' } },
    async () => ok(await listMappings(database)),
  );

  app.put(
    `${AMAZON_RESOURCE}/mappings`,
    {
      config: A_WRITE,
      schema: {
        tags: aTags,
        summary: 'Save a column mapping by name',
        description: 'name, columns { date, impressions, revenue, currency?, ad_unit? } (file column names; one column per field), version when overwriting an existing name: without it 409 amazon.mapping_exists, stale 409 resource.conflict (data.current).',
        body: amazonMappingBodySchema,
        response: { 400: errorEnvelopeSchema, 409: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await saveMapping(database, request, request.body), 'amazon.mapping_saved'),
  );

  app.delete(
    `${AMAZON_RESOURCE}/mappings/:id`,
    { config: A_WRITE, schema: { tags: aTags, summary: 'Delete a saved mapping', params: idParamsSchema, response: { 404: errorEnvelopeSchema } } },
    async (request) => {
      await deleteMapping(database, request, request.params.id);
      return ok(null, 'amazon.mapping_deleted');
    },
  );

  app.post(
    `${AMAZON_RESOURCE}/preview`,
    {
      config: A_READ,
      bodyLimit: FILE_BODY_LIMIT,
      schema: {
        tags: aTags,
        summary: 'Read an APS earnings CSV with a mapping: each row with its errors, the days, and what an import would replace',
        description:
          'file_name (must end in .csv: upload.csv.invalid), content (the file’s text; comma or semicolon detected), columns (the mapping), demand_partner_id (the Amazon partner). ' +
          'Rows with an empty value are dropped (spec 5). Errors per row and field: stats.date_invalid, stats.date_future, stats.number_invalid, stats.negative, stats.impressions_whole, stats.too_large, stats.currency_invalid. ' +
          'A mapped column the file lacks answers 400 amazon.column_missing. Nothing is written.',
        body: amazonPreviewBodySchema,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await previewAmazon(database, request.body)),
  );

  app.post(
    `${AMAZON_RESOURCE}/imports`,
    {
      config: A_WRITE,
      bodyLimit: FILE_BODY_LIMIT,
      schema: {
        tags: aTags,
        summary: 'Import an APS earnings CSV as the Amazon partner’s daily figures (idempotent by file)',
        description:
          'The preview’s fields, mapping_name and replace. Refused while a row has an error (422 amazon.rows_invalid). The same file again answers the earlier import with already=true and changes nothing; ' +
          'days holding other figures answer 409 amazon.replace_confirm with data.days unless replace; only the file’s days are written.',
        body: amazonImportBodySchema,
        response: { 400: errorEnvelopeSchema, 409: errorEnvelopeSchema, 422: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const out = await importAmazon(database, request, request.body);
      return ok(out, out.already ? 'amazon.already_imported' : 'amazon.imported');
    },
  );

  app.get(
    `${AMAZON_RESOURCE}/imports`,
    { config: A_READ, schema: { tags: aTags, summary: 'The imports, newest first: who, when, rows, days, replaced, undone', querystring: amazonImportsQuerySchema } },
    async (request) => {
      const { page, page_size } = request.query;
      const out = await listImports(database, { limit: page_size, offset: (page - 1) * page_size });
      return ok({ ...out, page, page_size } satisfies AmazonImportsAnswer);
    },
  );

  app.post(
    `${AMAZON_RESOURCE}/imports/:id/undo`,
    {
      config: A_WRITE,
      schema: {
        tags: aTags,
        summary: 'Undo an import: its days are removed and what it replaced comes back (once: 409 amazon.undo_already)',
        params: idParamsSchema,
        response: { 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await undoImport(database, request, request.params.id), 'amazon.undone'),
  );
}
