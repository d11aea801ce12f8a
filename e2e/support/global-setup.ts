/**
 * E2E global setup: one built server per worker, each on a free port with its own copy of one
 * seeded embedded database, all serving the web build (apps/web/dist). Test files that run at
 * the same time never share a database; the files of one worker run one after the other on its
 * server, as the whole suite once did on a single one. Tests read their server's URL with
 * getBaseURL().
 */
import type { TestProject } from 'vitest/node';
import { e2eWorkers } from './workers.ts';
import { startServers, WEB_DIST } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One base URL per worker (index: the worker's VITEST_POOL_ID - 1). */
    baseURLs: string[];
  }
}

export default async function setup(project: TestProject) {
  const servers = await startServers(e2eWorkers(), {
    webDist: process.env.E2E_WEB_DIST ?? WEB_DIST,
    // e2e/run.mjs passes a folder it removes after Vitest exits, also when a Ctrl-C skips teardown.
    dataParent: process.env.E2E_TMP_ROOT,
    env: {
      // Every e2e request comes from 127.0.0.1, unlike real users: the per-address sign-in limit
      // would count the whole suite as one person. The per-mail limit stays at its default.
      LOGIN_MAX_PER_IP: '1000',
      JWT_SECRET: 'e2e-secret-0123456789-abcdefghijklmnop',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'info',
      // The campaigns' postback test calls the suite's own server (127.0.0.1): loopback allowed.
      ALLOW_PRIVATE_FETCHES: 'true',
    },
  });
  for (const server of servers) console.log(`e2e: server ${server.baseURL} (pid ${server.pid}, data ${server.dataDir}, log ${server.logFile})`);
  project.provide(
    'baseURLs',
    servers.map((s) => s.baseURL),
  );
  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
  };
}
