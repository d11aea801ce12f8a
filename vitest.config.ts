import { defineConfig } from 'vitest/config';

// One Vitest run, three projects: core (unit), web (components, jsdom), api (integration, real DB).
export default defineConfig({
  test: {
    passWithNoTests: true,
    // 2 cores on CI; each API test file holds an embedded Postgres (~330 MB).
    maxWorkers: 2,
    // Vitest keeps one forks pool for every project and reads its isolation here, not per project:
    // the forks (core, api) share a module graph per worker (docs/decisions/036); the web project
    // runs in the threads pool, isolated, since its component tests need a fresh jsdom per file.
    poolOptions: { forks: { isolate: false }, threads: { isolate: true } },
    projects: [
      {
        test: {
          name: 'core',
          include: ['packages/core/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      'apps/web/vitest.config.ts',
      'apps/api/vitest.config.ts',
    ],
  },
});
