import { clipOutput, type TestCase } from './TestCase.ts';

const GO_ACTIONS: Record<string, TestCase['status']> = { pass: 'pass', fail: 'fail', skip: 'skip' };

/** `go test -json`: events with Action run/output/pass/fail/skip per Package and Test. */
export function parseGoTestJson(text: string): TestCase[] {
  const outputs = new Map<string, string>();
  const cases: TestCase[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof event !== 'object' || event === null) continue;
    const { Action, Package, Test, Output } = event as Record<string, unknown>;
    if (typeof Test !== 'string' || typeof Action !== 'string') continue;
    const name = typeof Package === 'string' ? `${Package}.${Test}` : Test;
    if (Action === 'output' && typeof Output === 'string') {
      const before = outputs.get(name) ?? '';
      if (before.length < 8000) outputs.set(name, before + Output);
      continue;
    }
    const status = GO_ACTIONS[Action];
    if (!status) continue;
    const output = status === 'fail' ? clipOutput(outputs.get(name) ?? '') : undefined;
    cases.push({ name, status, ...(output ? { output } : {}) });
  }
  return cases;
}
