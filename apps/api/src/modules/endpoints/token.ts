/** Endpoint tokens: 32 random bytes (base64url) behind a recognisable prefix; kept as SHA-256 only. */
import { ENDPOINT_TOKEN_PREFIX } from '@backoffice/core/resources/endpoints';
import { createHash, randomBytes } from 'node:crypto';

/** A new token and what the database keeps of it. */
export function newEndpointToken(): { token: string; hash: string; hint: string } {
  const token = `${ENDPOINT_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashEndpointToken(token), hint: token.slice(-4) };
}

export function hashEndpointToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

