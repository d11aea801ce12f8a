/**
 * The VAST builder's own route (docs/decisions/038-vast-builder.md):
 *   POST /v1/builders/vast/load   {url} → the VAST document found there, fetched by the server
 * The screen then puts the document in the code view, where it is parsed (the form follows) and
 * checked against the XSD by the shared render route, as if it had been pasted.
 *
 * Fetching a URL a person types is a server-side request forgery risk, so the fetch is bounded:
 * http and https only; every address the host resolves to must be public (no loopback, private,
 * link-local, CGNAT, multicast or reserved ranges, IPv4 or IPv6), checked when the connection is
 * made (the `lookup` of the request, so a DNS answer cannot change between check and use); at
 * most 3 redirects, each checked the same way; 5 seconds in all; at most 1 MB. Tests serve their
 * stub on loopback: config.allowPrivateFetches (tests; never production) turns the address check off.
 * ACL: `/v1/builders` read (core BUILDER_PERMISSION.vast).
 */
import { BUILDER_PERMISSION } from '@backoffice/core/builders/common';
import { ok } from '@backoffice/core/envelope';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { acceptJsonBodiesOnly } from '../../lib/json-only.ts';
import { BLOCKED_ADDRESS_CODE, fetchOnce, literalBlocked, type Hop } from '../../lib/outbound-fetch.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';

export const VAST_LOAD_MAX_BYTES = 1024 * 1024;
export const VAST_LOAD_TIMEOUT_MS = 5000;
export const VAST_LOAD_MAX_REDIRECTS = 3;

export const vastLoadBodySchema = z.strictObject({ url: z.string().trim().min(1, 'vast.rule.required').max(4096, 'vast.rule.url') });

export interface VastLoadAnswer {
  code: string;
  /** Where the document was found (after redirects). */
  url: string;
  content_type: string | null;
  bytes: number;
}

const failure = (key: string, params?: Record<string, string | number>) => new AppError(422, key, { errors: { url: key }, ...(params ? { params } : {}) });

/**
 * Fetches a VAST document with the limits above. Throws AppError 422 with a `vast.load.*` key
 * (at field `url`) when it is refused or fails.
 */
export async function loadVastFromUrl(text: string, opts: { allowPrivate: boolean; timeoutMs?: number }): Promise<VastLoadAnswer> {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw failure('vast.rule.url');
  }
  const signal = AbortSignal.timeout(opts.timeoutMs ?? VAST_LOAD_TIMEOUT_MS);
  for (let redirects = 0; ; redirects++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw failure('vast.load.refused_scheme');
    if (url.username || url.password) throw failure('vast.load.refused_scheme');
    if (!opts.allowPrivate && literalBlocked(url)) throw failure('vast.load.refused_address');
    let hop: Hop;
    try {
      hop = await fetchOnce(url, { signal, allowPrivate: opts.allowPrivate, accept: 'application/xml, text/xml, */*;q=0.5', userAgent: 'BackOffice-VAST-builder/1.0', maxBytes: VAST_LOAD_MAX_BYTES, overLimit: 'refuse' });
    } catch (err) {
      if (err instanceof AppError) throw err;
      const e = err as NodeJS.ErrnoException;
      if (signal.aborted || e.name === 'AbortError' || e.name === 'TimeoutError') throw failure('vast.load.timeout');
      if (e.code === BLOCKED_ADDRESS_CODE) throw failure('vast.load.refused_address');
      if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') throw failure('vast.load.unresolvable');
      throw failure('vast.load.failed', { message: (e.code ?? e.message ?? String(err)).slice(0, 200) });
    }
    if (hop.location !== null) {
      if (redirects >= VAST_LOAD_MAX_REDIRECTS) throw failure('vast.load.too_many_redirects');
      try {
        url = new URL(hop.location, url);
      } catch {
        throw failure('vast.load.failed', { message: 'bad redirect location' });
      }
      continue;
    }
    if (hop.status < 200 || hop.status >= 300) throw failure('vast.load.http_status', { status: hop.status });
    if (hop.overflow) throw failure('vast.load.too_large');
    const body = hop.body;
    const code = body.toString('utf8').replace(/^\uFEFF/, '');
    if (code.trim() === '') throw failure('vast.load.empty');
    return { code, url: url.toString(), content_type: hop.contentType, bytes: body.length };
  }
}

export async function vastBuilderRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  acceptJsonBodiesOnly(root);
  const app = root.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/v1/builders/vast/load',
      {
        config: { auth: { permission: { resource: BUILDER_PERMISSION.vast, action: 'read' } } },
        schema: {
          tags: ['builders'],
          summary: 'Fetch a VAST document from a URL for the VAST builder (the screen then reads and checks it as pasted code)',
          description:
            `Body {url}: http or https only; every address the host resolves to must be public (loopback, private, link-local and reserved ranges are refused: 422 vast.load.refused_address); ` +
            `at most ${VAST_LOAD_MAX_REDIRECTS} redirects (vast.load.too_many_redirects), ${VAST_LOAD_TIMEOUT_MS / 1000} s (vast.load.timeout) and ${VAST_LOAD_MAX_BYTES} bytes (vast.load.too_large); ` +
            'another HTTP status answers vast.load.http_status. Answer {code, url (after redirects), content_type, bytes}. Nothing is stored. ACL: /v1/builders read.',
          body: vastLoadBodySchema,
          response: { 400: errorEnvelopeSchema, 422: errorEnvelopeSchema },
        },
      },
      async (request) => ok(await loadVastFromUrl(request.body.url, { allowPrivate: ctx.config.allowPrivateFetches })),
    );
}
