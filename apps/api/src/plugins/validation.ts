/**
 * Zod as Fastify's validator: route schemas (body, querystring, params) are zod schemas from
 * @backoffice/core, and the OpenAPI document gets their JSON Schema. Validation failures become
 * a 400 envelope with error.validation and a field -> message-key map.
 */
import type { FastifyInstance, FastifySchema, FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import { z } from 'zod';
import { noQuerySchema } from '@backoffice/core/schemas/envelope';
import { findUnsafeText, INVALID_TEXT } from '@backoffice/core/text';
import { issuesToErrors } from '@backoffice/core/validation-errors';
import { AppError, badRequest } from '../lib/errors.ts';
import { requiredAction, type RouteAuth } from './auth.ts';

function isZod(schema: unknown): schema is z.ZodType {
  return typeof schema === 'object' && schema !== null && typeof (schema as z.ZodType).safeParse === 'function';
}

export class ValidationError extends Error {
  readonly issues: z.core.$ZodIssue[];
  readonly part: string;
  constructor(part: string, issues: z.core.$ZodIssue[]) {
    super('error.validation');
    this.name = 'ValidationError';
    this.part = part;
    this.issues = issues;
  }
}

export { issuesToErrors };

/**
 * A route validator for a screen with its own message keys (report.…, perf_report.…): the same zod
 * schemas as the global validator, but a key of the screen's own set on the schema wins over the
 * generic required/invalid-type keys, and the envelope's `message` is the first such key (the
 * `headline` keys first, the spec's main rules) so the screen can show the spec's text directly;
 * `errors` still maps every field to its key.
 */
// `any`: Fastify types the compiler with the route's whole schema object; it is called per part (a zod schema).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function domainValidator(prefixes: readonly string[], headline: readonly string[] = []): FastifySchemaCompiler<any> {
  const own = (key: string) => prefixes.some((p) => key.startsWith(p));
  return ({ schema }) => {
    const zodSchema = schema as z.ZodType;
    return (data: unknown) => {
      const result = zodSchema.safeParse(data === null || data === undefined ? {} : data);
      if (result.success) return { value: result.data };
      const errors = issuesToErrors(result.error.issues);
      for (const issue of result.error.issues) if (typeof issue.message === 'string' && own(issue.message)) errors[issue.path.join('.') || '_'] = issue.message;
      const keys = Object.values(errors);
      const message = headline.find((k) => keys.includes(k)) ?? keys.find(own) ?? 'error.validation';
      return { error: new AppError(400, message, { errors }) };
    };
  };
}

/**
 * Fastify's type provider for zod route schemas (the equivalent of fastify-type-provider-zod,
 * whose runtime part this validator already is): `app.withTypeProvider<ZodTypeProvider>()` types
 * `request.body`, `query` and `params` as the schemas' outputs, so handlers need no casts.
 * A route whose own validatorCompiler changes the output (the reports' date presets) says so
 * with a cast.
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  // Responses are not checked against their schemas (they document the OpenAPI answers only).
  serializer: unknown;
}

function isEmptyObject(value: object): boolean {
  for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key)) return false;
  return true;
}

/**
 * Every request's path, query and body are checked for text PostgreSQL cannot store (a NUL, a
 * lone surrogate) before any route's validation: 400 error.validation with the field marked
 * error.invalid_text, for every route present and future, whatever validator it uses.
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    for (const value of [request.params, request.query, request.body]) {
      const where = findUnsafeText(value);
      if (where !== null) {
        done(badRequest('error.validation', { [where]: INVALID_TEXT }));
        return;
      }
    }
    done();
  });
}

export function registerZodValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (!isZod(schema)) return () => ({ value: undefined });
    // "No query parameters" (most GET routes): an empty query needs no parse.
    const empty = schema === noQuerySchema;
    return (data: unknown) => {
      if (empty && data !== null && typeof data === 'object' && isEmptyObject(data)) return { value: {} };
      // reportInput: issues carry the input, so a wrong type is told apart from a missing field.
      const result = schema.safeParse(data, { reportInput: true });
      if (result.success) return { value: result.data };
      return { error: new ValidationError(httpPart ?? 'body', result.error.issues) };
    };
  });
  // Responses are serialised as plain JSON (no response schemas are compiled).
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

/**
 * @fastify/swagger transform: zod schemas -> JSON Schema for the OpenAPI document. Each operation
 * also carries what it needs from the caller, `x-auth` (its `config.auth`: public, authenticated,
 * admin, or a permission with the action the method implies), which the fuzz and ACL-matrix tests
 * read; public operations need no bearer token.
 */
export function zodToOpenApi({ schema, url, route }: { schema: FastifySchema; url: string; route?: { method: string | string[]; config?: { auth?: RouteAuth } } }) {
  const out: Record<string, unknown> = { ...(schema ?? {}) };
  const auth = route?.config?.auth;
  if (auth) {
    const method = String(Array.isArray(route.method) ? route.method[0] : route.method).toUpperCase();
    out['x-auth'] = 'permission' in auth ? { permission: { resource: auth.permission.resource, action: requiredAction(auth.permission, method) } } : auth;
    if ('public' in auth) out.security = [];
  }
  for (const part of ['body', 'querystring', 'params', 'headers'] as const) {
    const s = out[part];
    if (isZod(s)) {
      try {
        const json = z.toJSONSchema(s, { target: 'draft-7', io: 'input', unrepresentable: 'any' });
        // @fastify/swagger reads a querystring, params or headers schema without `properties` (a
        // record) as a map of parameter names: its keywords (type, additionalProperties…) would
        // become parameters. No properties: no named parameters.
        out[part] = part !== 'body' && json.properties === undefined ? { ...json, properties: {} } : json;
      } catch {
        delete out[part];
      }
    }
  }
  if (out.response && typeof out.response === 'object') {
    const response: Record<string, unknown> = {};
    for (const [code, s] of Object.entries(out.response as Record<string, unknown>)) {
      response[code] = isZod(s) ? z.toJSONSchema(s, { target: 'draft-7', unrepresentable: 'any' }) : s;
    }
    out.response = response;
  }
  return { schema: out as FastifySchema, url };
}
