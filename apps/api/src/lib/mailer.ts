/**
 * Outgoing mail on nodemailer (docs/decisions/006-mail-nodemailer.md). Two transports chosen by
 * config (MAIL_TRANSPORT):
 * - file (default without SMTP_URL): nodemailer's stream transport composes the raw RFC 5322
 *   message, written as an .eml file into MAIL_OUTBOX_DIR (DATA_DIR/outbox), so mail can be
 *   inspected locally and in tests;
 * - smtp: nodemailer's SMTP transport (SMTP_URL=smtp://user:pass@host:port uses STARTTLS when the
 *   server offers it, smtps:// is TLS from the start); certificates are always verified.
 * Messages are a text/plain part plus base64 attachments (multipart/mixed).
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type tls from 'node:tls';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
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

type MailConfig = Pick<Config, 'mailTransport' | 'smtpUrl' | 'mailFrom' | 'mailOutboxDir'>;

/** `tls`: extra TLS options for smtp (a private CA in tests); certificates are always verified. */
export function createMailer(config: MailConfig, opts: { tls?: tls.ConnectionOptions } = {}): Mailer {
  if (config.mailTransport === 'smtp') return smtpMailer(config.smtpUrl!, config.mailFrom, opts.tls);
  return fileMailer(config.mailOutboxDir, config.mailFrom);
}

/** A bare address from `Name <addr>` or `addr`. */
export function addressOf(mailbox: string): string {
  const m = /<([^<>]+)>\s*$/.exec(mailbox);
  return (m ? m[1]! : mailbox).trim();
}

/** Refuses header injection: addresses must not carry line breaks or angle brackets. */
function checkAddress(address: string): string {
  if (/[\r\n<>]/.test(address) || !address.includes('@'))
    throw new Error(`invalid mail address: ${JSON.stringify(address)}`);
  return address;
}

/** nodemailer's message options; nodemailer encodes non-ASCII headers (RFC 2047) and file names (RFC 2231). */
function mailOptions(message: MailMessage, from: string, date?: Date): Mail.Options {
  if (/[\r\n]/.test(from)) throw new Error(`invalid mail address: ${JSON.stringify(from)}`);
  checkAddress(addressOf(from));
  return {
    from,
    to: message.to.map(checkAddress),
    subject: message.subject.replace(/[\r\n]+/g, ' '),
    text: message.text,
    date,
    attachments: (message.attachments ?? []).map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: a.content,
    })),
    // Content is always in memory; never let a message read a file or a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

// Composes without sending (buffer: the whole message in memory).
const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

/** The whole message as nodemailer composes it, with CRLF line breaks as RFC 5322 has them. */
export async function buildMime(
  message: MailMessage,
  opts: { from: string; date?: Date },
): Promise<{ messageId: string; raw: Buffer }> {
  // nodemailer 7 converts line breaks per message (`newline`, missing from @types/nodemailer);
  // the transport's option of the same name only labels its log line.
  const options: Mail.Options & { newline: string } = {
    ...mailOptions(message, opts.from, opts.date),
    newline: 'windows',
  };
  const info = await composer.sendMail(options);
  return { messageId: info.messageId, raw: info.message as Buffer };
}

// ---------------------------------------------------------------------------------------------
// file transport

function fileMailer(dir: string, from: string): Mailer {
  return {
    kind: 'file',
    async send(message) {
      const date = new Date();
      const { messageId, raw } = await buildMime(message, { from, date });
      await fs.mkdir(dir, { recursive: true });
      // Time-stamped names sort in sending order.
      const stamp = date.toISOString().replace(/[-:]/g, '').replace('.', '_');
      const file = path.join(dir, `${stamp}-${crypto.randomBytes(4).toString('hex')}.eml`);
      // Written under a temporary name and renamed, so a reader never sees half a message.
      await fs.writeFile(`${file}.part`, raw);
      await fs.rename(`${file}.part`, file);
      return { messageId, file };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// smtp transport

const SMTP_TIMEOUT_MS = 30_000;

/** Replaces every occurrence of the secrets, so no error or log line can carry the password. */
function redact(text: string, secrets: string[]): string {
  return secrets.filter(Boolean).reduce((t, s) => t.split(s).join('***'), text);
}

/**
 * A plain Error with nodemailer's code, response code and command label (never the credentials):
 * the schedule service stores the message and logs the error object.
 */
function smtpError(err: unknown, secrets: string[]): Error {
  const e = (err ?? {}) as { message?: string; code?: string; responseCode?: number; command?: string };
  const what = e.command && e.command !== 'API' && e.command !== 'CONN' ? ` ${e.command}` : '';
  const out = new Error(redact(`SMTP${what}: ${e.message ?? String(err)}`, secrets)) as Error & {
    code?: string;
    responseCode?: number;
  };
  if (e.code) out.code = e.code;
  if (e.responseCode) out.responseCode = e.responseCode;
  return out;
}

function smtpMailer(smtpUrl: string, from: string, tlsOptions: tls.ConnectionOptions | undefined): Mailer {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    // Not the URL's own error: it carries the input, password included.
    throw new Error('SMTP_URL is not a valid URL');
  }
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  const secrets = [pass, url.password];
  const secure = url.protocol === 'smtps:';
  const options: SMTPTransport.Options = {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || (secure ? 465 : 587)),
    // smtp:// upgrades with STARTTLS whenever the server offers it (nodemailer's default).
    secure,
    auth: user ? { user, pass } : undefined,
    tls: tlsOptions,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    logger: false,
    debug: false,
    disableFileAccess: true,
    disableUrlAccess: true,
  };
  const transport = nodemailer.createTransport(options);
  return {
    kind: 'smtp',
    async send(message) {
      const mail = mailOptions(message, from);
      let info: SMTPTransport.SentMessageInfo;
      try {
        info = await transport.sendMail(mail);
      } catch (err) {
        throw smtpError(err, secrets);
      }
      // nodemailer delivers to the accepted recipients when some are refused; the run still fails,
      // naming the refused ones, so the schedule's history shows it.
      if (info.rejected.length > 0) {
        const refused = info.rejected.map((r) => (typeof r === 'string' ? r : r.address)).join(', ');
        const detail = (info as { rejectedErrors?: Error[] }).rejectedErrors?.[0]?.message ?? '';
        throw smtpError(
          { message: `recipients refused: ${refused}${detail ? ` (${detail})` : ''}`, command: 'RCPT TO' },
          secrets,
        );
      }
      return { messageId: info.messageId, response: info.response };
    },
  };
}
