/**
 * Fuzz test generated from the OpenAPI document (`app.swagger()`): every operation, present and
 * future, gets a bounded set of bad requests derived from its JSON Schemas (body, querystring,
 * params), signed in as the demo ADMIN (so the request reaches validation and the handler), and a
 * smaller set without a token:
 *   - the body: none at all, `{}`, an unknown field, malformed JSON, JSON that is not an object,
 *     text/plain, a form, multipart, a body over the limit;
 *   - each field (nested ones too): missing, every wrong type (string, number, boolean, array,
 *     object, null), text with a NUL, with a lone surrogate, huge text, an impossible date, and
 *     out-of-range numbers (2147483648, -1, 1.5, and as JSON text 1e309 and 99999999999999999999);
 *   - each query and path parameter: the same bad texts and numbers (1e309, NaN, …), repeated
 *     query parameters, an unknown query parameter;
 *   - unknown ids (999999 and 2147483647) in every path parameter.
 * Every answer must be below 500 and the envelope {status, message, data} (errors: status 'error'
 * and a message key); a 2xx that is not JSON (a file) is only checked for its status. All the
 * problems of an operation are collected and asserted at once, so a run shows every one of them.
 *
 * At most MAX_PER_OP requests per operation: the fixed cases first, then the field × value
 * product taken diagonally (each field gets a different bad value first), so every field and
 * every bad value is used on operations with many fields. No config overrides: every request
 * comes from its own address and every sign-in attempt names its own account, so the sign-in
 * limits and slow-downs never apply.
 *
 * openapi-ops.ts reads the document (the ACL-matrix test reads it too).
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_PASSWORD } from './helpers.ts';
import { describeOp, operationsOf, type JsonSchema, type Operation } from './openapi-ops.ts';

const MAX_PER_OP = 60;
const ADMIN_MAIL = 'admin@adtech.example';

const NUL = 'a\u0000b';
const SURROGATE = 'a\ud800b';
const HUGE = 'x'.repeat(100_000);
/** A huge text for a URL (query or path). */
const HUGE_URL = 'x'.repeat(10_000);
/** Unknown ids: valid for every id schema, naming no row. */
const UNKNOWN_IDS = ['999999', '2147483647'];

/** A value replaced in a body: a JSON value, `MISSING` (the field is left out) or raw JSON text. */
const MISSING = Symbol('missing');
type Raw = { raw: string };
type BodyValue = unknown | typeof MISSING | Raw;
const raw = (text: string): Raw => ({ raw: text });
const isRaw = (v: unknown): v is Raw => typeof v === 'object' && v !== null && 'raw' in v && Object.keys(v).length === 1;

const BODY_VALUES: [string, BodyValue][] = [
  ['missing', MISSING],
  ['"text"', 'text'],
  ['12', 12],
  ['true', true],
  ['null', null],
  ['[]', []],
  ['{}', {}],
  ['NUL text', NUL],
  ['lone surrogate', SURROGATE],
  ['huge text', HUGE],
  ['impossible date', '2026-02-30'],
  ['2147483648', 2147483648],
  ['-1', -1],
  ['1.5', 1.5],
  ['1e309 (JSON text)', raw('1e309')],
  ['99999999999999999999 (JSON text)', raw('99999999999999999999')],
  ['[2147483648]', [2147483648]],
];

/** Bad values for a URL part, already percent-encoded (a lone surrogate has no UTF-8: its bytes). */
const URL_VALUES: [string, string][] = [
  ['NUL', 'a%00b'],
  ['lone surrogate', 'a%ED%A0%80b'],
  ['huge', HUGE_URL],
  ['2147483648', '2147483648'],
  ['-1', '-1'],
  ['0', '0'],
  ['1e309', '1e309'],
  ['99999999999999999999', '99999999999999999999'],
  ['NaN', 'NaN'],
  ['1.5', '1.5'],
  ['true', 'true'],
  ['empty', ''],
  ['impossible date', '2026-02-30'],
  ['impossible time', '2026-01-01T24:00:00%2B23:59'],
];

type Path = (string | number)[];

interface Case {
  name: string;
  token: boolean;
  /** Path parameter values (percent-encoded); unknown ids for the others. */
  params?: Record<string, string>;
  /** Query parameters (percent-encoded values), added to the base query; null drops one. */
  query?: Record<string, string | string[] | null>;
  /** undefined: the base body (JSON); null: no body at all. */
  body?: { text: string; type: string } | null;
}

/** Schemas of anyOf/oneOf/allOf, the first that is not null. */
function pick(schema: JsonSchema | null | undefined): JsonSchema {
  if (!schema) return {};
  const alt = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (alt && alt.length > 0) return pick(alt.find((s) => s.type !== 'null') ?? alt[0]);
  return schema;
}

const typeOf = (schema: JsonSchema) => (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type);

let unique = 0;

/** A value of the schema's shape (the base the bad values replace parts of); required fields only. */
function sample(schema: JsonSchema | null | undefined, depth = 0): unknown {
  const s = pick(schema);
  if (depth > 5) return 'x';
  if (s.const !== undefined) return s.const;
  if (s.enum && s.enum.length > 0) return s.enum.find((v) => v !== null) ?? s.enum[0];
  switch (typeOf(s)) {
    case 'integer':
    case 'number':
      return s.minimum !== undefined ? Math.max(s.minimum, 1) : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sample(s.items, depth + 1));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = sample(s.properties?.[key], depth + 1);
      return out;
    }
    default:
      if (s.format === 'date') return '2025-03-01';
      if (s.format === 'date-time') return '2025-03-01T00:00:00Z';
      // Every text differs (so every sign-in attempt names its own account: the failures of one
      // account slow its sign-ins down).
      unique += 1;
      if (s.format === 'email') return `fuzz-${unique}@adtech.example`;
      if ((s.maxLength ?? Infinity) >= 12 && (s.minLength ?? 0) <= 12 && !s.pattern) return `fuzz${unique}`;
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
  }
}

/** The body's fields as paths, nested objects and array items (index 0) included, up to 3 deep. */
function fieldPaths(schema: JsonSchema | null | undefined, prefix: Path = []): Path[] {
  const s = pick(schema);
  const out: Path[] = [];
  if (prefix.length > 2) return out;
  const nested: Path[] = [];
  for (const [key, sub] of Object.entries(s.properties ?? {})) {
    out.push([...prefix, key]);
    const p = pick(sub);
    if (typeOf(p) === 'object' || p.properties) nested.push(...fieldPaths(p, [...prefix, key]));
    else if (typeOf(p) === 'array' && p.items && pick(p.items).properties) nested.push(...fieldPaths(p.items, [...prefix, key, 0]));
  }
  return [...out, ...nested];
}

/** A copy of `base` with the value at `path` replaced (or dropped). */
function withValue(base: unknown, path: Path, value: BodyValue): unknown {
  const root: unknown = structuredClone(base && typeof base === 'object' ? base : {});
  let node = root as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    const next = node[key];
    if (next === null || typeof next !== 'object') node[key] = typeof path[i + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === MISSING) {
    if (Array.isArray(node) && typeof last === 'number') node.splice(last, 1);
    else delete node[last];
  } else node[last] = value;
  return root;
}

/** JSON text of a body, raw values written as they are (1e309 is not something JSON.stringify writes). */
function jsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (isRaw(v)) {
      raws.push(v.raw);
      return `__fuzz_raw_${raws.length - 1}__`;
    }
    return v;
  });
  return text.replace(/"__fuzz_raw_(\d+)__"/g, (_, i: string) => raws[Number(i)]!);
}

const json = (value: unknown) => ({ text: jsonText(value), type: 'application/json' });
const label = (path: Path) => path.map((p) => (typeof p === 'number' ? `[${p}]` : p)).join('.').replace(/\.\[/g, '[');

/**
 * Takes from several lists of cases in diagonal order: first the first case of every list, then the
 * second case of every list shifted by one (so the lists do not all get the same kind of value), …,
 * until `budget` cases are taken or every list is exhausted.
 */
function diagonal<T>(lists: T[][], budget: number): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let round = 0; round < longest; round++) {
    for (let i = 0; i < lists.length; i++) {
      const list = lists[i]!;
      if (round >= list.length) continue;
      if (out.length >= budget) return out;
      out.push(list[(i + round) % list.length]!);
    }
  }
  return out;
}

/** The bad requests for one operation, at most MAX_PER_OP. */
function casesOf(op: Operation, bodyLimit: number): Case[] {
  const takesBody = op.body !== null;
  const hasParams = Object.keys(op.params).length > 0;
  const queryNames = Object.keys(op.query);
  const fixed: Case[] = [];
  const add = (name: string, c: Omit<Case, 'name' | 'token'> & { token?: boolean } = {}) => fixed.push({ name, token: true, ...c });

  // Without a token: a few, they must not get further than the sign-in check.
  add('no token', { token: false });
  if (takesBody) add('no token, malformed JSON', { token: false, body: { text: '{"a":', type: 'application/json' } });
  add('no token, NUL in the query', { token: false, query: { q: 'a%00b' } });
  if (hasParams) add('no token, huge path parameter', { token: false, params: Object.fromEntries(Object.keys(op.params).map((n) => [n, HUGE_URL])) });

  // Signed in as ADMIN.
  add('the base request');
  for (const name of Object.keys(op.params)) for (const id of UNKNOWN_IDS) add(`path ${name}=${id} (unknown)`, { params: { [name]: id } });
  add('unknown query parameter', { query: { zz_unknown: '1' } });
  if (takesBody) {
    add('no body at all', { body: null });
    add('empty object body', { body: json({}) });
    const base = sample(op.body);
    add('unknown field', { body: json({ ...(base && typeof base === 'object' ? base : {}), zz_unknown: 1 }) });
    add('malformed JSON', { body: { text: '{"a":', type: 'application/json' } });
    add('JSON null', { body: { text: 'null', type: 'application/json' } });
    add('JSON array', { body: { text: '[]', type: 'application/json' } });
    add('NaN in JSON', { body: { text: '{"a":NaN}', type: 'application/json' } });
    add('text/plain', { body: { text: 'hello', type: 'text/plain' } });
    add('form', { body: { text: 'a=1&b=2', type: 'application/x-www-form-urlencoded' } });
    add('multipart', { body: { text: '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n', type: 'multipart/form-data; boundary=b' } });
    add('body over the limit', { body: { text: `{"a":"${'x'.repeat(bodyLimit + 1024)}"}`, type: 'application/json' } });
  } else if (op.method !== 'GET') {
    // An operation that takes no body, sent one anyway.
    add('an unexpected JSON body', { body: json({ a: 1 }) });
    add('an unexpected malformed JSON body', { body: { text: '{"a":', type: 'application/json' } });
    add('an unexpected text/plain body', { body: { text: 'hello', type: 'text/plain' } });
  }

  // Each field, query and path parameter with each bad value, diagonally within the budget.
  const lists: Case[][] = [];
  if (takesBody) {
    for (const path of fieldPaths(op.body)) {
      lists.push(BODY_VALUES.map(([name, value]) => ({ name: `${label(path)} = ${name}`, token: true, body: json(withValue(sample(op.body), path, value)) })));
    }
  }
  for (const name of queryNames) {
    const list: Case[] = URL_VALUES.map(([what, value]) => ({ name: `query ${name} = ${what}`, token: true, query: { [name]: value } }));
    list.push({ name: `query ${name} twice`, token: true, query: { [name]: ['1', '2'] } });
    if (op.query[name]!.required) list.unshift({ name: `query ${name} missing`, token: true, query: { [name]: null } });
    lists.push(list);
  }
  for (const name of Object.keys(op.params)) {
    lists.push(URL_VALUES.filter(([what]) => what !== 'empty').map(([what, value]) => ({ name: `path ${name} = ${what}`, token: true, params: { [name]: value } })));
  }
  return [...fixed, ...diagonal(lists, MAX_PER_OP - fixed.length)];
}

/** Is this answer the envelope {status, message, data}? null when it is. */
function envelopeProblem(res: LightMyRequestResponse): string | null {
  const type = String(res.headers['content-type'] ?? '');
  if (!/^application\/json\b/.test(type)) {
    // A file (an SVG, a CSV, an XLSX) is fine as a success; an error is always the envelope.
    return res.statusCode >= 200 && res.statusCode < 300 ? null : `not JSON (${type || 'no content type'})`;
  }
  let b: unknown;
  try {
    b = res.json();
  } catch {
    return 'JSON that does not parse';
  }
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return 'not an object';
  const e = b as Record<string, unknown>;
  if (typeof e.message !== 'string' || e.message === '') return 'no message';
  if (!('data' in e)) return 'no data';
  const expected = res.statusCode >= 400 ? 'error' : 'success';
  if (e.status !== expected) return `status ${JSON.stringify(e.status)}, not '${expected}'`;
  return null;
}

const t = await createTestApp();
const ops = operationsOf(t.app);
let address = 0;
/** Every request from its own address: the sign-in limits per address never apply. */
const nextAddress = () => {
  address += 1;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
};

let adminToken: string | null = null;
async function adminAuthorization(fresh = false): Promise<string> {
  if (!adminToken || fresh) {
    const res = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: ADMIN_MAIL, password: DEMO_PASSWORD }, remoteAddress: nextAddress() });
    if (res.statusCode !== 200) throw new Error(`ADMIN sign-in failed: ${res.statusCode} ${res.body}`);
    adminToken = (res.json() as { data: { token: string } }).data.token;
  }
  return `Bearer ${adminToken}`;
}

const short = (text: string | undefined, n = 200) => (text === undefined ? '' : text.length > n ? `${text.slice(0, n)}… (${text.length} chars)` : text);

function requestOf(op: Operation, c: Case): InjectOptions {
  const path = op.path.replace(/\{([\w.]+)\}/g, (_, name: string) => c.params?.[name] ?? UNKNOWN_IDS[1]!);
  const query: Record<string, string | string[]> = {};
  for (const [name, q] of Object.entries(op.query)) if (q.required) query[name] = encodeURIComponent(String(sample(q.schema)));
  for (const [name, value] of Object.entries(c.query ?? {})) {
    if (value === null) delete query[name];
    else query[name] = value;
  }
  const search = Object.entries(query)
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${encodeURIComponent(name)}=${v}`))
    .join('&');
  const body = c.body === undefined ? (op.body ? json(sample(op.body)) : undefined) : (c.body ?? undefined);
  const headers: Record<string, string> = {};
  if (body) headers['content-type'] = body.type;
  return { method: op.method as InjectOptions['method'], url: search ? `${path}?${search}` : path, headers, payload: body?.text };
}

async function send(op: Operation, c: Case): Promise<{ request: InjectOptions; res: LightMyRequestResponse }> {
  const request = requestOf(op, c);
  const inject = async (fresh: boolean) =>
    t.app.inject({
      ...request,
      headers: { ...(request.headers as Record<string, string>), ...(c.token ? { authorization: await adminAuthorization(fresh) } : {}) },
      remoteAddress: nextAddress(),
    });
  let res = await inject(false);
  // An earlier case ended the session (a logout, a refresh): sign in again and send this one again.
  if (c.token && res.statusCode === 401 && /^auth\.token/.test(String((res.json() as { message?: unknown }).message))) res = await inject(true);
  return { request, res };
}

/** What is wrong with the answer to a case; null when nothing is. */
async function problemOf(op: Operation, c: Case): Promise<{ request: InjectOptions; problem: string | null }> {
  let request = requestOf(op, c);
  try {
    const sent = await send(op, c);
    request = sent.request;
    const { res } = sent;
    // A public standard's document outside the API (/sellers.json) is that standard's JSON, not the envelope.
    const standardDocument = !op.path.startsWith('/v1/') && res.statusCode >= 200 && res.statusCode < 400;
    const problem = res.statusCode >= 500 ? `answered ${res.statusCode}` : standardDocument ? null : envelopeProblem(res);
    return { request, problem: problem && `${res.statusCode} ${problem}: ${short(res.body, 300)}` };
  } catch (err) {
    // A streamed answer (a file) that broke off after it started: the client gets half a file.
    return { request, problem: `no complete answer: ${String(err)}` };
  }
}


afterAll(async () => t.close());

describe('fuzz: bad input on every operation of the OpenAPI document answers below 500, in the envelope', () => {
  it('finds the operations', () => {
    expect(ops.length).toBeGreaterThan(0);
  });

  for (const op of ops) {
    it(describeOp(op), async () => {
      const cases = casesOf(op, t.config.bodyLimit);
      expect(cases.length).toBeLessThanOrEqual(MAX_PER_OP);
      const failures: string[] = [];
      for (const c of cases) {
        const { request, problem } = await problemOf(op, c);
        if (problem) {
          const headers = request.headers as Record<string, string>;
          failures.push(
            `${describeOp(op)} — ${c.name}${c.token ? '' : ' (no token)'}: ${request.method} ${short(request.url as string, 160)}` +
              `${headers['content-type'] ? ` [${headers['content-type']}] ${short(request.payload as string | undefined)}` : ''}` +
              ` -> ${problem}`,
          );
        }
      }
      expect(failures).toEqual([]);
    });
  }
});
