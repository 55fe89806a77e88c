import type { TestCase } from './TestCase.ts';

const TAP_LINE = /^(not ok|ok)\s+(\d+)\b\s*(?:-\s*)?([^#]*?)\s*(#\s*(skip|todo)\b.*)?$/i;

/**
 * TAP lines (`ok 1 - name`, `not ok 2 name # TODO`; the number is required, so `ok  pkg 1.2s` of go
 * test is no TAP line): a test without a description is named by
 * its number; a TODO failure is expected, a SKIP is a skip.
 */
export function parseTapResults(text: string): TestCase[] {
  const cases: TestCase[] = [];
  for (const raw of text.split('\n')) {
    const m = TAP_LINE.exec(raw.trimEnd());
    if (!m?.[1]) continue;
    const name = m[3] || (m[2] ? `test ${m[2]}` : '');
    if (!name) continue;
    const directive = m[5]?.toLowerCase();
    const ok = m[1].toLowerCase() === 'ok';
    const status = directive === 'skip' ? 'skip' : ok || directive === 'todo' ? 'pass' : 'fail';
    cases.push({ name, status });
  }
  return cases;
}
