/**
 * Outgoing mail. Two transports chosen by config (MAIL_TRANSPORT):
 * - file (default without SMTP_URL): each message is written as an RFC 5322 .eml file into
 *   MAIL_OUTBOX_DIR (DATA_DIR/outbox), so mail can be inspected locally and in tests;
 * - smtp: a small SMTP client over node:net/tls (SMTP_URL=smtp://user:pass@host:port uses STARTTLS
 *   when the server offers it, smtps:// is TLS from the start), AUTH PLAIN/LOGIN when credentials
 *   are given.
 * Messages are MIME: a text/plain part and base64 attachments (multipart/mixed).
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import type { Config } from '../config.ts';

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  attachments?: MailAttachment[];
}

export interface SentMail {
  messageId: string;
  /** The .eml file (file transport). */
  file?: string;
  /** The server's answer to DATA (smtp transport). */
  response?: string;
}

export interface Mailer {
  readonly kind: Config['mailTransport'];
  send(message: MailMessage): Promise<SentMail>;
}

/** `tls`: extra TLS options for smtp (a private CA in tests); certificates are always verified. */
export function createMailer(config: Pick<Config, 'mailTransport' | 'smtpUrl' | 'mailFrom' | 'mailOutboxDir'>, opts: { tls?: tls.ConnectionOptions } = {}): Mailer {
  if (config.mailTransport === 'smtp') return smtpMailer(config.smtpUrl!, config.mailFrom, opts.tls ?? {});
  return fileMailer(config.mailOutboxDir, config.mailFrom);
}

// ---------------------------------------------------------------------------------------------
// MIME (RFC 5322, 2045-2047, 2231)

/** A bare address from `Name <addr>` or `addr`. */
export function addressOf(mailbox: string): string {
  const m = /<([^<>]+)>\s*$/.exec(mailbox);
  return (m ? m[1]! : mailbox).trim();
}

/** Refuses header injection: addresses must not carry line breaks or angle brackets. */
function checkAddress(address: string): string {
  if (/[\r\n<>]/.test(address) || !address.includes('@')) throw new Error(`invalid mail address: ${JSON.stringify(address)}`);
  return address;
}

/** RFC 2047 encoded-word for non-ASCII header text (folded in chunks that keep UTF-8 sequences whole). */
export function encodeHeader(text: string): string {
  const clean = text.replace(/[\r\n]+/g, ' ');
  if (/^[\x20-\x7e]*$/.test(clean)) return clean;
  const words: string[] = [];
  let chunk = '';
  for (const ch of clean) {
    if (Buffer.byteLength(chunk + ch) > 45) {
      words.push(chunk);
      chunk = '';
    }
    chunk += ch;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, 'utf8').toString('base64')}?=`).join('\r\n ');
}

function base64Lines(data: Buffer): string {
  return (data.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
}

/** `filename="…"` for ASCII names, plus RFC 2231 `filename*` for others. */
function fileParam(name: string, param: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const star = /^[\x20-\x7e]*$/.test(name) && !/["\\]/.test(name) ? '' : `; ${param}*=UTF-8''${encodeURIComponent(name)}`;
  return `${param}="${ascii}"${star}`;
}

/** The whole message as CRLF text. */
export function buildMime(message: MailMessage, opts: { from: string; messageId: string; date?: Date }): string {
  const boundary = `=_bo_${crypto.randomBytes(12).toString('hex')}`;
  const fromAddress = checkAddress(addressOf(opts.from));
  const fromName = opts.from.includes('<') ? opts.from.slice(0, opts.from.lastIndexOf('<')).trim().replace(/^"|"$/g, '') : '';
  const headers = [
    `From: ${fromName ? `${encodeHeader(fromName)} <${fromAddress}>` : fromAddress}`,
    `To: ${message.to.map(checkAddress).join(', ')}`,
    `Subject: ${encodeHeader(message.subject)}`,
    `Date: ${(opts.date ?? new Date()).toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: ${opts.messageId}`,
    'MIME-Version: 1.0',
  ];
  const textPart = ['Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: base64', '', base64Lines(Buffer.from(message.text, 'utf8'))];
  const attachments = message.attachments ?? [];
  if (attachments.length === 0) return [...headers, ...textPart, ''].join('\r\n');
  const parts = [[...headers, `Content-Type: multipart/mixed; boundary="${boundary}"`, '', 'This is a multi-part message in MIME format.'].join('\r\n')];
  parts.push([`--${boundary}`, ...textPart].join('\r\n'));
  for (const a of attachments) {
    parts.push(
      [
        `--${boundary}`,
        `Content-Type: ${a.contentType}; ${fileParam(a.filename, 'name')}`,
        'Content-Transfer-Encoding: base64',
        `Content-Disposition: attachment; ${fileParam(a.filename, 'filename')}`,
        '',
        base64Lines(a.content),
      ].join('\r\n'),
    );
  }
  parts.push(`--${boundary}--\r\n`);
  return parts.join('\r\n');
}

function newMessageId(from: string): string {
  const domain = addressOf(from).split('@')[1] ?? os.hostname();
  return `<${Date.now().toString(36)}.${crypto.randomBytes(8).toString('hex')}@${domain}>`;
}

// ---------------------------------------------------------------------------------------------
// file transport

function fileMailer(dir: string, from: string): Mailer {
  return {
    kind: 'file',
    async send(message) {
      const messageId = newMessageId(from);
      const date = new Date();
      const text = buildMime(message, { from, messageId, date });
      await fs.mkdir(dir, { recursive: true });
      const stamp = date.toISOString().replace(/[-:]/g, '').replace('.', '_');
      const file = path.join(dir, `${stamp}-${crypto.randomBytes(4).toString('hex')}.eml`);
      // Written under a temporary name and renamed, so a reader never sees half a message.
      await fs.writeFile(`${file}.part`, text, 'utf8');
      await fs.rename(`${file}.part`, file);
      return { messageId, file };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// smtp transport

const SMTP_TIMEOUT_MS = 30_000;

interface Reply {
  code: number;
  lines: string[];
}

/** Reads SMTP replies (multi-line `250-…` continued until `250 …`) from a socket that may be swapped for TLS. */
class SmtpConnection {
  private socket: net.Socket;
  private buffer = '';
  private waiting: { resolve: (r: Reply) => void; reject: (e: Error) => void } | null = null;
  private pending: string[] = [];
  private failure: Error | null = null;

  constructor(socket: net.Socket) {
    this.socket = socket;
    this.attach(socket);
  }

  private attach(socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.setTimeout(SMTP_TIMEOUT_MS, () => this.fail(new Error('SMTP timeout')));
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let i: number;
      while ((i = this.buffer.indexOf('\n')) >= 0) {
        this.pending.push(this.buffer.slice(0, i).replace(/\r$/, ''));
        this.buffer = this.buffer.slice(i + 1);
      }
      this.deliver();
    });
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.fail(new Error('SMTP connection closed')));
  }

  private fail(err: Error) {
    if (!this.failure) this.failure = err;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w.reject(err);
    }
  }

  private deliver() {
    if (!this.waiting) return;
    const end = this.pending.findIndex((l) => /^\d{3}(?: |$)/.test(l));
    if (end < 0) return;
    const lines = this.pending.splice(0, end + 1);
    const w = this.waiting;
    this.waiting = null;
    w.resolve({ code: Number(lines[end]!.slice(0, 3)), lines: lines.map((l) => l.slice(4)) });
  }

  read(): Promise<Reply> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.deliver();
      if (this.waiting && this.failure) this.fail(this.failure);
    });
  }

  /** `label` names the command in errors (credentials never appear there). */
  async command(line: string, expect: number[], label = line): Promise<Reply> {
    this.socket.write(`${line}\r\n`);
    return this.expect(expect, label);
  }

  async expect(codes: number[], what: string): Promise<Reply> {
    const reply = await this.read();
    if (!codes.includes(reply.code)) throw new Error(`SMTP ${what}: ${reply.code} ${reply.lines.join(' ')}`);
    return reply;
  }

  write(data: string) {
    this.socket.write(data);
  }

  async upgrade(host: string, options: tls.ConnectionOptions): Promise<void> {
    const plain = this.socket;
    plain.removeAllListeners('data');
    plain.removeAllListeners('error');
    plain.removeAllListeners('close');
    plain.setTimeout(0);
    const secure = tls.connect({ ...options, socket: plain, servername: net.isIP(host) ? undefined : host });
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', resolve);
      secure.once('error', reject);
    });
    this.socket = secure;
    this.buffer = '';
    this.pending = [];
    this.attach(secure);
  }

  get secure(): boolean {
    return this.socket instanceof tls.TLSSocket;
  }

  close() {
    this.socket.destroy();
  }
}

function connect(url: URL, options: tls.ConnectionOptions): Promise<net.Socket> {
  const secure = url.protocol === 'smtps:';
  const host = url.hostname;
  const port = Number(url.port || (secure ? 465 : 587));
  return new Promise((resolve, reject) => {
    const socket = secure ? tls.connect({ ...options, host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port });
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      socket.removeListener('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Dot-stuffing (RFC 5321 4.5.2) and the terminating line. */
export function smtpData(mime: string): string {
  const body = mime.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
  return `${body.endsWith('\r\n') ? body : `${body}\r\n`}.\r\n`;
}

function smtpMailer(smtpUrl: string, from: string, tlsOptions: tls.ConnectionOptions): Mailer {
  const url = new URL(smtpUrl);
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  const helo = os.hostname().replace(/[^a-zA-Z0-9.-]/g, '') || 'localhost';
  return {
    kind: 'smtp',
    async send(message) {
      const messageId = newMessageId(from);
      const mime = buildMime(message, { from, messageId });
      const conn = new SmtpConnection(await connect(url, tlsOptions));
      try {
        await conn.expect([220], 'greeting');
        let ehlo = await conn.command(`EHLO ${helo}`, [250]);
        const offers = (name: string) => ehlo.lines.some((l) => l.toUpperCase().startsWith(name));
        if (!conn.secure && offers('STARTTLS')) {
          await conn.command('STARTTLS', [220]);
          await conn.upgrade(url.hostname, tlsOptions);
          ehlo = await conn.command(`EHLO ${helo}`, [250]);
        }
        if (user) {
          const auth = ehlo.lines.find((l) => l.toUpperCase().startsWith('AUTH'))?.toUpperCase() ?? '';
          if (auth.includes('PLAIN') || !auth.includes('LOGIN')) {
            await conn.command(`AUTH PLAIN ${Buffer.from(`\0${user}\0${pass}`, 'utf8').toString('base64')}`, [235], 'AUTH PLAIN');
          } else {
            await conn.command('AUTH LOGIN', [334]);
            await conn.command(Buffer.from(user, 'utf8').toString('base64'), [334], 'AUTH LOGIN user');
            await conn.command(Buffer.from(pass, 'utf8').toString('base64'), [235], 'AUTH LOGIN password');
          }
        }
        await conn.command(`MAIL FROM:<${checkAddress(addressOf(from))}>`, [250]);
        for (const to of message.to) await conn.command(`RCPT TO:<${checkAddress(to)}>`, [250, 251]);
        await conn.command('DATA', [354]);
        conn.write(smtpData(mime));
        const done = await conn.expect([250], 'DATA');
        await conn.command('QUIT', [221]).catch(() => undefined);
        return { messageId, response: done.lines.join(' ') };
      } finally {
        conn.close();
      }
    },
  };
}
