/** Counts of a test run, read from the summary lines test harnesses print. */
export interface TestCounts {
  passed: number;
  failed: number;
  /** Which harness summary was read, or 'exit status' when none was found. */
  source: string;
}

const PARSERS: ReadonlyArray<{ source: string; read: (text: string) => TestCounts | null }> = [
  {
    source: 'automake',
    read: (t) => {
      const pass = /^# PASS: +(\d+)/m.exec(t);
      const fail = /^# FAIL: +(\d+)/m.exec(t);
      const error = /^# ERROR: +(\d+)/m.exec(t);
      return pass
        ? { passed: +(pass[1] ?? 0), failed: +(fail?.[1] ?? 0) + +(error?.[1] ?? 0), source: 'automake' }
        : null;
    },
  },
  {
    source: 'ctest',
    read: (t) => {
      const m = /\d+% tests passed, (\d+) tests? failed out of (\d+)/.exec(t);
      return m ? { passed: +(m[2] ?? 0) - +(m[1] ?? 0), failed: +(m[1] ?? 0), source: 'ctest' } : null;
    },
  },
  {
    source: 'meson',
    read: (t) => {
      const ok = /^Ok: +(\d+)/m.exec(t);
      const fail = /^Fail: +(\d+)/m.exec(t);
      const timeout = /^Timeout: +(\d+)/m.exec(t);
      return ok
        ? { passed: +(ok[1] ?? 0), failed: +(fail?.[1] ?? 0) + +(timeout?.[1] ?? 0), source: 'meson' }
        : null;
    },
  },
  {
    source: 'cargo',
    read: (t) => {
      const all = [...t.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed/g)];
      if (all.length === 0) return null;
      return {
        passed: all.reduce((n, m) => n + +(m[1] ?? 0), 0),
        failed: all.reduce((n, m) => n + +(m[2] ?? 0), 0),
        source: 'cargo',
      };
    },
  },
  {
    // Test::Harness (`make test` of a Perl distribution, prove): `Files=3, Tests=25, …` and, on a
    // failure, `Failed 2/25 subtests` or `… 2/25 subtests failed`
    source: 'perl',
    read: (t) => {
      const totals = /^Files=\d+, Tests=(\d+),/m.exec(t);
      if (!totals) return null;
      const total = +(totals[1] ?? 0);
      const failed = /Failed (\d+)\/\d+ subtests|(\d+)\/\d+ subtests failed/.exec(t);
      const n = failed ? +(failed[1] ?? failed[2] ?? 0) : /^Result: FAIL/m.test(t) ? 1 : 0;
      return { passed: total - Math.min(n, total), failed: n, source: 'perl' };
    },
  },
  {
    // PHP's run-tests.php (`make test` of an extension): `Tests passed    :   138 ( 98.6%)`
    source: 'php',
    read: (t) => {
      const passed = /^Tests passed\s*:\s*(\d+)/m.exec(t);
      const failed = /^Tests failed\s*:\s*(\d+)/m.exec(t);
      return passed ? { passed: +(passed[1] ?? 0), failed: +(failed?.[1] ?? 0), source: 'php' } : null;
    },
  },
  {
    // testthat (an R package's tests/testthat.R): `[ FAIL 0 | WARN 1 | SKIP 2 | PASS 25 ]`
    source: 'testthat',
    read: (t) => {
      const all = [...t.matchAll(/^\[ FAIL (\d+) \| WARN \d+ \| SKIP \d+ \| PASS (\d+) \]/gm)].at(-1);
      return all ? { passed: +(all[2] ?? 0), failed: +(all[1] ?? 0), source: 'testthat' } : null;
    },
  },
  {
    // the R package plan's own count of its tests/ scripts, each a test that passes by exiting 0
    source: 'r',
    read: (t) => {
      const m = /^rvport: R test scripts: (\d+) passed, (\d+) failed$/m.exec(t);
      return m ? { passed: +(m[1] ?? 0), failed: +(m[2] ?? 0), source: 'r' } : null;
    },
  },
  {
    source: 'go',
    read: (t) => {
      const ok = (t.match(/^ok\s+\S+/gm) ?? []).length;
      const fail = (t.match(/^(FAIL|---\s+FAIL)\s+\S+/gm) ?? []).length;
      return ok + fail > 0 ? { passed: ok, failed: fail, source: 'go' } : null;
    },
  },
];

/** Reads the counts from a test run's output; falls back to the exit status (1 suite). */
export function parseTestSummary(output: string, exitCode: number): TestCounts {
  for (const parser of PARSERS) {
    const counts = parser.read(output);
    if (counts) return counts;
  }
  return exitCode === 0
    ? { passed: 1, failed: 0, source: 'exit status' }
    : { passed: 0, failed: 1, source: 'exit status' };
}
