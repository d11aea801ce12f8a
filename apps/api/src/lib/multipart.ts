/**
 * Multipart form uploads (spec section 7: "Form uploads use multipart, with file lists as name[]";
 * docs/decisions/042-creatives.md). @fastify/multipart is registered per route scope, never
 * globally: only the routes that take uploads parse multipart bodies, each with its own limits.
 *
 *   await app.register(async (upload) => {
 *     await registerMultipart(upload, { fileSize: 15 * 1024 * 1024, files: 1, fields: 4 });
 *     upload.post('/v1/x/upload', { config: … }, async (request) => {
 *       const { files, fields } = await readMultipart(request, messages);
 *     });
 *   });
 *
 * readMultipart buffers each file up to the limit (a larger one is refused: busboy stops keeping its
 * bytes at the limit), gathers text fields, and files and fields named `name[]` under `name`. The
 * route's ACL is checked before (the auth hook runs at preValidation; the multipart content-type
 * parser only marks the request, it reads nothing), so no byte of an unauthorised upload is read.
 * Errors become envelope errors with the caller's message keys.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

export interface MultipartLimits {
  /** The largest file, in bytes. */
  fileSize: number;
  /** Files per request. */
  files: number;
  /** Text fields per request. */
  fields: number;
  /** The largest text field, in bytes (default 64 KiB). */
  fieldSize?: number;
}

/** The message keys of the caller's refusals (its i18n area). */
export interface MultipartMessages {
  /** 415: the request is not multipart/form-data. */
  notMultipart: string;
  /** 413: a file over `fileSize`; params { max } in MB. */
  fileTooLarge: string;
  /** 413: more files than `files`. */
  tooManyFiles: string;
  /** 413: more fields than `fields` (or more parts). */
  tooManyFields: string;
}

export interface UploadedFile {
  /** The form field, without `[]`. */
  field: string;
  /** The name the client gave (never trusted for the type). */
  fileName: string;
  /** The client's declared type (never trusted either). */
  mimeType: string;
  data: Buffer;
}

export interface MultipartBody {
  files: UploadedFile[];
  /** Text fields; a field sent several times, or as `name[]`, is a list. */
  fields: Record<string, string | string[]>;
}

const DEFAULT_FIELD_SIZE = 64 * 1024;
const limitsOf = new WeakMap<FastifyInstance, Required<MultipartLimits>>();

/** Registers multipart parsing in `scope` (an encapsulated plugin: its routes only) with these limits. */
export async function registerMultipart(scope: FastifyInstance, limits: MultipartLimits): Promise<void> {
  const full = { fieldSize: DEFAULT_FIELD_SIZE, ...limits };
  await scope.register(multipart, {
    throwFileSizeLimit: true,
    limits: { fileSize: full.fileSize, files: full.files, fields: full.fields, fieldSize: full.fieldSize, parts: full.files + full.fields, headerPairs: 100 },
  });
  limitsOf.set(scope, full);
}

const megabytes = (bytes: number) => String(Math.round((bytes / 1048576) * 10) / 10);

/** The request's whole multipart body (see the file's comment); throws AppError on every refusal. */
export async function readMultipart(request: FastifyRequest, messages: MultipartMessages): Promise<MultipartBody> {
  const limits = limitsOf.get(request.server);
  if (!limits) throw new Error('readMultipart: registerMultipart was not called in this route’s scope');
  if (typeof request.isMultipart !== 'function' || !request.isMultipart()) throw new AppError(415, messages.notMultipart);
  const tooLarge = () => new AppError(413, messages.fileTooLarge, { params: { max: megabytes(limits.fileSize) } });
  // A declared length beyond every file and field at their limits is refused before reading.
  const declared = Number(request.headers['content-length']);
  const budget = limits.fileSize * limits.files + limits.fieldSize * limits.fields + 64 * 1024;
  if (Number.isFinite(declared) && declared > budget) throw tooLarge();

  const files: UploadedFile[] = [];
  const fields: Record<string, string | string[]> = {};
  const put = (name: string, value: string) => {
    const key = name.endsWith('[]') ? name.slice(0, -2) : name;
    const had = fields[key];
    if (had === undefined) fields[key] = name.endsWith('[]') ? [value] : value;
    else fields[key] = Array.isArray(had) ? [...had, value] : [had, value];
  };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        files.push({ field: part.fieldname.replace(/\[\]$/, ''), fileName: part.filename ?? '', mimeType: part.mimetype ?? '', data });
      } else {
        if (part.valueTruncated || part.fieldnameTruncated) throw new AppError(413, 'error.payload_too_large');
        put(part.fieldname, typeof part.value === 'string' ? part.value : JSON.stringify(part.value));
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code === 'FST_FILES_LIMIT') throw new AppError(413, messages.tooManyFiles);
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw new AppError(413, messages.tooManyFields);
    if (code === 'FST_INVALID_JSON_FIELD_ERROR') throw new AppError(400, 'error.malformed_json');
    // Busboy's own errors (a malformed part header, an early end of the form): the body is broken.
    throw new AppError(400, 'error.invalid_value');
  }
  return { files, fields };
}
