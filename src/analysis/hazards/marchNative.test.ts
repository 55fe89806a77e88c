import { describe, expect, it } from 'vitest';
import { marchNative } from './marchNative.ts';
import { scanWith } from './scanWith.testing.ts';

describe('march-native', () => {
  it('reports -march=native and -mtune=native in build files', () => {
    const findings = scanWith(marchNative, {
      Makefile: 'CFLAGS = -O2 -march=native\nLDFLAGS =\n',
      'x.cmake': 'set(F -mtune=native)\n',
    });
    expect(findings.map((f) => [f.file, f.line])).toEqual([
      ['Makefile', 1],
      ['x.cmake', 1],
    ]);
    expect(scanWith(marchNative, { Makefile: 'CFLAGS = -march=rv64gc\n' })).toEqual([]);
  });
});
