import { clipOutput, type TestCase } from './TestCase.ts';

const RESULT_LINE = /^(PASS|FAIL|XFAIL|XPASS|SKIP|ERROR): (\S+)/;

function statusOf(result: string): TestCase['status'] {
  if (result === 'PASS' || result === 'XFAIL') return 'pass';
  if (result === 'SKIP') return 'skip';
  return 'fail';
}

/** The lines automake's parallel test harness prints: `PASS: name`, `FAIL: name`, … */
export function parseAutomakeConsole(text: string): TestCase[] {
  const cases: TestCase[] = [];
  for (const line of text.split('\n')) {
    const m = RESULT_LINE.exec(line);
    if (m?.[1] && m[2]) cases.push({ name: m[2], status: statusOf(m[1]) });
  }
  return cases;
}

/**
 * One test's `.trs` file (`:test-result: PASS`; several lines for a TAP test, worst wins) with
 * its `.log` beside it, the test's output.
 */
export function parseAutomakeTrs(name: string, trs: string, log = ''): TestCase | null {
  const results = [...trs.matchAll(/^:test-result: (\S+)/gm)].map((m) => statusOf(m[1] ?? ''));
  if (results.length === 0) return null;
  const status = results.includes('fail') ? 'fail' : results.every((r) => r === 'skip') ? 'skip' : 'pass';
  const output = status === 'fail' ? clipOutput(log) : undefined;
  return { name, status, ...(output ? { output } : {}) };
}
