/**
 * Test support for mail: reading messages (the file transport's .eml files, or an SMTP DATA) back
 * into parts as a receiver would: base64 or quoted-printable bodies, RFC 2047 encoded words in
 * headers (B or Q), parameters quoted or bare, RFC 2231 file names (`filename*`, continuations).
 */
import fs from 'node:fs';
import path from 'node:path';

export interface ParsedMail {
  file: string;
  /** Header values, unfolded; `subject` is decoded. */
  headers: Record<string, string>;
  /** The text/plain part, decoded, with line breaks as LF. */
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

function decodeQuotedPrintable(body: string): Buffer {
  const bytes: number[] = [];
  const text = body.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }
  return Buffer.from(bytes);
}

/** RFC 2047: `=?charset?B|Q?…?=`; whitespace between adjacent encoded words is dropped. */
export function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, data: string) =>
      (enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64')
        : decodeQuotedPrintable(data.replace(/_/g, ' '))
      ).toString('utf8'),
    );
}

/** `type/sub; a=b; c="d"; e*=utf-8''%C3%B1; f*0*=…; f*1*=…` into the value and its decoded parameters. */
function parseParams(value: string): { value: string; params: Record<string, string> } {
  const [head, ...rest] = value.split(';');
  const raw: Record<string, string> = {};
  const re = /([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  const tail = rest.join(';');
  let m: RegExpExecArray | null;
  while ((m = re.exec(tail)))
    raw[m[1]!.toLowerCase()] = m[2]!
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .replace(/\\(.)/g, '$1');
  const params: Record<string, string> = {};
  const extended: Record<string, { i: number; v: string; encoded: boolean }[]> = {};
  for (const [key, v] of Object.entries(raw)) {
    const ext = /^([^*]+)\*(?:(\d+)\*?)?$/.exec(key);
    if (!ext) params[key] = decodeWords(v);
    else (extended[ext[1]!] ??= []).push({ i: Number(ext[2] ?? 0), v, encoded: key.endsWith('*') });
  }
  for (const [name, pieces] of Object.entries(extended)) {
    pieces.sort((a, b) => a.i - b.i);
    const joined = pieces
      .map((p) => (p.encoded ? p.v.replace(/^[^']*'[^']*'/, '') : encodeURIComponent(p.v)))
      .join('');
    params[name] = decodeURIComponent(joined);
  }
  return { value: head!.trim().toLowerCase(), params };
}

function decodeBody(body: string, encoding: string): Buffer {
  const e = encoding.toLowerCase();
  if (e === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (e === 'quoted-printable') return decodeQuotedPrintable(body);
  return Buffer.from(body, 'utf8');
}

/** Parses a single-part message or a multipart/mixed one (text part plus attachments). */
export function parseMail(raw: string, file = ''): ParsedMail {
  const split = raw.indexOf('\r\n\r\n');
  const headers = parseHeaders(raw.slice(0, split));
  headers.subject = decodeWords(headers.subject ?? '');
  const body = raw.slice(split + 4);
  const type = parseParams(headers['content-type'] ?? 'text/plain');
  const asText = (b: Buffer) => b.toString('utf8').replace(/\r\n/g, '\n');
  const boundary = type.params.boundary;
  if (!type.value.startsWith('multipart/') || !boundary) {
    return {
      file,
      headers,
      text: asText(decodeBody(body, headers['content-transfer-encoding'] ?? '7bit')),
      attachments: [],
    };
  }
  const parts = body
    .split(
      new RegExp(
        `(?:^|\\r\\n)--${boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:--)?[ \\t]*(?=\\r\\n|$)`,
      ),
    )
    .slice(1, -1);
  let text = '';
  const attachments: ParsedMail['attachments'] = [];
  for (const part of parts) {
    const p = part.replace(/^\r\n/, '');
    const at = p.indexOf('\r\n\r\n');
    const h = parseHeaders(p.slice(0, at));
    const content = decodeBody(p.slice(at + 4), h['content-transfer-encoding'] ?? '7bit');
    const disposition = parseParams(h['content-disposition'] ?? 'inline');
    const partType = parseParams(h['content-type'] ?? 'text/plain');
    if (disposition.value === 'attachment') {
      attachments.push({
        filename: disposition.params.filename ?? partType.params.name ?? '',
        contentType: partType.value,
        content,
      });
    } else if (partType.value === 'text/plain') text = asText(content);
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
