/**
 * The mailer's SMTP transport against a tiny SMTP server (node:net) that records the session and
 * the DATA: EHLO, STARTTLS when offered, AUTH PLAIN, envelope, dot-stuffing, MIME attachment,
 * refused recipients and credentials. Also the file transport's .eml (attachments byte for byte,
 * non-ASCII headers) and the mail configuration.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { buildMime, createMailer, type MailMessage } from '../src/lib/mailer.ts';
import { decodeWords, parseMail, readOutbox } from './dataviewer-schedules-mail.ts';

interface Session {
  commands: string[];
  data: string;
  /** Commands sent after the TLS upgrade. */
  secureCommands: string[];
}

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A self-signed certificate for localhost/127.0.0.1. */
function selfSigned(dir: string): { key: string; cert: string } {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
  return { key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(cert, 'utf8') };
}

/** Starts an SMTP server; `tlsCreds` makes it offer STARTTLS. */
async function smtpServer(tlsCreds: { key: string; cert: string } | null) {
  const sessions: Session[] = [];
  const server = net.createServer((raw) => {
    const session: Session = { commands: [], data: '', secureCommands: [] };
    sessions.push(session);
    let socket: net.Socket = raw;
    let secure = false;
    let buffer = '';
    let inData = false;
    const send = (text: string) => socket.write(`${text}\r\n`);
    const onLine = (line: string) => {
      if (inData) {
        if (line === '.') {
          inData = false;
          send('250 2.0.0 queued as T1');
        } else session.data += `${line.startsWith('..') ? line.slice(1) : line}\r\n`;
        return;
      }
      session.commands.push(line);
      if (secure) session.secureCommands.push(line);
      const verb = line.split(' ')[0]!.toUpperCase();
      if (verb === 'EHLO') send(['250-test.example', '250-AUTH PLAIN LOGIN', ...(tlsCreds && !secure ? ['250-STARTTLS'] : []), '250 8BITMIME'].join('\r\n'));
      else if (verb === 'STARTTLS') {
        send('220 2.0.0 ready');
        socket.removeAllListeners('data');
        const upgraded = new tls.TLSSocket(socket, { isServer: true, key: tlsCreds!.key, cert: tlsCreds!.cert });
        socket = upgraded;
        secure = true;
        buffer = '';
        upgraded.on('data', onData);
      } else if (verb === 'AUTH') send(Buffer.from(line.slice(11), 'base64').toString('utf8').includes('wrong') ? '535 5.7.8 authentication failed' : '235 2.7.0 ok');
      else if (verb === 'MAIL') send('250 2.1.0 ok');
      else if (verb === 'RCPT') send(line.includes('<refused@') ? '550 5.1.1 no such user' : '250 2.1.5 ok');
      else if (verb === 'DATA') {
        inData = true;
        send('354 go ahead');
      } else if (verb === 'QUIT') {
        send('221 bye');
        socket.end();
      } else send('502 not implemented');
    };
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let i: number;
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        onLine(line);
      }
    };
    socket.on('data', onData);
    socket.on('error', () => undefined);
    send('220 test.example ESMTP');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { sessions, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const message: MailMessage = {
  to: ['ana@adtech.example', 'bo@ssp.example'],
  subject: 'Informe: España – 2025-03-04',
  // A line that starts with a dot must survive SMTP's dot-stuffing.
  text: 'Hello\n.hidden line\n',
  attachments: [{ filename: 'dataviewer_2025-03-05_080000.csv', contentType: 'text/csv; charset=utf-8', content: Buffer.from('\uFEFFDay,Revenue\r\n2025-03-04,12.500000\r\n', 'utf8') }],
};
const mailConfig = (smtpUrl: string) => ({ mailTransport: 'smtp' as const, smtpUrl, mailFrom: 'Back Office <no-reply@adtech.example>', mailOutboxDir: '' });

describe('mailer: SMTP transport', () => {
  let plain: Awaited<ReturnType<typeof smtpServer>>;
  beforeAll(async () => {
    plain = await smtpServer(null);
  });
  afterAll(async () => plain?.close());

  it('sends with AUTH PLAIN, the envelope and the MIME message with its attachment', async () => {
    const mailer = createMailer(mailConfig(`smtp://report%40adtech.example:p%40ss@127.0.0.1:${plain.port}`));
    const sent = await mailer.send(message);
    expect(sent.response).toContain('queued as T1');
    const s = plain.sessions.at(-1)!;
    expect(s.commands[0]).toMatch(/^EHLO /);
    const auth = s.commands.find((c) => c.startsWith('AUTH PLAIN '))!;
    expect(Buffer.from(auth.slice(11), 'base64').toString('utf8')).toBe('\0report@adtech.example\0p@ss');
    // nodemailer's (non-pooled) transport closes after the 250 to DATA, without QUIT.
    expect(s.commands.slice(2, 6)).toEqual(['MAIL FROM:<no-reply@adtech.example>', 'RCPT TO:<ana@adtech.example>', 'RCPT TO:<bo@ssp.example>', 'DATA']);
    const mail = parseMail(s.data);
    expect(mail.headers.to).toBe('ana@adtech.example, bo@ssp.example');
    expect(mail.headers.subject).toBe('Informe: España – 2025-03-04');
    expect(mail.headers['message-id']).toBe(sent.messageId);
    expect(mail.text).toBe('Hello\n.hidden line\n');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]!.filename).toBe('dataviewer_2025-03-05_080000.csv');
    expect(mail.attachments[0]!.content.equals(message.attachments![0]!.content)).toBe(true);
  });

  it('fails on a refused recipient, without credentials in the error', async () => {
    const mailer = createMailer(mailConfig(`smtp://user:secret-pass@127.0.0.1:${plain.port}`));
    const err = await mailer.send({ ...message, to: ['refused@adtech.example'] }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain('550');
    expect((err as Error).message).not.toContain('secret-pass');
  });

  it('fails on refused credentials, without them in the error', async () => {
    const err = await createMailer(mailConfig(`smtp://user:wrong-secret@127.0.0.1:${plain.port}`)).send(message).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/AUTH PLAIN.*535/);
    // What the schedule service logs (pino serialises the error's own properties) and stores.
    expect(JSON.stringify({ ...(err as Error), message: (err as Error).message, stack: (err as Error).stack })).not.toContain('wrong-secret');
  });

  it('delivers to the accepted recipients and fails naming the refused one', async () => {
    const mailer = createMailer(mailConfig(`smtp://127.0.0.1:${plain.port}`));
    const err = await mailer.send({ ...message, to: ['ana@adtech.example', 'refused@adtech.example'] }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/refused@adtech\.example.*550/);
    expect(parseMail(plain.sessions.at(-1)!.data).headers.to).toBe('ana@adtech.example, refused@adtech.example');
  });

  it('refuses an SMTP_URL that does not parse, without echoing it', () => {
    let err: (Error & { input?: string }) | undefined;
    try {
      createMailer(mailConfig('smtp://user:pa ss@[not-a-host'));
    } catch (e) {
      err = e as Error & { input?: string };
    }
    expect(err?.message).toBe('SMTP_URL is not a valid URL');
    expect(err?.input).toBeUndefined();
  });

  it('fails when nothing listens', async () => {
    const closed = await smtpServer(null);
    await closed.close();
    await expect(createMailer(mailConfig(`smtp://127.0.0.1:${closed.port}`)).send(message)).rejects.toThrow();
  });

  it.skipIf(!hasOpenssl())('upgrades with STARTTLS when offered and authenticates over TLS only', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-smtp-tls-'));
    const creds = selfSigned(dir);
    const server = await smtpServer(creds);
    try {
      const config = mailConfig(`smtp://user:pass@localhost:${server.port}`);
      // Verified against the test CA; an unknown certificate is refused.
      await expect(createMailer(config).send(message)).rejects.toThrow(/self-signed|certificate/i);
      await createMailer(config, { tls: { ca: creds.cert } }).send(message);
      const s = server.sessions.at(-1)!;
      expect(s.commands.slice(0, 2)).toEqual([expect.stringMatching(/^EHLO /), 'STARTTLS']);
      expect(s.secureCommands[0]).toMatch(/^EHLO /);
      expect(s.secureCommands.some((c) => c.startsWith('AUTH PLAIN'))).toBe(true);
      expect(s.commands.filter((c) => c.startsWith('AUTH')).length).toBe(1);
      expect(parseMail(s.data).attachments[0]!.content.equals(message.attachments![0]!.content)).toBe(true);
    } finally {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('mailer: MIME, file transport and configuration', () => {
  it('writes .eml files that hold CSV and XLSX attachments byte for byte, with non-ASCII headers', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-outbox-'));
    const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    // Every byte value, as a binary workbook holds.
    const binary = Buffer.from(Array.from({ length: 4096 }, (_v, i) => (i * 7) % 256));
    const csv = Buffer.from('\uFEFFDía,Ingresos\r\n2025-03-04,"Año, España"\r\n.\r\n', 'utf8');
    const subject = 'Informe «Socios» de ayer: España – 2025-03-04, con un título largo que se pliega en varias líneas';
    try {
      const mailer = createMailer({ mailTransport: 'file', smtpUrl: null, mailFrom: 'Informes Añil <no-reply@adtech.example>', mailOutboxDir: dir });
      const attachments = [
        { filename: 'dataviewer_2025-03-05_080000.csv', contentType: 'text/csv; charset=utf-8', content: csv },
        { filename: 'informe_año.xlsx', contentType: xlsx, content: binary },
      ];
      await mailer.send({ to: ['ana@adtech.example'], subject, text: 'Adjunto el informe de mañana.\nÑandú: 12,50 €\n', attachments });
      const [mail] = readOutbox(dir);
      const raw = fs.readFileSync(path.join(dir, mail!.file));
      // 7-bit and CRLF throughout, as RFC 5322 has it.
      expect(raw.every((b) => b < 0x80)).toBe(true);
      expect(raw.toString('latin1')).not.toMatch(/[^\r]\n/);
      expect(mail!.headers.subject).toBe(subject);
      expect(decodeWords(mail!.headers.from!)).toBe('Informes Añil <no-reply@adtech.example>');
      expect(mail!.text).toBe('Adjunto el informe de mañana.\nÑandú: 12,50 €\n');
      expect(mail!.attachments.map((a) => [a.filename, a.contentType])).toEqual([
        ['dataviewer_2025-03-05_080000.csv', 'text/csv'],
        ['informe_año.xlsx', xlsx],
      ]);
      expect(mail!.attachments[0]!.content.equals(csv)).toBe(true);
      expect(mail!.attachments[1]!.content.equals(binary)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes .eml files into the outbox', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-outbox-'));
    try {
      const sent = await createMailer({ mailTransport: 'file', smtpUrl: null, mailFrom: 'no-reply@adtech.example', mailOutboxDir: dir }).send(message);
      expect(path.dirname(sent.file!)).toBe(dir);
      const [mail] = readOutbox(dir);
      expect(mail!.headers['mime-version']).toBe('1.0');
      expect(mail!.attachments[0]!.content.toString('utf8')).toContain('2025-03-04,12.500000');
      expect(fs.readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses header injection', async () => {
    await expect(buildMime({ ...message, to: ['a@adtech.example\r\nBcc: x@evil.example'] }, { from: 'x@adtech.example' })).rejects.toThrow(/invalid mail address/);
    await expect(buildMime(message, { from: 'Evil <x@adtech.example>\r\nBcc: y@evil.example' })).rejects.toThrow(/invalid mail address/);
    const { raw } = await buildMime({ ...message, subject: 'a\r\nBcc: y@evil.example' }, { from: 'x@adtech.example' });
    expect(raw.toString('utf8')).not.toMatch(/^Bcc:/im);
  });

  it('chooses the transport from MAIL_TRANSPORT and SMTP_URL', () => {
    expect(loadConfig({ DATA_DIR: '/tmp/bo-x' })).toMatchObject({ mailTransport: 'file', smtpUrl: null, mailOutboxDir: '/tmp/bo-x/outbox', mailFrom: 'Back Office <no-reply@adtech.example>' });
    expect(loadConfig({ SMTP_URL: 'smtp://mx.example:25' }).mailTransport).toBe('smtp');
    expect(loadConfig({ SMTP_URL: 'smtp://mx.example:25', MAIL_TRANSPORT: 'file' }).mailTransport).toBe('file');
    expect(() => loadConfig({ MAIL_TRANSPORT: 'smtp' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ MAIL_TRANSPORT: 'pigeon' })).toThrow(/MAIL_TRANSPORT/);
    expect(() => loadConfig({ SMTP_URL: 'http://mx.example' })).toThrow(/SMTP_URL/);
  });
});
