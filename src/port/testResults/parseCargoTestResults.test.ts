import { describe, expect, it } from 'vitest';
import { parseCargoTestResults } from './parseCargoTestResults.ts';

describe('parseCargoTestResults', () => {
  it('reads libtest lines and the stdout section of a failure', () => {
    const text = [
      'running 3 tests',
      'test tests::parse ... ok',
      'test tests::signed ... FAILED',
      'test tests::slow ... ignored',
      '',
      'failures:',
      '',
      '---- tests::signed stdout ----',
      "thread 'tests::signed' panicked at src/lib.rs:9:5:",
      'assertion failed: c < 0',
      '',
      '',
      'failures:',
      '    tests::signed',
      '',
      'test result: FAILED. 1 passed; 1 failed; 1 ignored',
    ].join('\n');
    expect(parseCargoTestResults(text)).toEqual([
      { name: 'tests::parse', status: 'pass' },
      {
        name: 'tests::signed',
        status: 'fail',
        output: "thread 'tests::signed' panicked at src/lib.rs:9:5:\nassertion failed: c < 0",
      },
      { name: 'tests::slow', status: 'skip' },
    ]);
  });
});
