import { clipOutput, type TestCase } from './TestCase.ts';

const RESULTS: Record<string, TestCase['status']> = {
  OK: 'pass',
  EXPECTEDFAIL: 'pass',
  SKIP: 'skip',
  FAIL: 'fail',
  UNEXPECTEDPASS: 'fail',
  TIMEOUT: 'fail',
  ERROR: 'fail',
};

const CONSOLE_LINE = /^\s*\d+\/\d+\s+(.+?)\s+(OK|FAIL|SKIP|EXPECTEDFAIL|UNEXPECTEDPASS|TIMEOUT|ERROR)\s+\d/;

/** meson test's console lines: ` 1/3 suite:name   OK   0.01s`. */
export function parseMesonConsole(text: string): TestCase[] {
  const cases: TestCase[] = [];
  for (const line of text.split('\n')) {
    const m = CONSOLE_LINE.exec(line);
    const status = m?.[2] ? RESULTS[m[2]] : undefined;
    if (m?.[1] && status) cases.push({ name: m[1].trim(), status });
  }
  return cases;
}

/** `meson-logs/testlog.json`: one JSON object per line, with `name`, `result` and `stdout`. */
export function parseMesonTestlog(text: string): TestCase[] {
  const cases: TestCase[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof record !== 'object' || record === null) continue;
    const { name, result, stdout, stderr } = record as Record<string, unknown>;
    const status = typeof result === 'string' ? RESULTS[result] : undefined;
    if (typeof name !== 'string' || !status) continue;
    const text = `${typeof stdout === 'string' ? stdout : ''}${typeof stderr === 'string' ? stderr : ''}`;
    const output = status === 'fail' ? clipOutput(text) : undefined;
    cases.push({ name, status, ...(output ? { output } : {}) });
  }
  return cases;
}
