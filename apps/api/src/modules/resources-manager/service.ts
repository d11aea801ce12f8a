/**
 * The resources manager's commands (docs/decisions/045-resources-manager.md): uploads (several
 * files per request, `files[]`; the type read from the bytes with file-type and checked against
 * core's allow-list), downloads and previews, moves and deletes of files (one or many), and the
 * folder tree. Reads of the file list, its export, one file's row and history, and the rename/move
 * of one file (with its version) are the resource layer's (./routes.ts). Every change is audited in
 * the transaction that makes it; the bytes live in the configured storage (lib/storage/resources.ts)
 * under a random key, written before the row and removed after it.
 */
import {
  FILES_PER_UPLOAD,
  FOLDER_DEPTH_MAX,
  checkUpload,
  folderPath,
  isInside,
  isPreviewable,
  type FileProblem,
  type ResourceFolder,
} from '@backoffice/core/files';
import { asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { resourceFiles, resourceFolders } from '../../db/schema-files.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { readMultipart, type MultipartLimits, type MultipartMessages } from '../../lib/multipart.ts';
import { StorageNotFoundError, type Storage } from '../../lib/storage.ts';
import { RESOURCES_PREFIX, resourcesStorageOf } from '../../lib/storage/resources.ts';
import { audit } from '../../plugins/audit.ts';
import { callerOf } from '../../plugins/auth.ts';

export const FILE_ENTITY = 'resource_file';
export const FOLDER_ENTITY = 'resource_folder';

export function uploadLimits(ctx: AppContext): MultipartLimits {
  return {
    fileSize: ctx.config.resourcesStorage.maxFileBytes,
    files: FILES_PER_UPLOAD,
    fields: 2,
    fieldSize: 1024,
  };
}

export const UPLOAD_MESSAGES: MultipartMessages = {
  notMultipart: 'files.upload.not_multipart',
  fileTooLarge: 'files.upload.too_large',
  tooManyFiles: 'files.upload.too_many',
  tooManyFields: 'files.upload.too_many_fields',
};

const storageOf = (ctx: AppContext): Storage => resourcesStorageOf(ctx.config);
const newKey = () => `${RESOURCES_PREFIX}/${crypto.randomBytes(16).toString('hex')}`;
const iso = (v: Date | string) => (v instanceof Date ? v.toISOString() : new Date(v).toISOString());

/** A file's row as the commands answer it (the same fields as the layer's rows). */
type FileRecord = typeof resourceFiles.$inferSelect;

function fileAnswer(r: FileRecord, ownerName: string | null, folderName: string | null) {
  return {
    id: r.id,
    name: r.name,
    folder_id: r.folderId,
    folder_id_label: folderName,
    kind: r.kind,
    mime: r.mime,
    bytes: r.bytes,
    owner_id: r.ownerId,
    owner_id_label: ownerName,
    version: r.version,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}

/** What the audit log keeps of a file (no storage key). */
const auditedFile = (r: FileRecord) => ({
  name: r.name,
  folder_id: r.folderId,
  kind: r.kind,
  mime: r.mime,
  bytes: r.bytes,
  sha256: r.sha256,
  owner_id: r.ownerId,
});
const auditedFolder = (r: typeof resourceFolders.$inferSelect) => ({ name: r.name, parent_id: r.parentId });

/** A folder id from a form field ('' or absent: none), checked to exist. */
async function folderOfField(
  d: Db,
  raw: string | string[] | undefined,
): Promise<{ id: number; name: string } | null> {
  if (raw === undefined || raw === '' || raw === 'null') return null;
  const text = Array.isArray(raw) ? '' : raw;
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > 2_147_483_647)
    throw badRequest('error.validation', { folder_id: 'error.invalid_value' });
  const [row] = await d
    .select({ id: resourceFolders.id, name: resourceFolders.name })
    .from(resourceFolders)
    .where(eq(resourceFolders.id, Number(text)));
  if (!row) throw badRequest('error.validation', { folder_id: 'files.folder.unknown' });
  return row;
}

const statusOfProblem = (p: FileProblem) =>
  p.key === 'files.upload.too_large' ? 413 : p.key.startsWith('files.upload.type') ? 415 : 400;

/** POST /v1/resources-manager/files: see the file's comment. All the files or none are kept. */
export async function uploadFiles(ctx: AppContext, request: FastifyRequest) {
  const caller = callerOf(request);
  const { files, fields } = await readMultipart(request, UPLOAD_MESSAGES);
  const d = ctx.database.db;
  const folder = await folderOfField(d, fields.folder_id);
  const uploads = files.filter((f) => f.field === 'files' || f.field === 'file');
  if (uploads.length === 0) throw badRequest('files.upload.none', { files: 'files.upload.none' });

  const max = ctx.config.resourcesStorage.maxFileBytes;
  const problems: { index: number; name: string; key: string; params?: Record<string, string> }[] = [];
  const accepted: { name: string; kind: string; mime: string; data: Buffer }[] = [];
  for (const [index, f] of uploads.entries()) {
    const detected = f.data.length > 0 ? await fileTypeFromBuffer(f.data) : undefined;
    const checked = checkUpload(f.fileName, f.data, detected, max);
    if (checked.ok)
      accepted.push({ name: checked.name, kind: checked.type.kind, mime: checked.type.mime, data: f.data });
    else
      problems.push({
        index,
        name: f.fileName.slice(0, 200),
        key: checked.key,
        ...(checked.params ? { params: checked.params } : {}),
      });
  }
  if (problems.length > 0) {
    const first = problems[0]!;
    throw new AppError(statusOfProblem(first), first.key, {
      params: { ...(first.params ?? {}), name: first.name },
      errors: Object.fromEntries(problems.map((p) => [`files.${p.index}`, p.key])),
      data: { files: problems },
    });
  }

  const storage = storageOf(ctx);
  const stored: string[] = [];
  try {
    const keys = accepted.map(() => newKey());
    for (const [i, a] of accepted.entries()) {
      await storage.put(keys[i]!, Readable.from([a.data]));
      stored.push(keys[i]!);
    }
    const rows = await d.transaction(async (tx) => {
      const t = tx as unknown as Db;
      const out: FileRecord[] = [];
      for (const [i, a] of accepted.entries()) {
        const [row] = await t
          .insert(resourceFiles)
          .values({
            name: a.name,
            folderId: folder?.id ?? null,
            kind: a.kind,
            mime: a.mime,
            bytes: a.data.length,
            sha256: crypto.createHash('sha256').update(a.data).digest('hex'),
            storageKey: keys[i]!,
            ownerId: caller.id,
            createdBy: caller.id,
            updatedBy: caller.id,
          })
          .returning();
        await audit(t, request, {
          action: `${FILE_ENTITY}.upload`,
          entity: FILE_ENTITY,
          entityId: row!.id,
          after: auditedFile(row!),
        });
        out.push(row!);
      }
      return out;
    });
    return { files: rows.map((r) => fileAnswer(r, caller.name, folder?.name ?? null)) };
  } catch (err) {
    for (const key of stored) await storage.delete(key).catch(() => false);
    throw err;
  }
}

async function fileById(d: Db, id: number): Promise<FileRecord> {
  const [row] = await d.select().from(resourceFiles).where(eq(resourceFiles.id, id));
  if (!row) throw notFound('resource.not_found');
  return row;
}

/** `name.ext` for Content-Disposition: an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii =
    name
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\%;]/g, '_')
      .trim() || 'file';
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/**
 * GET …/files/:id/content: the bytes with their stored type (read from the bytes at upload), never
 * sniffed (nosniff); `inline` (the preview) only for types a browser shows safely (images, PDF,
 * MP4/WebM), an attachment otherwise. A row whose bytes are gone answers 410.
 */
export async function sendContent(ctx: AppContext, reply: FastifyReply, id: number, inline: boolean) {
  const row = await fileById(ctx.database.db, id);
  const stream = await storageOf(ctx)
    .get(row.storageKey)
    .catch((err: unknown) => {
      if (err instanceof StorageNotFoundError) throw new AppError(410, 'files.content_missing');
      throw err;
    });
  const disposition = inline && isPreviewable(row.mime) ? 'inline' : 'attachment';
  reply
    .header('content-type', row.kind === 'csv' ? `${row.mime}; charset=utf-8` : row.mime)
    .header('content-length', String(row.bytes))
    .header('content-disposition', contentDisposition(disposition, row.name))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    // Opened on its own (not through the app), the file runs nothing and loads nothing else (a
    // sandboxed document would stop the browser's PDF viewer, so PDFs go without the sandbox).
    .header(
      'content-security-policy',
      `default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'${row.kind === 'pdf' ? '' : '; sandbox'}`,
    );
  return reply.send(stream);
}

/** Removes stored bytes after their rows are gone; a failure leaves an orphan object, logged. */
async function removeBytes(ctx: AppContext, request: FastifyRequest, keys: readonly string[]): Promise<void> {
  const storage = storageOf(ctx);
  for (const key of keys) {
    await storage.delete(key).catch((err: unknown) => {
      request.log.warn({ err, key }, 'resources manager: stored file not removed');
      return false;
    });
  }
}

/** DELETE …/files/:id and POST …/files/delete: the rows (audited) then their bytes. Missing ids are skipped. */
export async function deleteFiles(
  ctx: AppContext,
  request: FastifyRequest,
  ids: readonly number[],
): Promise<{ deleted: number[]; missing: number[] }> {
  const unique = [...new Set(ids)];
  const rows = await ctx.database.db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const gone = await t.delete(resourceFiles).where(inArray(resourceFiles.id, unique)).returning();
    for (const r of gone)
      await audit(t, request, {
        action: `${FILE_ENTITY}.delete`,
        entity: FILE_ENTITY,
        entityId: r.id,
        before: auditedFile(r),
      });
    return gone;
  });
  await removeBytes(
    ctx,
    request,
    rows.map((r) => r.storageKey),
  );
  const deleted = rows.map((r) => r.id);
  return { deleted, missing: unique.filter((id) => !deleted.includes(id)) };
}

/** POST …/files/move: several files into one folder (null: none), each audited as an update. */
export async function moveFiles(
  ctx: AppContext,
  request: FastifyRequest,
  ids: readonly number[],
  folderId: number | null,
) {
  const caller = callerOf(request);
  return ctx.database.db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    if (folderId !== null) {
      const [folder] = await t
        .select({ id: resourceFolders.id })
        .from(resourceFolders)
        .where(eq(resourceFolders.id, folderId));
      if (!folder) throw badRequest('error.validation', { folder_id: 'files.folder.unknown' });
    }
    const before = await t
      .select()
      .from(resourceFiles)
      .where(inArray(resourceFiles.id, [...new Set(ids)]))
      .for('update');
    const moving = before.filter((r) => r.folderId !== folderId);
    for (const r of moving) {
      const [after] = await t
        .update(resourceFiles)
        .set({
          folderId,
          version: sql`${resourceFiles.version} + 1`,
          updatedAt: sql`now()`,
          updatedBy: caller.id,
        })
        .where(eq(resourceFiles.id, r.id))
        .returning();
      await audit(t, request, {
        action: `${FILE_ENTITY}.update`,
        entity: FILE_ENTITY,
        entityId: r.id,
        before: auditedFile(r),
        after: auditedFile(after!),
      });
    }
    const found = before.map((r) => r.id);
    return { moved: moving.map((r) => r.id), missing: ids.filter((id) => !found.includes(id)) };
  });
}

// ---------------------------------------------------------------------------------------------
// Folders

type FolderRecord = typeof resourceFolders.$inferSelect;

function folderAnswer(r: FolderRecord, files: number): ResourceFolder {
  return {
    id: r.id,
    name: r.name,
    parent_id: r.parentId,
    version: r.version,
    files,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}

/** Every folder with how many files it holds directly (the tree is built in the browser). */
export async function listFolders(d: Db): Promise<ResourceFolder[]> {
  const counts = d
    .select({ folderId: resourceFiles.folderId, n: count().as('n') })
    .from(resourceFiles)
    .groupBy(resourceFiles.folderId)
    .as('counts');
  const rows = await d
    .select({ folder: resourceFolders, n: counts.n })
    .from(resourceFolders)
    .leftJoin(counts, eq(counts.folderId, resourceFolders.id))
    .orderBy(asc(sql`lower(${resourceFolders.name})`), asc(resourceFolders.id))
    .limit(5000);
  return rows.map((r) => folderAnswer(r.folder, Number(r.n ?? 0)));
}

/** A sibling with the same name (case-insensitive) is a field error, not a 500. */
function nameTaken(err: unknown): unknown {
  const e = err as { code?: string; cause?: { code?: string } };
  return (e.code ?? e.cause?.code) === '23505'
    ? badRequest('error.validation', { name: 'files.folder.name_taken' })
    : err;
}

async function checkParent(t: Db, parentId: number | null, movingId: number | null): Promise<void> {
  if (parentId === null) return;
  const all = await t
    .select({ id: resourceFolders.id, name: resourceFolders.name, parent_id: resourceFolders.parentId })
    .from(resourceFolders);
  if (!all.some((f) => f.id === parentId))
    throw badRequest('error.validation', { parent_id: 'files.folder.unknown' });
  if (movingId !== null && isInside(all, parentId, movingId))
    throw badRequest('error.validation', { parent_id: 'files.folder.into_itself' });
  // The depth of the deepest folder moved along (a folder carries its subfolders).
  let below = 0;
  if (movingId !== null) {
    const depthOf = (id: number): number =>
      1 + Math.max(0, ...all.filter((f) => f.parent_id === id).map((f) => depthOf(f.id)));
    below = depthOf(movingId) - 1;
  }
  if (folderPath(all, parentId).length + 1 + below > FOLDER_DEPTH_MAX)
    throw badRequest('error.validation', { parent_id: 'files.folder.too_deep' });
}

export async function createFolder(
  ctx: AppContext,
  request: FastifyRequest,
  input: { name: string; parent_id: number | null },
): Promise<ResourceFolder> {
  const caller = callerOf(request);
  return ctx.database.db
    .transaction(async (tx) => {
      const t = tx as unknown as Db;
      await checkParent(t, input.parent_id, null);
      const [row] = await t
        .insert(resourceFolders)
        .values({ name: input.name, parentId: input.parent_id, createdBy: caller.id, updatedBy: caller.id })
        .returning();
      await audit(t, request, {
        action: `${FOLDER_ENTITY}.create`,
        entity: FOLDER_ENTITY,
        entityId: row!.id,
        after: auditedFolder(row!),
      });
      return folderAnswer(row!, 0);
    })
    .catch((err: unknown) => {
      throw nameTaken(err);
    });
}

export async function updateFolder(
  ctx: AppContext,
  request: FastifyRequest,
  id: number,
  input: { name: string; parent_id: number | null; version: number },
): Promise<ResourceFolder> {
  const caller = callerOf(request);
  return ctx.database.db
    .transaction(async (tx) => {
      const t = tx as unknown as Db;
      const [before] = await t.select().from(resourceFolders).where(eq(resourceFolders.id, id)).for('update');
      if (!before) throw notFound('resource.not_found');
      if (before.version !== input.version) {
        throw new AppError(409, 'resource.conflict', {
          data: { current: folderAnswer(before, 0) },
          params: { name: '?', at: iso(before.updatedAt) },
        });
      }
      if (input.parent_id !== before.parentId) await checkParent(t, input.parent_id, id);
      const [after] = await t
        .update(resourceFolders)
        .set({
          name: input.name,
          parentId: input.parent_id,
          version: sql`${resourceFolders.version} + 1`,
          updatedAt: sql`now()`,
          updatedBy: caller.id,
        })
        .where(eq(resourceFolders.id, id))
        .returning();
      await audit(t, request, {
        action: `${FOLDER_ENTITY}.update`,
        entity: FOLDER_ENTITY,
        entityId: id,
        before: auditedFolder(before),
        after: auditedFolder(after!),
      });
      const [n] = await t.select({ n: count() }).from(resourceFiles).where(eq(resourceFiles.folderId, id));
      return folderAnswer(after!, Number(n?.n ?? 0));
    })
    .catch((err: unknown) => {
      throw nameTaken(err);
    });
}

/** A folder is deleted only when empty: 409 files.folder.not_empty with what it still holds. */
export async function deleteFolder(ctx: AppContext, request: FastifyRequest, id: number): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [before] = await t.select().from(resourceFolders).where(eq(resourceFolders.id, id)).for('update');
    if (!before) throw notFound('resource.not_found');
    const [files] = await t.select({ n: count() }).from(resourceFiles).where(eq(resourceFiles.folderId, id));
    const [folders] = await t
      .select({ n: count() })
      .from(resourceFolders)
      .where(eq(resourceFolders.parentId, id));
    const nFiles = Number(files?.n ?? 0);
    const nFolders = Number(folders?.n ?? 0);
    if (nFiles > 0 || nFolders > 0)
      throw new AppError(409, 'files.folder.not_empty', { params: { files: nFiles, folders: nFolders } });
    await t.delete(resourceFolders).where(eq(resourceFolders.id, id));
    await audit(t, request, {
      action: `${FOLDER_ENTITY}.delete`,
      entity: FOLDER_ENTITY,
      entityId: id,
      before: auditedFolder(before),
    });
  });
}

/** Files without a folder (the "no folder" count of the tree). */
export async function looseFileCount(d: Db): Promise<number> {
  const [r] = await d.select({ n: count() }).from(resourceFiles).where(isNull(resourceFiles.folderId));
  return Number(r?.n ?? 0);
}
