import { describe, expect, it } from 'vitest';
import { parseAutomakeConsole, parseAutomakeTrs } from './parseAutomakeResults.ts';

describe('automake test-suite results', () => {
  it('reads the harness lines, XFAIL as a pass and ERROR as a failure', () => {
    const text =
      'make  check-TESTS\nPASS: t/one.sh\nFAIL: t/two.sh\nXFAIL: t/three\nSKIP: t/four\nERROR: t/five\n# PASS: 1';
    expect(parseAutomakeConsole(text)).toEqual([
      { name: 't/one.sh', status: 'pass' },
      { name: 't/two.sh', status: 'fail' },
      { name: 't/three', status: 'pass' },
      { name: 't/four', status: 'skip' },
      { name: 't/five', status: 'fail' },
    ]);
  });

  it('reads a .trs file, the worst of its results, with the .log as output of a failure', () => {
    expect(
      parseAutomakeTrs(
        't/two',
        ':test-result: PASS\n:test-result: FAIL\n:global-test-result: FAIL\n',
        'boom\n',
      ),
    ).toEqual({
      name: 't/two',
      status: 'fail',
      output: 'boom',
    });
    expect(parseAutomakeTrs('t/one', ':test-result: PASS\n', 'fine')).toEqual({
      name: 't/one',
      status: 'pass',
    });
    expect(parseAutomakeTrs('t/x', 'not a trs file')).toBeNull();
  });
});
