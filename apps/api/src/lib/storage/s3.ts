/**
 * The storage interface (lib/storage.ts) on an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO,
 * Ceph…): four object calls signed with AWS Signature V4 by aws4fetch (docs/decisions/045: a
 * small, dependency-free signer over the platform's fetch, where the AWS SDK would bring ~100
 * packages for the same four calls).
 *   put    PUT /<bucket>/<key> with the whole body (the resources manager's files are bounded
 *          by its upload limit and already in memory) and its SHA-256 in x-amz-content-sha256
 *   get    GET: the body streamed; 404 is StorageNotFoundError
 *   size   HEAD: Content-Length, or null on 404
 *   delete HEAD (was there one?) then DELETE (S3 answers 204 either way)
 * Keys are checked with the local adapter's rule (storageKeySegments) and each segment is
 * URI-encoded. Any other answer is an S3StorageError with the status and S3's error code.
 */
import { AwsClient } from 'aws4fetch';
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { StorageNotFoundError, storageKeySegments, type Storage } from '../storage.ts';
import type { S3Config } from './config.ts';

export class S3StorageError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    operation: string,
    key: string,
  ) {
    super(`s3: ${operation} ${key} answered ${status}${code ? ` ${code}` : ''}`);
    this.name = 'S3StorageError';
  }
}

async function collect(body: Readable | AsyncIterable<Uint8Array | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function errorCode(res: Response): Promise<string | null> {
  const text = await res.text().catch(() => '');
  return /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? null;
}

export function s3Storage(config: S3Config, fetchImpl: typeof fetch = fetch): Storage {
  const client = new AwsClient({
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    region: config.region,
    service: 's3',
    retries: 2,
  });
  const endpoint = new URL(config.endpoint);
  const urlOf = (key: string) => {
    const path = storageKeySegments(key).map(encodeURIComponent).join('/');
    if (config.forcePathStyle)
      return `${endpoint.origin}${endpoint.pathname.replace(/\/$/, '')}/${encodeURIComponent(config.bucket)}/${path}`;
    return `${endpoint.protocol}//${config.bucket}.${endpoint.host}/${path}`;
  };
  const call = async (
    method: string,
    key: string,
    init: { body?: Buffer; headers?: Record<string, string> } = {},
  ) => {
    // A plain Uint8Array copy: the DOM's BodyInit (as bench's tsconfig types fetch) takes no Buffer.
    const body = init.body ? Uint8Array.from(init.body) : undefined;
    const request = await client.sign(urlOf(key), { method, body, headers: init.headers });
    return fetchImpl(request);
  };
  const head = async (key: string): Promise<number | null> => {
    const res = await call('HEAD', key);
    if (res.status === 404) return null;
    if (!res.ok) throw new S3StorageError(res.status, null, 'HEAD', key);
    return Number(res.headers.get('content-length') ?? '0');
  };
  return {
    async put(key, body) {
      const data = await collect(body);
      const res = await call('PUT', key, {
        body: data,
        headers: {
          'content-type': 'application/octet-stream',
          'x-amz-content-sha256': crypto.createHash('sha256').update(data).digest('hex'),
        },
      });
      if (!res.ok) throw new S3StorageError(res.status, await errorCode(res), 'PUT', key);
      await res.arrayBuffer().catch(() => undefined);
      return { key, bytes: data.length };
    },
    async get(key) {
      const res = await call('GET', key);
      if (res.status === 404) {
        await res.arrayBuffer().catch(() => undefined);
        throw new StorageNotFoundError(key);
      }
      if (!res.ok || !res.body) throw new S3StorageError(res.status, await errorCode(res), 'GET', key);
      return Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>);
    },
    size: head,
    async exists(key) {
      return (await head(key)) !== null;
    },
    async delete(key) {
      const had = (await head(key)) !== null;
      if (!had) return false;
      const res = await call('DELETE', key);
      if (!res.ok && res.status !== 404)
        throw new S3StorageError(res.status, await errorCode(res), 'DELETE', key);
      await res.arrayBuffer().catch(() => undefined);
      return true;
    },
  };
}
