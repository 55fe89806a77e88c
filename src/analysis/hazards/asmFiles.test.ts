import { describe, expect, it } from 'vitest';
import { asmFiles } from './asmFiles.ts';
import { scanWith } from './scanWith.testing.ts';

describe('asm-file', () => {
  it('reports assembly sources for another architecture', () => {
    const findings = scanWith(asmFiles, { 'src/x.S': 'movq %rax, %rbx\n', 'asm/lzo1x.asm': 'BITS 32\n' });
    expect(findings.map((f) => [f.file, f.line, f.message])).toEqual([
      ['asm/lzo1x.asm', null, 'x86 assembly source: it cannot be assembled for riscv64'],
      ['src/x.S', null, 'x86 assembly source: it cannot be assembled for riscv64'],
    ]);
  });

  it('skips riscv assembly, by name or by content', () => {
    expect(
      scanWith(asmFiles, { 'src/riscv/sysv.S': 'x', 'src/y.S': '  addi sp, sp, -16\n  sd ra, 8(sp)\n' }),
    ).toEqual([]);
  });
});
