import { describe, expect, it } from 'vitest';
import { archErrors } from './archErrors.ts';
import { scanWith } from './scanWith.testing.ts';

describe('arch-error', () => {
  it('reports an architecture chain ending in #error (luajit lj_arch.h)', () => {
    const text =
      '#if defined(__i386__)\n#define T 1\n#elif defined(__aarch64__)\n#define T 2\n#else\n#error "Architecture not supported (in this version)"\n#endif\n';
    expect(scanWith(archErrors, { 'lj_arch.h': text })).toEqual([
      expect.objectContaining({ severity: 'high', line: 6 }),
    ]);
  });

  it('ignores errors about features or types, and is low when riscv is handled', () => {
    expect(
      scanWith(archErrors, {
        'a.h':
          '#if UINT_MAX == 0xFFFFFFFFUL\n#else\n#error "unsupported platform: need a 32-bit type"\n#endif\n',
      }),
    ).toEqual([]);
    const withRiscv =
      '#if defined(__x86_64__)\n#elif defined(__riscv)\n#else\n#error unsupported CPU type\n#endif\n';
    expect(scanWith(archErrors, { 'b.c': withRiscv })[0]?.severity).toBe('low');
  });
});
