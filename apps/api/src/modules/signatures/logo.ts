/**
 * A template's logo: the uploaded PNG or JPEG (a data URL in the template's JSON body) is checked by
 * its bytes (the declared type is ignored), its header read by sharp before decoding (at most 4,000
 * px a side), then made a PNG at most 2x the widest display width (480 px, sharp on high-density
 * screens), without metadata. The hash names it in its public URL, so a new logo is a new URL and
 * the old one may be cached forever by mail clients.
 */
import { LOGO_DATA_URL, LOGO_MAX_BYTES, LOGO_MAX_WIDTH } from '@backoffice/core/signatures';
import crypto from 'node:crypto';
import sharp from 'sharp';
import { badRequest } from '../../lib/errors.ts';

const MAX_SIDE = 4000;

export interface ProcessedLogo {
  png: Buffer;
  hash: string;
  width: number;
  height: number;
}

const refuse = (key: string) => badRequest('error.validation', { logo: key });

const isPng = (b: Buffer) => b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
const isJpeg = (b: Buffer) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

export async function processLogo(dataUrl: string): Promise<ProcessedLogo> {
  const m = LOGO_DATA_URL.exec(dataUrl);
  if (!m) throw refuse('signatures.logo_type');
  const data = Buffer.from(m[2]!, 'base64');
  if (data.length > LOGO_MAX_BYTES) throw refuse('signatures.logo_too_large');
  if (!isPng(data) && !isJpeg(data)) throw refuse('signatures.logo_type');
  let meta: sharp.Metadata;
  try {
    meta = await sharp(data, { limitInputPixels: MAX_SIDE * MAX_SIDE }).metadata();
  } catch {
    throw refuse('signatures.logo_unreadable');
  }
  if (meta.format !== 'png' && meta.format !== 'jpeg') throw refuse('signatures.logo_type');
  if (!meta.width || !meta.height || meta.width > MAX_SIDE || meta.height > MAX_SIDE) throw refuse('signatures.logo_dimensions');
  let out: { data: Buffer; info: sharp.OutputInfo };
  try {
    out = await sharp(data, { limitInputPixels: MAX_SIDE * MAX_SIDE, failOn: 'error' })
      .autoOrient()
      .resize({ width: LOGO_MAX_WIDTH * 2, withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw refuse('signatures.logo_unreadable');
  }
  return { png: out.data, hash: crypto.createHash('sha256').update(out.data).digest('hex').slice(0, 16), width: out.info.width, height: out.info.height };
}
