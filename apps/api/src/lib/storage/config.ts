/**
 * Where the resources manager keeps its files (docs/decisions/045-resources-manager.md), from the
 * environment:
 *   RESOURCES_STORAGE      local (default: a folder, `<STORAGE_DIR>/resources/…`) or s3
 *   S3_ENDPOINT            https://s3.eu-west-1.amazonaws.com, https://<account>.r2.cloudflarestorage.com,
 *                          http://minio:9000 … (required with s3)
 *   S3_BUCKET, S3_REGION   the bucket (required) and its region (default us-east-1; R2 takes `auto`)
 *   S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY   the keys (required)
 *   S3_FORCE_PATH_STYLE    true (default): <endpoint>/<bucket>/<key>, what MinIO and most
 *                          S3-compatible servers expect; false: <bucket>.<endpoint host>/<key>
 *   RESOURCES_MAX_FILE_MB  the largest file (default 25)
 */
import { FILE_MAX_BYTES } from '@backoffice/core/files';

export interface S3Config {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export interface ResourcesStorageConfig {
  kind: 'local' | 's3';
  s3: S3Config | null;
  /** The largest file, bytes. */
  maxFileBytes: number;
}

export function resourcesStorageConfig(env: NodeJS.ProcessEnv): ResourcesStorageConfig {
  const kind = (env.RESOURCES_STORAGE?.trim() || 'local') as ResourcesStorageConfig['kind'];
  if (kind !== 'local' && kind !== 's3')
    throw new Error(`RESOURCES_STORAGE must be local or s3, got "${kind}"`);
  const mb = env.RESOURCES_MAX_FILE_MB?.trim();
  const maxFileBytes = mb ? Math.round(Number(mb) * 1024 * 1024) : FILE_MAX_BYTES;
  if (!Number.isFinite(maxFileBytes) || maxFileBytes < 1024)
    throw new Error(`RESOURCES_MAX_FILE_MB must be a number of megabytes, got "${mb}"`);
  if (kind === 'local') return { kind, s3: null, maxFileBytes };
  const need = (name: string) => {
    const v = env[name]?.trim();
    if (!v) throw new Error(`RESOURCES_STORAGE=s3 needs ${name}`);
    return v;
  };
  const endpoint = need('S3_ENDPOINT').replace(/\/+$/, '');
  if (!/^https?:\/\//.test(endpoint)) throw new Error('S3_ENDPOINT must start with http:// or https://');
  return {
    kind,
    maxFileBytes,
    s3: {
      endpoint,
      bucket: need('S3_BUCKET'),
      region: env.S3_REGION?.trim() || 'us-east-1',
      accessKeyId: need('S3_ACCESS_KEY_ID'),
      secretAccessKey: need('S3_SECRET_ACCESS_KEY'),
      forcePathStyle: !['0', 'false', 'no', 'off'].includes(
        (env.S3_FORCE_PATH_STYLE ?? 'true').trim().toLowerCase(),
      ),
    },
  };
}
