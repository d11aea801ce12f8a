/**
 * Legal tool (`/utils/legal_tool`, ACL `/v1/legal`; docs/decisions/046-legal-tool.md).
 * Templates on the resource layer (`/v1/legal/templates`: list, one, create, update with version,
 * delete while no document uses it, history, export, autocomplete) and generated documents, read
 * through it (`/v1/legal/documents`: list, one, history, export). Besides:
 *   GET  /v1/legal/templates/:id/versions                  the versions: number, author, date, comment
 *   GET  /v1/legal/templates/:id/versions/:number          one version's texts and placeholders
 *   POST /v1/legal/templates/:id/versions                  save the texts as the next version (409 when stale)
 *   POST /v1/legal/templates/:id/versions/:number/restore  a copy of an older version as the next one
 *   GET  /v1/legal/counterparties                          publishers or demand partners to generate for
 *   POST /v1/legal/templates/:id/check                     every placeholder's value and what is missing
 *   POST /v1/legal/documents                               generate the PDF (refused while data is missing)
 *   GET  /v1/legal/documents/:id/pdf                       the stored PDF
 * Reads need read on /v1/legal (the check too, a POST that changes nothing); changes need write.
 */
import { ok } from '@backoffice/core/envelope';
import { idText } from '@backoffice/core/ids';
import {
  COUNTERPARTY_TYPES,
  LEGAL_RESOURCE,
  checkBodySchema,
  generateBodySchema,
  legalDocuments,
  legalTemplates,
  restoreVersionBodySchema,
  templateVersionBodySchema,
} from '@backoffice/core/legal';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { legalDocuments as documentsTable, legalTemplates as templatesTable } from '../../db/schema-legal.ts';
import { badRequest } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { resourceRoutes } from '../../resources/routes.ts';
import {
  checkData,
  documentPdf,
  findCounterparties,
  generateDocument,
  getVersion,
  listVersions,
  restoreVersion,
  saveVersion,
} from './service.ts';

const idParams = z.strictObject({ id: idText });
const created = z.object({ status: z.string(), message: z.string(), data: z.unknown() });
const versionParams = z.strictObject({ id: idText, number: idText });
const counterpartyQuery = z.strictObject({
  type: z.enum(COUNTERPARTY_TYPES, { error: 'error.invalid_value' }),
  q: z.string().max(200).optional(),
  ids: z
    .string()
    .max(2000)
    .regex(/^\d{1,10}(,\d{1,10})*$/, 'error.invalid_id')
    .refine(
      (v) => v.split(',').every((id) => Number(id) >= 1 && Number(id) <= 2_147_483_647),
      'error.invalid_id',
    )
    .optional(),
  limit: z
    .string()
    .regex(/^[1-9]\d{0,1}$/, 'error.invalid_value')
    .optional(),
});

export async function legalRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['legal'];
  const READ = { auth: { permission: { resource: LEGAL_RESOURCE, action: 'read' } } } as const;
  const WRITE = { auth: { permission: { resource: LEGAL_RESOURCE, action: 'write' } } } as const;
  const now = () => ctx.now?.() ?? Date.now();

  resourceRoutes(root, ctx, legalTemplates, {
    table: templatesTable,
    unique: [{ constraint: 'legal_templates_name_idx', field: 'name', key: 'legal.template.name_taken' }],
  });
  resourceRoutes(root, ctx, legalDocuments, { table: documentsTable });

  app.get(
    '/v1/legal/templates/:id/versions',
    {
      config: READ,
      schema: {
        tags,
        summary:
          'The versions of a template, newest first: number, author, date, comment, the version it restored',
        params: idParams,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await listVersions(ctx.database, request.params.id)),
  );

  app.get(
    '/v1/legal/templates/:id/versions/:number',
    {
      config: READ,
      schema: {
        tags,
        summary:
          'One version of a template: its titles and bodies in English and Spanish and the placeholders they use',
        params: versionParams,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await getVersion(ctx.database, request.params.id, request.params.number)),
  );

  app.post(
    '/v1/legal/templates/:id/versions',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Save the texts as the next version (immutable; author, date and comment kept)',
        description:
          'Titles and bodies in both languages, a comment, and base_version (the version the editor started from, null for the first). ' +
          'An unknown or malformed placeholder, an empty title or body answer 400 legal.template_invalid with the field errors and data.issues (line by line); ' +
          'a newer version saved meanwhile answers 409 legal.version_conflict with data.current; texts equal to the current version answer 400 legal.version_unchanged.',
        params: idParams,
        body: templateVersionBodySchema,
        response: {
          201: created,
          400: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          ok(
            await saveVersion(ctx.database, request, request.params.id, request.body),
            'legal.version_saved',
          ),
        ),
  );

  app.post(
    '/v1/legal/templates/:id/versions/:number/restore',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          'Restore an older version: its texts saved as the next version (the history keeps every version)',
        params: versionParams,
        body: restoreVersionBodySchema,
        response: {
          201: created,
          400: errorEnvelopeSchema,
          404: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          ok(
            await restoreVersion(
              ctx.database,
              request,
              request.params.id,
              request.params.number,
              request.body,
            ),
            'legal.version_restored',
          ),
        ),
  );

  app.get(
    '/v1/legal/counterparties',
    {
      config: READ,
      schema: {
        tags,
        summary:
          'Publishers or demand partners to generate a document for (name or company contains, or ids)',
        description:
          'type=publisher|demand_partner; q= (name or company legal name contains) or ids=1,2; limit (default 20, at most 50).',
        querystring: counterpartyQuery,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const { type, q, ids, limit } = request.query;
      return ok(
        await findCounterparties(ctx.database, {
          type,
          q,
          ids: ids?.split(',').map(Number),
          limit: Number(limit ?? 20),
        }),
      );
    },
  );

  app.post(
    '/v1/legal/templates/:id/check',
    {
      config: READ,
      schema: {
        tags,
        summary:
          'Every placeholder of a version filled for a counterparty, and what is missing (which placeholder, which record, where to fix it)',
        params: idParams,
        body: checkBodySchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await checkData(ctx.database, request.params.id, request.body, now())),
  );

  app.post(
    '/v1/legal/documents',
    {
      config: WRITE,
      schema: {
        tags,
        summary:
          'Generate the PDF of a template version for a publisher or a demand partner, in English or Spanish',
        description:
          'values: what is typed for this document, only for placeholders the records leave empty (others answer 400 at values.<key>). ' +
          'While a placeholder has no value the answer is 400 legal.data_missing with data.missing. request_id: the same id from the same person answers ' +
          'the document it made (already: true). The PDF is stored with every value it printed.',
        body: generateBodySchema,
        response: { 200: created, 201: created, 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (Object.keys(body.values).length > 40)
        throw badRequest('error.validation', { values: 'error.too_long' });
      const doc = await generateDocument(ctx.database, request, body, now());
      return reply
        .code(doc.already ? 200 : 201)
        .send(ok(doc, doc.already ? 'legal.document_already' : 'legal.document_generated'));
    },
  );

  app.get(
    '/v1/legal/documents/:id/pdf',
    {
      config: READ,
      schema: {
        tags,
        summary: 'The stored PDF of a generated document (the bytes made at generation)',
        params: idParams,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const { pdf, fileName } = await documentPdf(ctx.database, request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );
}
