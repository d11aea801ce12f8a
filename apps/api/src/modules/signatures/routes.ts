/**
 * Signature manager (`/utils/signature_manager`; docs/decisions/047-signature-manager.md).
 *   GET    /v1/signatures/me                     the caller's signature (prefilled until saved), its rendering, can_manage
 *   PUT    /v1/signatures/me                     save it (read on /v1/signatures: a person edits their own)
 *   POST   /v1/signatures/render                 render a signature as typed (not stored): HTML, text, dark preview
 *   GET    /v1/signatures/people?q=              people whose signature a manager may edit (write)
 *   GET    /v1/signatures/people/:id             one person's signature and rendering (write)
 *   PUT    /v1/signatures/people/:id             save it (write)
 *   GET    /v1/signatures/templates              the company templates (read: a person picks one)
 *   POST   /v1/signatures/templates              create one (write)
 *   PUT    /v1/signatures/templates/:id          update one (write, version)
 *   DELETE /v1/signatures/templates/:id          delete one (write; not the default while others exist)
 *   GET    /v1/signatures/logos/:id/:hash.png    a template's logo (public: mail recipients load it)
 * Every change is audited; saves carry `version` (409 resource.conflict with the row as it is now).
 */
import { ok } from '@backoffice/core/envelope';
import { idText } from '@backoffice/core/ids';
import { errorEnvelopeSchema, successEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import { signatureBodySchema, signaturePeopleQuerySchema, signatureRenderBodySchema, SIGNATURE_RESOURCE, templateBodySchema } from '@backoffice/core/signatures';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { callerOf } from '../../plugins/auth.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { canManage, deleteTemplate, listPeople, listTemplates, logoPng, renderSignature, saveSignature, saveTemplate, signatureDetail, templateOr404 } from './service.ts';
import { query } from '../../reports-data/sql.ts';

const READ = { auth: { permission: { resource: SIGNATURE_RESOURCE, action: 'read' } } } as const;
const WRITE = { auth: { permission: { resource: SIGNATURE_RESOURCE, action: 'write' } } } as const;
const idParams = z.strictObject({ id: idText });
const logoParams = z.strictObject({ id: idText, hash: z.string().regex(/^[0-9a-f]{16}$/, 'error.not_found') });
/** A template's body carries its logo as a data URL (at most 512 KiB of image). */
const TEMPLATE_BODY_LIMIT = 1024 * 1024;

export async function signatureRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['signatures'];
  const errors = { 400: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema };
  const fieldsText =
    'Fields: template_id (null: the default template), language (en | es: the legal notice and labels), name (required), title, department, phones ([{kind: office | mobile, number}], at most 3, international form, stored as E.164; 400 signatures.phone_international / signatures.phone_invalid), mail (required).';
  const renderText =
    'render: {html (table layout, inline styles only, no <style>/<script>/classes, images by absolute URL; what is copied), text (text/plain), dark_html (what a dark-mode client shows), template_id, issues}.';

  app.get(
    '/v1/signatures/me',
    {
      config: READ,
      schema: {
        tags,
        summary: 'The caller’s own e-mail signature (prefilled from the user record until first saved) and its rendering',
        description: `Answers {signature (version 0: never saved), render, can_manage (write on /v1/signatures: templates and other people’s signatures)}. ${renderText} ACL: read on /v1/signatures.`,
        response: errors,
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return ok({ ...(await signatureDetail(ctx, request, caller.id)), can_manage: canManage(caller) });
    },
  );

  app.put(
    '/v1/signatures/me',
    {
      config: READ,
      schema: {
        tags,
        summary: 'Save the caller’s own signature (audited)',
        description: `${fieldsText} version: the one read (0 for the first save); a stale version answers 409 resource.conflict with the signature as it is now (the same content sent again answers it as saved). A signature whose HTML passes Gmail’s 10,000 characters is refused (400 signatures.html.too_long). ACL: read on /v1/signatures (one’s own signature).`,
        body: signatureBodySchema,
        response: errors,
      },
    },
    async (request) => ok(await saveSignature(ctx, request, callerOf(request).id, request.body), 'signatures.saved'),
  );

  app.post(
    '/v1/signatures/render',
    {
      config: READ,
      schema: {
        tags,
        summary: 'Render a signature as typed, without storing it',
        description: `${fieldsText} ${renderText} ACL: read on /v1/signatures.`,
        body: signatureRenderBodySchema,
        response: errors,
      },
    },
    async (request) => ok(await renderSignature(ctx, request, request.body)),
  );

  app.get(
    '/v1/signatures/people',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'The people whose signatures a manager may edit (active users), by name',
        description: 'q: part of the name or mail, any case. At most 50, with has_signature. ACL: write on /v1/signatures.',
        querystring: signaturePeopleQuerySchema,
        response: errors,
      },
    },
    async (request) => ok(await listPeople(ctx.database, request.query.q)),
  );

  app.get(
    '/v1/signatures/people/:id',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'One person’s signature and its rendering',
        description: `404 signatures.person_not_found for an unknown user. ${renderText} ACL: write on /v1/signatures.`,
        params: idParams,
        response: errors,
      },
    },
    async (request) => ok(await signatureDetail(ctx, request, request.params.id)),
  );

  app.put(
    '/v1/signatures/people/:id',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Save a person’s signature (audited)',
        description: `${fieldsText} version as for /v1/signatures/me. ACL: write on /v1/signatures.`,
        params: idParams,
        body: signatureBodySchema,
        response: errors,
      },
    },
    async (request) => ok(await saveSignature(ctx, request, request.params.id, request.body), 'signatures.saved'),
  );

  app.get(
    '/v1/signatures/templates',
    {
      config: READ,
      schema: {
        tags,
        summary: 'The company templates, the default first',
        description: 'Each with its logo’s public path (logo_path) and pixel size. ACL: read on /v1/signatures.',
        response: errors,
      },
    },
    async () => ok(await listTemplates((t, p) => query(ctx.database, t, p))),
  );

  const templateText =
    'Body: name (unique, any case; 400 signatures.template_name_taken), is_default (the first template is the default; making one the default takes the flag from the other; the default cannot give it up), company_name (required), address, website (https), legal_en, legal_es, social ([{network, url (https)}], at most 6), text_color and accent_color (#rrggbb with 4.5:1 contrast on white and, as dark-mode clients change it, on #1f1f1f: 400 signatures.color_light_contrast / signatures.color_dark_contrast), logo_width (40–240 px), logo (a PNG or JPEG data URL of at most 512 KiB, read by its bytes; null removes it; absent keeps it), version.';

  app.post(
    '/v1/signatures/templates',
    {
      config: WRITE,
      bodyLimit: TEMPLATE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Create a company template (audited)',
        description: `${templateText} version: 0 (a new template). Answers 201 with the template. ACL: write on /v1/signatures.`,
        body: templateBodySchema,
        response: { ...errors, 201: successEnvelopeSchema(z.unknown()) },
      },
    },
    async (request, reply) => {
      const { template } = await saveTemplate(ctx.database, request, null, request.body);
      reply.code(201);
      return ok(template, 'signatures.template_saved');
    },
  );

  app.put(
    '/v1/signatures/templates/:id',
    {
      config: WRITE,
      bodyLimit: TEMPLATE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Update a company template (audited)',
        description: `${templateText} A stale version answers 409 resource.conflict with the template as it is now. ACL: write on /v1/signatures.`,
        params: idParams,
        body: templateBodySchema,
        response: errors,
      },
    },
    async (request) => {
      await templateOr404(ctx.database, request.params.id);
      return ok((await saveTemplate(ctx.database, request, request.params.id, request.body)).template, 'signatures.template_saved');
    },
  );

  app.delete(
    '/v1/signatures/templates/:id',
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Delete a company template (audited); the signatures on it use the default',
        description: 'The default cannot be deleted while other templates exist (400 signatures.template_default_delete). ACL: write on /v1/signatures.',
        params: idParams,
        response: errors,
      },
    },
    async (request) => ok(await deleteTemplate(ctx.database, request, request.params.id), 'signatures.template_deleted'),
  );

  app.get(
    '/v1/signatures/logos/:id/:hash.png',
    {
      config: { auth: { public: true } },
      schema: {
        tags,
        summary: 'A template’s logo as PNG (public: the people who receive a signed mail load it)',
        description: 'The hash names the logo (cached for a year, immutable); an older hash, from a signature pasted before the logo changed, gets the current logo (cached for a day), so mail already sent keeps an image. 404 when the template has no logo or does not exist.',
        security: [],
        params: logoParams,
        response: { 404: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const logo = await logoPng(ctx.database, request.params.id, request.params.hash);
      if (!logo) throw notFound('signatures.logo_not_found');
      // The current hash's bytes never change; an older hash gets today's logo, cached for a day.
      const cache = logo.current ? 'public, max-age=31536000, immutable' : 'public, max-age=86400';
      return reply.header('cache-control', cache).type('image/png').send(logo.png);
    },
  );
}
