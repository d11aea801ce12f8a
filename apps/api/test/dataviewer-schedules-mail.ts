/** Test support for mail: reading the .eml files of the file transport back into parts. */
import fs from 'node:fs';
import path from 'node:path';

export interface ParsedMail {
  file: string;
  headers: Record<string, string>;
  text: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

function parseHeaders(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  return out;
}

function decodeWords(value: string): string {
  return value.replace(/=\?UTF-8\?B\?([^?]*)\?=\s*/g, (_m, b64: string) => Buffer.from(b64, 'base64').toString('utf8'));
}

/** Parses what buildMime writes (single text part, or multipart/mixed with base64 parts). */
export function parseMail(raw: string, file = ''): ParsedMail {
  const split = raw.indexOf('\r\n\r\n');
  const headers = parseHeaders(raw.slice(0, split));
  headers.subject = decodeWords(headers.subject ?? '');
  const body = raw.slice(split + 4);
  const type = headers['content-type'] ?? '';
  const boundary = /boundary="([^"]+)"/.exec(type)?.[1];
  if (!boundary) return { file, headers, text: Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8'), attachments: [] };
  const parts = body.split(`--${boundary}`).slice(1, -1);
  let text = '';
  const attachments: ParsedMail['attachments'] = [];
  for (const part of parts) {
    const p = part.replace(/^\r\n/, '');
    const at = p.indexOf('\r\n\r\n');
    const h = parseHeaders(p.slice(0, at));
    const content = Buffer.from(p.slice(at + 4).replace(/\s+/g, ''), 'base64');
    const disposition = h['content-disposition'] ?? '';
    if (disposition.startsWith('attachment')) {
      attachments.push({ filename: /filename="([^"]+)"/.exec(disposition)?.[1] ?? '', contentType: (h['content-type'] ?? '').split(';')[0]!, content });
    } else text = content.toString('utf8');
  }
  return { file, headers, text, attachments };
}

export function readOutbox(dir: string): ParsedMail[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => parseMail(fs.readFileSync(path.join(dir, f), 'utf8'), f));
}
