import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    // i18next with the core catalogues, antd's jsdom polyfills, and cleanup between tests.
    setupFiles: ['./test/setup.ts'],
    // antd in jsdom on a small machine: full user interactions can take seconds.
    testTimeout: 30_000,
  },
});
