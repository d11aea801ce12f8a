import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { e2eWorkers } from './support/workers.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const workers = e2eWorkers();

// E2E: one built server per worker (global setup), each on its own copy of the seeded database,
// and headless Chromium per file. Files are spread over the workers; the files of one worker
// run one after the other on its server (docs/decisions/008).
export default defineConfig({
  root,
  test: {
    name: 'e2e',
    include: ['e2e/tests/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/support/global-setup.ts'],
    pool: 'forks',
    fileParallelism: workers > 1,
    maxWorkers: workers,
    minWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    // expect.poll reads the page until the state is there: a one-shot read right after an action
    // can run before React has rendered it. As long as Playwright's own waits (30 s by default).
    expect: { poll: { timeout: 30_000, interval: 50 } },
    // One retry in CI only: a slow shared 2-core machine can miss a timing once; a real failure
    // fails twice. Retried tests are listed by the reporter.
    retry: process.env.CI ? 1 : 0,
  },
});
