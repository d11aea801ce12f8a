/**
 * E2E global setup: one built server for the whole run, on a free port with a fresh embedded
 * database (demo data seeded), serving the e2e web build. Tests read its URL with getBaseURL().
 */
import type { TestProject } from 'vitest/node';
import { startServer, WEB_DIST_E2E } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startServer({
    webDist: process.env.E2E_WEB_DIST ?? WEB_DIST_E2E,
    // e2e/run.mjs passes a folder it removes after Vitest exits, also when a Ctrl-C skips teardown.
    dataParent: process.env.E2E_TMP_ROOT,
    env: {
      // Every e2e request comes from 127.0.0.1, unlike real users: the per-address sign-in limit
      // would count the whole suite as one person. The per-mail limit stays at its default.
      LOGIN_MAX_PER_IP: '1000',
      JWT_SECRET: 'e2e-secret-0123456789-abcdefghijklmnop',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'info',
    },
  });
  console.log(`e2e: server ${server.baseURL} (pid ${server.pid}, data ${server.dataDir}, log ${server.logFile})`);
  project.provide('baseURL', server.baseURL);
  return async () => {
    await server.stop();
  };
}
