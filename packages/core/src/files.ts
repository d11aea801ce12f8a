/**
 * Tabular file rules (spec sections 5 and 9): upload extension checks, CSV delimiter
 * detection (comma or semicolon) and the helper that drops rows with an empty value.
 * Parsing itself happens where the bytes are (papaparse / ExcelJS in the web app).
 */
import { z } from 'zod';
import { COMMON_FIELDS, defineResource } from './resources/define.ts';

export const UPLOAD_KINDS = ['csv', 'xlsx'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

export interface UploadRule {
  extension: string;
  /** The `accept` attribute of the file input. */
  accept: string;
  /** i18n key of the wrong-file message. */
  invalidMessage: 'upload.csv.invalid' | 'upload.xlsx.invalid';
}

export const UPLOAD_RULES: Readonly<Record<UploadKind, UploadRule>> = {
  csv: { extension: 'csv', accept: '.csv,text/csv', invalidMessage: 'upload.csv.invalid' },
  xlsx: {
    extension: 'xlsx',
    accept: '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    invalidMessage: 'upload.xlsx.invalid',
  },
};

/** Lowercase extension without the dot ('' when there is none). */
export function fileExtension(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** The i18n key of the error for a file of the wrong kind, or null when the extension fits. */
export function uploadError(fileName: string, kind: UploadKind): UploadRule['invalidMessage'] | null {
  const rule = UPLOAD_RULES[kind];
  return fileExtension(fileName) === rule.extension ? null : rule.invalidMessage;
}

export const CSV_DELIMITERS = [',', ';'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

/** Counts delimiter characters outside double-quoted fields in one line. */
function countOutsideQuotes(line: string, delimiter: string): number {
  let inQuotes = false;
  let count = 0;
  for (const ch of line) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && ch === delimiter) count += 1;
  }
  return count;
}

/**
 * Comma or semicolon, whichever splits the first lines into the same, largest number of
 * fields. Quoted fields are skipped, so `"1,5";"2,5"` is semicolon-separated. Comma when
 * nothing decides.
 */
export function detectDelimiter(text: string, sampleLines = 10): CsvDelimiter {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .filter((l) => l.trim() !== '')
    .slice(0, sampleLines);
  if (lines.length === 0) return ',';
  const score = (delimiter: CsvDelimiter) => {
    const counts = lines.map((l) => countOutsideQuotes(l, delimiter));
    const first = counts[0] ?? 0;
    if (first === 0) return 0;
    const consistent = counts.filter((c) => c === first).length;
    // Consistency across lines matters most, then the number of fields.
    return consistent * 1000 + first;
  };
  const comma = score(',');
  const semicolon = score(';');
  return semicolon > comma ? ';' : ',';
}

/** Empty means missing, or a string with nothing but spaces. */
export function isEmptyCellValue(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/**
 * Drops every row in which any value is empty (spec section 5). Rows may be arrays or
 * objects; for objects, `columns` names the values that count (default: the row's own keys).
 */
export function dropRowsWithEmptyValues<Row extends readonly unknown[] | Record<string, unknown>>(
  rows: readonly Row[],
  columns?: readonly string[],
): Row[] {
  return rows.filter((row) => {
    if (Array.isArray(row)) return row.length > 0 && !row.some(isEmptyCellValue);
    const record = row as Record<string, unknown>;
    const keys = columns ?? Object.keys(record);
    return keys.length > 0 && !keys.some((k) => isEmptyCellValue(record[k]));
  });
}

/* ------------------------------------------------------------------------------------------------
 * The resources manager (`/utils/resources_manager2`; docs/decisions/045-resources-manager.md):
 * files that marketing, legal and supply keep (creatives, contracts, price lists) in folders, in
 * the configured storage. The rules below are the same in the browser (a first check before the
 * upload) and in the API, which also reads the type from the file's bytes (magic numbers) and
 * refuses a file whose bytes are not what its name says.
 * --------------------------------------------------------------------------------------------- */

/** The protected area (spec section 6, PROTECTED_RESOURCES): the bypass marker never opens it. */
export const FILES_RESOURCE = 'resources_manager';
/** The API's base path. */
export const FILES_API = '/v1/resources-manager';
/** Reading lists and files needs `read`; uploading, renaming, moving and folders `write`; deleting `delete`. */
export const FILES_DELETE_ACTION = 'delete';

/** The largest file (bytes) and how many one upload request takes. */
export const FILE_MAX_BYTES = 25 * 1024 * 1024;
export const FILES_PER_UPLOAD = 10;
/** A bulk move or delete names at most this many files. */
export const FILES_BULK_MAX = 200;
export const FILE_NAME_MAX = 180;
export const FOLDER_NAME_MAX = 80;
/** Folders nest at most this deep (the tree stays readable on a phone). */
export const FOLDER_DEPTH_MAX = 8;

export const FILE_KINDS = [
  'image',
  'pdf',
  'document',
  'spreadsheet',
  'presentation',
  'csv',
  'archive',
  'video',
  'audio',
] as const;
export type FileKind = (typeof FILE_KINDS)[number];

export interface AllowedType {
  kind: FileKind;
  /** The type the file is stored and served with. */
  mime: string;
  /** The extensions a name of this type may end with (the first is the usual one). */
  exts: readonly string[];
  /** Shown inline in the preview (a browser displays it safely). */
  preview?: boolean;
}

/**
 * The allow-list, by the type detected from the bytes (file-type's `ext`). SVG and HTML are left
 * out on purpose: both can carry scripts. Legacy Office files are OLE containers (`cfb`): which
 * one is told by the extension. CSV has no magic number: it is accepted as text (UTF-8, no NUL
 * bytes) with the csv extension.
 */
export const ALLOWED_TYPES: Readonly<Record<string, AllowedType>> = {
  png: { kind: 'image', mime: 'image/png', exts: ['png'], preview: true },
  jpg: { kind: 'image', mime: 'image/jpeg', exts: ['jpg', 'jpeg'], preview: true },
  gif: { kind: 'image', mime: 'image/gif', exts: ['gif'], preview: true },
  webp: { kind: 'image', mime: 'image/webp', exts: ['webp'], preview: true },
  avif: { kind: 'image', mime: 'image/avif', exts: ['avif'], preview: true },
  pdf: { kind: 'pdf', mime: 'application/pdf', exts: ['pdf'], preview: true },
  docx: {
    kind: 'document',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    exts: ['docx'],
  },
  xlsx: {
    kind: 'spreadsheet',
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    exts: ['xlsx'],
  },
  pptx: {
    kind: 'presentation',
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    exts: ['pptx'],
  },
  odt: { kind: 'document', mime: 'application/vnd.oasis.opendocument.text', exts: ['odt'] },
  ods: { kind: 'spreadsheet', mime: 'application/vnd.oasis.opendocument.spreadsheet', exts: ['ods'] },
  odp: { kind: 'presentation', mime: 'application/vnd.oasis.opendocument.presentation', exts: ['odp'] },
  doc: { kind: 'document', mime: 'application/msword', exts: ['doc'] },
  xls: { kind: 'spreadsheet', mime: 'application/vnd.ms-excel', exts: ['xls'] },
  ppt: { kind: 'presentation', mime: 'application/vnd.ms-powerpoint', exts: ['ppt'] },
  csv: { kind: 'csv', mime: 'text/csv', exts: ['csv'] },
  zip: { kind: 'archive', mime: 'application/zip', exts: ['zip'] },
  mp4: { kind: 'video', mime: 'video/mp4', exts: ['mp4', 'm4v'], preview: true },
  webm: { kind: 'video', mime: 'video/webm', exts: ['webm'], preview: true },
  mov: { kind: 'video', mime: 'video/quicktime', exts: ['mov'] },
  mp3: { kind: 'audio', mime: 'audio/mpeg', exts: ['mp3'] },
  wav: { kind: 'audio', mime: 'audio/wav', exts: ['wav'] },
};

/** Every extension a name may have, for the file input's `accept`. */
export const ACCEPTED_EXTENSIONS: readonly string[] = [
  ...new Set(Object.values(ALLOWED_TYPES).flatMap((t) => t.exts)),
];
export const FILES_ACCEPT = ACCEPTED_EXTENSIONS.map((e) => `.${e}`).join(',');

/** The allowed type of an extension (what the browser can tell before uploading), or null. */
export function typeOfExtension(ext: string): AllowedType | null {
  const e = ext.toLowerCase();
  return Object.values(ALLOWED_TYPES).find((t) => t.exts.includes(e)) ?? null;
}

/** Whether a stored type is shown inline (images, PDF, MP4/WebM video). */
export function isPreviewable(mime: string): boolean {
  return Object.values(ALLOWED_TYPES).some((t) => t.mime === mime && t.preview === true);
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/i;

/**
 * A safe name to keep and to send in Content-Disposition: the last path segment only, Unicode
 * NFC, no control characters or characters that file systems refuse (`<>:"/\|?*`), single
 * spaces, no leading or trailing dots or spaces, at most `max` characters (the extension kept),
 * not a Windows device name. Empty after that: ''.
 */
export function sanitizeFileName(raw: string, max = FILE_NAME_MAX): string {
  const last = raw.split(/[\\/]/).pop() ?? '';
  let name = last
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  if (name.length > max) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
    name = `${name.slice(0, max - ext.length).replace(/[\s.]+$/, '')}${ext}`;
  }
  const stem = name.includes('.') ? name.slice(0, name.indexOf('.')) : name;
  if (WINDOWS_RESERVED.test(stem)) name = `_${name}`;
  return name;
}

export interface FileProblem {
  key: string;
  params?: Record<string, string>;
}

const megabytes = (bytes: number) => String(Math.round((bytes / 1048576) * 10) / 10);

/** What the browser can check before sending: empty, too large, an extension we do not take. */
export function precheckFile(name: string, bytes: number, max = FILE_MAX_BYTES): FileProblem | null {
  if (bytes === 0) return { key: 'files.upload.empty' };
  if (bytes > max) return { key: 'files.upload.too_large', params: { max: megabytes(max) } };
  const ext = fileExtension(name);
  if (!typeOfExtension(ext)) return { key: 'files.upload.extension', params: { ext: ext || '—' } };
  return null;
}

/** Whether bytes read as text: valid UTF-8 (a BOM allowed) without NUL bytes. */
export function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 64 * 1024);
  if (sample.includes(0)) return false;
  try {
    // A multi-byte character cut at the sample's end is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(
      sample.length < bytes.length ? sample.subarray(0, sample.length - 4) : sample,
    );
    return true;
  } catch {
    return false;
  }
}

export type CheckedFile = { ok: true; name: string; type: AllowedType } | ({ ok: false } & FileProblem);

/**
 * The server's check of one upload: `detected` is what the bytes are (file-type's answer, undefined
 * when it knows no magic number). Refused: an empty file, one over the limit, a type outside the
 * allow-list (a .png that is really an .exe), a name whose extension is not the bytes' type, a name
 * that sanitises to nothing.
 */
export function checkUpload(
  fileName: string,
  bytes: Uint8Array,
  detected: { ext: string; mime: string } | undefined,
  max = FILE_MAX_BYTES,
): CheckedFile {
  if (bytes.length === 0) return { ok: false, key: 'files.upload.empty' };
  if (bytes.length > max)
    return { ok: false, key: 'files.upload.too_large', params: { max: megabytes(max) } };
  const name = sanitizeFileName(fileName);
  const ext = fileExtension(name);
  if (!name || !ext) return { ok: false, key: 'files.upload.name_invalid' };
  let type: AllowedType | null;
  if (!detected) {
    type = ext === 'csv' && looksLikeText(bytes) ? ALLOWED_TYPES.csv! : null;
    if (!type) return { ok: false, key: 'files.upload.type_unknown', params: { ext } };
  } else if (detected.ext === 'cfb') {
    type = ['doc', 'xls', 'ppt'].includes(ext) ? ALLOWED_TYPES[ext]! : null;
    if (!type) return { ok: false, key: 'files.upload.type_refused', params: { ext, type: 'OLE' } };
  } else {
    type = ALLOWED_TYPES[detected.ext] ?? null;
    if (!type)
      return {
        ok: false,
        key: 'files.upload.type_refused',
        params: { ext, type: detected.ext.toUpperCase() },
      };
  }
  if (!type.exts.includes(ext))
    return {
      ok: false,
      key: 'files.upload.type_mismatch',
      params: { ext, type: type.exts[0]!.toUpperCase() },
    };
  return { ok: true, name, type };
}

/** A renamed file keeps an extension of its type (the bytes do not change with the name). */
export function renameProblem(name: string, mime: string): string | null {
  const type = Object.values(ALLOWED_TYPES).find((t) => t.mime === mime);
  if (!type) return null;
  return type.exts.includes(fileExtension(name)) ? null : 'files.rename.extension';
}

const fileNameSchema = z
  .string({ error: 'error.required' })
  .transform((v) => sanitizeFileName(v))
  .refine((v) => v.length > 0, 'error.required')
  .refine((v) => fileExtension(v) !== '', 'files.upload.name_invalid');

const folderIdSchema = z
  .number({ error: 'error.invalid_value' })
  .int('error.invalid_value')
  .positive('error.invalid_value')
  .max(2_147_483_647, 'error.invalid_value')
  .nullable();

/** What a rename or a move sends (with `version`): the name and the folder (null: no folder). */
export const resourceFileFieldsSchema = z.strictObject({
  name: fileNameSchema,
  folder_id: folderIdSchema,
});

/**
 * The files, on the resource layer (docs/decisions/012): the list (search by name, filter by
 * folder, type, size, owner and date; sort; page), its CSV/XLSX export, one row, its history and
 * the update (rename, move) with optimistic concurrency. Uploads and deletes are command routes
 * of the module (apps/api/src/modules/resources-manager/).
 */
export const resourceFiles = defineResource({
  name: 'resource_files',
  entity: 'resource_file',
  path: `${FILES_API}/files`,
  acl: FILES_RESOURCE,
  schema: resourceFileFieldsSchema,
  fields: {
    id: COMMON_FIELDS.id,
    name: { label: 'files.col.name', type: 'text', list: true, sort: true, filter: 'contains' },
    folder_id: { label: 'files.col.folder', type: 'ref', ref: 'resource_folders', list: true, filter: 'in' },
    kind: {
      label: 'files.col.kind',
      type: 'enum',
      options: FILE_KINDS,
      list: true,
      sort: true,
      filter: 'in',
      readOnly: true,
    },
    mime: { label: 'files.col.mime', type: 'text', readOnly: true },
    bytes: {
      label: 'files.col.bytes',
      type: 'number',
      list: true,
      sort: true,
      filter: 'range',
      readOnly: true,
    },
    owner_id: {
      label: 'files.col.owner',
      type: 'ref',
      ref: 'users',
      list: true,
      filter: 'in',
      readOnly: true,
    },
    version: COMMON_FIELDS.version,
    created_at: { ...COMMON_FIELDS.created_at, label: 'files.col.created_at', list: true },
    updated_at: { ...COMMON_FIELDS.updated_at, list: false },
  },
  titleField: 'name',
  defaultSort: '-created_at',
  exportName: 'resources_files',
  writes: ['update'],
});

export type FileKindValue = FileKind;

/** A file row as the list answers it. */
export interface ResourceFileRow {
  id: number;
  name: string;
  folder_id: number | null;
  folder_id_label: string | null;
  kind: FileKind;
  mime: string;
  bytes: number;
  owner_id: number | null;
  owner_id_label: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

const folderNameSchema = z
  .string({ error: 'error.required' })
  .transform((v) => sanitizeFileName(v, FOLDER_NAME_MAX))
  .refine((v) => v.length > 0, 'error.required');

/** Create a folder: its name and parent (null: at the top). */
export const folderCreateSchema = z.strictObject({
  name: folderNameSchema,
  parent_id: folderIdSchema.default(null),
});
/** Rename or move a folder, with its version. */
export const folderUpdateSchema = z.strictObject({
  name: folderNameSchema,
  parent_id: folderIdSchema,
  version: z.number().int().min(1).max(2_147_483_647),
});

export interface ResourceFolder {
  id: number;
  name: string;
  parent_id: number | null;
  version: number;
  /** Files directly inside. */
  files: number;
  created_at: string;
  updated_at: string;
}

const idList = z
  .array(z.number().int().positive().max(2_147_483_647), { error: 'files.bulk.none' })
  .min(1, 'files.bulk.none')
  .max(FILES_BULK_MAX, 'files.bulk.too_many');
export const filesBulkDeleteSchema = z.strictObject({ ids: idList });
export const filesBulkMoveSchema = z.strictObject({ ids: idList, folder_id: folderIdSchema });

/** The folder's path from the top (for the breadcrumb); [] for an unknown id. */
export function folderPath(
  folders: readonly Pick<ResourceFolder, 'id' | 'name' | 'parent_id'>[],
  id: number | null,
): Pick<ResourceFolder, 'id' | 'name' | 'parent_id'>[] {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const out: Pick<ResourceFolder, 'id' | 'name' | 'parent_id'>[] = [];
  let current = id === null ? undefined : byId.get(id);
  while (current && out.length <= folders.length) {
    out.unshift(current);
    current = current.parent_id === null ? undefined : byId.get(current.parent_id);
  }
  return out;
}

/** Whether `candidate` is `id` or lies inside it (a folder cannot move into itself). */
export function isInside(
  folders: readonly Pick<ResourceFolder, 'id' | 'parent_id'>[],
  candidate: number | null,
  id: number,
): boolean {
  return folderPath(folders as Pick<ResourceFolder, 'id' | 'name' | 'parent_id'>[], candidate).some(
    (f) => f.id === id,
  );
}

/** Bytes as B, KB, MB, GB (base 1024, one decimal above bytes). */
export function formatBytes(bytes: number, locale = 'en'): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text =
    unit === 0
      ? String(value)
      : value.toLocaleString(locale === 'es' ? 'es-ES' : 'en-GB', {
          maximumFractionDigits: 1,
          minimumFractionDigits: 1,
        });
  return `${text} ${units[unit]}`;
}
