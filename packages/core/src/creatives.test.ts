import { describe, expect, it } from 'vitest';
import {
  COMMON_SIZE_IDS,
  CREATIVE_MAX_TARGETS,
  CREATIVE_UPLOAD_MAX_BYTES,
  IAB_SIZES,
  containBox,
  coverCrop,
  creativeSizeListQuerySchema,
  creativeSizeParamsSchema,
  defaultOutputFormat,
  fileBaseOf,
  iabSize,
  readImageHeader,
  resizeOptionsSchema,
  sizeMatchesSearch,
  sniffImageType,
  uploadProblem,
  warehouseSizeId,
  workingScale,
} from './creatives.ts';
import { en, es } from './i18n/catalogues.ts';
import { SIZES } from './reports.ts';

const bytes = (...parts: (number[] | string)[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));
const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const le16 = (n: number) => [n & 255, (n >>> 8) & 255];
const be16 = (n: number) => [(n >>> 8) & 255, n & 255];

/** The first bytes of each kind of image, declaring width x height. */
const png = (w: number, h: number) => bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a], be32(13), 'IHDR', be32(w), be32(h), [8, 6, 0, 0, 0]);
const gif = (w: number, h: number) => bytes('GIF89a', le16(w), le16(h), [0, 0, 0]);
/** SOI, an APP0 segment (JFIF, 16 bytes), then SOF2 (progressive) with the size. */
const jpeg = (w: number, h: number) => bytes([0xff, 0xd8, 0xff, 0xe0], be16(16), 'JFIF', [0, 1, 1, 0, 0, 1, 0, 1, 0, 0], [0xff, 0xc2], be16(17), [8], be16(h), be16(w), [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
const webpX = (w: number, h: number) => bytes('RIFF', [0, 0, 0, 0], 'WEBP', 'VP8X', [10, 0, 0, 0], [0, 0, 0, 0], [(w - 1) & 255, ((w - 1) >> 8) & 255, ((w - 1) >> 16) & 255], [(h - 1) & 255, ((h - 1) >> 8) & 255, ((h - 1) >> 16) & 255]);
const webpLossy = (w: number, h: number) => bytes('RIFF', [0, 0, 0, 0], 'WEBP', 'VP8 ', [0, 0, 0, 0], [0, 0, 0], [0x9d, 0x01, 0x2a], le16(w), le16(h));
const webpLossless = (w: number, h: number) => {
  const bits = ((w - 1) & 0x3fff) | (((h - 1) & 0x3fff) << 14);
  return bytes('RIFF', [0, 0, 0, 0], 'WEBP', 'VP8L', [0, 0, 0, 0], [0x2f], [bits & 255, (bits >>> 8) & 255, (bits >>> 16) & 255, (bits >>> 24) & 255]);
};

describe('IAB sizes', () => {
  it('lists each size once with its IAB 2017 limits, 15 of them marked most common, each named in both languages', () => {
    expect(new Set(IAB_SIZES.map((s) => s.id)).size).toBe(IAB_SIZES.length);
    expect(COMMON_SIZE_IDS).toHaveLength(15);
    expect(iabSize('300x250')).toMatchObject({ name: 'Medium Rectangle', initial_load_kb: 150, subload_kb: 300, weight_basis: 'listed', common: true });
    expect(iabSize('970x250')).toMatchObject({ initial_load_kb: 250, subload_kb: 500 });
    expect(iabSize('320x50')).toMatchObject({ initial_load_kb: 50, subload_kb: 100 });
    expect(iabSize('970x90')).toMatchObject({ initial_load_kb: 200, subload_kb: 400 });
    expect(iabSize('120x20')).toMatchObject({ initial_load_kb: 5, subload_kb: null });
    expect(iabSize('300x600')?.weight_basis).toBe('class');
    for (const s of IAB_SIZES) {
      expect(s.id).toBe(`${s.width}x${s.height}`);
      expect(en[`creatives.size.${s.id}` as keyof typeof en], s.id).toBeTruthy();
      expect(es[`creatives.size.${s.id}` as keyof typeof es], s.id).toBeTruthy();
    }
  });

  it('maps a size to the warehouse size id the ad units carry, or none', () => {
    expect(warehouseSizeId('300x250')).toBe(SIZES.indexOf('300x250') + 1);
    expect(warehouseSizeId('88x31')).toBeNull();
  });

  it('searches by size text, by a side, or by name in either language without accents', () => {
    const mr = iabSize('300x250')!;
    const names = ['Medium Rectangle', 'Rectángulo mediano'];
    expect(sizeMatchesSearch(mr, '300x250', names)).toBe(true);
    expect(sizeMatchesSearch(mr, '300 × 250', names)).toBe(true);
    expect(sizeMatchesSearch(mr, '300x600', names)).toBe(false);
    expect(sizeMatchesSearch(mr, '250', names)).toBe(true);
    expect(sizeMatchesSearch(mr, '90', names)).toBe(false);
    expect(sizeMatchesSearch(mr, 'rectangulo', names)).toBe(true);
    expect(sizeMatchesSearch(mr, 'MEDIUM rect', names)).toBe(true);
    expect(sizeMatchesSearch(mr, 'leaderboard', names)).toBe(false);
  });

  it('validates the list query and the size path', () => {
    expect(creativeSizeListQuerySchema.parse({})).toMatchObject({ search: '', sort: '-common', page: 1, page_size: 25 });
    expect(creativeSizeListQuerySchema.safeParse({ sort: 'colour' }).success).toBe(false);
    expect(creativeSizeListQuerySchema.safeParse({ ad_format: 'print' }).success).toBe(false);
    expect(creativeSizeListQuerySchema.parse({ ad_format: '', common: '' })).toMatchObject({ ad_format: undefined, common: undefined });
    expect(creativeSizeParamsSchema.safeParse({ size: '300x250' }).success).toBe(true);
    expect(creativeSizeParamsSchema.safeParse({ size: 'x'.repeat(21) }).error?.issues[0]?.message).toBe('creatives.size_not_found');
  });
});

describe('uploads are judged by their bytes', () => {
  it('recognises JPEG, PNG, WebP and GIF by magic numbers and refuses the rest', () => {
    expect(sniffImageType(png(1, 1))).toBe('png');
    expect(sniffImageType(jpeg(1, 1))).toBe('jpeg');
    expect(sniffImageType(gif(1, 1))).toBe('gif');
    expect(sniffImageType(webpX(1, 1))).toBe('webp');
    expect(sniffImageType(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageType(bytes('%PDF-1.7'))).toBeNull();
    expect(sniffImageType(bytes('hello, this is text'))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });

  it('reads the dimensions each header declares, without decoding', () => {
    expect(readImageHeader(png(50_000, 50_000))).toEqual({ type: 'png', width: 50_000, height: 50_000 });
    expect(readImageHeader(gif(970, 250))).toEqual({ type: 'gif', width: 970, height: 250 });
    expect(readImageHeader(jpeg(4000, 3000))).toEqual({ type: 'jpeg', width: 4000, height: 3000 });
    expect(readImageHeader(webpX(16_383, 9000))).toEqual({ type: 'webp', width: 16_383, height: 9000 });
    expect(readImageHeader(webpLossy(728, 90))).toEqual({ type: 'webp', width: 728, height: 90 });
    expect(readImageHeader(webpLossless(300, 600))).toEqual({ type: 'webp', width: 300, height: 600 });
    // A JPEG cut before its frame header, a PNG without IHDR: no dimensions.
    expect(readImageHeader(jpeg(10, 10).slice(0, 14))).toBeNull();
    expect(readImageHeader(png(10, 10).slice(0, 12))).toBeNull();
  });

  it('refuses an empty or too large file, a wrong type, an unreadable header and too many pixels, with their keys', () => {
    expect(uploadProblem(0, png(10, 10))?.key).toBe('creatives.upload.empty');
    expect(uploadProblem(CREATIVE_UPLOAD_MAX_BYTES + 1, png(10, 10))).toEqual({ key: 'creatives.upload.too_large', params: { max: '15' } });
    expect(uploadProblem(CREATIVE_UPLOAD_MAX_BYTES, png(10, 10))).toBeNull();
    expect(uploadProblem(100, bytes('not an image at all'))?.key).toBe('creatives.upload.type');
    expect(uploadProblem(100, jpeg(10, 10).slice(0, 14))?.key).toBe('creatives.upload.unreadable');
    expect(uploadProblem(100, png(50_000, 50_000))).toEqual({ key: 'creatives.upload.too_many_pixels', params: { width: 50_000, height: 50_000, max: '25', side: 12_000 } });
    expect(uploadProblem(100, png(13_000, 100))?.key).toBe('creatives.upload.too_many_pixels');
    expect(uploadProblem(100, jpeg(6000, 4166))).toBeNull();
    expect(uploadProblem(100, jpeg(6000, 4167))?.key).toBe('creatives.upload.too_many_pixels');
  });
});

describe('resize options', () => {
  const errorsOf = (input: unknown) => {
    const r = resizeOptionsSchema.safeParse(input);
    return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
  };

  it('takes standard and custom sizes with defaults, once each', () => {
    const v = resizeOptionsSchema.parse({ sizes: ['300x250', '728x90', '300x250', '1200x628'] });
    expect(v).toEqual({ sizes: ['300x250', '728x90', '1200x628'], fit: 'cover', focal_x: 0.5, focal_y: 0.5, format: 'jpeg', quality: 80, background: '#ffffff' });
  });

  it('refuses each bad field with its key, all at once', () => {
    expect(errorsOf({ sizes: [] })).toEqual({ sizes: 'creatives.resize.sizes_required' });
    expect(errorsOf({})).toEqual({ sizes: 'creatives.resize.sizes_required' });
    expect(errorsOf({ sizes: Array.from({ length: CREATIVE_MAX_TARGETS + 1 }, (_, i) => `${100 + i}x100`) })).toEqual({ sizes: 'creatives.resize.too_many_sizes' });
    expect(errorsOf({ sizes: ['300x250', '300 by 250'] })).toEqual({ 'sizes.1': 'creatives.resize.size_invalid' });
    expect(errorsOf({ sizes: ['5x5'] })).toEqual({ 'sizes.0': 'creatives.resize.size_range' });
    expect(errorsOf({ sizes: ['3001x100'] })).toEqual({ 'sizes.0': 'creatives.resize.size_range' });
    expect(
      errorsOf({ sizes: ['300x250'], fit: 'stretch', focal_x: 1.2, focal_y: -0.1, format: 'bmp', quality: 0, background: 'white' }),
    ).toEqual({
      fit: 'creatives.resize.fit_invalid',
      focal_x: 'creatives.resize.focal_range',
      focal_y: 'creatives.resize.focal_range',
      format: 'creatives.resize.format_invalid',
      quality: 'creatives.resize.quality_range',
      background: 'creatives.resize.background_invalid',
    });
    expect(errorsOf({ sizes: ['300x250'], extra: 1 })).not.toEqual({});
  });

  it('keeps the input kind as the default output', () => {
    expect(defaultOutputFormat('png')).toBe('png');
    expect(defaultOutputFormat('gif')).toBe('png');
    expect(defaultOutputFormat('webp')).toBe('webp');
    expect(defaultOutputFormat('jpeg')).toBe('jpeg');
    expect(defaultOutputFormat(null)).toBe('jpeg');
  });
});

describe('geometry', () => {
  const photo = { width: 4000, height: 3000 };
  it('cover fills the target and keeps the focal point in the window, clamped at the edges', () => {
    // 728x90 from 4:3: scaled to 728x546; the window is 90 high.
    expect(coverCrop(photo, { width: 728, height: 90 }, { x: 0.5, y: 0.5 })).toEqual({ width: 728, height: 546, left: 0, top: 228 });
    expect(coverCrop(photo, { width: 728, height: 90 }, { x: 0.5, y: 0 })).toMatchObject({ top: 0 });
    expect(coverCrop(photo, { width: 728, height: 90 }, { x: 0.5, y: 1 })).toMatchObject({ top: 546 - 90 });
    expect(coverCrop(photo, { width: 728, height: 90 }, { x: 0.5, y: 0.25 })).toMatchObject({ top: 92 });
    // 160x600 (tall): scaled to 800x600; a focal point on the left keeps the left.
    expect(coverCrop(photo, { width: 160, height: 600 }, { x: 0, y: 0.5 })).toEqual({ width: 800, height: 600, left: 0, top: 0 });
    expect(coverCrop(photo, { width: 160, height: 600 }, { x: 1, y: 0.5 })).toMatchObject({ left: 640 });
  });

  it('contain fits inside the target, centred', () => {
    expect(containBox(photo, { width: 728, height: 90 })).toEqual({ width: 120, height: 90, left: 304, top: 0 });
    expect(containBox(photo, { width: 300, height: 250 })).toEqual({ width: 300, height: 225, left: 0, top: 12 });
  });

  it('decodes once at the largest scale any target needs, never upscaling the working copy', () => {
    expect(workingScale(photo, [{ width: 300, height: 250 }, { width: 300, height: 1050 }], 'cover')).toBeCloseTo(0.35);
    expect(workingScale(photo, [{ width: 300, height: 250 }], 'contain')).toBeCloseTo(0.075);
    expect(workingScale({ width: 200, height: 100 }, [{ width: 970, height: 250 }], 'cover')).toBe(1);
  });

  it('makes safe file names from uploaded ones', () => {
    expect(fileBaseOf('Campaña Verano 2026.JPG')).toBe('campana-verano-2026');
    expect(fileBaseOf('../../etc/passwd')).toBe('passwd');
    expect(fileBaseOf('.jpg')).toBe('creative');
  });
});
