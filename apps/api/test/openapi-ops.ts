/**
 * The operations of the app's OpenAPI document, for the tests generated from it (the ACL matrix and
 * the fuzz test): method, path, what each needs (`x-auth`), its path and query parameters and its
 * JSON body schema. A new route appears here without editing anything.
 */
import type { FastifyInstance } from 'fastify';

export type XAuth = { public: true } | { authenticated: true } | { admin: true } | { permission: { resource: string; action: string } };

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  default?: unknown;
}

export interface Operation {
  method: string;
  /** OpenAPI path with {name} parameters. */
  path: string;
  auth: XAuth;
  params: Record<string, JsonSchema>;
  query: Record<string, { schema: JsonSchema; required: boolean }>;
  /** The JSON body's schema, when the operation takes one. */
  body: JsonSchema | null;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Doc = { paths: Record<string, Record<string, Record<string, unknown>>> };
type Param = { in: string; name: string; required?: boolean; schema?: JsonSchema };

export function operationsOf(app: FastifyInstance): Operation[] {
  const doc = app.swagger() as unknown as Doc;
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (path.startsWith('/v1/docs')) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params: Operation['params'] = {};
      const query: Operation['query'] = {};
      for (const p of (op.parameters as Param[] | undefined) ?? []) {
        if (p.in === 'path') params[p.name] = p.schema ?? {};
        if (p.in === 'query') query[p.name] = { schema: p.schema ?? {}, required: p.required === true };
      }
      const content = (op.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined)?.content;
      const body = content ? (content['application/json']?.schema ?? Object.values(content)[0]?.schema ?? {}) : null;
      ops.push({ method: method.toUpperCase(), path, auth: op['x-auth'] as XAuth, params, query, body });
    }
  }
  return ops;
}

/** An id no row has (valid for every id schema). */
export const NO_SUCH_ID = '2147483647';

/** A value of the right shape for a path parameter that names nothing. */
export function unknownParam(schema: JsonSchema | undefined): string {
  const pattern = schema?.pattern ?? '';
  if (pattern.includes('A-Z')) return 'NoSuchSession0123456789';
  if (pattern.includes('\\d{1,9}') || pattern.includes('svg')) return '999999';
  return NO_SUCH_ID;
}

/** A concrete path for an operation, with `values` for some parameters and unknown ids for the rest. */
export function pathOf(op: Operation, values: Record<string, string> = {}): string {
  return op.path.replace(/\{([\w.]+)\}/g, (_, name: string) => values[name] ?? unknownParam(op.params[name]));
}

export const describeOp = (op: Operation) => `${op.method} ${op.path}`;
