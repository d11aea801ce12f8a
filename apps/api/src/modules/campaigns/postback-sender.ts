/**
 * Sends a postback test: one GET of a resolved postback URL, with the bounds every server-side
 * fetch of a URL a person typed has here (the VAST builder's loader set them): http and https
 * only; every address the host resolves to must be public (loopback, private, link-local and
 * reserved ranges refused, checked when the connection is made so a DNS answer cannot change
 * between check and use; `allowPrivate` turns this off in tests and in the e2e suite); at most 3
 * redirects, each checked the same way; 5 seconds for the whole chain. Unlike a loader it keeps
 * whatever the receiving server answers (any status, the headers, the first 2 KB of the body): the
 * person testing wants to see a 404 or a 500 too.
 */
import { BLOCKED_ADDRESS_CODE, fetchOnce, literalBlocked, type Hop } from '../../lib/outbound-fetch.ts';

export const POSTBACK_TIMEOUT_MS = 5000;
export const POSTBACK_MAX_REDIRECTS = 3;
export const POSTBACK_BODY_BYTES = 2048;

/** What a test gave: an answer, or why there is none (a message key). */
export type PostbackOutcome =
  | {
      kind: 'answered';
      status: number;
      headers: Record<string, string>;
      body: string;
      redirects: string[];
      durationMs: number;
    }
  | {
      kind: 'refused' | 'failed';
      errorKey: string;
      detail: string | null;
      redirects: string[];
      durationMs: number;
    };

/** Sends the GET and tells what happened; never throws. */
export async function sendPostback(
  text: string,
  opts: { allowPrivate: boolean; timeoutMs?: number },
): Promise<PostbackOutcome> {
  const started = Date.now();
  const redirects: string[] = [];
  const elapsed = () => Date.now() - started;
  const refused = (errorKey: string, detail: string | null = null): PostbackOutcome => ({
    kind: 'refused',
    errorKey,
    detail,
    redirects,
    durationMs: elapsed(),
  });
  const failed = (errorKey: string, detail: string | null = null): PostbackOutcome => ({
    kind: 'failed',
    errorKey,
    detail,
    redirects,
    durationMs: elapsed(),
  });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refused('inputs.url.invalid');
  }
  const signal = AbortSignal.timeout(opts.timeoutMs ?? POSTBACK_TIMEOUT_MS);
  for (let hops = 0; ; hops++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return hops === 0
        ? refused('campaign.postback.http_only')
        : failed('campaign.postback.bad_redirect', url.toString());
    if (!opts.allowPrivate && literalBlocked(url))
      return refused('campaign.postback.private_address', url.hostname);
    let hop: Hop;
    try {
      hop = await fetchOnce(url, { signal, allowPrivate: opts.allowPrivate, accept: '*/*', userAgent: 'BackOffice-postback-test/1.0', maxBytes: POSTBACK_BODY_BYTES, overLimit: 'truncate' });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code === BLOCKED_ADDRESS_CODE) return refused('campaign.postback.private_address', e.message);
      if (signal.aborted || e.name === 'AbortError' || e.name === 'TimeoutError')
        return failed('campaign.postback.timeout');
      return failed('campaign.postback.network_error', (e.code ?? e.message ?? String(err)).slice(0, 200));
    }
    if (hop.location !== null) {
      if (hops >= POSTBACK_MAX_REDIRECTS)
        return failed('campaign.postback.too_many_redirects', hop.location.slice(0, 500));
      try {
        url = new URL(hop.location, url);
      } catch {
        return failed('campaign.postback.bad_redirect', hop.location.slice(0, 500));
      }
      redirects.push(url.toString());
      continue;
    }
    return {
      kind: 'answered',
      status: hop.status,
      headers: hop.headers,
      body: hop.body.toString('utf8'),
      redirects,
      durationMs: elapsed(),
    };
  }
}
