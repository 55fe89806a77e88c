import { describe, expect, it } from 'vitest';
import { obsoleteCompilerFlags } from './obsoleteCompilerFlags.ts';
import { scanWith } from './scanWith.testing.ts';

describe('obsolete-compiler-flag', () => {
  it('reports options GCC removed as high (libmad adds -fforce-mem on every target)', () => {
    const [f] = scanWith(obsoleteCompilerFlags, {
      'configure.ac': '\t    optimize="$optimize -fforce-mem"\n',
    });
    expect(f).toMatchObject({ severity: 'high', line: 1 });
    expect(f?.message).toMatch(/-fforce-mem was removed from GCC/);
    expect(
      scanWith(obsoleteCompilerFlags, { Makefile: 'CFLAGS = -fno-strength-reduce\n' })[0]?.severity,
    ).toBe('low');
    expect(scanWith(obsoleteCompilerFlags, { Makefile: 'CFLAGS = -O2\n' })).toEqual([]);
  });
});
