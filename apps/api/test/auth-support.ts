/** Shared pieces for the sign-in, admin and staff tests. */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { DEMO_MAILS } from '../src/db/demo-data.ts';

/** Demo users' mails by key (the seed's list, default company domain). */
export const DEMO = DEMO_MAILS;

export const DEMO_WITH_ROLES = Object.values(DEMO).filter((m) => m !== DEMO.noRole);

let ipCounter = 10;
/** A fresh source address, so per-address limits of one test do not touch another. */
export function freshIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter % 250}`;
}

export function dbOf(app: FastifyInstance): Db {
  return app.ctx.database.db;
}

export async function countRows(db: Db, table: string): Promise<number> {
  const res = (await db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as { rows: { n: number }[] };
  return Number(res.rows[0]!.n);
}

export async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

/** Row counts of every table an endpoint could write to. */
export async function writeCounts(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of ['audit_log', 'rate_limits', 'sessions', 'users', 'user_roles', 'roles', 'staff', 'settings']) out[t] = await countRows(db, t);
  const [sum] = await rows<{ s: number }>(db, sql`select coalesce(sum(count), 0)::int as s from rate_limits`);
  out.rate_limit_hits = Number(sum!.s);
  return out;
}

/**
 * Waits, if needed, so that the next `needMs` do not cross a fixed-window boundary of `windowSec`
 * (the limiter aligns windows to the epoch), keeping window-count assertions deterministic.
 */
export async function awayFromWindowEdge(windowSec: number, needMs: number): Promise<void> {
  const w = windowSec * 1000;
  const left = w - (Date.now() % w);
  if (left < needMs) await new Promise((r) => setTimeout(r, left + 50));
}

export interface BadInputCase {
  name: string;
  options: InjectOptions;
  status: number;
  message: string;
  /** Expected field errors (subset). */
  errors?: Record<string, string>;
}

/**
 * The bad-input matrix for a JSON POST endpoint: malformed JSON, empty body, no body, wrong
 * top-level type, missing fields, wrong field types, unknown field, oversized body and wrong
 * content types.
 */
export function postBadInputCases(
  url: string,
  valid: Record<string, unknown>,
  wrongTypes: Record<string, unknown>,
  headers: Record<string, string> = {},
  bodyLimit = 1024 * 1024,
): BadInputCase[] {
  const json = { ...headers, 'content-type': 'application/json' };
  const cases: BadInputCase[] = [
    { name: 'malformed JSON', options: { method: 'POST', url, headers: json, payload: '{"a": ' }, status: 400, message: 'error.malformed_json' },
    { name: 'empty JSON body', options: { method: 'POST', url, headers: json, payload: '' }, status: 400, message: 'error.malformed_json' },
    { name: 'no body at all', options: { method: 'POST', url, headers }, status: 400, message: 'error.validation' },
    { name: 'array body', options: { method: 'POST', url, headers: json, payload: '[]' }, status: 400, message: 'error.validation' },
    { name: 'null body', options: { method: 'POST', url, headers: json, payload: 'null' }, status: 400, message: 'error.validation' },
    {
      name: 'missing fields',
      options: { method: 'POST', url, headers: json, payload: '{}' },
      status: 400,
      message: 'error.validation',
      errors: Object.fromEntries(Object.keys(wrongTypes).filter((k) => k in valid && k !== 'remember').map((k) => [k, 'error.required'])),
    },
    {
      name: 'unknown field',
      options: { method: 'POST', url, headers: json, payload: JSON.stringify({ ...valid, is_admin: true }) },
      status: 400,
      message: 'error.validation',
      errors: { is_admin: 'error.unknown_field' },
    },
    {
      name: 'oversized body',
      options: { method: 'POST', url, headers: json, payload: JSON.stringify({ ...valid, pad: 'x'.repeat(bodyLimit + 10) }) },
      status: 413,
      message: 'error.payload_too_large',
    },
    {
      name: 'text/plain',
      options: { method: 'POST', url, headers: { ...headers, 'content-type': 'text/plain' }, payload: JSON.stringify(valid) },
      status: 415,
      message: 'error.unsupported_media_type',
    },
    {
      name: 'form-urlencoded',
      options: { method: 'POST', url, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=b' },
      status: 415,
      message: 'error.unsupported_media_type',
    },
    {
      name: 'multipart',
      options: {
        method: 'POST', url,
        headers: { ...headers, 'content-type': 'multipart/form-data; boundary=x' },
        payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n',
      },
      status: 415,
      message: 'error.unsupported_media_type',
    },
  ];
  for (const [field, value] of Object.entries(wrongTypes)) {
    cases.push({
      name: `wrong type for ${field}`,
      options: { method: 'POST', url, headers: json, payload: JSON.stringify({ ...valid, [field]: value }) },
      status: 400,
      message: 'error.validation',
      errors: { [field]: 'error.invalid_type' },
    });
  }
  return cases;
}

/** Asserts a 4xx envelope with the expected message key, a translation and optional field errors. */
export function expectErrorEnvelope(res: LightMyRequestResponse, status: number, message: string, errors?: Record<string, string>) {
  expect(res.statusCode, `${res.statusCode} ${res.body}`).toBe(status);
  const b = res.json();
  expect(b).toMatchObject({ status: 'error', message, data: null });
  expect(typeof b.text).toBe('string');
  expect(b.text).not.toBe(message);
  if (errors) expect(b.errors).toMatchObject(errors);
}
