/**
 * The JSON builder's schema list (decision 039; the builder itself is served by routes.ts):
 *   GET /v1/builders/json/schemas   every schema a document can be checked against, by name, with
 *                                   its title and description (in the caller's language) and the
 *                                   JSON Schema itself, for the screen's field editor
 * ACL: `/v1/builders` read (core BUILDER_PERMISSION.json).
 */
import { BUILDER_PERMISSION } from '@backoffice/core/builders/common';
import { JSON_SCHEMA_NAMES, jsonSchemaDescriptionKey, jsonSchemaTitleKey, type JsonSchemaEntry } from '@backoffice/core/builders/json';
import { JSON_SCHEMA_ROOTS } from '@backoffice/core/builders/json-schemas';
import { ok } from '@backoffice/core/envelope';
import { localeFromAcceptLanguage, translate } from '@backoffice/core/i18n/catalogues';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';

export async function jsonBuilderRoutes(root: FastifyInstance, _ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const READ = { auth: { permission: { resource: BUILDER_PERMISSION.json, action: 'read' } } } as const;

  app.get(
    '/v1/builders/json/schemas',
    {
      config: READ,
      schema: {
        tags: ['builders'],
        summary: 'The JSON builder’s schemas: name, title, description and the JSON Schema itself',
        description:
          `Names: ${JSON_SCHEMA_NAMES.join(', ')}. The OpenRTB 2.6 objects are the IAB Tech Lab’s schemas (draft 2020-12 files read as draft-07; their \`$ref\`s name sibling objects by file). ` +
          'The backoffice configurations are closed (a field they do not define is an error). Title and description in the Accept-Language language (en, es). ' +
          'To check a document: POST /v1/builders/json/render with {config: {schema, document}}. ACL: read on /v1/builders.',
      },
    },
    async (request) => {
      const locale = localeFromAcceptLanguage(request.headers['accept-language']);
      const schemas: JsonSchemaEntry[] = JSON_SCHEMA_NAMES.map((name) => ({
        name,
        title: translate(locale, jsonSchemaTitleKey(name)),
        description: translate(locale, jsonSchemaDescriptionKey(name)),
        schema: JSON_SCHEMA_ROOTS[name],
      }));
      return ok({ schemas });
    },
  );
}
