/**
 * The resources manager's storage: the configured adapter (config.resourcesStorage: the local
 * folder by default, an S3-compatible bucket in production), one instance per configuration, with
 * every key under `resources/`.
 */
import { storageOf, type Storage } from '../storage.ts';
import type { ResourcesStorageConfig } from './config.ts';
import { s3Storage } from './s3.ts';

export const RESOURCES_PREFIX = 'resources';

const instances = new Map<string, Storage>();

export function resourcesStorageOf(config: {
  storageDir: string;
  resourcesStorage: ResourcesStorageConfig;
}): Storage {
  const s3 = config.resourcesStorage.kind === 's3' ? config.resourcesStorage.s3 : null;
  if (!s3) return storageOf(config);
  const id = `${s3.endpoint}|${s3.bucket}|${s3.region}|${s3.accessKeyId}|${s3.forcePathStyle}`;
  let s = instances.get(id);
  if (!s) {
    s = s3Storage(s3);
    instances.set(id, s);
  }
  return s;
}
