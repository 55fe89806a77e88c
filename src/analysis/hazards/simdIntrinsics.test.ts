import { describe, expect, it } from 'vitest';
import { scanWith } from './scanWith.testing.ts';
import { simdIntrinsics } from './simdIntrinsics.ts';

describe('simd-intrinsics', () => {
  it('reports unguarded SSE headers as medium and guarded ones as low', () => {
    const [open] = scanWith(simdIntrinsics, { 'a.c': '#include <emmintrin.h>\nint x;\n' });
    expect(open).toMatchObject({
      kind: 'simd-intrinsics',
      severity: 'medium',
      file: 'a.c',
      line: 1,
      snippet: '#include <emmintrin.h>',
    });
    const [guarded] = scanWith(simdIntrinsics, {
      'b.c': '#if defined(__SSE2__)\n#include <emmintrin.h>\n#endif\n',
    });
    expect(guarded).toMatchObject({ severity: 'low', line: 2 });
  });

  it('finds NEON intrinsics calls and ignores portable code', () => {
    expect(
      scanWith(simdIntrinsics, { 'n.c': 'void f(float *p) { float32x4_t v = vld1q_f32(p); }\n' }),
    ).toHaveLength(1);
    expect(scanWith(simdIntrinsics, { 'p.c': 'int mm_add(int a) { return a; }\n' })).toEqual([]);
  });
});
