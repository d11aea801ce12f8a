/**
 * Creatives (`/v1/creatives`) through the HTTP API: the IAB sizes (search by name in either
 * language or by size, the format and most-common filters, sort, pages, the export) and one size
 * with the ad units that use it; the ACL (no permission: 403; read only: no resize); the resize tool
 * with a JPEG made here with sharp: three sizes at their exact dimensions for cover and contain, the
 * focal point deciding what cover keeps (a pixel's colour), one result and the zip (its entries
 * decoded), the audit entry, someone else's result, expiry and the cleanup job; the upload checks:
 * the type read from the bytes (a PNG named .txt is a PNG; text named .jpg is refused), too large,
 * a decompression bomb (a 200-byte PNG declaring 50,000 x 50,000 pixels), a damaged image, bad
 * options, no multipart, two files. The core header reader agrees with sharp on real files.
 */
import type { CreativeSizeDetail, CreativeSizesAnswer, ResizeResult } from '@backoffice/core/creatives';
import { CREATIVE_UPLOAD_MAX_BYTES, IAB_SIZES, readImageHeader, warehouseSizeId } from '@backoffice/core/creatives';
import JSZip from 'jszip';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireResults } from '../src/modules/creatives/service.ts';
import { query } from '../src/reports-data/sql.ts';
import { userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

const BASE = '/v1/creatives';
const T0 = Date.UTC(2026, 4, 4, 9, 0, 0);

/** A multipart body as a browser sends it (undici's FormData encoder). */
async function multipart(parts: { file?: { data: Buffer; name: string; type: string }[]; options?: unknown; raw?: Record<string, string> }) {
  const form = new FormData();
  for (const f of parts.file ?? []) form.append('file', new Blob([f.data], { type: f.type }), f.name);
  if (parts.options !== undefined) form.append('options', typeof parts.options === 'string' ? parts.options : JSON.stringify(parts.options));
  for (const [k, v] of Object.entries(parts.raw ?? {})) form.append(k, v);
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await req.arrayBuffer()), contentType: req.headers.get('content-type')! };
}

/** 1200x600: the left half red, the right half blue. */
const halves = () =>
  sharp({ create: { width: 1200, height: 600, channels: 3, background: '#ff0000' } })
    .composite([{ input: { create: { width: 600, height: 600, channels: 3, background: '#0000ff' } }, left: 600, top: 0 }])
    .jpeg({ quality: 92 })
    .toBuffer();

async function pixel(image: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}
const isRed = ([r, g, b]: number[]) => r! > 200 && g! < 60 && b! < 60;
const isBlue = ([r, g, b]: number[]) => b! > 200 && r! < 60 && g! < 60;
const isWhite = ([r, g, b]: number[]) => r! > 240 && g! > 240 && b! > 240;

/** CRC-32 of PNG chunks (zlib's polynomial). */
function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'ascii'), data])));
  return Buffer.concat([len, Buffer.from(type, 'ascii'), data, crc]);
}
/** A PNG header declaring width x height (8-bit RGB) and a small IDAT: a decompression bomb's shape. */
function declaredPng(width: number, height: number, idat = deflateSync(Buffer.alloc(1024))): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', idat), pngChunk('IEND', Buffer.alloc(0))]);
}

describe('creatives', () => {
  let t: TestApp;
  let storageDir: string;
  let marketing: Record<string, string>;
  let marketingId: number;
  let reader: Record<string, string>;
  let none: Record<string, string>;
  let clock = T0;
  const db = () => t.app.ctx.database;

  beforeAll(async () => {
    storageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-creatives-'));
    t = await createTestApp({ storageDir });
    t.app.ctx.now = () => clock;
    const m = await signIn(t.app, 'marketing@adtech.example');
    marketing = m.headers;
    marketingId = m.session.id;
    reader = (await userWithAcl(t.app, 'creatives.reader@adtech.example', { '/v1/creatives': ['read'] })).headers;
    none = (await userWithAcl(t.app, 'creatives.none@adtech.example', { '/v1/signatures': ['read'] })).headers;
  });
  afterAll(async () => {
    await t?.close();
    if (storageDir) fs.rmSync(storageDir, { recursive: true, force: true });
  });

  const get = async <T>(url: string, headers = marketing, lang = 'en') => {
    const res = await t.app.inject({ method: 'GET', url, headers: { ...headers, 'accept-language': lang } });
    expect(res.statusCode, res.body).toBe(200);
    return body<T>(res).data;
  };
  const post = async (parts: Parameters<typeof multipart>[0], headers = marketing) => {
    const { payload, contentType } = await multipart(parts);
    return t.app.inject({ method: 'POST', url: `${BASE}/resize`, headers: { ...headers, 'content-type': contentType }, payload });
  };
  const resizeOk = async (data: Buffer, options: unknown, name = 'summer-sale.jpg', type = 'image/jpeg') => {
    const res = await post({ file: [{ data, name, type }], options });
    expect(res.statusCode, res.body).toBe(200);
    return body<ResizeResult>(res).data;
  };
  const download = (url: string, headers = marketing) => t.app.inject({ method: 'GET', url, headers });

  describe('sizes', () => {
    it('lists the IAB sizes, most common first, searched by size, side or name in either language, filtered and paged', async () => {
      const all = await get<CreativeSizesAnswer>(`${BASE}/sizes?page_size=100`);
      expect(all.total).toBe(IAB_SIZES.length);
      expect(all.items.slice(0, 15).every((s) => s.common)).toBe(true);
      expect(all.items[15]!.common).toBe(false);
      // Most common, then the larger first.
      expect(all.items[0]!.id).toBe('300x1050');
      expect(all.items.find((s) => s.id === '300x250')).toMatchObject({ name: 'Medium Rectangle', initial_load_kb: 150, subload_kb: 300, formats: ['display', 'rich_media', 'video_companion', 'mobile'] });

      expect((await get<CreativeSizesAnswer>(`${BASE}/sizes?search=300x250`)).items.map((s) => s.id)).toEqual(['300x250']);
      expect((await get<CreativeSizesAnswer>(`${BASE}/sizes?search=${encodeURIComponent('728 × 90')}`)).items.map((s) => s.id)).toEqual(['728x90']);
      expect((await get<CreativeSizesAnswer>(`${BASE}/sizes?search=250&sort=width`)).items.map((s) => s.id)).toEqual(['250x250', '300x250', '970x250']);
      // A Spanish name found from an English session, answered with English names; and the reverse.
      const es = await get<CreativeSizesAnswer>(`${BASE}/sizes?search=rectangulo&sort=width`);
      expect(es.items.map((s) => s.id)).toEqual(['180x150', '300x250', '336x280']);
      expect(es.items[1]!.name).toBe('Medium Rectangle');
      const inSpanish = await get<CreativeSizesAnswer>(`${BASE}/sizes?search=leaderboard&sort=width`, marketing, 'es');
      expect(inSpanish.items.map((s) => s.id)).toEqual(['320x50', '728x90', '970x90']);
      expect(inSpanish.items[0]!.name).toBe('Banner de smartphone (Mobile Leaderboard)');

      const companions = await get<CreativeSizesAnswer>(`${BASE}/sizes?ad_format=video_companion&page_size=100`);
      expect(companions.items.map((s) => s.id).sort()).toEqual(['300x250', '300x600', '336x280', '728x90']);
      expect((await get<CreativeSizesAnswer>(`${BASE}/sizes?common=true&page_size=100`)).total).toBe(15);
      const page3 = await get<CreativeSizesAnswer>(`${BASE}/sizes?page_size=10&page=3`);
      expect(page3.items.map((s) => s.id)).toEqual(all.items.slice(20, 30).map((s) => s.id));
      const byWeight = await get<CreativeSizesAnswer>(`${BASE}/sizes?sort=-weight&page_size=3`);
      expect(byWeight.items.map((s) => s.initial_load_kb)).toEqual([300, 300, 300]);

      for (const bad of ['sort=colour', 'ad_format=print', 'page=0', 'page_size=101', 'common=maybe']) {
        const res = await t.app.inject({ method: 'GET', url: `${BASE}/sizes?${bad}`, headers: marketing });
        expect(res.statusCode, bad).toBe(400);
      }
    });

    it('shows a size with the ad units that use it: publisher, site, ad unit; searched and paged', async () => {
      const before = (await get<CreativeSizesAnswer>(`${BASE}/sizes?search=300x250`)).items[0]!.ad_units;
      const [pub] = await query<{ id: number }>(db(), `INSERT INTO publishers (name, side, seller_id, seller_domain) VALUES ('Gaceta Austral Medios', 'ssp', 'pub-8801', 'gacetaaustral.example') RETURNING id`);
      const [site] = await query<{ id: number }>(db(), `INSERT INTO sites (publisher_id, name, environment_id) VALUES ($1, 'www.gacetaaustral.example', 1) RETURNING id`, [pub!.id]);
      const mr = warehouseSizeId('300x250')!;
      const bb = warehouseSizeId('970x250')!;
      await query(
        db(),
        `INSERT INTO ad_units (site_id, name, format_id, size_id) VALUES ($1, 'ga_home_mpu', 1, $2), ($1, 'ga_article_mpu', 1, $2), ($1, 'ga_sidebar_mpu_video', 2, $2), ($1, 'ga_home_billboard', 1, $3)`,
        [site!.id, mr, bb],
      );
      const after = await get<CreativeSizesAnswer>(`${BASE}/sizes?search=300x250`);
      expect(after.items[0]!.ad_units).toBe(before + 3);

      const d = await get<CreativeSizeDetail>(`${BASE}/sizes/300x250?search=gacetaaustral`);
      expect(d.size).toMatchObject({ id: '300x250', name: 'Medium Rectangle', ad_units: before + 3 });
      expect(d.served).toBe(true);
      expect(d.ad_units.total).toBe(3);
      expect(d.ad_units.items.map((u) => u.name)).toEqual(['ga_article_mpu', 'ga_home_mpu', 'ga_sidebar_mpu_video']);
      expect(d.ad_units.items[2]).toMatchObject({ media_type: 'video', publisher: { id: pub!.id, name: 'Gaceta Austral Medios', side: 'ssp' }, site: { id: site!.id, name: 'www.gacetaaustral.example' } });
      const paged = await get<CreativeSizeDetail>(`${BASE}/sizes/300x250?search=Gaceta%20Austral&page_size=2&page=2`);
      expect(paged.ad_units.items.map((u) => u.name)).toEqual(['ga_sidebar_mpu_video']);
      // LIKE wildcards are searched as text.
      expect((await get<CreativeSizeDetail>(`${BASE}/sizes/300x250?search=%25`)).ad_units.total).toBe(0);
      expect((await get<CreativeSizeDetail>(`${BASE}/sizes/970x250?search=ga_home`)).ad_units.items.map((u) => u.name)).toEqual(['ga_home_billboard']);

      const micro = await get<CreativeSizeDetail>(`${BASE}/sizes/88x31`);
      expect(micro).toMatchObject({ served: false, ad_units: { total: 0, items: [] } });
      const unknown = await t.app.inject({ method: 'GET', url: `${BASE}/sizes/301x250`, headers: marketing });
      expect(unknown.statusCode).toBe(404);
      expect(body(unknown).message).toBe('creatives.size_not_found');
    });

    it('exports what is filtered as CSV with translated titles', async () => {
      const res = await t.app.inject({ method: 'GET', url: `${BASE}/sizes/export?format=csv&ad_format=mobile&common=true&sort=width`, headers: { ...marketing, 'accept-language': 'es' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/creative_sizes_\d{4}-\d{2}-\d{2}_\d{6}\.csv/);
      const lines = res.body.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
      expect(lines[0]).toContain('Tamaño');
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['250x250', '300x50', '300x250', '320x50', '320x100', '320x480']);
    });
  });

  describe('ACL', () => {
    it('refuses every operation without the permission, and the resize without write', async () => {
      for (const url of [`${BASE}/sizes`, `${BASE}/sizes/300x250`, `${BASE}/sizes/export`, `${BASE}/resize/${'a'.repeat(32)}.zip`, `${BASE}/resize/${'a'.repeat(32)}/300x250`]) {
        const res = await t.app.inject({ method: 'GET', url, headers: none });
        expect(res.statusCode, url).toBe(403);
      }
      const image = await halves();
      for (const headers of [none, reader]) {
        const res = await post({ file: [{ data: image, name: 'a.jpg', type: 'image/jpeg' }], options: { sizes: ['300x250'] } }, headers);
        expect(res.statusCode).toBe(403);
        expect(body(res).message).toBe('auth.forbidden');
      }
      expect((await get<CreativeSizesAnswer>(`${BASE}/sizes`, reader)).total).toBe(IAB_SIZES.length);
      const anonymous = await t.app.inject({ method: 'GET', url: `${BASE}/sizes` });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('resize', () => {
    it('resizes a JPEG to three sizes at their exact dimensions, cover and contain, with previews and IAB limits', async () => {
      const image = await halves();
      const sizes = ['300x250', '728x90', '160x600'];
      for (const fit of ['cover', 'contain'] as const) {
        const r = await resizeOk(image, { sizes, fit, format: 'jpeg', quality: 85 });
        expect(r.input).toEqual({ file_name: 'summer-sale.jpg', type: 'jpeg', width: 1200, height: 600, bytes: image.length });
        expect(r.options).toMatchObject({ sizes, fit, focal_x: 0.5, focal_y: 0.5, format: 'jpeg', quality: 85 });
        expect(r.outputs.map((o) => [o.size, o.width, o.height, o.file_name])).toEqual([
          ['300x250', 300, 250, 'summer-sale_300x250.jpg'],
          ['728x90', 728, 90, 'summer-sale_728x90.jpg'],
          ['160x600', 160, 600, 'summer-sale_160x600.jpg'],
        ]);
        expect(r.zip_name).toBe('summer-sale_sizes.zip');
        expect(Date.parse(r.expires_at) - Date.parse(r.created_at)).toBe(60 * 60_000);
        for (const o of r.outputs) {
          expect(o).toMatchObject({ standard: true, format: 'jpeg', over_limit: false });
          expect(o.limit_kb).toBe(150);
          const file = await download(`${BASE}/resize/${r.id}/${o.size}`);
          expect(file.statusCode).toBe(200);
          expect(file.headers['content-type']).toBe('image/jpeg');
          expect(file.headers['content-disposition']).toBe(`attachment; filename="${o.file_name}"`);
          expect(file.rawPayload.length).toBe(o.bytes);
          const meta = await sharp(file.rawPayload).metadata();
          expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', o.width, o.height]);
          // The preview is a small WebP of the same shape.
          const preview = Buffer.from(o.preview.replace(/^data:image\/webp;base64,/, ''), 'base64');
          const pm = await sharp(preview).metadata();
          expect(pm.format).toBe('webp');
          expect(Math.max(pm.width, pm.height)).toBeLessThanOrEqual(240);
        }
        const mr = (await download(`${BASE}/resize/${r.id}/300x250`)).rawPayload;
        if (fit === 'contain') {
          // 2:1 into 300x250: 300x150 in the middle, white above and below.
          expect(isWhite(await pixel(mr, 150, 20))).toBe(true);
          expect(isWhite(await pixel(mr, 150, 230))).toBe(true);
          expect(isRed(await pixel(mr, 60, 125))).toBe(true);
          expect(isBlue(await pixel(mr, 240, 125))).toBe(true);
        } else {
          // Cover fills: red on the left, blue on the right, no band.
          expect(isRed(await pixel(mr, 40, 10))).toBe(true);
          expect(isBlue(await pixel(mr, 260, 240))).toBe(true);
        }
      }
    });

    it('keeps the focal side with cover', async () => {
      const image = await halves();
      const left = await resizeOk(image, { sizes: ['160x600'], fit: 'cover', focal_x: 0, focal_y: 0.5 });
      const right = await resizeOk(image, { sizes: ['160x600'], fit: 'cover', focal_x: 1, focal_y: 0.5 });
      const l = (await download(`${BASE}/resize/${left.id}/160x600`)).rawPayload;
      const r = (await download(`${BASE}/resize/${right.id}/160x600`)).rawPayload;
      for (const [x, y] of [[10, 10], [80, 300], [150, 590]] as const) {
        expect(isRed(await pixel(l, x, y)), `left ${x},${y}`).toBe(true);
        expect(isBlue(await pixel(r, x, y)), `right ${x},${y}`).toBe(true);
      }
    });

    it('streams every result in a zip named after the upload, and writes the audit entry', async () => {
      const image = await halves();
      const r = await resizeOk(image, { sizes: ['300x250', '320x50', '1200x628'], format: 'png' }, 'Campaña Otoño.jpeg');
      expect(r.outputs.map((o) => [o.file_name, o.standard, o.limit_kb])).toEqual([
        ['campana-otono_300x250.png', true, 150],
        ['campana-otono_320x50.png', true, 50],
        ['campana-otono_1200x628.png', false, null],
      ]);
      const res = await download(`${BASE}/resize/${r.id}.zip`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      expect(res.headers['content-disposition']).toBe('attachment; filename="campana-otono_sizes.zip"');
      const zip = await JSZip.loadAsync(res.rawPayload);
      expect(Object.keys(zip.files).sort()).toEqual(['campana-otono_1200x628.png', 'campana-otono_300x250.png', 'campana-otono_320x50.png']);
      for (const o of r.outputs) {
        const data = await zip.file(o.file_name)!.async('nodebuffer');
        expect(data.length).toBe(o.bytes);
        const meta = await sharp(data).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual(['png', o.width, o.height]);
      }
      const [entry] = await query<{ actor_id: number; after: { file_name: string; sizes: string[]; fit: string; format: string } }>(
        db(),
        `SELECT actor_id, after FROM audit_log WHERE action = 'creatives.resize' AND entity = 'creative_resize' AND entity_id = $1`,
        [r.id],
      );
      expect(entry).toMatchObject({ actor_id: marketingId, after: { file_name: 'Campaña Otoño.jpeg', sizes: ['300x250', '320x50', '1200x628'], fit: 'cover', format: 'png' } });
    });

    it('serves results only to the person who made them, until they expire; the cleanup job removes them', async () => {
      const r = await resizeOk(await halves(), { sizes: ['300x250'] });
      const other = await signIn(t.app, 'admin@adtech.example');
      for (const url of [`${BASE}/resize/${r.id}.zip`, `${BASE}/resize/${r.id}/300x250`]) {
        const res = await download(url, other.headers);
        expect(res.statusCode, url).toBe(404);
        expect(body(res).message).toBe('creatives.resize.not_found');
      }
      expect((await download(`${BASE}/resize/${r.id}/728x90`)).statusCode).toBe(404);
      expect((await download(`${BASE}/resize/${'0'.repeat(32)}.zip`)).statusCode).toBe(404);
      expect((await download(`${BASE}/resize/not-an-id.zip`)).statusCode).toBe(400);
      const dir = path.join(storageDir, 'creatives-resize', r.id);
      expect(fs.readdirSync(dir)).toEqual(['summer-sale_300x250.jpg']);

      clock = T0 + 61 * 60_000;
      try {
        const gone = await download(`${BASE}/resize/${r.id}/300x250`);
        expect(gone.statusCode).toBe(410);
        expect(body(gone).message).toBe('creatives.resize.not_found');
        const cleaned = await expireResults(t.app.ctx, clock);
        expect(cleaned.expired).toBeGreaterThanOrEqual(1);
        expect(fs.existsSync(path.join(dir, 'summer-sale_300x250.jpg'))).toBe(false);
        expect(await query(db(), 'SELECT 1 FROM creative_resizes WHERE id = $1', [r.id])).toHaveLength(0);
        expect((await download(`${BASE}/resize/${r.id}.zip`)).statusCode).toBe(404);
        expect((await expireResults(t.app.ctx, clock)).expired).toBe(0);
      } finally {
        clock = T0;
      }
    });
  });

  describe('uploads', () => {
    const options = { sizes: ['300x250'] };

    it('reads the type from the bytes: a PNG named .txt is a PNG, text named .jpg is refused', async () => {
      const png = await sharp({ create: { width: 600, height: 500, channels: 4, background: { r: 0, g: 128, b: 0, alpha: 0.5 } } }).png().toBuffer();
      const r = await resizeOk(png, { ...options, format: 'webp' }, 'banner.txt', 'text/plain');
      expect(r.input).toMatchObject({ type: 'png', width: 600, height: 500 });
      expect(r.outputs[0]).toMatchObject({ size: '300x250', format: 'webp', file_name: 'banner_300x250.webp' });

      const text = Buffer.from('This is a briefing for the summer campaign, not a picture.\n'.repeat(20));
      const res = await post({ file: [{ data: text, name: 'photo.jpg', type: 'image/jpeg' }], options });
      expect(res.statusCode).toBe(415);
      expect(body(res)).toMatchObject({ status: 'error', message: 'creatives.upload.type', errors: { file: 'creatives.upload.type' } });
      expect(body(res).text).toBe('This file is not a JPEG, PNG, WebP or GIF image (checked by its content, not its name).');
      // An SVG (XML that could carry script) is not taken either.
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="250"><script>alert(1)</script></svg>');
      expect((await post({ file: [{ data: svg, name: 'logo.png', type: 'image/png' }], options })).statusCode).toBe(415);
    });

    it('refuses a file over the limit', async () => {
      const big = Buffer.alloc(CREATIVE_UPLOAD_MAX_BYTES + 1, 0xff);
      big.set([0xff, 0xd8, 0xff, 0xe0]);
      const res = await post({ file: [{ data: big, name: 'huge.jpg', type: 'image/jpeg' }], options });
      expect(res.statusCode).toBe(413);
      expect(body(res)).toMatchObject({ message: 'creatives.upload.too_large', text: 'The file is too large: the limit is 15 MB.' });
    });

    it('refuses a decompression bomb before decoding it, with its message', async () => {
      const bomb = declaredPng(50_000, 50_000);
      expect(bomb.length).toBeLessThan(300);
      const started = performance.now();
      const res = await post({ file: [{ data: bomb, name: 'innocent.png', type: 'image/png' }], options });
      expect(res.statusCode).toBe(413);
      expect(body(res)).toMatchObject({ message: 'creatives.upload.too_many_pixels', errors: { file: 'creatives.upload.too_many_pixels' } });
      expect(body(res).text).toBe('The image declares 50000 × 50000 pixels; the limit is 25 megapixels and 12000 pixels a side.');
      expect(performance.now() - started).toBeLessThan(2000);
      // Within the side limit but over the pixel count.
      const wide = await post({ file: [{ data: declaredPng(11_000, 3_000), name: 'wide.png', type: 'image/png' }], options });
      expect(body(wide).message).toBe('creatives.upload.too_many_pixels');
    });

    it('refuses a damaged image whose header is fine', async () => {
      const res = await post({ file: [{ data: declaredPng(400, 300, Buffer.from('not zlib data at all')), name: 'broken.png', type: 'image/png' }], options });
      expect(res.statusCode).toBe(400);
      expect(body(res).message).toBe('creatives.upload.decode_failed');
    });

    it('refuses bad options next to their fields, keeping the file’s own error too', async () => {
      const image = await halves();
      const file = [{ data: image, name: 'a.jpg', type: 'image/jpeg' }];
      const cases: [unknown, Record<string, string>][] = [
        [{ sizes: [] }, { sizes: 'creatives.resize.sizes_required' }],
        [{}, { sizes: 'creatives.resize.sizes_required' }],
        [{ sizes: ['300x250', 'big'] }, { 'sizes.1': 'creatives.resize.size_invalid' }],
        [{ sizes: ['4000x250'] }, { 'sizes.0': 'creatives.resize.size_range' }],
        [{ sizes: Array.from({ length: 21 }, (_, i) => `${100 + i}x100`) }, { sizes: 'creatives.resize.too_many_sizes' }],
        [{ sizes: ['300x250'], fit: 'stretch', focal_x: 2, quality: 101 }, { fit: 'creatives.resize.fit_invalid', focal_x: 'creatives.resize.focal_range', quality: 'creatives.resize.quality_range' }],
        ['{not json', { options: 'creatives.upload.options_invalid' }],
      ];
      for (const [opts, errors] of cases) {
        const res = await post({ file, options: opts });
        expect(res.statusCode, JSON.stringify(opts)).toBe(400);
        expect(body(res)).toMatchObject({ message: 'error.validation', errors });
      }
      const both = await post({ file: [{ data: Buffer.from('plain text'), name: 'a.jpg', type: 'image/jpeg' }], options: { sizes: [] } });
      expect(body(both).errors).toEqual({ sizes: 'creatives.resize.sizes_required', file: 'creatives.upload.type' });
      const noFile = await post({ options });
      expect(noFile.statusCode).toBe(400);
      expect(body(noFile).errors).toEqual({ file: 'creatives.upload.file_required' });
    });

    it('takes multipart only, one file at a time', async () => {
      const json = await t.app.inject({ method: 'POST', url: `${BASE}/resize`, headers: marketing, payload: { sizes: ['300x250'] } });
      expect(json.statusCode).toBe(415);
      expect(body(json).message).toBe('creatives.upload.not_multipart');
      const image = await halves();
      const two = await post({ file: [{ data: image, name: 'a.jpg', type: 'image/jpeg' }, { data: image, name: 'b.jpg', type: 'image/jpeg' }], options });
      expect(two.statusCode).toBe(413);
      expect(body(two).message).toBe('creatives.upload.one_file');
    });

    it('reads the same dimensions from real files as sharp does', async () => {
      const base = sharp({ create: { width: 333, height: 211, channels: 3, background: '#336699' } });
      for (const [format, data] of [
        ['jpeg', await base.clone().jpeg().toBuffer()],
        ['jpeg', await base.clone().jpeg({ progressive: true }).withExif({ IFD0: { Copyright: 'Back Office test' } }).toBuffer()],
        ['png', await base.clone().png().toBuffer()],
        ['webp', await base.clone().webp().toBuffer()],
        ['webp', await base.clone().webp({ lossless: true }).toBuffer()],
        ['webp', await base.clone().ensureAlpha(0.5).webp().toBuffer()],
        ['gif', await base.clone().gif().toBuffer()],
      ] as const) {
        expect(readImageHeader(data), format).toEqual({ type: format, width: 333, height: 211 });
      }
    });
  });
});
