/**
 * Builders (issue 25; contract in packages/core/src/builders/common.ts, docs/decisions/037-builders.md):
 * one set of routes for every builder of the registry (registry.ts), `:kind` naming it.
 *   POST   /v1/builders/:kind/render            configuration or code in, the output and every issue out
 *   GET    /v1/builders/:kind/versions          saved versions (of a subject), newest first, paged
 *   GET    /v1/builders/:kind/versions/:id      one version with its configuration and code
 *   POST   /v1/builders/:kind/versions          save the next version (audited; a double click saves once)
 *   DELETE /v1/builders/:kind/versions/:id      delete a version (audited)
 *   GET    /v1/builders/:kind/subjects          the publishers, ad units, partners or apps to save for
 *   GET    /v1/builders/:kind/compare?a=&b=     two versions' code and the configuration paths that differ
 * ACL: each kind's resource (core BUILDER_PERMISSION: `/v1/builders`, or `/v1/sdk` for sdk and
 * app-tracking): read for everything but saving and deleting, which need write. The routes serve
 * every kind, so `config.auth` asks for a signed-in caller and this module's preValidation hook
 * checks the kind's resource with the same ACL engine and action rule as the auth plugin, before
 * any validation (decision 037).
 */
import {
  BUILDER_KINDS,
  BUILDER_PERMISSION,
  builderCompareQuerySchema,
  builderRenderBodySchema,
  builderSubjectQuerySchema,
  builderVersionBodySchema,
  builderVersionListQuerySchema,
  isBuilderKind,
} from '@backoffice/core/builders/common';
import { isAllowed } from '@backoffice/core/acl';
import { ok } from '@backoffice/core/envelope';
import { idText } from '@backoffice/core/ids';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { forbidden } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { callerOf, requiredAction } from '../../plugins/auth.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { compareVersions, deleteVersion, findSubjects, listVersions, renderBody, saveVersion, serverBuilderOr404, versionOr404 } from './service.ts';

const kindText = z.string().max(40, 'error.invalid_value').describe(`The builder: ${BUILDER_KINDS.join(' | ')}`);
const kindParams = z.strictObject({ kind: kindText });
const kindIdParams = z.strictObject({ kind: kindText, id: idText });

/** Code up to a million characters travels in JSON: the render route takes a larger body. */
const RENDER_BODY_LIMIT = 4 * 1024 * 1024;

export async function builderRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;
  const tags = ['builders'];
  const SIGNED_IN = { auth: { authenticated: true } } as const;
  const base = '/v1/builders/:kind';
  const aclText = (action: 'read' | 'write') =>
    `ACL: ${action} on the kind's resource (/v1/builders; /v1/sdk for sdk and app-tracking), else 403 auth.forbidden. An unknown or not yet available kind answers 404 builders.unknown_kind.`;

  // The kind's permission, checked as the auth plugin checks a route's (same engine, same
  // GET/HEAD = read, otherwise write rule), before the request is validated.
  app.addHook('preValidation', (request, _reply, done) => {
    const kind = (request.params as { kind?: unknown } | undefined)?.kind;
    if (!isBuilderKind(kind)) return done();
    const resource = BUILDER_PERMISSION[kind];
    const action = request.routeOptions.url?.endsWith('/render') ? 'read' : requiredAction({ resource }, request.method);
    if (!isAllowed(callerOf(request), { resource, action })) return done(forbidden('auth.forbidden'));
    done();
  });

  app.post(
    `${base}/render`,
    {
      config: SIGNED_IN,
      bodyLimit: RENDER_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Render a builder’s output from a configuration, or read code back; every issue of the builder’s rules and of the standard’s validator',
        description:
          'Body {config} or {code}. A configuration is checked with the builder’s schema (400 error.validation with errors at config.<path>), rendered exactly as the screen renders it, and the output checked by the standard’s validator (the VAST XSD, the OpenRTB JSON Schema…). ' +
          'Code is parsed: unreadable code answers 200 with output null, its syntax issues (line, column) and valid false; readable code gives the configuration it holds, its rendered output, and the validator’s issues for the code as sent. ' +
          `Answer {config, output {code, language, filename, mime, issues}, issues, valid}. Reading only, never stored. ${aclText('read')}`,
        params: kindParams,
        body: builderRenderBodySchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await renderBody(serverBuilderOr404(ctx, request.params.kind), request.body)),
  );

  app.get(
    `${base}/versions`,
    {
      config: SIGNED_IN,
      schema: {
        tags,
        summary: 'A builder’s saved versions, newest first, paged (without configuration and code)',
        description: `subject_type and subject_id (one subject; without them every version of the builder), page, page_size (at most 100). Each with its number, name, author and the subject’s name. ${aclText('read')}`,
        params: kindParams,
        querystring: builderVersionListQuerySchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const builder = serverBuilderOr404(ctx, request.params.kind);
      return ok(await listVersions(database, builder.kind, request.query));
    },
  );

  app.get(
    `${base}/versions/:id`,
    {
      config: SIGNED_IN,
      schema: {
        tags,
        summary: 'One saved version with its configuration and the code rendered when it was saved',
        description: `404 builders.version_not_found when the version does not exist, was deleted or belongs to another builder. ${aclText('read')}`,
        params: kindIdParams,
        response: { 404: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const builder = serverBuilderOr404(ctx, request.params.kind);
      return ok(await versionOr404(database, builder.kind, request.params.id));
    },
  );

  app.post(
    `${base}/versions`,
    {
      config: SIGNED_IN,
      schema: {
        tags,
        summary: 'Save a configuration as the subject’s next numbered version (audited)',
        description:
          'Body {subject_type, subject_id (null for none), name, config}. The subject must be one the builder allows (400 builders.subject_not_allowed) and exist (400 builders.subject_not_found); the configuration must pass the builder’s schema and its output the builder’s rules and the standard’s validator (400 with errors at config.<path>). ' +
          'The stored code is the API’s own render of the configuration. Versions are immutable and numbered 1, 2, 3… per builder and subject. ' +
          `The same configuration, name and subject saved again by the same person within seconds (a double click, a retried request) answers the version already saved, with message builders.version_already_saved. ${aclText('write')}`,
        params: kindParams,
        body: builderVersionBodySchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const builder = serverBuilderOr404(ctx, request.params.kind);
      const saved = await saveVersion(database, request, builder, request.body);
      return ok(saved.version, saved.already ? 'builders.version_already_saved' : 'builders.version_saved');
    },
  );

  app.delete(
    `${base}/versions/:id`,
    {
      config: SIGNED_IN,
      schema: {
        tags,
        summary: 'Delete a saved version (audited; its number is not given again)',
        description: `Answers the deleted version. A version already deleted, or another builder’s, answers 404 builders.version_not_found. ${aclText('write')}`,
        params: kindIdParams,
        response: { 404: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const builder = serverBuilderOr404(ctx, request.params.kind);
      return ok(await deleteVersion(database, request, builder.kind, request.params.id), 'builders.version_deleted');
    },
  );

  app.get(
    `${base}/subjects`,
    {
      config: SIGNED_IN,
      schema: {
        tags,
        summary: 'The publishers, ad units ("site / unit"), demand partners or apps a builder’s versions can belong to, by name',
        description: `type (one the builder allows, else 400 builders.subject_not_allowed), q (part of the name, any case) or id (that one); at most 20, by name. ${aclText('read')}`,
        params: kindParams,
        querystring: builderSubjectQuerySchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await findSubjects(database, serverBuilderOr404(ctx, request.params.kind), request.query)),
  );

  app.get(
    `${base}/compare`,
    {
      config: SIGNED_IN,
      schema: {
        tags,
        summary: 'Compare two saved versions: both with configuration and code, and the configuration paths that differ',
        description: `a and b: version ids of this builder (404 builders.version_not_found otherwise). changed_paths: dotted paths (creatives.0.url) added, removed or changed, sorted. ${aclText('read')}`,
        params: kindParams,
        querystring: builderCompareQuerySchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const builder = serverBuilderOr404(ctx, request.params.kind);
      return ok(await compareVersions(database, builder.kind, request.query.a, request.query.b));
    },
  );
}
