/**
 * Prebid wrapper feed tokens (docs/decisions/020-prebid-floors-export.md, "Who can read it"): 32
 * random bytes (base64url) behind a recognisable `bofl_` prefix, as endpoint tokens are (decision
 * 013); the database keeps the SHA-256 and the last four characters only.
 */
import { createHash, randomBytes } from 'node:crypto';

export const FEED_TOKEN_PREFIX = 'bofl_';
/** A feed token: the prefix and 43 base64url characters (32 bytes). */
export const FEED_TOKEN_PATTERN = /^bofl_[A-Za-z0-9_-]{43}$/;
/** Where the public read lives; the token and `.json` follow. */
export const FEED_PATH_PREFIX = '/v1/public/floors/';

/** A new token and what the database keeps of it. */
export function newFeedToken(): { token: string; hash: string; hint: string } {
  const token = `${FEED_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashFeedToken(token), hint: token.slice(-4) };
}

export function hashFeedToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The public URL path of a token's feed. */
export function feedPath(token: string): string {
  return `${FEED_PATH_PREFIX}${token}.json`;
}

/**
 * A request URL as the request log writes it: a feed URL's token is a credential, so only its last
 * four characters are kept (`/v1/public/floors/bofl_…Ab3x.json`). Any other URL is unchanged.
 */
export function loggableUrl(url: string): string {
  if (!url.startsWith(FEED_PATH_PREFIX)) return url;
  const rest = url.slice(FEED_PATH_PREFIX.length);
  const end = rest.search(/[.?]/);
  const token = end === -1 ? rest : rest.slice(0, end);
  return `${FEED_PATH_PREFIX}${FEED_TOKEN_PREFIX}…${token.slice(-4)}${end === -1 ? '' : rest.slice(end)}`;
}
