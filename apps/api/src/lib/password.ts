/**
 * Password hashing with node:crypto scrypt: a random 16-byte salt per hash, parameters stored in
 * the hash (`scrypt$N$r$p$salt$hash`, base64) so they can be raised later, constant-time compare.
 * Hashes are never logged or returned by the API.
 */
import crypto from 'node:crypto';

const KEY_LENGTH = 64;
const SALT_LENGTH = 16;
/**
 * N=2^14, r=8, p=1 (16 MiB, ~50-80 ms per hash here): the scrypt cost Node and the RFC 7914
 * interactive-login guidance use. Stored per hash, so raising it later keeps old hashes valid.
 */
export const SCRYPT_DEFAULTS = { N: 16384, r: 8, p: 1 } as const;

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

function scrypt(password: string, salt: Buffer, keylen: number, params: ScryptParams): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must exceed 128 * N * r * p.
    const maxmem = 256 * params.N * params.r * params.p;
    crypto.scrypt(password.normalize('NFC'), salt, keylen, { ...params, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string, params: ScryptParams = SCRYPT_DEFAULTS): Promise<string> {
  const salt = crypto.randomBytes(SALT_LENGTH);
  const key = await scrypt(password, salt, KEY_LENGTH, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

interface ParsedHash extends ScryptParams {
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return null;
  // Refuse absurd parameters from a tampered row rather than allocate gigabytes.
  if (N > 2 ** 20 || r > 32 || p > 16 || (N & (N - 1)) !== 0) return null;
  const salt = Buffer.from(parts[4]!, 'base64');
  const key = Buffer.from(parts[5]!, 'base64');
  if (salt.length === 0 || key.length === 0) return null;
  return { N, r, p, salt, key };
}

/** True when `password` matches `stored`; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const key = await scrypt(password, parsed.salt, parsed.key.length, parsed);
  return key.length === parsed.key.length && crypto.timingSafeEqual(key, parsed.key);
}

let dummyHash: Promise<string> | null = null;

/**
 * Spends the same work as a real verification when there is no account to check, so the answer
 * time does not tell whether an account exists.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword(crypto.randomBytes(18).toString('base64'));
  await verifyPassword(password, await dummyHash);
  return false;
}

/** Minimum rules for a password set through the user command. Returns a problem, or null. */
export function passwordProblem(password: string, opts: { demoPassword?: string; production?: boolean } = {}): string | null {
  if (password.length < 8) return 'must have at least 8 characters';
  if (password.length > 256) return 'must have at most 256 characters';
  if (!/[a-zA-Z]/.test(password) || !/[^a-zA-Z]/.test(password)) return 'must mix letters with digits or symbols';
  if (opts.production && opts.demoPassword !== undefined && password === opts.demoPassword) {
    return 'must not be the demo password in production';
  }
  return null;
}
