/**
 * The resources manager (`/utils/resources_manager2`; docs/decisions/045-resources-manager.md).
 * The files on the resource layer (core `resourceFiles`):
 *   GET    /v1/resources-manager/files                 list: name contains, folder, kind, size, owner, date; sort; page
 *   GET    /v1/resources-manager/files/export          the filtered list as CSV or XLSX
 *   GET    /v1/resources-manager/files/:id             one file's row; /history, /used-by, /autocomplete
 *   PUT    /v1/resources-manager/files/:id             rename and/or move, with its version (409 when stale)
 * and the module's commands:
 *   POST   /v1/resources-manager/files                 multipart upload, `files[]` (and folder_id)
 *   GET    /v1/resources-manager/files/:id/content     the bytes (?inline=true: the preview)
 *   DELETE /v1/resources-manager/files/:id             delete one
 *   POST   /v1/resources-manager/files/delete          delete several ({ ids })
 *   POST   /v1/resources-manager/files/move            move several ({ ids, folder_id })
 *   GET    /v1/resources-manager/folders               the folder tree (flat, with file counts)
 *   POST   /v1/resources-manager/folders               create; PUT …/:id rename or move (version); DELETE …/:id when empty
 * ACL: the protected area `resources_manager` (never opened by the bypass marker): `read` to list,
 * preview and download; `write` to upload, rename, move and manage folders; `delete` to delete
 * files and folders. Every change is audited.
 */
import {
  FILES_API,
  FILES_BULK_MAX,
  FILES_DELETE_ACTION,
  FILES_PER_UPLOAD,
  FILES_RESOURCE,
  FILES_ACCEPT,
  filesBulkDeleteSchema,
  filesBulkMoveSchema,
  folderCreateSchema,
  folderUpdateSchema,
  renameProblem,
  resourceFiles as resourceFilesDef,
} from '@backoffice/core/files';
import { ok } from '@backoffice/core/envelope';
import { idParamsSchema } from '@backoffice/core/ids';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { resourceFiles, resourceFolders } from '../../db/schema-files.ts';
import { AppError } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { registerMultipart } from '../../lib/multipart.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { registerLookup, resourceRoutes } from '../../resources/routes.ts';
import {
  createFolder,
  deleteFiles,
  deleteFolder,
  listFolders,
  moveFiles,
  sendContent,
  updateFolder,
  uploadFiles,
  uploadLimits,
} from './service.ts';

// The folders are not a resource of the layer; files refer to them (their name in lists and exports).
registerLookup('resource_folders', resourceFolders, 'name');

/** The 201 answers' envelope (for the OpenAPI document). */
const createdSchema = z.object({ status: z.string(), message: z.string(), data: z.unknown() });

const READ = { auth: { permission: { resource: FILES_RESOURCE, action: 'read' } } } as const;
const WRITE = { auth: { permission: { resource: FILES_RESOURCE, action: 'write' } } } as const;
const DELETE = { auth: { permission: { resource: FILES_RESOURCE, action: FILES_DELETE_ACTION } } } as const;

export async function resourcesManagerRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['resources-manager'];
  const base = FILES_API;

  resourceRoutes(root, ctx, resourceFilesDef, {
    table: resourceFiles,
    // The bytes do not change with the name: a renamed file keeps an extension of its type.
    validate: async (_d, data, before) => {
      if (!before) return undefined;
      const problem = renameProblem(String(data.name), String(before.mime));
      return problem ? { name: problem } : undefined;
    },
  });

  // The upload in its own scope: multipart is parsed here only (lib/multipart.ts).
  await root.register(async (upload) => {
    await registerMultipart(upload, uploadLimits(ctx));
    upload.withTypeProvider<ZodTypeProvider>().post(
      `${base}/files`,
      {
        config: WRITE,
        schema: {
          tags,
          summary: 'Upload files (multipart/form-data; audited)',
          description:
            `Fields: files[] (1-${FILES_PER_UPLOAD} files, each at most ${Math.round(ctx.config.resourcesStorage.maxFileBytes / 1048576)} MiB) and folder_id (optional). ` +
            `The type is read from the bytes (magic numbers), never from the name or the declared type: allowed ${FILES_ACCEPT}; the name's extension must match the bytes. ` +
            'All the files are kept or none: 415 files.upload.type_refused (e.g. a .png that is an executable), files.upload.type_mismatch, files.upload.type_unknown; ' +
            '413 files.upload.too_large; 400 files.upload.empty, files.upload.name_invalid, files.upload.none; data.files lists each refused file (index, name, key). ' +
            'Names are sanitised (path, control and reserved characters removed). 201 with the stored files.',
          consumes: ['multipart/form-data'],
          body: {
            type: 'object',
            required: ['files[]'],
            properties: {
              'files[]': { type: 'array', items: { type: 'string', format: 'binary' } },
              folder_id: { type: 'string', description: 'the folder id (empty: no folder)' },
            },
          },
          response: {
            201: createdSchema,
            400: errorEnvelopeSchema,
            413: errorEnvelopeSchema,
            415: errorEnvelopeSchema,
          },
        },
      },
      async (request, reply) => {
        const out = await uploadFiles(ctx, request);
        reply.code(201);
        return ok(out, out.files.length === 1 ? 'files.upload.done_one' : 'files.upload.done');
      },
    );
  });

  app.get(
    `${base}/files/:id/content`,
    {
      config: READ,
      schema: {
        tags,
        summary: "A file's bytes: download, or the preview with inline=true",
        description:
          'Content-Type is the type read from the bytes at upload; X-Content-Type-Options nosniff; Content-Disposition attachment, or inline (inline=true) for images, PDF and MP4/WebM video only. ' +
          '404 resource.not_found; 410 files.content_missing when the stored bytes are gone.',
        params: idParamsSchema,
        querystring: z.strictObject({ inline: z.enum(['true', 'false']).optional() }),
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 410: errorEnvelopeSchema },
      },
    },
    async (request, reply) => sendContent(ctx, reply, request.params.id, request.query.inline === 'true'),
  );

  app.delete(
    `${base}/files/:id`,
    {
      config: DELETE,
      schema: {
        tags,
        summary: 'Delete a file (audited; needs the delete action)',
        description:
          'The row, then its stored bytes. 404 resource.not_found when there is none (already deleted).',
        params: idParamsSchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const out = await deleteFiles(ctx, request, [request.params.id]);
      if (out.deleted.length === 0) throw new AppError(404, 'resource.not_found');
      return ok(out, 'files.deleted_one');
    },
  );

  app.post(
    `${base}/files/delete`,
    {
      config: DELETE,
      schema: {
        tags,
        summary: 'Delete several files (audited; needs the delete action)',
        description: `ids: 1-${FILES_BULK_MAX} file ids. Ids already gone are answered in missing (a retried request deletes nothing twice).`,
        body: filesBulkDeleteSchema,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request) => ok(await deleteFiles(ctx, request, request.body.ids), 'files.deleted'),
  );

  app.post(
    `${base}/files/move`,
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Move several files into a folder (audited)',
        description: `ids: 1-${FILES_BULK_MAX} file ids; folder_id: the folder, or null for none (400 files.folder.unknown).`,
        body: filesBulkMoveSchema,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request) =>
      ok(await moveFiles(ctx, request, request.body.ids, request.body.folder_id), 'files.moved'),
  );

  app.get(
    `${base}/folders`,
    {
      config: READ,
      schema: {
        tags,
        summary: 'Every folder (id, name, parent_id, version, files directly inside)',
        response: { 400: errorEnvelopeSchema },
      },
    },
    async () => ok(await listFolders(ctx.database.db)),
  );

  app.post(
    `${base}/folders`,
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Create a folder (audited)',
        description:
          'name (unique among its siblings, case-insensitive: files.folder.name_taken), parent_id (null: at the top; files.folder.unknown, files.folder.too_deep).',
        body: folderCreateSchema,
        response: { 201: createdSchema, 400: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const folder = await createFolder(ctx, request, request.body);
      reply.code(201);
      return ok(folder, 'files.folder.created');
    },
  );

  app.put(
    `${base}/folders/:id`,
    {
      config: WRITE,
      schema: {
        tags,
        summary: 'Rename or move a folder, with its version (audited)',
        description:
          '409 resource.conflict when the version is stale; 400 files.folder.into_itself for a move into itself or below it.',
        params: idParamsSchema,
        body: folderUpdateSchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
      },
    },
    async (request) =>
      ok(await updateFolder(ctx, request, request.params.id, request.body), 'files.folder.saved'),
  );

  app.delete(
    `${base}/folders/:id`,
    {
      config: DELETE,
      schema: {
        tags,
        summary: 'Delete an empty folder (audited; needs the delete action)',
        description:
          '409 files.folder.not_empty (params files, folders) when it still holds files or folders; 404 when there is none.',
        params: idParamsSchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema },
      },
    },
    async (request) => {
      await deleteFolder(ctx, request, request.params.id);
      return ok(null, 'files.folder.deleted');
    },
  );
}
