/** Test helpers: an app on a fresh database, sign-in, and envelope assertions. */
import { wallTimeOf } from '@backoffice/core/reports';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { baseTestConfig, dropDatabase, testDatabaseUrl, withDatabase } from './db-template.ts';

/** The demo accounts' password in the test databases (the seed's: config.ts). */
export const DEMO_PASSWORD = baseTestConfig().demoPassword;

export interface TestDb {
  config: Pick<Config, 'databaseUrl' | 'dataDir'>;
  open(): Promise<Database>;
  destroy(): Promise<void>;
}

/** A fresh copy of the seeded template database for this test file. */
export async function freshDatabase(): Promise<TestDb> {
  const template = inject('dbTemplate');
  if (template.kind === 'postgres') {
    const serverUrl = testDatabaseUrl()!;
    const name = `bo_t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${new URL(template.url).pathname.slice(1)}`);
    } finally {
      await admin.end();
    }
    const url = withDatabase(serverUrl, name);
    return {
      config: { databaseUrl: url, dataDir: '' },
      open: () => openDatabase({ databaseUrl: url, dataDir: '' }),
      destroy: () => dropDatabase(serverUrl, name),
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bo-db-'));
  fs.cpSync(template.dir, dir, { recursive: true });
  return {
    config: { databaseUrl: null, dataDir: dir },
    open: () => openDatabase({ databaseUrl: null, dataDir: dir }),
    destroy: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  db: TestDb;
  close(): Promise<void>;
}

/** buildApp on a fresh seeded database; close() shuts it down and removes the database. */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const db = await freshDatabase();
  const config = baseTestConfig({ ...db.config, ...overrides });
  const app = await buildApp(config);
  await app.ready();
  return {
    app,
    config,
    db,
    async close() {
      await app.close();
      await db.destroy();
    },
  };
}

export function body<T = unknown>(res: LightMyRequestResponse): { status: string; message: string; data: T; text?: string; errors?: Record<string, string> } {
  return res.json();
}

/** Signs in through the API and returns the token and session. */
export async function signIn(app: FastifyInstance, email: string, password = DEMO_PASSWORD, extra: Record<string, unknown> = {}) {
  const res = await app.inject({ method: 'POST', url: '/v1/login', payload: { email, password, ...extra } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed for ${email}: ${res.statusCode} ${res.body}`);
  const data = body<{ token: string; id: number; roles: { id: number; name: string }[]; acl: Record<string, string[]> }>(res).data;
  return { token: data.token, session: data, headers: { authorization: `Bearer ${data.token}` } };
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * A time of day (HH:MM) in `timezone`, `hoursFromNow` hours from now: a daily schedule at this time
 * has no occurrence while a test runs, whatever the wall clock (a fixed '08:00' has one when the
 * test happens to run at 07:59:59).
 */
export function timeOfDayAway(timezone: string, hoursFromNow = 12): string {
  const w = wallTimeOf(Date.now() + hoursFromNow * 3600_000, timezone);
  return `${pad2(w.hour)}:${pad2(w.minute)}`;
}

/** The ISO weekday (Monday = 1 … Sunday = 7) in `timezone`, `daysFromNow` days from now. */
export function isoWeekdayAway(timezone: string, daysFromNow: number): number {
  const w = wallTimeOf(Date.now() + daysFromNow * 86_400_000, timezone);
  return new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay() || 7;
}
