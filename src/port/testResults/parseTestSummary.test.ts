import { describe, expect, it } from 'vitest';
import { parseTestSummary } from './parseTestSummary.ts';

describe('parseTestSummary', () => {
  it.each([
    [
      'automake',
      '# TOTAL: 12\n# PASS:  10\n# SKIP:  1\n# XFAIL: 0\n# FAIL:  1\n# XPASS: 0\n# ERROR: 0',
      1,
      10,
      1,
    ],
    ['ctest', '80% tests passed, 1 tests failed out of 5\n\nTotal Test time (real) =   0.52 sec', 8, 4, 1],
    [
      'meson',
      'Ok:                 3   \nExpected Fail:      0   \nFail:               0   \nSkipped:            0   \nTimeout:            0',
      0,
      3,
      0,
    ],
    [
      'cargo',
      'test result: ok. 4 passed; 0 failed; 0 ignored\ntest result: ok. 2 passed; 0 failed;',
      0,
      6,
      0,
    ],
    [
      'go',
      'ok  \tgithub.com/BurntSushi/toml\t1.2s\nok  \tgithub.com/BurntSushi/toml/internal\t0.1s',
      0,
      2,
      0,
    ],
    [
      'perl',
      't/00_basic.t .. ok\nt/01_lookup.t .. ok\nAll tests successful.\nFiles=2, Tests=31,  1 wallclock secs\nResult: PASS',
      0,
      31,
      0,
    ],
    [
      'perl',
      't/01_lookup.t .. Failed 2/20 subtests\nFiles=2, Tests=31,  1 wallclock secs\nResult: FAIL\nFailed 1/2 test programs. 2/31 subtests failed.',
      2,
      29,
      2,
    ],
    [
      'php',
      'Number of tests :   140               138\nTests skipped   :     2 (  1.4%) --------\nTests failed    :     1 (  0.7%) (  0.7%)\nTests passed    :   137 ( 97.9%) ( 99.3%)',
      1,
      137,
      1,
    ],
    ['testthat', '[ FAIL 0 | WARN 0 | SKIP 0 | PASS 3 ]\n\n[ FAIL 1 | WARN 2 | SKIP 1 | PASS 24 ]', 1, 24, 1],
    ['r', 'rvport: tests/a.R\nrvport: tests/b.R\nrvport: R test scripts: 1 passed, 1 failed', 1, 1, 1],
  ])('reads %s summaries', (source, text, exit, passed, failed) => {
    expect(parseTestSummary(text, exit)).toEqual({ passed, failed, source });
  });

  it('falls back to the exit status', () => {
    expect(parseTestSummary('all fine', 0)).toEqual({ passed: 1, failed: 0, source: 'exit status' });
    expect(parseTestSummary('boom', 2)).toEqual({ passed: 0, failed: 1, source: 'exit status' });
  });
});
