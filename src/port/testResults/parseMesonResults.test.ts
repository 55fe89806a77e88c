import { describe, expect, it } from 'vitest';
import { parseMesonConsole, parseMesonTestlog } from './parseMesonResults.ts';

describe('meson test results', () => {
  it('reads the console lines', () => {
    const text = [
      'ninja: no work to do.',
      '1/3 lib:parse         OK              0.01s',
      '2/3 lib:signed char   FAIL            0.02s   exit status 1',
      '3/3 lib:gpu           SKIP            0.00s',
      'Ok:                 1',
    ].join('\n');
    expect(parseMesonConsole(text)).toEqual([
      { name: 'lib:parse', status: 'pass' },
      { name: 'lib:signed char', status: 'fail' },
      { name: 'lib:gpu', status: 'skip' },
    ]);
  });

  it('reads testlog.json and skips lines that are not JSON', () => {
    const text = [
      JSON.stringify({ name: 'parse', result: 'OK', stdout: 'fine' }),
      'garbage {',
      JSON.stringify({ name: 'signed', result: 'FAIL', stdout: 'got 255\n', stderr: 'abort\n' }),
      JSON.stringify({ name: 'odd', result: 'WHATEVER' }),
    ].join('\n');
    expect(parseMesonTestlog(text)).toEqual([
      { name: 'parse', status: 'pass' },
      { name: 'signed', status: 'fail', output: 'got 255\nabort' },
    ]);
  });
});
