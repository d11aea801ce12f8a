/**
 * Security headers from helmet, computed once. @fastify/helmet runs helmet's middleware again on
 * every request (to allow per-route options and CSP nonces, which this app does not use); here
 * helmet runs once at start-up against a recording response, and every reply gets the recorded
 * header set in one call: the same headers, from the same library, for about 2 µs of CPU per
 * request instead of about 16 µs (docs/decisions/007, bench/plumbing/cors-helmet.ts).
 */
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The headers helmet sets for these options (names lower-case). */
export function helmetHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
    getHeader(name: string) {
      return headers[name.toLowerCase()];
    },
  };
  let failure: unknown = null;
  helmet(options)({ headers: {} } as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) failure = err;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}

/**
 * JSON API answers get the smaller set the OWASP REST Security Cheat Sheet gives for APIs: a CSP
 * that allows nothing (a JSON or SVG answer opened as a document can run nothing and cannot be
 * framed), HSTS, nosniff, no framing, no referrer and same-origin resources. Pages and static
 * files (the web app, the API docs) get helmet's full set above.
 */
export function apiHeaders(page: Readonly<Record<string, string>>): Record<string, string> {
  const headers: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
  };
  const hsts = page['strict-transport-security'];
  if (hsts) headers['strict-transport-security'] = hsts;
  return headers;
}

/** Is this request for the JSON API (not a page, a static file or the API docs)? */
export function isApiUrl(url: string): boolean {
  if (url.startsWith('/v1/')) return !url.startsWith('/v1/docs');
  return url === '/healthz' || url === '/readyz' || url.startsWith('/healthz?') || url.startsWith('/readyz?');
}

export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const page = helmetHeaders(options);
  // x-powered-by is removed by helmet; Fastify never sets it.
  delete page['x-powered-by'];
  const api = apiHeaders(page);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiUrl(request.url) ? api : page);
    done();
  });
}
