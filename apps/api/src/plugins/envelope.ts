/**
 * Every answer is the spec's envelope {status, message, data}. Errors carry a stable message key
 * (translated into `text` for the request's language) and a 4xx/5xx status, and write nothing.
 */
import { fail } from '@backoffice/core/envelope';
import { localeFromAcceptLanguage, translate } from '@backoffice/core/i18n/catalogues';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { ValidationError, issuesToErrors } from './validation.ts';

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  key: string,
  extra: { errors?: Record<string, string>; params?: Record<string, string | number>; data?: unknown } = {},
) {
  const locale = localeFromAcceptLanguage(request.headers['accept-language']);
  const { data, ...rest } = extra;
  const body = { ...fail(key, rest), data: data ?? null, text: translate(locale, key, extra.params) };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

const FASTIFY_CODES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'error.malformed_json'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'error.malformed_json'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'error.unsupported_media_type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'error.malformed_json'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'error.payload_too_large'],
  FST_ERR_VALIDATION: [400, 'error.validation'],
  FST_ERR_NOT_FOUND: [404, 'error.not_found'],
};

export function registerEnvelope(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ValidationError | Error, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return sendError(request, reply, error.statusCode, error.key, { errors: error.errors, params: error.params, data: error.data });
    }
    if (error instanceof ValidationError) {
      return sendError(request, reply, 400, 'error.validation', { errors: issuesToErrors(error.issues) });
    }
    const fe = error as FastifyError & { validation?: unknown };
    if (fe.validation && (fe as { cause?: unknown }).cause instanceof ValidationError) {
      const cause = (fe as { cause: ValidationError }).cause;
      return sendError(request, reply, 400, 'error.validation', { errors: issuesToErrors(cause.issues) });
    }
    if (fe.code && FASTIFY_CODES[fe.code]) {
      const [status, key] = FASTIFY_CODES[fe.code]!;
      return sendError(request, reply, status, key);
    }
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      if (fe.statusCode === 429) return sendError(request, reply, 429, 'error.rate_limited');
      if (fe.statusCode === 413) return sendError(request, reply, 413, 'error.payload_too_large');
      if (fe.statusCode === 415) return sendError(request, reply, 415, 'error.unsupported_media_type');
      return sendError(request, reply, fe.statusCode, fe.statusCode === 404 ? 'error.not_found' : 'error.invalid_value');
    }
    logUnhandled(request, error);
    return sendError(request, reply, 500, 'error.internal');
  });
}

/** Full stacks written per minute by one process, at most; the rest get the short line. */
export const FULL_ERROR_LOGS_PER_MINUTE = 20;
let fullLogs = { minute: 0, count: 0 };

/**
 * Logs an unhandled error. A signed-in caller's error gets the whole stack (someone will look at
 * it), up to FULL_ERROR_LOGS_PER_MINUTE a minute; an anonymous caller's, and any beyond that
 * budget, one short line: type, code, a trimmed message and the first frame. Whoever can make the
 * API fail cannot fill the log with kilobytes per request.
 */
export function logUnhandled(request: FastifyRequest, error: Error): void {
  const minute = Math.floor(Date.now() / 60_000);
  if (fullLogs.minute !== minute) fullLogs = { minute, count: 0 };
  if (request.caller && fullLogs.count < FULL_ERROR_LOGS_PER_MINUTE) {
    fullLogs.count += 1;
    request.log.error({ err: error }, 'unhandled error');
    return;
  }
  const frame = error.stack?.split('\n').find((line) => line.trimStart().startsWith('at '))?.trim() ?? null;
  request.log.error(
    {
      err: { type: error.name, code: (error as { code?: unknown }).code, message: String(error.message).slice(0, 200), at: frame },
      anonymous: !request.caller,
    },
    'unhandled error (short)',
  );
}
