import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration suites start real processes and sandboxes; keep the two cores for them.
    maxWorkers: 2,
    // The default report, then one plain line of counts ("N passed, N failed") that ends the output.
    reporters: ['default', './test/reporters/plainSummary.ts'],
    // What a passing test prints stays out of the output: a port report quoting a package's own
    // test runner ("running 0 tests", "[no test files]") reads to CI as a run that executed none.
    silent: 'passed-only',
  },
});
