import { describe, expect, it } from 'vitest';
import { parseCtestConsole, parseCtestLastTestLog } from './parseCtestResults.ts';

describe('CTest results', () => {
  it('reads the console lines', () => {
    const text = [
      'Test project /build/src/b',
      '    Start 1: parse',
      '1/3 Test #1: parse ............................   Passed    0.01 sec',
      '2/3 Test #2: roundtrip ........................***Failed    0.02 sec',
      '3/3 Test #3: slow .............................***Not Run   0.00 sec',
      '67% tests passed, 1 tests failed out of 3',
    ].join('\n');
    expect(parseCtestConsole(text)).toEqual([
      { name: 'parse', status: 'pass' },
      { name: 'roundtrip', status: 'fail' },
      { name: 'slow', status: 'skip' },
    ]);
  });

  it('reads LastTest.log with the output of a failure', () => {
    const text = [
      'Start testing: Dec 01 10:00 UTC',
      '----------------------------------------------------------',
      '1/2 Testing: parse',
      '1/2 Test: parse',
      'Output:',
      '----------------------------------------------------------',
      'all good',
      '<end of output>',
      'Test Passed.',
      '2/2 Testing: roundtrip',
      'Output:',
      '----------------------------------------------------------',
      'expected 255, got -1',
      '<end of output>',
      'Test Failed.',
    ].join('\n');
    expect(parseCtestLastTestLog(text)).toEqual([
      { name: 'parse', status: 'pass' },
      { name: 'roundtrip', status: 'fail', output: 'expected 255, got -1' },
    ]);
  });
});
