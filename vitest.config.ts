import { defineConfig } from 'vitest/config';

// One Vitest run, three projects: core (unit), web (components, jsdom), api (integration, real DB).
export default defineConfig({
  test: {
    passWithNoTests: true,
    // 2 cores on CI; each API test file holds an embedded Postgres (~330 MB).
    maxWorkers: 2,
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
