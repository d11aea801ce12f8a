import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    // Isolated (a fresh module graph and document per file): the threads pool, whose isolation the
    // root config keeps on, while the forks of core and api share theirs (docs/decisions/036).
    pool: 'threads',
    // i18next with the core catalogues, antd's jsdom polyfills, and cleanup between tests.
    setupFiles: ['./test/setup.ts'],
    // antd in jsdom on a small machine: full user interactions can take seconds.
    testTimeout: 30_000,
  },
});
