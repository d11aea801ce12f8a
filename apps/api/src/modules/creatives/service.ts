/**
 * The resize tool's service (docs/decisions/042-creatives.md): reads the upload (lib/multipart.ts),
 * checks the options and the file with core's rules, renders every target with sharp
 * (./resize.ts) under a per-process limit of concurrent resizes, keeps the files in the storage
 * adapter under `creatives-resize/<id>/` with a row in `creative_resizes` (who, when, expiry) and an
 * audit entry; serves one result or a zip of all (archiver, streamed) to the person who made them
 * until they expire; the cleanup job removes expired results.
 */
import {
  CREATIVE_RESIZE_TTL_MINUTES,
  CREATIVE_UPLOAD_MAX_BYTES,
  OUTPUT_MIME,
  RESIZE_RATE_MAX,
  RESIZE_RATE_WINDOW_SEC,
  fileBaseOf,
  resizeOptionsSchema,
  uploadProblem,
  type ResizeOptions,
  type ResizeOutput,
  type ResizeResult,
} from '@backoffice/core/creatives';
import { issuesToErrors } from '@backoffice/core/validation-errors';
import archiver from 'archiver';
import type { FastifyReply, FastifyRequest } from 'fastify';
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { readMultipart, type MultipartLimits, type MultipartMessages } from '../../lib/multipart.ts';
import { hitRateLimit, tooManyRequests } from '../../lib/rate-limit.ts';
import { storageOf, type Storage } from '../../lib/storage.ts';
import { callerOf } from '../../plugins/auth.ts';
import { query, transaction } from '../../reports-data/sql.ts';
import { auditIn } from '../prepayments/service.ts';
import { inspectUpload, outputFileName, renderOutputs } from './resize.ts';

/** The audit entity of a resize. */
export const RESIZE_ENTITY = 'creative_resize';
/** Storage prefix of the results. */
export const RESIZE_PREFIX = 'creatives-resize';
export const CLEANUP_QUEUE = 'creatives-resize-cleanup';

/** The upload's limits: one file (field `file`), one text field (`options`, JSON). */
export const RESIZE_MULTIPART_LIMITS: MultipartLimits = { fileSize: CREATIVE_UPLOAD_MAX_BYTES, files: 1, fields: 2, fieldSize: 16 * 1024 };
export const RESIZE_MULTIPART_MESSAGES: MultipartMessages = {
  notMultipart: 'creatives.upload.not_multipart',
  fileTooLarge: 'creatives.upload.too_large',
  tooManyFiles: 'creatives.upload.one_file',
  tooManyFields: 'creatives.upload.too_many_fields',
};

/** Resizes run at once in this process, and waiting; more answer 503 creatives.resize.busy. */
export const RESIZE_CONCURRENCY = 2;
export const RESIZE_QUEUE = 8;
let running = 0;
const waiting: (() => void)[] = [];

async function withResizeSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= RESIZE_CONCURRENCY) {
    if (waiting.length >= RESIZE_QUEUE) throw new AppError(503, 'creatives.resize.busy', { headers: { 'retry-after': '5' } });
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running += 1;
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

const keyOf = (id: string, fileName: string) => `${RESIZE_PREFIX}/${id}/${fileName}`;

type StoredOutput = Omit<ResizeOutput, 'preview'>;

/** The options field: JSON text, checked with core's schema (every field error at once). */
function parseOptions(raw: string | string[] | undefined): { options: ResizeOptions | null; errors: Record<string, string> } {
  if (raw === undefined) return { options: null, errors: { sizes: 'creatives.resize.sizes_required' } };
  if (Array.isArray(raw)) return { options: null, errors: { options: 'creatives.upload.options_invalid' } };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { options: null, errors: { options: 'creatives.upload.options_invalid' } };
  }
  const parsed = resizeOptionsSchema.safeParse(value);
  if (!parsed.success) return { options: null, errors: issuesToErrors(parsed.error.issues) };
  return { options: parsed.data, errors: {} };
}

/** POST /v1/creatives/resize: see the file's comment. */
export async function resize(ctx: AppContext, request: FastifyRequest, now: number): Promise<ResizeResult> {
  const caller = callerOf(request);
  const limited = await hitRateLimit(ctx.database.db, `creatives-resize:${caller.id}`, { max: RESIZE_RATE_MAX, windowSec: RESIZE_RATE_WINDOW_SEC });
  if (limited.limited) throw tooManyRequests(limited);
  const { files, fields } = await readMultipart(request, RESIZE_MULTIPART_MESSAGES);
  const file = files.find((f) => f.field === 'file');
  const { options, errors } = parseOptions(fields.options);
  // The cheap checks of the file join the options' errors, so the form shows them together.
  const fileProblem = file ? uploadProblem(file.data.length, file.data) : { key: 'creatives.upload.file_required' };
  if (!options) throw badRequest('error.validation', fileProblem ? { ...errors, file: fileProblem.key } : errors);
  if (!file) throw badRequest('creatives.upload.file_required', { file: 'creatives.upload.file_required' });

  const input = await inspectUpload(file.data);
  const rendered = await withResizeSlot(() => renderOutputs(file.data, input, options));

  const id = crypto.randomBytes(16).toString('hex');
  const base = fileBaseOf(file.fileName);
  const stored: StoredOutput[] = rendered.map(({ data: _data, preview: _preview, ...o }) => ({ ...o, file_name: outputFileName(base, o.size, o.format) }));
  const storage = storageOf(ctx.config);
  const createdAt = new Date(now).toISOString();
  const expiresAt = new Date(now + CREATIVE_RESIZE_TTL_MINUTES * 60_000).toISOString();
  const inputFacts = { file_name: file.fileName.slice(0, 200), type: input.type, width: input.oriented.width, height: input.oriented.height, bytes: file.data.length };
  try {
    for (let i = 0; i < rendered.length; i++) await storage.put(keyOf(id, stored[i]!.file_name), Readable.from([rendered[i]!.data]));
    await transaction(ctx.database, async (q) => {
      await q(
        `INSERT INTO creative_resizes (id, created_by, created_at, expires_at, file_name, input, options, outputs)
         VALUES ($1, $2, $3::timestamptz, $4::timestamptz, $5, $6::jsonb, $7::jsonb, $8::jsonb)`,
        [id, caller.id, createdAt, expiresAt, base, JSON.stringify(inputFacts), JSON.stringify(options), JSON.stringify(stored)],
      );
      await auditIn(q, request, {
        action: 'creatives.resize',
        entity: RESIZE_ENTITY,
        entityId: id,
        after: { file_name: inputFacts.file_name, input: { type: input.type, width: inputFacts.width, height: inputFacts.height, bytes: inputFacts.bytes }, sizes: options.sizes, fit: options.fit, focal: [options.focal_x, options.focal_y], format: options.format, quality: options.quality, expires_at: expiresAt },
      });
    });
  } catch (err) {
    await removeFiles(storage, id, stored);
    throw err;
  }
  return {
    id,
    created_at: createdAt,
    expires_at: expiresAt,
    zip_name: `${base}_sizes.zip`,
    input: inputFacts,
    options,
    outputs: stored.map((o, i) => ({ ...o, preview: rendered[i]!.preview })),
  };
}

async function removeFiles(storage: Storage, id: string, outputs: readonly Pick<StoredOutput, 'file_name'>[]): Promise<void> {
  for (const o of outputs) await storage.delete(keyOf(id, o.file_name)).catch(() => false);
}

interface ResultRow {
  id: string;
  created_by: number | null;
  expires_at: Date | string;
  file_name: string;
  outputs: StoredOutput[];
}

/** A result the caller made that has not expired: 404 otherwise (someone else's is not told apart from none), 410 once expired. */
async function resultOf(database: Database, request: FastifyRequest, id: string, now: number): Promise<ResultRow> {
  const caller = callerOf(request);
  const [row] = await query<ResultRow>(database, 'SELECT id, created_by, expires_at, file_name, outputs FROM creative_resizes WHERE id = $1', [id]);
  if (!row || row.created_by !== caller.id) throw new AppError(404, 'creatives.resize.not_found');
  if (new Date(row.expires_at).getTime() <= now) throw new AppError(410, 'creatives.resize.not_found');
  return row;
}

const attachment = (name: string) => `attachment; filename="${name}"`;

/** GET /v1/creatives/resize/:id/:size: the file. */
export async function sendOne(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, id: string, size: string, now: number) {
  const row = await resultOf(ctx.database, request, id, now);
  const out = row.outputs.find((o) => o.size === size);
  if (!out) throw new AppError(404, 'creatives.resize.not_found');
  const storage = storageOf(ctx.config);
  const stream = await storage.get(keyOf(id, out.file_name)).catch(() => {
    throw new AppError(410, 'creatives.resize.not_found');
  });
  reply.header('cache-control', 'private, no-store').header('content-disposition', attachment(out.file_name)).header('content-length', String(out.bytes)).type(OUTPUT_MIME[out.format]);
  return reply.send(stream);
}

/** GET /v1/creatives/resize/:id.zip: every result, streamed (stored, not deflated: the images are compressed already). */
export async function sendZip(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, id: string, now: number) {
  const row = await resultOf(ctx.database, request, id, now);
  const storage = storageOf(ctx.config);
  const streams: { name: string; stream: Readable }[] = [];
  for (const o of row.outputs) {
    const stream = await storage.get(keyOf(id, o.file_name)).catch(() => null);
    if (!stream) {
      for (const s of streams) s.stream.destroy();
      throw new AppError(410, 'creatives.resize.not_found');
    }
    streams.push({ name: o.file_name, stream });
  }
  const archive = archiver('zip', { store: true });
  archive.on('warning', (err) => request.log.warn({ err }, 'creatives: zip warning'));
  archive.on('error', (err) => {
    request.log.error({ err }, 'creatives: zip failed');
    archive.destroy(err);
  });
  for (const s of streams) archive.append(s.stream, { name: s.name });
  void archive.finalize();
  reply.header('cache-control', 'private, no-store').header('content-disposition', attachment(`${row.file_name}_sizes.zip`)).type('application/zip');
  return reply.send(archive);
}

/** The cleanup job: expired results lose their files, then their rows (idempotent: a retried run redoes what is left). */
export async function expireResults(ctx: AppContext, now: number, storage: Storage = storageOf(ctx.config)): Promise<{ expired: number }> {
  const rows = await query<{ id: string; outputs: StoredOutput[] }>(
    ctx.database,
    'SELECT id, outputs FROM creative_resizes WHERE expires_at <= $1::timestamptz ORDER BY expires_at LIMIT 500',
    [new Date(now).toISOString()],
  );
  for (const r of rows) {
    await removeFiles(storage, r.id, r.outputs);
    await query(ctx.database, 'DELETE FROM creative_resizes WHERE id = $1', [r.id]);
  }
  return { expired: rows.length };
}

