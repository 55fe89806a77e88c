import { describe, expect, it } from 'vitest';
import { inlineAsm } from './inlineAsm.ts';
import { scanWith } from './scanWith.testing.ts';

describe('inline-asm', () => {
  it('reports x86 inline assembly, low when inside an x86 #if branch', () => {
    const open = scanWith(inlineAsm, {
      'a.c': 'int f(int x) {\n  __asm__("bswap %0" : "+r"(x));\n  return x;\n}\n',
    });
    expect(open).toEqual([expect.objectContaining({ severity: 'medium', line: 2 })]);
    const guarded = scanWith(inlineAsm, {
      'b.c': '#if defined(__x86_64__)\n  asm volatile("pause");\n#endif\n',
    });
    expect(guarded).toEqual([expect.objectContaining({ severity: 'low', line: 2 })]);
  });

  it('ignores compiler barriers, symbol renames and riscv assembly', () => {
    expect(
      scanWith(inlineAsm, { 'c.c': 'asm volatile("" ::: "memory");\nextern int f(void) __asm__ ("g");\n' }),
    ).toEqual([]);
    expect(
      scanWith(inlineAsm, { 'd.c': '#if defined(__riscv)\n  __asm__ volatile("fence");\n#endif\n' }),
    ).toEqual([]);
  });
});
