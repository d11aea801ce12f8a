/**
 * CORS for the configured origins (CORS_ORIGINS), as one small onRequest hook.
 *
 * The rules are few: a request with no Origin (same-origin pages, curl, servers) gets nothing but
 * `Vary: Origin`; a listed origin gets `Access-Control-Allow-Origin` with its own value (never `*`,
 * no credentials: the API uses bearer tokens, not cookies) and its preflight is answered here with
 * 204; any other origin gets no CORS header at all, so the browser refuses the answer, and its
 * preflight falls through to the router (404). @fastify/cors did the same through a generic options
 * merge and callbacks on every request, about a twentieth of the whole cost of a small API answer
 * (bench/README.md); this hook does only the work these rules need.
 */
import type { FastifyInstance } from 'fastify';

export const CORS_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
export const CORS_ALLOWED_HEADERS = 'authorization, content-type, accept-language, x-request-id';
/** Headers a cross-origin script may read: the export file name and the request id for support. */
export const CORS_EXPOSED_HEADERS = 'content-disposition, x-request-id';
/** How long a browser may cache a preflight answer, in seconds. */
export const CORS_MAX_AGE = '600';

export function registerCors(app: FastifyInstance, origins: readonly string[]): void {
  const allowed = new Set(origins);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin === undefined || !allowed.has(origin)) {
      done();
      return;
    }
    reply.header('access-control-allow-origin', origin);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      void reply
        .code(204)
        .header('access-control-allow-methods', CORS_METHODS)
        .header('access-control-allow-headers', CORS_ALLOWED_HEADERS)
        .header('access-control-max-age', CORS_MAX_AGE)
        .header('content-length', '0')
        .send();
      return;
    }
    reply.header('access-control-expose-headers', CORS_EXPOSED_HEADERS);
    done();
  });
}
