import { describe, expect, it } from 'vitest';
import { longDouble } from './longDouble.ts';
import { scanWith } from './scanWith.testing.ts';

describe('long-double', () => {
  it('reports x87 80-bit assumptions', () => {
    const text =
      'long double x;\nif (sizeof(long double) == 12) pad();\n__float80 y;\n#if LDBL_MANT_DIG == 64\n#endif\n';
    expect(scanWith(longDouble, { 'a.c': text }).map((f) => f.line)).toEqual([2, 3, 4]);
  });

  it('accepts portable use of long double', () => {
    expect(scanWith(longDouble, { 'b.c': 'long double x = 1.0L;\nint d = LDBL_MANT_DIG;\n' })).toEqual([]);
  });
});
