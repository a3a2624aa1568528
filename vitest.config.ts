import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    // Polls (browser pages, background servers) get room on a loaded machine.
    expect: { poll: { timeout: 10_000 } },
  },
});
