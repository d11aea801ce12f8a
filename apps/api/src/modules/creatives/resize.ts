/**
 * The image work of the resize tool, with sharp (libvips; docs/decisions/042-creatives.md):
 *
 * 1. inspect: the upload's size, its type by magic numbers and the dimensions its header declares
 *    (core's rules, the same the browser applies), then sharp's own reading of the header
 *    (`metadata()`, which decodes nothing) must agree on the type and respect the same pixel limit.
 *    A decompression bomb (a small file declaring billions of pixels) stops here, before decoding.
 * 2. render: the picture is decoded once (with `limitInputPixels` as a last guard), auto-oriented
 *    from EXIF and shrunk to the largest scale any target needs (JPEG shrink-on-load does most of
 *    it), kept raw; each target is cut from that working copy: cover scales to fill and cuts the
 *    target's window around the focal point (core coverCrop), contain scales to fit and pads with
 *    the background (core containBox). Metadata (EXIF, GPS) is not copied to the outputs.
 */
import {
  CREATIVE_MAX_INPUT_PIXELS,
  OUTPUT_EXTENSION,
  boxOf,
  containBox,
  coverCrop,
  iabSize,
  kbToBytes,
  pixelProblem,
  readImageHeader,
  uploadProblem,
  workingScale,
  type CreativeInputType,
  type ResizeOptions,
  type ResizeOutput,
} from '@backoffice/core/creatives';
import sharp from 'sharp';
import { AppError } from '../../lib/errors.ts';

// libvips' operation cache keeps recent results for reuse; every upload here is a new picture, so it
// would only hold memory (up to 50 MB by default) between requests.
sharp.cache(false);

/** The side of the previews the API answers (WebP data URLs). */
export const PREVIEW_SIDE = 240;

/** HTTP status of each upload refusal. */
const STATUS: Record<string, number> = {
  'creatives.upload.empty': 400,
  'creatives.upload.too_large': 413,
  'creatives.upload.type': 415,
  'creatives.upload.unreadable': 400,
  'creatives.upload.too_many_pixels': 413,
  'creatives.upload.decode_failed': 400,
};

export const uploadError = (key: string, params?: Record<string, string | number>) => new AppError(STATUS[key] ?? 400, key, { errors: { file: key }, params });

export interface InspectedUpload {
  type: CreativeInputType;
  /** As stored (before EXIF orientation). */
  width: number;
  height: number;
  /** As shown (after EXIF orientation). */
  oriented: { width: number; height: number };
}

const SHARP_FORMATS: Record<string, CreativeInputType> = { jpeg: 'jpeg', png: 'png', webp: 'webp', gif: 'gif' };

/** Checks an upload without decoding it (see the file's comment); throws the refusal. */
export async function inspectUpload(data: Buffer): Promise<InspectedUpload> {
  const problem = uploadProblem(data.length, data);
  if (problem) throw uploadError(problem.key, problem.params);
  const header = readImageHeader(data)!;
  let meta: sharp.Metadata;
  try {
    meta = await sharp(data, { limitInputPixels: CREATIVE_MAX_INPUT_PIXELS }).metadata();
  } catch {
    throw uploadError('creatives.upload.unreadable');
  }
  if (SHARP_FORMATS[meta.format] !== header.type) throw uploadError('creatives.upload.type');
  const tooMany = pixelProblem(meta.width, meta.height);
  if (tooMany) throw uploadError(tooMany.key, tooMany.params);
  const oriented = meta.autoOrient ?? { width: meta.width, height: meta.height };
  return { type: header.type, width: meta.width, height: meta.height, oriented: { width: oriented.width, height: oriented.height } };
}

export interface RenderedOutput extends Omit<ResizeOutput, 'preview' | 'file_name'> {
  data: Buffer;
  preview: string;
}

/** Runs `fn` over `items`, at most `limit` at a time, keeping the order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const rgbOf = (hex: string) => ({ r: parseInt(hex.slice(1, 3), 16), g: parseInt(hex.slice(3, 5), 16), b: parseInt(hex.slice(5, 7), 16) });

/** Every target of `options` from the upload; answers the files with their previews. */
export async function renderOutputs(data: Buffer, input: InspectedUpload, options: ResizeOptions): Promise<RenderedOutput[]> {
  const targets = options.sizes.map((id) => ({ id, ...boxOf(id) }));
  const scale = workingScale(input.oriented, targets, options.fit);
  const work = { width: Math.max(1, Math.round(input.oriented.width * scale)), height: Math.max(1, Math.round(input.oriented.height * scale)) };
  let raw: { data: Buffer; info: sharp.OutputInfo };
  try {
    raw = await sharp(data, { limitInputPixels: CREATIVE_MAX_INPUT_PIXELS, failOn: 'error' })
      .autoOrient()
      .resize(work.width, work.height, { fit: 'fill', kernel: 'lanczos3' })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    if (/pixel limit/i.test(String((err as Error).message))) {
      const p = pixelProblem(input.oriented.width, input.oriented.height) ?? { key: 'creatives.upload.too_many_pixels', params: {} };
      throw uploadError(p.key, p.params);
    }
    throw uploadError('creatives.upload.decode_failed');
  }
  const src = { width: raw.info.width, height: raw.info.height };
  const channels = raw.info.channels as 1 | 2 | 3 | 4;
  const background = { ...rgbOf(options.background), alpha: 1 };
  const focal = { x: options.focal_x, y: options.focal_y };

  return mapLimit(targets, 2, async (t) => {
    let img = sharp(raw.data, { raw: { width: src.width, height: src.height, channels } });
    if (options.fit === 'cover') {
      const c = coverCrop(src, t, focal);
      img = img.resize(c.width, c.height, { fit: 'fill', kernel: 'lanczos3' }).extract({ left: c.left, top: c.top, width: t.width, height: t.height });
    } else {
      const b = containBox(src, t);
      img = img
        .resize(b.width, b.height, { fit: 'fill', kernel: 'lanczos3' })
        .extend({ top: b.top, bottom: t.height - b.height - b.top, left: b.left, right: t.width - b.width - b.left, background });
    }
    let file: Buffer;
    if (options.format === 'jpeg') file = await img.flatten({ background }).jpeg({ quality: options.quality, progressive: true }).toBuffer();
    else if (options.format === 'webp') file = await img.webp({ quality: options.quality, effort: 4 }).toBuffer();
    else file = await img.png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer();
    const preview = await sharp(file).resize(PREVIEW_SIDE, PREVIEW_SIDE, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 70 }).toBuffer();
    const standard = iabSize(t.id);
    const limit = standard?.initial_load_kb ?? null;
    return {
      size: t.id,
      width: t.width,
      height: t.height,
      standard: standard !== undefined,
      format: options.format,
      bytes: file.length,
      limit_kb: limit,
      over_limit: limit !== null && file.length > kbToBytes(limit),
      data: file,
      preview: `data:image/webp;base64,${preview.toString('base64')}`,
    };
  });
}

/** A result's file name: `<base>_<size>.<ext>`. */
export const outputFileName = (base: string, size: string, format: ResizeOptions['format']) => `${base}_${size}.${OUTPUT_EXTENSION[format]}`;
