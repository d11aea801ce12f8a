/** Route-scope helper: request bodies must be application/json. */
import type { FastifyInstance } from 'fastify';

/**
 * Drops Fastify's default text/plain parser in this plugin scope, so a body sent as text/plain
 * (or anything but JSON) answers 415 error.unsupported_media_type instead of reaching validation.
 */
export function acceptJsonBodiesOnly(app: FastifyInstance): void {
  if (app.hasContentTypeParser('text/plain')) app.removeContentTypeParser('text/plain');
}
