import { defineProject } from 'vitest/config';

// Integration tests through app.inject on a real database: PGlite by default, PostgreSQL when
// TEST_DATABASE_URL is set. Each file gets a fresh copy of a migrated+seeded template.
export default defineProject({
  test: {
    name: 'api',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One module graph per worker, not per file (the root config's forks pool: Vitest reads the
    // isolation of a pool there, not per project). Each file still builds its own app on its own
    // database copy (docs/decisions/036-suite-budget-api-tests-share-modules.md).
  },
});
