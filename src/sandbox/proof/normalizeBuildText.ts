/**
 * What legitimately differs between two builds of the same sources in the same sandbox path, in
 * any mode: the wall-clock time they ran at, the random names of GCC's and make's temporary files and of
 * CMake's try_compile projects, process ids in the shell's reports of killed children and, in test
 * logs only, how long things took. Nothing else is normalised; build paths are the same
 * (`/build/…`) in every mode, so they are left alone.
 */
export const RUN_DEPENDENT_PATTERNS: ReadonlyArray<{ pattern: RegExp; replacement: string }> = [
  // GCC's temporary files (mkstemps "ccXXXXXX"): differ between any two runs, in any mode
  { pattern: /\/tmp\/cc[0-9A-Za-z]{6}\.([a-z]{1,4})/g, replacement: '/tmp/ccXXXXXX.$1' },
  // GNU make's copy of a makefile read from standard input (mkstemp "GmXXXXXX"), named in its
  // warnings: libevent's configure runs `make -f -`, and config.log keeps the name
  { pattern: /\/tmp\/Gm[0-9A-Za-z]{6}\b/g, replacement: '/tmp/GmXXXXXX' },
  // the shell's report of a killed child names its process id (configure's crashing conftests):
  // "./configure: line 1864:  2538 Aborted   ./conftest"
  { pattern: /(: line \d+: +)\d+( +[A-Z][a-z])/g, replacement: '$1<PID>$2' },
  // `date` and C's asctime: "Mon Nov 30 14:04:27 UTC 2026", "Mon Nov 30 14:04:27 2026"
  {
    pattern:
      /\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun),? +(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2} +\d{2}:\d{2}:\d{2}( +[A-Z]{2,5})? +\d{4}\b/g,
    replacement: '<TIME>',
  },
  // CTest's and syslog's shorter stamps: "Start testing: Nov 30 15:17 UTC"
  {
    pattern:
      /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2} +\d{2}:\d{2}(:\d{2})?( +[A-Z]{2,5})?\b/g,
    replacement: '<TIME>',
  },
  // CMake's try_compile scratch folders get random names: "TryCompile-YZDXLJ"
  { pattern: /\bTryCompile-[0-9A-Za-z]{6}\b/g, replacement: 'TryCompile-XXXXXX' },
  // …and random try_compile target names: "cmTC_c013b"
  { pattern: /\bcmTC_[0-9a-f]{5}\b/g, replacement: 'cmTC_XXXXX' },
  // ISO 8601 and syslog-like stamps: "2026-11-30T14:04:27.123Z", "2026-11-30 14:04:27", and
  // gettext's minutes with a zone (xgettext's POT-Creation-Date: "2026-12-03 10:07+0000")
  {
    pattern:
      /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?\b|(Z|[+-]\d{2}:?\d{2})\b)/g,
    replacement: '<TIME>',
  },
];

/** Durations printed by test drivers: "0.01 s", "1.234s", "(12 ms)", "0m1.2s". */
export const DURATION_PATTERNS: ReadonlyArray<{ pattern: RegExp; replacement: string }> = [
  { pattern: /\b\d+(\.\d+)? ?(ms|s|sec|seconds)\b/g, replacement: '<DURATION>' },
  { pattern: /\b\d+m\d+(\.\d+)?s\b/g, replacement: '<DURATION>' },
];

/** CTest's record of how long each test took: "NAME RUNS SECONDS" per line. */
const CTEST_COST_DATA = /(^|\/)CTestCostData\.txt$/;

/**
 * Test logs (automake's .log/.trs, DejaGnu's .sum, CTest's cost data) are the only files whose
 * durations are masked.
 */
export function isTestLog(path: string): boolean {
  return /\.(log|trs|sum)$/.test(path) || CTEST_COST_DATA.test(path);
}

export function normalizeBuildText(text: string, path = ''): string {
  const patterns = isTestLog(path)
    ? [...RUN_DEPENDENT_PATTERNS, ...DURATION_PATTERNS]
    : RUN_DEPENDENT_PATTERNS;
  if (CTEST_COST_DATA.test(path)) text = text.replace(/^(\S+ \d+) [\d.]+$/gm, '$1 <DURATION>');
  let result = text;
  for (const { pattern, replacement } of patterns) result = result.replace(pattern, replacement);
  return result;
}
