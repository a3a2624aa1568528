import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    pool: 'forks',
    // The default reporter, plus the skipped tests' reasons after the run (test/support/skip-reporter.ts).
    reporters: ['default', './test/support/skip-reporter.ts'],
    testTimeout: 30_000,
    // Every run-log record a test run builds is checked against the schema before it is stored (src/store/run-log.ts).
    env: { SERVICEGYM_CHECK_RECORDS: '1' },
    // Polls (browser pages, background servers) get room on a loaded machine.
    expect: { poll: { timeout: 10_000 } },
  },
});
