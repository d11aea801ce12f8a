/**
 * The resources manager (`/v1/resources-manager`) through the HTTP API, on the local storage
 * adapter and on an S3-compatible one (a stub S3 server in this file that checks every request's
 * AWS Signature V4 the way S3 does, and keeps the objects in memory):
 * - uploads: two files at once into a folder (listed with type, size, owner; the bytes stored as
 *   sent); the type read from the bytes: an executable named .png, text named .png, a PNG named
 *   .pdf are refused with translated messages and nothing is kept (all or none); empty; too large;
 *   names sanitised; no multipart;
 * - the list: search by name, filter by folder and type, sort by size, pages, CSV export;
 * - downloads: Content-Type from the bytes, nosniff, Content-Disposition attachment (inline only for
 *   a preview of an image or PDF), the UTF-8 name;
 * - rename (version; 409 when stale; the extension kept), bulk move, delete (one, several; the bytes
 *   leave the storage; a retried delete deletes nothing twice), folders (create, unique names, no
 *   move into itself, only empty ones deleted, 409 when stale), every change audited;
 * - the ACL of the protected area: nothing without it (403, the bypass marker does not open it),
 *   read-only reads, write without delete cannot delete;
 * - the storage adapters' contract, the same on the local folder and on S3.
 */
import { AwsV4Signer } from 'aws4fetch';
import type { ResourceFileRow, ResourceFolder } from '@backoffice/core/files';
import { and, eq, sql } from 'drizzle-orm';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema.ts';
import { resourceFiles } from '../src/db/schema-files.ts';
import { localStorage, StorageNotFoundError, type Storage } from '../src/lib/storage.ts';
import { resourcesStorageConfig } from '../src/lib/storage/config.ts';
import { s3Storage } from '../src/lib/storage/s3.ts';
import { demoPdf } from '../src/modules/resources-manager/demo.ts';
import { userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

const BASE = '/v1/resources-manager';
type Page<T> = { items: T[]; total: number };

/** A multipart body as a browser sends it (undici's FormData encoder), files as `files[]`. */
async function multipart(
  files: { data: Buffer; name: string; type?: string }[],
  fields: Record<string, string> = {},
  field = 'files[]',
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append(field, new Blob([f.data], { type: f.type ?? 'application/octet-stream' }), f.name);
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await req.arrayBuffer()), contentType: req.headers.get('content-type')! };
}

const png = (width = 64, height = 48, colour = '#1d4f91') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
/** The start of a Windows executable (MZ header, PE offset, PE signature). */
function exe(): Buffer {
  const b = Buffer.alloc(512);
  b.write('MZ', 0, 'ascii');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\0\0', 0x80, 'binary');
  return b;
}

// ---------------------------------------------------------------------------------------------
// A stub S3 server: path-style buckets, objects in memory, every request's SigV4 checked.

interface StubS3 {
  url: string;
  objects: Map<string, Buffer>;
  requests: { method: string; path: string; authorization: string; sha256: string | null }[];
  close(): Promise<void>;
}

async function startStubS3(opts: {
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}): Promise<StubS3> {
  const objects = new Map<string, Buffer>();
  const requests: StubS3['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const data = Buffer.concat(chunks);
        const authorization = String(req.headers.authorization ?? '');
        const sha256 = (req.headers['x-amz-content-sha256'] as string | undefined) ?? null;
        requests.push({ method: req.method!, path: req.url!, authorization, sha256 });
        const fail = (status: number, code: string) => {
          res.writeHead(status, { 'content-type': 'application/xml' });
          res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code></Error>`);
        };
        // What S3 does: recompute the signature from the signed headers and compare.
        const m =
          /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
            authorization,
          );
        if (!m || m[1] !== opts.accessKeyId || m[3] !== opts.region) return fail(403, 'InvalidAccessKeyId');
        const signedNames = m[4]!.split(';');
        const headers: Record<string, string> = {};
        for (const name of signedNames) if (name !== 'host') headers[name] = String(req.headers[name] ?? '');
        const signer = new AwsV4Signer({
          method: req.method!,
          url: `http://${req.headers.host}${req.url}`,
          headers,
          accessKeyId: opts.accessKeyId,
          secretAccessKey: opts.secretAccessKey,
          region: opts.region,
          service: 's3',
          datetime: String(req.headers['x-amz-date']),
        });
        const expected = (await signer.sign()).headers.get('authorization');
        if (expected !== authorization) return fail(403, 'SignatureDoesNotMatch');
        if (req.method === 'PUT' && sha256 !== crypto.createHash('sha256').update(data).digest('hex'))
          return fail(400, 'XAmzContentSHA256Mismatch');
        const prefix = `/${opts.bucket}/`;
        if (!req.url!.startsWith(prefix)) return fail(404, 'NoSuchBucket');
        const key = decodeURIComponent(req.url!.slice(prefix.length));
        const object = objects.get(key);
        if (req.method === 'PUT') {
          objects.set(key, data);
          res.writeHead(200, { etag: `"${crypto.createHash('md5').update(data).digest('hex')}"` });
          return res.end();
        }
        if (req.method === 'DELETE') {
          objects.delete(key);
          res.writeHead(204);
          return res.end();
        }
        if (!object) {
          if (req.method === 'HEAD') {
            res.writeHead(404);
            return res.end();
          }
          return fail(404, 'NoSuchKey');
        }
        res.writeHead(200, {
          'content-length': String(object.length),
          'content-type': 'application/octet-stream',
        });
        res.end(req.method === 'HEAD' ? undefined : object);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const S3_KEYS = {
  bucket: 'bo-resources',
  accessKeyId: 'AKIDBACKOFFICETEST',
  secretAccessKey: 'test-secret-key-0123456789abcdef',
  region: 'eu-west-1',
};

// ---------------------------------------------------------------------------------------------

describe('storage adapters: one contract on the local folder and on S3', () => {
  let dir: string;
  let stub: StubS3;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-rm-contract-'));
    stub = await startStubS3(S3_KEYS);
  });
  afterAll(async () => {
    await stub?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  const read = async (s: Readable) => {
    const chunks: Buffer[] = [];
    for await (const c of s) chunks.push(Buffer.from(c as Buffer));
    return Buffer.concat(chunks);
  };

  const contract = (name: string, make: () => Storage) =>
    it(`${name}: put, get, size, exists, replace, delete; absent keys; unsafe keys refused`, async () => {
      const s = make();
      const key = 'resources/0123456789abcdef0123456789abcdef';
      const data = crypto.randomBytes(70_000);
      expect(await s.exists(key)).toBe(false);
      expect(await s.size(key)).toBeNull();
      await expect(s.get(key)).rejects.toBeInstanceOf(StorageNotFoundError);
      expect(await s.put(key, Readable.from([data.subarray(0, 1000), data.subarray(1000)]))).toEqual({
        key,
        bytes: data.length,
      });
      expect(await s.exists(key)).toBe(true);
      expect(await s.size(key)).toBe(data.length);
      expect((await read(await s.get(key))).equals(data)).toBe(true);
      await s.put(key, Readable.from([Buffer.from('second')]));
      expect((await read(await s.get(key))).toString()).toBe('second');
      expect(await s.delete(key)).toBe(true);
      expect(await s.delete(key)).toBe(false);
      expect(await s.exists(key)).toBe(false);
      for (const bad of ['../etc/passwd', '/abs', 'a//b', 'resources/..', ''])
        await expect(s.put(bad, Readable.from([Buffer.from('x')]))).rejects.toThrow(/invalid key/);
    });

  contract('local folder', () => localStorage(dir));
  contract('S3 (stub server, path style)', () =>
    s3Storage({ endpoint: stub.url, forcePathStyle: true, ...S3_KEYS }),
  );

  it('S3: requests are path-style, SigV4-signed for the bucket region, with the body hash on PUT; errors carry S3 codes', async () => {
    stub.requests.length = 0;
    const s = s3Storage({ endpoint: stub.url, forcePathStyle: true, ...S3_KEYS });
    const data = Buffer.from('hello, bucket');
    await s.put('resources/abc', Readable.from([data]));
    const put = stub.requests.find((r) => r.method === 'PUT')!;
    expect(put.path).toBe('/bo-resources/resources/abc');
    expect(put.sha256).toBe(crypto.createHash('sha256').update(data).digest('hex'));
    expect(put.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDBACKOFFICETEST\/\d{8}\/eu-west-1\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]*x-amz-content-sha256;x-amz-date/,
    );
    // Wrong keys: the stub refuses the signature, and the adapter says so.
    const wrong = s3Storage({
      endpoint: stub.url,
      forcePathStyle: true,
      ...S3_KEYS,
      secretAccessKey: 'not-the-secret',
    });
    await expect(wrong.put('resources/abc', Readable.from([data]))).rejects.toMatchObject({
      name: 'S3StorageError',
      status: 403,
      code: 'SignatureDoesNotMatch',
    });
  });

  it('configuration: local by default; s3 needs its endpoint, bucket and keys', () => {
    expect(resourcesStorageConfig({}).kind).toBe('local');
    expect(resourcesStorageConfig({ RESOURCES_MAX_FILE_MB: '2' }).maxFileBytes).toBe(2 * 1048576);
    expect(() => resourcesStorageConfig({ RESOURCES_STORAGE: 's3' })).toThrow(/S3_ENDPOINT/);
    expect(() => resourcesStorageConfig({ RESOURCES_STORAGE: 'ftp' })).toThrow(/local or s3/);
    const s3 = resourcesStorageConfig({
      RESOURCES_STORAGE: 's3',
      S3_ENDPOINT: 'https://s3.eu-west-1.amazonaws.com/',
      S3_BUCKET: 'b',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      S3_FORCE_PATH_STYLE: 'false',
    });
    expect(s3.s3).toEqual({
      endpoint: 'https://s3.eu-west-1.amazonaws.com',
      bucket: 'b',
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: false,
    });
  });
});

describe('resources manager (local storage)', () => {
  let t: TestApp;
  let storageDir: string;
  let marketing: Record<string, string>;
  let marketingId: number;
  let reader: Record<string, string>;
  let writer: Record<string, string>;
  let none: Record<string, string>;
  let bypass: Record<string, string>;
  const MAX = 200 * 1024;

  beforeAll(async () => {
    storageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-rm-'));
    t = await createTestApp({ storageDir, resourcesStorage: { kind: 'local', s3: null, maxFileBytes: MAX } });
    const m = await signIn(t.app, 'marketing@adtech.example');
    marketing = m.headers;
    marketingId = m.session.id;
    reader = (await userWithAcl(t.app, 'rm.reader@adtech.example', { resources_manager: ['read'] })).headers;
    writer = (await userWithAcl(t.app, 'rm.writer@adtech.example', { resources_manager: ['read', 'write'] }))
      .headers;
    none = (await userWithAcl(t.app, 'rm.none@adtech.example', { '/v1/creatives': ['*'] })).headers;
    bypass = (await userWithAcl(t.app, 'rm.bypass@adtech.example', { __bypass__: ['*'] })).headers;
  });
  afterAll(async () => {
    await t?.close();
    if (storageDir) fs.rmSync(storageDir, { recursive: true, force: true });
  });

  const db = () => t.app.ctx.database.db;
  const upload = async (
    files: Parameters<typeof multipart>[0],
    fields: Record<string, string> = {},
    headers = marketing,
    lang = 'en',
  ) => {
    const { payload, contentType } = await multipart(files, fields);
    return t.app.inject({
      method: 'POST',
      url: `${BASE}/files`,
      headers: { ...headers, 'content-type': contentType, 'accept-language': lang },
      payload,
    });
  };
  const json = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    headers = marketing,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...headers, 'accept-language': 'en' },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const list = async (qs = '', headers = marketing) => {
    const res = await json('GET', `${BASE}/files${qs}`, undefined, headers);
    expect(res.statusCode, res.body).toBe(200);
    return body<Page<ResourceFileRow>>(res).data;
  };
  const fileCount = async () =>
    Number(
      (
        await db()
          .select({ n: sql<number>`count(*)::int` })
          .from(resourceFiles)
      )[0]!.n,
    );
  const storedObjects = () => {
    const d = path.join(storageDir, 'resources');
    return fs.existsSync(d) ? fs.readdirSync(d).filter((f) => !f.endsWith('.part')) : [];
  };
  const newFolder = async (name: string, parent_id: number | null = null) => {
    const res = await json('POST', `${BASE}/folders`, { name, parent_id });
    expect(res.statusCode, res.body).toBe(201);
    return body<ResourceFolder>(res).data;
  };

  let banner: Buffer;
  let kit: Buffer;
  let uploaded: ResourceFileRow[] = [];
  let folder: ResourceFolder;

  it('uploads two files at once into a folder: listed with type, size, owner and folder; bytes stored as sent; audited', async () => {
    banner = await png(300, 250, '#e63946');
    kit = await demoPdf('Media kit', ['Premium inventory across Europe.']);
    folder = await newFolder('Media kits');
    const res = await upload(
      [
        { data: banner, name: 'Black Friday 300x250.png', type: 'image/png' },
        { data: kit, name: 'Media kit 2026.pdf', type: 'application/pdf' },
      ],
      { folder_id: String(folder.id) },
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(body(res).message).toBe('files.upload.done');
    uploaded = body<{ files: ResourceFileRow[] }>(res).data.files;
    expect(uploaded.map((f) => [f.name, f.kind, f.mime, f.bytes, f.folder_id, f.owner_id])).toEqual([
      ['Black Friday 300x250.png', 'image', 'image/png', banner.length, folder.id, marketingId],
      ['Media kit 2026.pdf', 'pdf', 'application/pdf', kit.length, folder.id, marketingId],
    ]);
    const page = await list(`?f[folder_id]=${folder.id}&sort=name`);
    expect(page.total).toBe(2);
    expect(page.items[0]).toMatchObject({
      name: 'Black Friday 300x250.png',
      kind: 'image',
      bytes: banner.length,
      owner_id_label: 'Sophie Laurent',
      folder_id_label: 'Media kits',
    });
    expect(typeof page.items[0]!.created_at).toBe('string');
    expect(storedObjects()).toHaveLength(2);
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'resource_file.upload'), eq(auditLog.actorId, marketingId)));
    expect(audits.map((a) => (a.after as { name: string }).name).sort()).toEqual([
      'Black Friday 300x250.png',
      'Media kit 2026.pdf',
    ]);
    // The folder tree counts them.
    const folders = body<ResourceFolder[]>(await json('GET', `${BASE}/folders`)).data;
    expect(folders.find((f) => f.id === folder.id)?.files).toBe(2);
  });

  it('reads the type from the bytes: an executable named .png, text named .png and a PNG named .pdf are refused, translated, and nothing is kept', async () => {
    const before = await fileCount();
    const objects = storedObjects().length;
    const bad = await upload([{ data: exe(), name: 'invoice.png', type: 'image/png' }]);
    expect(bad.statusCode).toBe(415);
    expect(body(bad).message).toBe('files.upload.type_refused');
    expect(
      body<{ files: { index: number; key: string; params: Record<string, string> }[] }>(bad).data.files,
    ).toEqual([
      {
        index: 0,
        name: 'invoice.png',
        key: 'files.upload.type_refused',
        params: { ext: 'png', type: 'EXE' },
      },
    ]);
    const es = await upload([{ data: exe(), name: 'factura.png' }], {}, marketing, 'es');
    expect((es.json() as { text?: string }).text).toBe(
      'Este archivo .png es en realidad un archivo EXE, que no se acepta',
    );

    const text = await upload([{ data: Buffer.from('just some text, not an image'), name: 'logo.png' }]);
    expect(text.statusCode).toBe(415);
    expect(body(text).message).toBe('files.upload.type_unknown');

    const mismatch = await upload([{ data: banner, name: 'contract.pdf', type: 'application/pdf' }]);
    expect(mismatch.statusCode).toBe(415);
    expect(body(mismatch).message).toBe('files.upload.type_mismatch');

    // Several at once with one bad file: none is kept.
    const mixed = await upload([
      { data: banner, name: 'ok.png' },
      { data: exe(), name: 'setup.pdf' },
    ]);
    expect(mixed.statusCode).toBe(415);
    expect(body(mixed).errors).toEqual({ 'files.1': 'files.upload.type_refused' });
    expect(await fileCount()).toBe(before);
    expect(storedObjects()).toHaveLength(objects);
  });

  it('refuses an empty file, a file over the limit, no file and a body that is not multipart; takes CSV as text', async () => {
    const empty = await upload([{ data: Buffer.alloc(0), name: 'empty.png' }]);
    expect(empty.statusCode).toBe(400);
    expect(body(empty).message).toBe('files.upload.empty');

    const big = Buffer.concat([banner, crypto.randomBytes(MAX)]);
    const large = await upload([{ data: big, name: 'huge.png' }]);
    expect(large.statusCode).toBe(413);
    expect(body(large).message).toBe('files.upload.too_large');

    const nothing = await upload([], { folder_id: '' });
    expect(nothing.statusCode).toBe(400);
    expect(body(nothing).message).toBe('files.upload.none');

    const notForm = await json('POST', `${BASE}/files`, { files: [] });
    expect(notForm.statusCode).toBe(415);

    const unknownFolder = await upload([{ data: banner, name: 'a.png' }], { folder_id: '999999' });
    expect(unknownFolder.statusCode).toBe(400);
    expect(body(unknownFolder).errors).toEqual({ folder_id: 'files.folder.unknown' });

    const csv = await upload([
      {
        data: Buffer.from('publisher;floor_eur\nPrensa Ibérica;0.85\n'),
        name: 'floors.csv',
        type: 'text/csv',
      },
    ]);
    expect(csv.statusCode, csv.body).toBe(201);
    expect(body<{ files: ResourceFileRow[] }>(csv).data.files[0]).toMatchObject({
      kind: 'csv',
      mime: 'text/csv',
      folder_id: null,
    });
  });

  it('sanitises names: no path, no reserved or control characters', async () => {
    const res = await upload([{ data: banner, name: '../../etc/pass<wd>\u0007.png' }]);
    expect(res.statusCode, res.body).toBe(201);
    expect(body<{ files: ResourceFileRow[] }>(res).data.files[0]!.name).toBe('pass_wd_.png');
  });

  it('lists with search by name, type filter, size sort and pages; exports what is filtered', async () => {
    const byName = await list('?f[name]=black');
    expect(byName.items.map((f) => f.name)).toEqual(['Black Friday 300x250.png']);
    const pdfs = await list('?f[kind]=pdf');
    expect(pdfs.items.every((f) => f.kind === 'pdf')).toBe(true);
    expect(pdfs.total).toBe(1);
    const bySize = await list('?sort=-bytes&page_size=2');
    expect(bySize.items).toHaveLength(2);
    expect(bySize.items[0]!.bytes).toBeGreaterThanOrEqual(bySize.items[1]!.bytes);
    expect(bySize.total).toBeGreaterThan(2);
    const bad = await json('GET', `${BASE}/files?f[storage_key]=x`);
    expect(bad.statusCode).toBe(400);
    const csv = await json('GET', `${BASE}/files/export?format=csv&f[kind]=image`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/resources_files_\d{4}-\d{2}-\d{2}_\d{6}\.csv/);
    expect(csv.body).toContain('Black Friday 300x250.png');
    expect(csv.body).not.toContain('Media kit 2026.pdf');
  });

  it('downloads with the type read from the bytes, nosniff and an attachment; previews images and PDFs inline only', async () => {
    const png = uploaded[0]!;
    const res = await json('GET', `${BASE}/files/${png.id}/content`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Black Friday 300x250.png"; filename*=UTF-8''Black%20Friday%20300x250.png`,
    );
    expect(res.rawPayload.equals(banner)).toBe(true);
    const inline = await json('GET', `${BASE}/files/${png.id}/content?inline=true`);
    expect(inline.headers['content-disposition']).toMatch(/^inline; /);
    expect(inline.headers['content-security-policy']).toContain('sandbox');
    const pdf = await json('GET', `${BASE}/files/${uploaded[1]!.id}/content?inline=true`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^inline; /);
    // A CSV is never shown inline.
    const csv = (await list('?f[kind]=csv')).items[0]!;
    const csvRes = await json('GET', `${BASE}/files/${csv.id}/content?inline=true`);
    expect(csvRes.headers['content-disposition']).toMatch(/^attachment; /);
    expect(csvRes.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect((await json('GET', `${BASE}/files/999999/content`)).statusCode).toBe(404);
  });

  it('renames with the version (409 when stale), keeps the extension, and shows the history', async () => {
    const f = uploaded[0]!;
    const renamed = await json('PUT', `${BASE}/files/${f.id}`, {
      name: 'Black Friday MPU.png',
      folder_id: f.folder_id,
      version: f.version,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(body<ResourceFileRow>(renamed).data).toMatchObject({
      name: 'Black Friday MPU.png',
      version: f.version + 1,
    });
    const stale = await json('PUT', `${BASE}/files/${f.id}`, {
      name: 'Other.png',
      folder_id: f.folder_id,
      version: f.version,
    });
    expect(stale.statusCode).toBe(409);
    expect(body(stale).message).toBe('resource.conflict');
    const ext = await json('PUT', `${BASE}/files/${f.id}`, {
      name: 'Black Friday MPU.exe',
      folder_id: f.folder_id,
      version: f.version + 1,
    });
    expect(ext.statusCode).toBe(400);
    expect(body(ext).errors).toEqual({ name: 'files.rename.extension' });
    const history = body<{ action: string; changes: Record<string, unknown> }[]>(
      await json('GET', `${BASE}/files/${f.id}/history`),
    ).data;
    expect(history.some((h) => h.action === 'resource_file.update' && 'name' in h.changes)).toBe(true);
    // The download carries the new name.
    expect((await json('GET', `${BASE}/files/${f.id}/content`)).headers['content-disposition']).toContain(
      'Black Friday MPU.png',
    );
  });

  it('manages folders: nested, unique names among siblings, no move into itself, 409 when stale, only empty ones deleted', async () => {
    const brand = await newFolder('Brand assets');
    const logos = await newFolder('Logos', brand.id);
    const dup = await json('POST', `${BASE}/folders`, { name: 'brand ASSETS', parent_id: null });
    expect(dup.statusCode).toBe(400);
    expect(body(dup).errors).toEqual({ name: 'files.folder.name_taken' });
    // The same name under another parent is fine.
    await newFolder('Logos');
    const into = await json('PUT', `${BASE}/folders/${brand.id}`, {
      name: 'Brand assets',
      parent_id: logos.id,
      version: brand.version,
    });
    expect(into.statusCode).toBe(400);
    expect(body(into).errors).toEqual({ parent_id: 'files.folder.into_itself' });
    const renamed = await json('PUT', `${BASE}/folders/${brand.id}`, {
      name: 'Brand',
      parent_id: null,
      version: brand.version,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const stale = await json('PUT', `${BASE}/folders/${brand.id}`, {
      name: 'Brand 2',
      parent_id: null,
      version: brand.version,
    });
    expect(stale.statusCode).toBe(409);
    const notEmpty = await json('DELETE', `${BASE}/folders/${brand.id}`);
    expect(notEmpty.statusCode).toBe(409);
    expect(body(notEmpty).message).toBe('files.folder.not_empty');
    expect((await json('DELETE', `${BASE}/folders/${logos.id}`)).statusCode).toBe(200);
    expect((await json('DELETE', `${BASE}/folders/${brand.id}`)).statusCode).toBe(200);
    expect((await json('DELETE', `${BASE}/folders/${brand.id}`)).statusCode).toBe(404);
    const actions = (
      await db()
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(eq(auditLog.entity, 'resource_folder'))
    ).map((a) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining(['resource_folder.create', 'resource_folder.update', 'resource_folder.delete']),
    );
  });

  it('moves several files at once (audited) and refuses an unknown folder', async () => {
    const target = await newFolder('Archive 2025');
    const ids = uploaded.map((f) => f.id);
    const res = await json('POST', `${BASE}/files/move`, { ids, folder_id: target.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<{ moved: number[] }>(res).data.moved.sort()).toEqual([...ids].sort());
    expect((await list(`?f[folder_id]=${target.id}`)).total).toBe(2);
    const unknown = await json('POST', `${BASE}/files/move`, { ids, folder_id: 999999 });
    expect(unknown.statusCode).toBe(400);
    expect((await json('POST', `${BASE}/files/move`, { ids: [], folder_id: null })).statusCode).toBe(400);
    uploaded = (await list(`?f[folder_id]=${target.id}&sort=name`)).items;
  });

  it('deletes one file and several (audited; the bytes leave the storage; a retried delete deletes nothing twice)', async () => {
    const objects = storedObjects().length;
    const [first, second] = uploaded;
    const one = await json('DELETE', `${BASE}/files/${first!.id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(storedObjects()).toHaveLength(objects - 1);
    expect((await json('DELETE', `${BASE}/files/${first!.id}`)).statusCode).toBe(404);
    const many = await json('POST', `${BASE}/files/delete`, { ids: [second!.id, first!.id] });
    expect(many.statusCode).toBe(200);
    expect(body(many).data).toEqual({ deleted: [second!.id], missing: [first!.id] });
    expect(storedObjects()).toHaveLength(objects - 2);
    const again = await json('POST', `${BASE}/files/delete`, { ids: [second!.id] });
    expect(body(again).data).toEqual({ deleted: [], missing: [second!.id] });
    const deletes = await db().select().from(auditLog).where(eq(auditLog.action, 'resource_file.delete'));
    expect(deletes.map((d) => Number(d.entityId)).sort()).toEqual([first!.id, second!.id].sort());
    expect((deletes[0]!.before as { name: string }).name).toBeTruthy();
  });

  it('enforces the protected area: none or the bypass marker get 403; read-only reads; write without delete cannot delete', async () => {
    const [any] = (await list()).items;
    for (const headers of [none, bypass]) {
      expect((await json('GET', `${BASE}/files`, undefined, headers)).statusCode).toBe(403);
      expect((await json('GET', `${BASE}/folders`, undefined, headers)).statusCode).toBe(403);
      expect((await json('GET', `${BASE}/files/${any!.id}/content`, undefined, headers)).statusCode).toBe(
        403,
      );
      expect((await upload([{ data: banner, name: 'x.png' }], {}, headers)).statusCode).toBe(403);
    }
    expect((await list('', reader)).total).toBeGreaterThan(0);
    expect((await json('GET', `${BASE}/files/${any!.id}/content`, undefined, reader)).statusCode).toBe(200);
    expect((await upload([{ data: banner, name: 'x.png' }], {}, reader)).statusCode).toBe(403);
    expect(
      (
        await json(
          'PUT',
          `${BASE}/files/${any!.id}`,
          { name: 'y.png', folder_id: null, version: any!.version },
          reader,
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (await json('POST', `${BASE}/folders`, { name: 'Nope', parent_id: null }, reader)).statusCode,
    ).toBe(403);
    expect((await json('DELETE', `${BASE}/files/${any!.id}`, undefined, reader)).statusCode).toBe(403);
    // Write: upload and folders, but no delete.
    expect((await upload([{ data: banner, name: 'writer.png' }], {}, writer)).statusCode).toBe(201);
    expect((await json('DELETE', `${BASE}/files/${any!.id}`, undefined, writer)).statusCode).toBe(403);
    expect((await json('POST', `${BASE}/files/delete`, { ids: [any!.id] }, writer)).statusCode).toBe(403);
    const f = body<ResourceFolder>(
      await json('POST', `${BASE}/folders`, { name: 'Writer folder', parent_id: null }, writer),
    ).data;
    expect((await json('DELETE', `${BASE}/folders/${f.id}`, undefined, writer)).statusCode).toBe(403);
    expect(await fileCount()).toBeGreaterThan(0);
  });
});

describe('resources manager on an S3-compatible storage', () => {
  let t: TestApp;
  let stub: StubS3;
  let marketing: Record<string, string>;

  beforeAll(async () => {
    stub = await startStubS3(S3_KEYS);
    t = await createTestApp({
      resourcesStorage: {
        kind: 's3',
        maxFileBytes: 1048576,
        s3: { endpoint: stub.url, forcePathStyle: true, ...S3_KEYS },
      },
    });
    marketing = (await signIn(t.app, 'marketing@adtech.example')).headers;
  });
  afterAll(async () => {
    await t?.close();
    await stub?.close();
  });

  it('uploads into the bucket, downloads from it and deletes from it', async () => {
    const image = await png(120, 60, '#2a9d8f');
    const { payload, contentType } = await multipart([
      { data: image, name: 'CTV spring.png', type: 'image/png' },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `${BASE}/files`,
      headers: { ...marketing, 'content-type': contentType },
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const file = body<{ files: ResourceFileRow[] }>(res).data.files[0]!;
    expect(stub.objects.size).toBe(1);
    const [key, stored] = [...stub.objects.entries()][0]!;
    expect(key).toMatch(/^resources\/[0-9a-f]{32}$/);
    expect(stored.equals(image)).toBe(true);
    const got = await t.app.inject({
      method: 'GET',
      url: `${BASE}/files/${file.id}/content`,
      headers: marketing,
    });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(image)).toBe(true);
    expect(stub.requests.some((r) => r.method === 'GET' && r.path === `/bo-resources/${key}`)).toBe(true);
    const del = await t.app.inject({ method: 'DELETE', url: `${BASE}/files/${file.id}`, headers: marketing });
    expect(del.statusCode).toBe(200);
    expect(stub.objects.size).toBe(0);
    // Bytes gone from the bucket while the row stays: 410.
    const again = await t.app.inject({
      method: 'POST',
      url: `${BASE}/files`,
      headers: { ...marketing, 'content-type': contentType },
      payload,
    });
    const second = body<{ files: ResourceFileRow[] }>(again).data.files[0]!;
    stub.objects.clear();
    expect(
      (await t.app.inject({ method: 'GET', url: `${BASE}/files/${second.id}/content`, headers: marketing }))
        .statusCode,
    ).toBe(410);
  });
});
