import { clipOutput, type TestCase } from './TestCase.ts';

const CONSOLE_LINE =
  /^\s*\d+\/\d+\s+Test\s+#\d+:\s+(\S+)\s+\.*\s*(?:\*+)?(Passed|Failed|Not Run|Skipped|Timeout|Exception|Subprocess aborted|SEGFAULT|Child aborted|\*+Failed)/;

/** CTest's console lines: `1/3 Test #1: name ....   Passed    0.01 sec` (or `***Failed`). */
export function parseCtestConsole(text: string): TestCase[] {
  const cases: TestCase[] = [];
  for (const line of text.split('\n')) {
    const m = CONSOLE_LINE.exec(line);
    if (!m?.[1] || !m[2]) continue;
    const verdict = m[2];
    cases.push({
      name: m[1],
      status:
        verdict === 'Passed' ? 'pass' : verdict === 'Not Run' || verdict === 'Skipped' ? 'skip' : 'fail',
    });
  }
  return cases;
}

/**
 * `Testing/Temporary/LastTest.log`: per test a `N/M Testing: name` header, the output between
 * `Output:` and `<end of output>`, and `Test Passed.` / `Test Failed.`.
 */
export function parseCtestLastTestLog(text: string): TestCase[] {
  const cases: TestCase[] = [];
  const blocks = text.split(/^\d+\/\d+ Testing: /m).slice(1);
  for (const block of blocks) {
    const name = block.split('\n')[0]?.trim();
    if (!name) continue;
    const output = /^Output:\n-+\n([\s\S]*?)<end of output>/m.exec(block)?.[1] ?? '';
    const passed = /^Test Passed\./m.test(block);
    const skipped = /^Test Skipped\b|Test Not Run/m.test(block);
    const status = passed ? 'pass' : skipped ? 'skip' : 'fail';
    const clipped = status === 'fail' ? clipOutput(output) : undefined;
    cases.push({ name, status, ...(clipped ? { output: clipped } : {}) });
  }
  return cases;
}
