/**
 * CORS for the configured origins (CORS_ORIGINS), with @fastify/cors.
 *
 * The origins go to the library as an array, its static path: a listed origin gets
 * `Access-Control-Allow-Origin` with its own value (never `*`, no credentials: the API uses bearer
 * tokens, not cookies) and its preflight is answered with 204; any other origin gets no CORS
 * header, so the browser refuses the answer; every answer says `Vary: Origin`. An `origin`
 * callback would put the library on its slow path (docs/decisions/007 has the figures).
 *
 * One route may answer every origin instead: `config: { cors: ANY_ORIGIN }` (the library merges a
 * route's `config.cors` over these options). Only the public Prebid floors feed does
 * (docs/decisions/020-prebid-floors-export.md): publishers' pages on any domain read it.
 */
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's CORS options over the app's (read by @fastify/cors), or false for no CORS headers. */
    cors?: FastifyCorsOptions | false;
  }
}

/**
 * A route every origin may read, without credentials: `Access-Control-Allow-Origin: *` (a constant,
 * so no `Vary: Origin`). A preflight (OPTIONS) reaches the library's own OPTIONS route, not this
 * one, and keeps the allow-list: such a route must be readable with a simple request (a GET with
 * no header beyond the CORS-safelisted ones, which is what Prebid's floors fetch sends).
 */
export const ANY_ORIGIN = { origin: '*' } as const satisfies FastifyCorsOptions;

export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
export const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', 'accept-language', 'x-request-id'];
/** Headers a cross-origin script may read: the export file name and the request id for support. */
export const CORS_EXPOSED_HEADERS = ['content-disposition', 'x-request-id'];
/** How long a browser may cache a preflight answer, in seconds. */
export const CORS_MAX_AGE = 600;

export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  await app.register(cors, {
    origin: [...origins],
    methods: CORS_METHODS,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: CORS_MAX_AGE,
  });
}
