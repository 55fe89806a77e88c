import { describe, expect, it } from 'vitest';
import { parseTapResults } from './parseTapResults.ts';

describe('parseTapResults', () => {
  it('reads ok/not ok lines with descriptions, numbers and directives', () => {
    const text = [
      'TAP version 13',
      '1..5',
      'ok 1 - parses options',
      'not ok 2 - loop ends',
      'ok 3 # SKIP no network',
      'not ok 4 known bug # TODO later',
      'ok 5',
      'ok  \tgithub.com/x/y\t1.2s',
    ].join('\n');
    expect(parseTapResults(text)).toEqual([
      { name: 'parses options', status: 'pass' },
      { name: 'loop ends', status: 'fail' },
      { name: 'test 3', status: 'skip' },
      { name: 'known bug', status: 'pass' },
      { name: 'test 5', status: 'pass' },
    ]);
  });
});
