import { clipOutput, type TestCase } from './TestCase.ts';

const RESULT_LINE = /^test (\S+) \.\.\. (ok|FAILED|ignored)\b/;

/** cargo test (libtest): `test foo::bar ... ok`; a failure's output in `---- foo::bar stdout ----`. */
export function parseCargoTestResults(text: string): TestCase[] {
  const sections = new Map<string, string>();
  const parts = text.split(/^---- (\S+) stdout ----$/m);
  for (let i = 1; i + 1 < parts.length; i += 2) {
    const body = (parts[i + 1] ?? '').split(/^\n?(?:failures:|---- )/m)[0] ?? '';
    sections.set(parts[i] ?? '', body);
  }
  const cases: TestCase[] = [];
  for (const line of text.split('\n')) {
    const m = RESULT_LINE.exec(line);
    if (!m?.[1] || !m[2]) continue;
    const status = m[2] === 'ok' ? 'pass' : m[2] === 'ignored' ? 'skip' : 'fail';
    const output = status === 'fail' ? clipOutput(sections.get(m[1]) ?? '') : undefined;
    cases.push({ name: m[1], status, ...(output ? { output } : {}) });
  }
  return cases;
}
