/**
 * File storage for what the server produces and keeps for a while (impression-log extracts; later
 * the resources manager's files). A small interface of streams, so a large file never sits in
 * memory, with one implementation today: a folder on the local disk (config.storageDir, by default
 * `<DATA_DIR>/storage`). An S3-style implementation (put = multipart upload of the stream, get = a
 * GetObject body, size = HeadObject, delete, exists) fits the same interface; see
 * docs/decisions/032-impression-logs.md.
 *
 * Keys are relative paths of safe segments (`impression-logs/42/file.csv.gz`): letters, digits,
 * `.`, `-`, `_`, separated by `/`; never `..`, never absolute.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredObject {
  key: string;
  bytes: number;
}

export interface Storage {
  /** Writes the stream under `key` (replacing what was there), atomically: readers see the old file or the whole new one. */
  put(key: string, body: Readable | AsyncIterable<Uint8Array | string>): Promise<StoredObject>;
  /** The content as a stream; throws StorageNotFoundError when absent. */
  get(key: string): Promise<Readable>;
  /** Size in bytes, or null when absent. */
  size(key: string): Promise<number | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the object; answers whether there was one. */
  delete(key: string): Promise<boolean>;
}

export class StorageNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`storage: no object ${key}`);
    this.name = 'StorageNotFoundError';
  }
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** Checks a key (throws on an unsafe one) and answers its segments. */
export function storageKeySegments(key: string): string[] {
  const parts = key.split('/');
  if (parts.length === 0 || parts.length > 16 || parts.some((p) => !SEGMENT.test(p) || p.includes('..'))) {
    throw new Error(`storage: invalid key "${key}"`);
  }
  return parts;
}

/** The local-disk implementation: one file per key under `root`. */
export function localStorage(root: string): Storage {
  const base = path.resolve(root);
  const fileOf = (key: string) => path.join(base, ...storageKeySegments(key));
  const statOf = async (key: string) => {
    try {
      const st = await fs.promises.stat(fileOf(key));
      return st.isFile() ? st : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  };
  return {
    async put(key, body) {
      const file = fileOf(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      // Written beside the target, then renamed over it: a crash mid-write leaves no half file under the key.
      const tmp = `${file}.${crypto.randomBytes(6).toString('hex')}.part`;
      try {
        const source = body instanceof Readable ? body : Readable.from(body);
        await pipeline(source, fs.createWriteStream(tmp, { flags: 'wx' }));
        await fs.promises.rename(tmp, file);
      } catch (err) {
        await fs.promises.rm(tmp, { force: true });
        throw err;
      }
      const st = await fs.promises.stat(file);
      return { key, bytes: st.size };
    },
    async get(key) {
      const file = fileOf(key);
      if (!(await statOf(key))) throw new StorageNotFoundError(key);
      return fs.createReadStream(file);
    },
    async size(key) {
      return (await statOf(key))?.size ?? null;
    },
    async exists(key) {
      return (await statOf(key)) !== null;
    },
    async delete(key) {
      const file = fileOf(key);
      try {
        await fs.promises.unlink(file);
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw err;
      }
    },
  };
}

const instances = new Map<string, Storage>();

/** The storage of a configuration (one instance per folder). */
export function storageOf(config: { storageDir: string }): Storage {
  let s = instances.get(config.storageDir);
  if (!s) {
    s = localStorage(config.storageDir);
    instances.set(config.storageDir, s);
  }
  return s;
}
