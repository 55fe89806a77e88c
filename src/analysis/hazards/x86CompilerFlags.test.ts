import { describe, expect, it } from 'vitest';
import { scanWith } from './scanWith.testing.ts';
import { x86CompilerFlags } from './x86CompilerFlags.ts';

describe('x86-compiler-flag', () => {
  it('reports x86-only options with the option in the message', () => {
    const [f] = scanWith(x86CompilerFlags, { Makefile: 'CFLAGS += -O2 -msse2 -Wall\n' });
    expect(f).toMatchObject({ line: 1, severity: 'medium' });
    expect(f?.message).toContain('-msse2');
    expect(
      scanWith(x86CompilerFlags, { 'build64/Makefile': 'CFLAGS = -m64 -march=x86-64 -mno-sse\n' }),
    ).toHaveLength(1);
  });

  it('leaves portable options alone', () => {
    expect(
      scanWith(x86CompilerFlags, { Makefile: 'CFLAGS = -O2 -msign-return-address -mabi=lp64d\n' }),
    ).toEqual([]);
  });
});
