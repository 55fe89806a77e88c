import { describe, expect, it } from 'vitest';
import { parseTestResults } from './parseTestResults.ts';

describe('parseTestResults', () => {
  it('takes the console lines, then the harness files, which win for the same test', () => {
    const output = 'PASS: t/one.sh\nFAIL: t/two.sh\n';
    const cases = parseTestResults(output, [
      { path: 't/two.trs', text: ':test-result: FAIL\n' },
      { path: 't/two.log', text: 'loop did not end\n' },
    ]);
    expect(cases).toEqual([
      { name: 't/one.sh', status: 'pass' },
      { name: 't/two.sh', status: 'fail', output: 'loop did not end' },
    ]);
  });

  it('numbers a name that repeats in one run (TAP restarts per script)', () => {
    expect(parseTestResults('ok 1 - a\nok 1 - a\n').map((c) => c.name)).toEqual(['a', 'a#2']);
  });

  it('finds nothing in output without a harness', () => {
    expect(parseTestResults('all fine\n')).toEqual([]);
  });
});
