import { describe, expect, it } from 'vitest';
import { archMacros } from './archMacros.ts';
import { scanWith } from './scanWith.testing.ts';

describe('arch-macros', () => {
  it('reports a per-architecture chain without riscv once per file', () => {
    const text =
      '#if defined(__i386__) || defined(__x86_64__)\nx\n#elif defined(__PPC__)\ny\n#endif\n#ifdef __aarch64__\n#endif\n';
    const findings = scanWith(archMacros, { 'cycles.h': text });
    expect(findings).toEqual([expect.objectContaining({ severity: 'medium', line: 1 })]);
    expect(findings[0]?.message).toMatch(/3 conditionals on x86\/ppc\/arm/);
  });

  it('is low for a single x86 guard and silent when riscv is handled', () => {
    expect(scanWith(archMacros, { 'a.c': '#ifdef __SSE2__\n#endif\n' })[0]?.severity).toBe('low');
    expect(
      scanWith(archMacros, { 'b.c': '#if defined(__x86_64__)\n#elif defined(__riscv)\n#endif\n' }),
    ).toEqual([]);
    expect(scanWith(archMacros, { 'c.c': '#if defined(ARCH_X86_64)\n#endif\n' })).toHaveLength(1);
  });
});
