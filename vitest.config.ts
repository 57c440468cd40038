import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    globalSetup: ['test/support/global-setup.ts'],
    // Most end-to-end tests wait on child processes, servers and terminals, not on the CPU: two
    // files at a time on a 2-core machine (vitest's default there is one).
    maxWorkers: 2,
  },
});
