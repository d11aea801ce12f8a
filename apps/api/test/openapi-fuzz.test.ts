/**
 * A fuzz test generated from the OpenAPI document: every operation, present and future, gets a
 * fixed set of bad inputs (missing, extra and wrong-typed fields; NUL and lone-surrogate text; huge
 * text; out-of-range numbers; malformed JSON; wrong content types; bodies over the limit; unknown
 * ids and malformed ids in the path; bad query values), signed in as ADMIN (so the request reaches
 * validation and the handler) and, for a few, without a token. Every answer must be below 500 and
 * the envelope {status, message, data}; a 2xx that is a file (an SVG, a CSV) is only checked for
 * its status.
 *
 * Each request signs in with a fresh ADMIN session (a logout or refresh among the inputs would end
 * a shared one) and comes from its own address (sign-in limits are per address).
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestApp } from './helpers.ts';
import { describeOp, operationsOf, pathOf, unknownParam, type JsonSchema, type Operation } from './openapi-ops.ts';

const NUL = 'a\u0000b';
const SURROGATE = 'a\ud800b';
const HUGE = 'x'.repeat(100_000);
const NUMBERS_OUT_OF_RANGE = [2147483648, -1, 0, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2];
const WRONG_TYPES: unknown[] = ['text', 12, true, null, [], {}, [1, 'x', null], { nested: { deep: [NUL] } }];

/** A value that fits the schema as well as a generator can tell (the base the bad inputs change). */
function sample(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 4) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt && alt.length > 0) return sample(alt.find((s) => s.type !== 'null') ?? alt[0], depth + 1);
  if (schema.allOf && schema.allOf.length > 0) return sample(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return schema.minimum !== undefined ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sample(schema.items, depth + 1));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sample(schema.properties?.[key], depth + 1);
      return out;
    }
    case 'null':
      return null;
    default:
      if (schema.format === 'date') return '2025-03-01';
      if (schema.format === 'date-time') return '2025-03-01T00:00:00Z';
      if (schema.format === 'email') return 'someone@adtech.example';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

interface Case {
  name: string;
  path: string;
  query?: Record<string, string | string[]>;
  /** An object is sent as JSON; a string as is with `contentType`. */
  payload?: unknown;
  contentType?: string;
  token: boolean;
}

/** The bad inputs for one operation. */
function casesOf(op: Operation, bodyLimit: number): Case[] {
  const cases: Case[] = [];
  const base = op.body ? sample(op.body) : undefined;
  const baseQuery: Record<string, string> = {};
  for (const [name, q] of Object.entries(op.query)) if (q.required) baseQuery[name] = String(sample(q.schema));
  const add = (name: string, c: Partial<Case>) =>
    cases.push({ name, path: pathOf(op), query: baseQuery, payload: base, token: true, ...c });

  add('the base request (unknown ids)', {});
  add('no token', { token: false });
  add('no token, NUL in the path and query', { token: false, path: pathOf(op).replace(/\/?$/, '/%00'), query: { ...baseQuery, q: NUL } });

  // Path parameters: malformed and out-of-range ids, NUL, surrogates, huge.
  for (const name of Object.keys(op.params)) {
    for (const value of ['0', '-1', '0x10', '1e3', '893.0', '%20892', '99999999999999999999', '%00', '%ED%A0%80', 'x'.repeat(3000), unknownParam(op.params[name])]) {
      add(`path ${name}=${value.slice(0, 20)}`, { path: pathOf(op, { [name]: value }) });
    }
  }

  // Query: an unknown parameter, repeated parameters, and every bad value for each known one.
  add('unknown query parameter', { query: { ...baseQuery, zz_unknown: '1' } });
  for (const name of Object.keys(op.query)) {
    for (const value of ['', NUL, SURROGATE, HUGE.slice(0, 5000), '2147483648', '-1', '1e309', 'NaN', '99999999999999999999', '[object Object]']) {
      add(`query ${name}=${JSON.stringify(value.slice(0, 20))}`, { query: { ...baseQuery, [name]: value } });
    }
    add(`query ${name} twice`, { query: { ...baseQuery, [name]: ['1', '2'] } });
  }

  if (op.body) {
    const fields = Object.keys(op.body.properties ?? {});
    const object = typeof base === 'object' && base !== null && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
    add('empty object body', { payload: {} });
    add('extra field', { payload: { ...object, zz_unknown: 1 } });
    for (const raw of ['null', '[]', '"text"', '123', 'true']) add(`JSON ${raw} as the body`, { payload: raw, contentType: 'application/json' });
    add('malformed JSON', { payload: '{"a":', contentType: 'application/json' });
    add('empty JSON body', { payload: '', contentType: 'application/json' });
    add('text/plain body', { payload: 'hello', contentType: 'text/plain' });
    add('form body', { payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' });
    add('multipart body', { payload: '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n', contentType: 'multipart/form-data; boundary=b' });
    add('body over the limit', { payload: `{"a":"${'x'.repeat(bodyLimit + 10)}"}`, contentType: 'application/json' });
    add('NUL in a key', { payload: { ...object, [NUL]: 1 } });
    for (const field of fields) {
      const without = { ...object };
      delete without[field];
      add(`without ${field}`, { payload: without });
      for (const wrong of WRONG_TYPES) add(`${field} = ${JSON.stringify(wrong).slice(0, 30)}`, { payload: { ...object, [field]: wrong } });
      for (const text of [NUL, SURROGATE, HUGE]) add(`${field} = text ${text.length > 10 ? 'huge' : JSON.stringify(text)}`, { payload: { ...object, [field]: text } });
      for (const n of NUMBERS_OUT_OF_RANGE) add(`${field} = ${n}`, { payload: { ...object, [field]: n } });
      add(`${field} = [2147483648]`, { payload: { ...object, [field]: [2147483648] } });
      add(`${field} = 1e400 (raw)`, { payload: JSON.stringify({ ...object, [field]: 0 }).replace(`"${field}":0`, `"${field}":1e400`), contentType: 'application/json' });
      add(`${field} = 99999999999999999999 (raw)`, {
        payload: JSON.stringify({ ...object, [field]: 0 }).replace(`"${field}":0`, `"${field}":99999999999999999999`),
        contentType: 'application/json',
      });
    }
  }
  return cases;
}

/** Is this answer the envelope {status, message, data}? */
function envelopeProblem(res: LightMyRequestResponse): string | null {
  const type = String(res.headers['content-type'] ?? '');
  if (!type.includes('application/json')) {
    return res.statusCode < 300 ? null : `a ${res.statusCode} that is not JSON (${type || 'no content type'})`;
  }
  let parsed: unknown;
  try {
    parsed = res.json();
  } catch {
    return 'JSON that does not parse';
  }
  const b = parsed as { status?: unknown; message?: unknown; data?: unknown };
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return 'not an object';
  if (b.status !== 'success' && b.status !== 'error') return `status ${JSON.stringify(b.status)}`;
  if (typeof b.message !== 'string') return 'no message';
  if (!('data' in b)) return 'no data';
  if (res.statusCode >= 400 && b.status !== 'error') return `${res.statusCode} with status ${String(b.status)}`;
  return null;
}

describe('fuzz: bad inputs on every operation of the OpenAPI document', () => {
  let t: TestApp;
  let ops: Operation[];
  let adminId: number;
  let address = 0;

  beforeAll(async () => {
    // No slowing of sign-ins by account here: hundreds of bad sign-ins are the point.
    t = await createTestApp({ loginSlowMaxMs: 0 });
    ops = operationsOf(t.app);
    adminId = (await signIn(t.app, 'admin@adtech.example')).session.id;
  });
  afterAll(async () => t?.close());

  async function send(c: Case, method: string): Promise<LightMyRequestResponse> {
    address += 1;
    const headers: Record<string, string> = {};
    if (c.token) headers.authorization = `Bearer ${(await t.app.sessions.issue(adminId)).token}`;
    let payload: string | undefined;
    if (c.payload !== undefined && method !== 'GET' && method !== 'DELETE') {
      if (c.contentType) {
        headers['content-type'] = c.contentType;
        payload = String(c.payload);
      } else {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(c.payload);
      }
    }
    return t.app.inject({
      method: method as 'GET',
      url: c.path,
      query: c.query,
      headers,
      payload,
      remoteAddress: `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
    });
  }

  it('covers every operation', () => {
    expect(ops.length).toBeGreaterThanOrEqual(30);
  });

  it('answers every bad input below 500, in the envelope', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const op of ops) {
      for (const c of casesOf(op, t.config.bodyLimit)) {
        const res = await send(c, op.method);
        sent += 1;
        const problem = res.statusCode >= 500 ? `answered ${res.statusCode}` : envelopeProblem(res);
        if (problem) failures.push(`${describeOp(op)} — ${c.name}: ${problem}: ${res.body.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(1000);
  });
});
