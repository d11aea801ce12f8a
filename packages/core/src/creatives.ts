/**
 * Creatives (issue 26; screens `/utils/info_creative_sizes` and `/utils/creatives_resize_tool`,
 * docs/decisions/042-creatives.md): the IAB standard ad sizes with their weight limits and formats,
 * the ad units that use each size, and the resize tool's rules (what may be uploaded, the targets,
 * fit and focal point, the output), written once for the form and the API.
 *
 *   GET  /v1/creatives/sizes?search=&ad_format=&common=&sort=&page=&page_size=
 *   GET  /v1/creatives/sizes/export?…the same…&format=csv|xlsx
 *   GET  /v1/creatives/sizes/{size}?search=&page=&page_size=      the size and its ad units
 *   POST /v1/creatives/resize                                      multipart: file + options (JSON)
 *   GET  /v1/creatives/resize/{id}/{size}                          one result
 *   GET  /v1/creatives/resize/{id}.zip                             every result in a zip
 * ACL: `/v1/creatives` read to list, look and download; write to resize (it stores files, audited).
 */
import { z } from 'zod';
import { SIZES } from './reports.ts';

export const CREATIVES_RESOURCE = '/v1/creatives';

// ---------------------------------------------------------------------------------------------
// The IAB standard sizes

/** What a size is used for (labels `creatives.format.*`). */
export const CREATIVE_FORMATS = ['display', 'rich_media', 'video_companion', 'mobile'] as const;
export type CreativeFormat = (typeof CREATIVE_FORMATS)[number];

/**
 * Where a size's weight limits come from: `listed`, the IAB table names the size; `class`, the
 * size is an older IAB unit the 2017 table does not list, and it carries the figures of the class
 * of units it belongs to in that table (display 150 / 300 kB, smartphone banner 50 / 100 kB,
 * small button 50 / 100 kB, interstitial 300 / 600 kB).
 */
export type WeightBasis = 'listed' | 'class';

export interface IabSize {
  /** `WIDTHxHEIGHT`, also the size's id in URLs. */
  id: string;
  width: number;
  height: number;
  /** The IAB's English name; translated names are `creatives.size.<id>`. */
  name: string;
  /** Maximum initial-load weight in kB (1 kB = 1,000 bytes), and the host-initiated subload (null: none allowed). */
  initial_load_kb: number;
  subload_kb: number | null;
  weight_basis: WeightBasis;
  formats: readonly CreativeFormat[];
  /** Among the 15 sizes that carry most display spend (preselected in the resize tool). */
  common: boolean;
}

const D: CreativeFormat = 'display';
const R: CreativeFormat = 'rich_media';
const V: CreativeFormat = 'video_companion';
const M: CreativeFormat = 'mobile';

function size(
  width: number,
  height: number,
  name: string,
  initial: number,
  subload: number | null,
  basis: WeightBasis,
  formats: CreativeFormat[],
  common = false,
): IabSize {
  return {
    id: `${width}x${height}`,
    width,
    height,
    name,
    initial_load_kb: initial,
    subload_kb: subload,
    weight_basis: basis,
    formats,
    common,
  };
}

/**
 * The IAB standard sizes. Weight limits: IAB Tech Lab, "Fixed Size Ad Specifications", IAB New Ad
 * Portfolio (2017), https://www.iab.com/newadportfolio — table "Max. K-Weight (kB): Initial Load /
 * Subload": Billboard 970x250 250/500; Smartphone Banner 300x50 or 320x50 50/100; Leaderboard
 * 728x90 150/300; Super Leaderboard / Pushdown 970x90 200/400; Portrait 300x1050 250/500;
 * Skyscraper 160x600 150/300; Medium Rectangle 300x250 150/300; 120x60 50/100; Mobile Phone
 * Interstitial 640x1136, 750x1334 or 1080x1920 300/600; Feature Phone Small / Medium / Large Banner
 * 120x20, 168x28, 216x36 5/none. The other sizes are units of the IAB's earlier Standard Ad Unit
 * Portfolio (names from its Display Advertising Guidelines) that the 2017 table does not list: they
 * carry their class's figures (`weight_basis: 'class'`, see WeightBasis).
 */
export const IAB_SIZES: readonly IabSize[] = [
  size(300, 250, 'Medium Rectangle', 150, 300, 'listed', [D, R, V, M], true),
  size(728, 90, 'Leaderboard', 150, 300, 'listed', [D, R, V], true),
  size(320, 50, 'Smartphone Banner (Mobile Leaderboard)', 50, 100, 'listed', [D, M], true),
  size(160, 600, 'Wide Skyscraper', 150, 300, 'listed', [D, R], true),
  size(300, 600, 'Half Page', 150, 300, 'class', [D, R, V], true),
  size(970, 250, 'Billboard', 250, 500, 'listed', [D, R], true),
  size(970, 90, 'Super Leaderboard / Pushdown', 200, 400, 'listed', [D, R], true),
  size(300, 50, 'Smartphone Banner', 50, 100, 'listed', [D, M], true),
  size(320, 100, 'Large Mobile Banner', 50, 100, 'class', [D, M], true),
  size(468, 60, 'Full Banner', 150, 300, 'class', [D], true),
  size(336, 280, 'Large Rectangle', 150, 300, 'class', [D, R, V], true),
  size(300, 1050, 'Portrait', 250, 500, 'listed', [D, R], true),
  size(120, 600, 'Skyscraper', 150, 300, 'class', [D], true),
  size(250, 250, 'Square', 150, 300, 'class', [D, M], true),
  size(320, 480, 'Mobile Interstitial (portrait)', 300, 600, 'class', [M, R], true),
  size(234, 60, 'Half Banner', 150, 300, 'class', [D]),
  size(200, 200, 'Small Square', 150, 300, 'class', [D]),
  size(180, 150, 'Rectangle', 150, 300, 'class', [D]),
  size(120, 60, 'Button', 50, 100, 'listed', [D]),
  size(88, 31, 'Micro Bar', 50, 100, 'class', [D]),
  size(480, 320, 'Mobile Interstitial (landscape)', 300, 600, 'class', [M, R]),
  size(768, 1024, 'Tablet Interstitial (portrait)', 300, 600, 'class', [M, R]),
  size(1024, 768, 'Tablet Interstitial (landscape)', 300, 600, 'class', [M, R]),
  size(640, 1136, 'Mobile Phone Interstitial (640x1136)', 300, 600, 'listed', [M, R]),
  size(750, 1334, 'Mobile Phone Interstitial (750x1334)', 300, 600, 'listed', [M, R]),
  size(1080, 1920, 'Mobile Phone Interstitial (1080x1920)', 300, 600, 'listed', [M, R]),
  size(120, 20, 'Feature Phone Small Banner', 5, null, 'listed', [M]),
  size(168, 28, 'Feature Phone Medium Banner', 5, null, 'listed', [M]),
  size(216, 36, 'Feature Phone Large Banner', 5, null, 'listed', [M]),
];

const BY_ID = new Map(IAB_SIZES.map((s) => [s.id, s]));

/** The standard size of an id (`300x250`), if it is one. */
export function iabSize(id: string): IabSize | undefined {
  return BY_ID.get(id);
}

/** The 15 most common sizes, in the list's order. */
export const COMMON_SIZE_IDS: readonly string[] = IAB_SIZES.filter((s) => s.common).map((s) => s.id);

/** The i18n key of a size's name. */
export const sizeNameKey = (id: string) => `creatives.size.${id}`;

/**
 * The warehouse's size id of a size (`ad_units.size_id`: position + 1 in reports' SIZES), or null
 * when no ad unit can have it (the warehouse only knows the sizes it serves).
 */
export function warehouseSizeId(id: string): number | null {
  const i = (SIZES as readonly string[]).indexOf(id);
  return i < 0 ? null : i + 1;
}

/** A weight limit in bytes (kB as the IAB writes it: 1,000 bytes). */
export const kbToBytes = (kb: number) => kb * 1000;

/** Lowercase, without accents, for searching names in either language. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
}

/** `300x250`, `300 x 250`, `300×250`, `300*250` → the dimensions; null when the text is not a size. */
export function parseSizeText(text: string): { width: number; height: number } | null {
  const m = /^\s*(\d{1,5})\s*[x×*X]\s*(\d{1,5})\s*$/.exec(text);
  if (!m) return null;
  return { width: Number(m[1]), height: Number(m[2]) };
}

/**
 * Does a size match a search? A size text (`300x250`) matches that size only; a number matches
 * sizes with that width or height; other text matches the names given (both languages' names,
 * accent- and case-insensitive).
 */
export function sizeMatchesSearch(
  s: Pick<IabSize, 'id' | 'width' | 'height'>,
  search: string,
  names: readonly string[],
): boolean {
  const text = search.trim();
  if (text === '') return true;
  const dims = parseSizeText(text);
  if (dims) return s.width === dims.width && s.height === dims.height;
  if (/^\d+$/.test(text)) return s.width === Number(text) || s.height === Number(text);
  const folded = foldText(text);
  return names.some((n) => foldText(n).includes(folded)) || s.id.includes(folded);
}

// ---------------------------------------------------------------------------------------------
// The sizes list and a size's detail

export const CREATIVE_SIZE_SORTS = [
  'common',
  'area',
  'width',
  'height',
  'weight',
  'name',
  'ad_units',
] as const;
export type CreativeSizeSort = (typeof CREATIVE_SIZE_SORTS)[number];
/** Most common first, then the larger sizes. */
export const CREATIVE_SIZE_DEFAULT_SORT = '-common';
export const CREATIVE_SIZE_PAGE_SIZES = [25, 50, 100] as const;
export const CREATIVE_SIZE_PAGE_SIZE = 25;
export const AD_UNIT_PAGE_SIZE = 20;
/** Export file base name: `creative_sizes_YYYY-MM-DD_HHmmss.csv`. */
export const CREATIVE_SIZES_EXPORT_NAME = 'creative_sizes';

const page = z.coerce
  .number({ error: 'error.invalid_value' })
  .int('error.invalid_value')
  .min(1, 'error.invalid_value')
  .max(100_000, 'error.invalid_value')
  .default(1);
const pageSize = z.coerce
  .number({ error: 'error.invalid_value' })
  .int('error.invalid_value')
  .min(1, 'error.invalid_value')
  .max(100, 'error.invalid_value');
const blankless = <T extends z.ZodType>(s: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), s.optional());

const sizeListFields = z.strictObject({
  /** A name (either language), a size (`300x250`) or a width / height. */
  search: z.string().trim().max(100, 'error.too_long').default(''),
  ad_format: blankless(z.enum(CREATIVE_FORMATS, { error: 'error.invalid_value' })),
  /** `true`: only the 15 most common. */
  common: blankless(z.enum(['true', 'false'], { error: 'error.invalid_value' })),
  sort: z
    .string()
    .max(40)
    .default(CREATIVE_SIZE_DEFAULT_SORT)
    .refine(
      (v) => (CREATIVE_SIZE_SORTS as readonly string[]).includes(v.replace(/^-/, '')),
      'resource.sort_unknown',
    ),
});
export const creativeSizeListQuerySchema = sizeListFields.extend({
  page,
  page_size: pageSize.default(CREATIVE_SIZE_PAGE_SIZE),
});
export type CreativeSizeListQuery = z.output<typeof creativeSizeListQuerySchema>;
export const creativeSizeExportQuerySchema = sizeListFields.extend({
  format: z.enum(['csv', 'xlsx'], { error: 'error.invalid_value' }).default('csv'),
});
export type CreativeSizeExportQuery = z.output<typeof creativeSizeExportQuerySchema>;

/** `{ size }` path parameter: a size's id (one that is not standard is 404 creatives.size_not_found). */
export const creativeSizeParamsSchema = z.strictObject({ size: z.string().max(20, 'creatives.size_not_found') });
export const creativeSizeDetailQuerySchema = z.strictObject({
  /** Ad unit, site or publisher name. */
  search: z.string().trim().max(100, 'error.too_long').default(''),
  page,
  page_size: pageSize.default(AD_UNIT_PAGE_SIZE),
});
export type CreativeSizeDetailQuery = z.output<typeof creativeSizeDetailQuerySchema>;

export function parseCreativeSizeSort(sort: string): { field: CreativeSizeSort; desc: boolean } {
  const field = sort.replace(/^-/, '');
  return {
    field: (CREATIVE_SIZE_SORTS as readonly string[]).includes(field)
      ? (field as CreativeSizeSort)
      : 'common',
    desc: sort.startsWith('-'),
  };
}

/** A size as the list answers it: the standard's facts, its name in the request's language, how many ad units use it. */
export interface CreativeSizeRow extends IabSize {
  name_key: string;
  ad_units: number;
}

export interface CreativeSizesAnswer {
  items: CreativeSizeRow[];
  total: number;
  page: number;
  page_size: number;
}

/** An ad unit that uses a size: its publisher and site. */
export interface SizeAdUnit {
  id: number;
  name: string;
  /** banner | video | native | audio (the warehouse's FORMATS). */
  media_type: string;
  publisher: { id: number; name: string; side: string };
  site: { id: number; name: string };
}

export interface CreativeSizeDetail {
  size: CreativeSizeRow;
  /** False: the warehouse has no size id for it, so no ad unit can use it. */
  served: boolean;
  ad_units: { items: SizeAdUnit[]; total: number; page: number; page_size: number };
}

// ---------------------------------------------------------------------------------------------
// Uploads: what may be resized (checked by the file's bytes, never its name)

export const CREATIVE_INPUT_TYPES = ['jpeg', 'png', 'webp', 'gif'] as const;
export type CreativeInputType = (typeof CREATIVE_INPUT_TYPES)[number];
/** The file input's `accept` (a hint for the picker; the bytes decide). */
export const CREATIVE_UPLOAD_ACCEPT = '.jpg,.jpeg,.png,.webp,.gif,image/jpeg,image/png,image/webp,image/gif';
/** The largest upload (15 MiB). */
export const CREATIVE_UPLOAD_MAX_BYTES = 15 * 1024 * 1024;
/**
 * The most pixels an image may declare (25 megapixels: 6,000 x 4,166), and the longest side; a
 * decoded RGBA image of that size is 100 MB. Larger ones are refused before decoding (a small file
 * can declare billions of pixels: a decompression bomb).
 */
export const CREATIVE_MAX_INPUT_PIXELS = 25_000_000;
export const CREATIVE_MAX_INPUT_SIDE = 12_000;
/** How many bytes of the file's start the browser reads to check it (the header is there; JPEG's SOF after EXIF blocks too). */
export const CREATIVE_HEADER_BYTES = 512 * 1024;

const ascii = (b: Uint8Array, at: number, text: string) => {
  if (b.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (b[at + i] !== text.charCodeAt(i)) return false;
  return true;
};

/** The image type of a file by its magic numbers, or null when it is none we take. */
export function sniffImageType(b: Uint8Array): CreativeInputType | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    ascii(b, 1, 'PNG') &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  )
    return 'png';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return 'webp';
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return 'gif';
  return null;
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) =>
  ((b[i]! << 24) >>> 0) + ((b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!);

function jpegSize(b: Uint8Array): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      i += 2; // markers without a length
      continue;
    }
    const length = u16be(b, i + 2);
    // SOF0-SOF15, except DHT (C4), JPG (C8) and DAC (CC): the frame header with the dimensions.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: u16be(b, i + 5), width: u16be(b, i + 7) };
    if (length < 2) return null;
    i += 2 + length;
  }
  return null;
}

function webpSize(b: Uint8Array): { width: number; height: number } | null {
  if (ascii(b, 12, 'VP8X'))
    return b.length >= 30 ? { width: 1 + u24le(b, 24), height: 1 + u24le(b, 27) } : null;
  if (ascii(b, 12, 'VP8L')) {
    if (b.length < 25 || b[20] !== 0x2f) return null;
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (ascii(b, 12, 'VP8 ')) {
    if (b.length < 30 || b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  return null;
}

/**
 * The type and the dimensions an image declares in its header, read without decoding it (PNG IHDR,
 * GIF logical screen, JPEG frame header, WebP VP8 / VP8L / VP8X); null when the bytes are not an
 * image we take or its header cannot be read.
 */
export function readImageHeader(
  b: Uint8Array,
): { type: CreativeInputType; width: number; height: number } | null {
  const type = sniffImageType(b);
  let dims: { width: number; height: number } | null = null;
  if (type === 'png')
    dims = b.length >= 24 && ascii(b, 12, 'IHDR') ? { width: u32be(b, 16), height: u32be(b, 20) } : null;
  else if (type === 'gif') dims = b.length >= 10 ? { width: u16le(b, 6), height: u16le(b, 8) } : null;
  else if (type === 'jpeg') dims = jpegSize(b);
  else if (type === 'webp') dims = webpSize(b);
  if (!type || !dims || dims.width <= 0 || dims.height <= 0) return null;
  return { type, ...dims };
}

/** A refusal: its i18n key and the values its text names. */
export interface UploadProblem {
  key: string;
  params?: Record<string, string | number>;
}

/** Megabytes with one decimal, for messages. */
const mib = (bytes: number) => (Math.round((bytes / 1048576) * 10) / 10).toString();

/** Too large a file (checked first: the size is known before any byte is read). */
export function uploadSizeProblem(bytes: number): UploadProblem | null {
  if (bytes <= 0) return { key: 'creatives.upload.empty' };
  if (bytes > CREATIVE_UPLOAD_MAX_BYTES)
    return { key: 'creatives.upload.too_large', params: { max: mib(CREATIVE_UPLOAD_MAX_BYTES) } };
  return null;
}

/** Too many pixels declared (a decompression bomb, or just too big a picture). */
export function pixelProblem(width: number, height: number): UploadProblem | null {
  if (
    width > CREATIVE_MAX_INPUT_SIDE ||
    height > CREATIVE_MAX_INPUT_SIDE ||
    width * height > CREATIVE_MAX_INPUT_PIXELS
  )
    return {
      key: 'creatives.upload.too_many_pixels',
      params: {
        width,
        height,
        max: String(CREATIVE_MAX_INPUT_PIXELS / 1_000_000),
        side: CREATIVE_MAX_INPUT_SIDE,
      },
    };
  return null;
}

/**
 * What is wrong with an upload, from its size and its first bytes (the whole file on the server,
 * its first CREATIVE_HEADER_BYTES in the browser): empty or too large, not a JPEG / PNG / WebP / GIF
 * by its content, a header that cannot be read, or too many pixels declared. Null: it may go on
 * (the server decodes it with limits still).
 */
export function uploadProblem(bytes: number, head: Uint8Array): UploadProblem | null {
  const tooBig = uploadSizeProblem(bytes);
  if (tooBig) return tooBig;
  if (!sniffImageType(head)) return { key: 'creatives.upload.type' };
  const header = readImageHeader(head);
  if (!header) return { key: 'creatives.upload.unreadable' };
  return pixelProblem(header.width, header.height);
}

// ---------------------------------------------------------------------------------------------
// The resize request

export const CREATIVE_FITS = ['cover', 'contain'] as const;
export type CreativeFit = (typeof CREATIVE_FITS)[number];
export const CREATIVE_OUTPUT_FORMATS = ['jpeg', 'png', 'webp'] as const;
export type CreativeOutputFormat = (typeof CREATIVE_OUTPUT_FORMATS)[number];
export const OUTPUT_EXTENSION: Record<CreativeOutputFormat, string> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
};
export const OUTPUT_MIME: Record<CreativeOutputFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};
/** At most this many target sizes per resize. */
export const CREATIVE_MAX_TARGETS = 20;
/** A custom size's sides (standard sizes are within these too). */
export const CREATIVE_SIDE_MIN = 10;
export const CREATIVE_SIDE_MAX = 3000;
export const CREATIVE_QUALITY_MIN = 1;
export const CREATIVE_QUALITY_MAX = 100;
export const CREATIVE_QUALITY_DEFAULT = 80;
/** Results are kept this long, then deleted (the job creatives-resize-cleanup). */
export const CREATIVE_RESIZE_TTL_MINUTES = 60;
/** Resizes one person may start in RESIZE_RATE_WINDOW_SEC. */
export const RESIZE_RATE_MAX = 30;
export const RESIZE_RATE_WINDOW_SEC = 600;

/** The output format that keeps an input's kind: PNG and WebP stay, GIF becomes PNG, JPEG stays. */
export function defaultOutputFormat(input: CreativeInputType | null): CreativeOutputFormat {
  return input === 'png' || input === 'gif' ? 'png' : input === 'webp' ? 'webp' : 'jpeg';
}

/** A target size's text (`300x250`) checked: the format and the sides' limits. */
export function targetSizeProblem(text: string): string | null {
  const m = /^(\d{1,5})x(\d{1,5})$/.exec(text);
  if (!m) return 'creatives.resize.size_invalid';
  const w = Number(m[1]);
  const h = Number(m[2]);
  if (w < CREATIVE_SIDE_MIN || h < CREATIVE_SIDE_MIN || w > CREATIVE_SIDE_MAX || h > CREATIVE_SIDE_MAX)
    return 'creatives.resize.size_range';
  return null;
}

const unit = (key: string) =>
  z
    .number({ error: key })
    .min(0, key)
    .max(1, key)
    .refine((n) => Number.isFinite(n), key);

/** The options of a resize (the multipart field `options`, JSON); duplicate sizes are kept once. */
export const resizeOptionsSchema = z.strictObject({
  sizes: z.preprocess(
    (v) => v ?? [],
    z
      .array(
        z
          .string({ error: 'creatives.resize.size_invalid' })
          .max(11, 'creatives.resize.size_invalid')
          .superRefine((v, ctx) => {
            const problem = targetSizeProblem(v);
            if (problem) ctx.addIssue({ code: 'custom', message: problem });
          }),
        { error: 'creatives.resize.sizes_required' },
      )
      .min(1, 'creatives.resize.sizes_required')
      .max(CREATIVE_MAX_TARGETS, 'creatives.resize.too_many_sizes')
      .transform((list) => [...new Set(list)]),
  ),
  fit: z.enum(CREATIVE_FITS, { error: 'creatives.resize.fit_invalid' }).default('cover'),
  /** The point of the picture that cover keeps in view: 0 left / top … 1 right / bottom. */
  focal_x: unit('creatives.resize.focal_range').default(0.5),
  focal_y: unit('creatives.resize.focal_range').default(0.5),
  format: z.enum(CREATIVE_OUTPUT_FORMATS, { error: 'creatives.resize.format_invalid' }).default('jpeg'),
  /** JPEG and WebP quality (PNG is lossless). */
  quality: z
    .number({ error: 'creatives.resize.quality_range' })
    .int('creatives.resize.quality_range')
    .min(CREATIVE_QUALITY_MIN, 'creatives.resize.quality_range')
    .max(CREATIVE_QUALITY_MAX, 'creatives.resize.quality_range')
    .default(CREATIVE_QUALITY_DEFAULT),
  /** What contain fills around the picture, and what a transparent picture is laid on for JPEG. */
  background: z
    .string({ error: 'creatives.resize.background_invalid' })
    .regex(/^#[0-9a-fA-F]{6}$/, 'creatives.resize.background_invalid')
    .default('#ffffff'),
});
export type ResizeOptions = z.output<typeof resizeOptionsSchema>;
export type ResizeOptionsInput = z.input<typeof resizeOptionsSchema>;

/** `{ id, size }` of one result. */
export const resizeResultParamsSchema = z.strictObject({
  id: z.string().regex(/^[a-f0-9]{32}$/, 'creatives.resize.not_found'),
  size: z.string().regex(/^\d{1,5}x\d{1,5}$/, 'creatives.resize.not_found'),
});
/** `{ file }` of the zip: `<id>.zip`. */
export const resizeZipParamsSchema = z.strictObject({
  file: z.string().regex(/^[a-f0-9]{32}\.zip$/, 'creatives.resize.not_found'),
});

// ---------------------------------------------------------------------------------------------
// The geometry (pure, so the tests check it without pictures)

export interface Box {
  width: number;
  height: number;
}

/**
 * Cover: the picture scaled to fill the target, then the target's window cut around the focal
 * point (as near as the edges allow). Answers the scaled size and the window's top-left corner.
 */
export function coverCrop(
  src: Box,
  target: Box,
  focal: { x: number; y: number },
): { width: number; height: number; left: number; top: number } {
  const scale = Math.max(target.width / src.width, target.height / src.height);
  const width = Math.max(target.width, Math.round(src.width * scale));
  const height = Math.max(target.height, Math.round(src.height * scale));
  const clamp = (v: number, max: number) => Math.min(Math.max(v, 0), max);
  const left = clamp(Math.round(focal.x * width - target.width / 2), width - target.width);
  const top = clamp(Math.round(focal.y * height - target.height / 2), height - target.height);
  return { width, height, left, top };
}

/** Contain: the picture scaled to fit inside the target, centred; answers its size and offset. */
export function containBox(
  src: Box,
  target: Box,
): { width: number; height: number; left: number; top: number } {
  const scale = Math.min(target.width / src.width, target.height / src.height);
  const width = Math.min(target.width, Math.max(1, Math.round(src.width * scale)));
  const height = Math.min(target.height, Math.max(1, Math.round(src.height * scale)));
  return {
    width,
    height,
    left: Math.floor((target.width - width) / 2),
    top: Math.floor((target.height - height) / 2),
  };
}

/**
 * The one scale the picture is decoded to before every target is cut from it: the largest any
 * target needs, never above 1 (a 4000x3000 photo for 15 banners is shrunk once, not 15 times).
 */
export function workingScale(src: Box, targets: readonly Box[], fit: CreativeFit): number {
  let scale = 0;
  for (const t of targets) {
    const need =
      fit === 'cover'
        ? Math.max(t.width / src.width, t.height / src.height)
        : Math.min(t.width / src.width, t.height / src.height);
    scale = Math.max(scale, need);
  }
  return Math.min(1, scale);
}

/** The text of a size id's dimensions. */
export function boxOf(id: string): Box {
  const [w, h] = id.split('x').map(Number);
  return { width: w!, height: h! };
}

// ---------------------------------------------------------------------------------------------
// The answer

export interface ResizeOutput {
  /** `WIDTHxHEIGHT` (also its path: /v1/creatives/resize/{id}/{size}). */
  size: string;
  width: number;
  height: number;
  /** A standard IAB size. */
  standard: boolean;
  format: CreativeOutputFormat;
  bytes: number;
  /** The IAB initial-load limit of a standard size (kB), null for a custom one. */
  limit_kb: number | null;
  /** Heavier than that limit. */
  over_limit: boolean;
  /** A small preview (WebP data URL, at most 240 px a side). */
  preview: string;
  /** The download's file name (also its name in the zip). */
  file_name: string;
}

export interface ResizeResult {
  id: string;
  created_at: string;
  expires_at: string;
  /** The zip's file name. */
  zip_name: string;
  input: { file_name: string; type: CreativeInputType; width: number; height: number; bytes: number };
  options: ResizeOptions;
  outputs: ResizeOutput[];
}

/** A safe base for file names from an uploaded name: letters, digits, `-` and `_`, at most 60. */
export function fileBaseOf(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/\.[^.]*$/, '');
  const safe = foldText(base)
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return safe || 'creative';
}
