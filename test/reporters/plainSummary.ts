import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/** The counts a run ends with: tests by outcome, plus what failed outside any test. */
export interface RunCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/**
 * Counts the run's tests by outcome. A test file that failed without a failing test (it did not
 * load, or a hook failed) and an unhandled error each count as one failure, so the line never
 * says "0 failed" for a run that failed.
 */
export function countRun(
  modules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<SerializedError>,
): RunCounts {
  const counts: RunCounts = { passed: 0, failed: 0, skipped: 0 };
  for (const module of modules) {
    let failedHere = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') counts.passed++;
      else if (state === 'failed') failedHere++;
      else counts.skipped++;
    }
    if (failedHere === 0 && module.state() === 'failed') failedHere = 1;
    counts.failed += failedHere;
  }
  counts.failed += unhandledErrors.length;
  return counts;
}

/** The plain closing line, without colour, that tools reading a log look for. */
export function formatCounts(counts: RunCounts): string {
  const line = `tests: ${counts.passed} passed, ${counts.failed} failed`;
  return counts.skipped > 0 ? `${line}, ${counts.skipped} skipped` : line;
}

/** A vitest reporter that ends the run's output with the plain count line. */
export default class PlainSummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    process.stdout.write(`\n${formatCounts(countRun(modules, unhandledErrors))}\n`);
  }
}
