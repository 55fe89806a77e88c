import { describe, expect, it } from 'vitest';
import { parseOptions } from './parseOptions.ts';

const spec = { short: 'nr', shortValue: 'm', long: ['--count'], longValue: ['--max'], numeric: true };

describe('parseOptions', () => {
  it('reads bundled letters, joined and separate values, long options, -NUM and --', () => {
    expect(
      parseOptions(
        ['-nr', '-m5', '-m', '6', '--max=7', '--max', '8', '--count', '-20', 'a', '--', '-b'],
        spec,
      ),
    ).toEqual({
      ok: true,
      options: [
        { name: '-n' },
        { name: '-r' },
        { name: '-m', value: '5' },
        { name: '-m', value: '6' },
        { name: '--max', value: '7' },
        { name: '--max', value: '8' },
        { name: '--count' },
        { name: '-NUM', value: '20' },
      ],
      operands: ['a', '-b'],
      afterDoubleDash: 1,
    });
  });

  it('refuses unknown letters, abbreviations, values on flags and a value that is an option', () => {
    expect(parseOptions(['-nx'], spec)).toMatchObject({ ok: false, option: '-x' });
    expect(parseOptions(['--cou'], spec)).toMatchObject({ ok: false, option: '--cou' });
    expect(parseOptions(['--count=1'], spec)).toMatchObject({ ok: false });
    expect(parseOptions(['--max', '--evil'], spec)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/--max=VALUE/),
    });
    expect(parseOptions(['-m'], spec)).toMatchObject({ ok: false, error: '-m needs a value' });
  });

  it('reads options after operands, as getopt permutes them, unless told to stop', () => {
    expect(parseOptions(['a', '-x'], spec)).toMatchObject({ ok: false, option: '-x' });
    expect(parseOptions(['log', '-x'], { ...spec, stopAtOperand: true })).toMatchObject({
      ok: true,
      operands: ['log', '-x'],
    });
  });
});
