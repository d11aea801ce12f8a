/**
 * CORS for the configured origins (CORS_ORIGINS), with @fastify/cors.
 *
 * The origins go to the library as an array, its static path: a listed origin gets
 * `Access-Control-Allow-Origin` with its own value (never `*`, no credentials: the API uses bearer
 * tokens, not cookies) and its preflight is answered with 204; any other origin gets no CORS
 * header, so the browser refuses the answer; every answer says `Vary: Origin`. An `origin`
 * callback would put the library on its slow path (docs/decisions/007 has the figures).
 */
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

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
