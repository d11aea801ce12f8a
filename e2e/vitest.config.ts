import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));
const workers = Number(process.env.E2E_WORKERS ?? '1');

// E2E: one built server (global setup) shared by all files, headless Chromium per file.
// Files run one at a time by default: the machine has 2 cores and the server, Chromium and the
// test process already share them; and tests share one database. E2E_WORKERS=2 to try more.
export default defineConfig({
  root,
  test: {
    name: 'e2e',
    include: ['e2e/tests/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/support/global-setup.ts'],
    pool: 'forks',
    fileParallelism: workers > 1,
    maxWorkers: Math.max(1, workers),
    minWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    // One retry in CI only: a slow shared 2-core machine can miss a timing once; a real failure
    // fails twice. Retried tests are listed by the reporter.
    retry: process.env.CI ? 1 : 0,
  },
});
