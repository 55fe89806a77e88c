import { codeOf, guardedByOtherArch, type HazardRule, RISCV, snippetOf } from './HazardRule.ts';

const ASM = /(\b__asm__\b|\b__asm\b|\basm\s+(volatile|__volatile__|goto)?\s*\(|\basm\s*\()/;
/** Portable uses: compiler barriers (`asm volatile("" ::: "memory")`) and symbol names. */
const PORTABLE =
  /\b(__asm__|__asm|asm)\s*(volatile|__volatile__)?\s*\(\s*("\s*"|@ASM_SYMBOL_PREFIX@|__USER_LABEL_PREFIX__|_?_?ASMNAME|__ASM_NAME)|\)\s*(__asm__|__asm|asm)\s*\(\s*"/;

/** Inline assembly: architecture-specific unless it is riscv assembly. */
export const inlineAsm: HazardRule = {
  kind: 'inline-asm',
  description: 'inline assembly',
  scanFile(file) {
    if (file.language !== 'c') return [];
    const findings = [];
    for (let i = 0; i < file.lines.length && findings.length < 5; i++) {
      const line = file.lines[i] ?? '';
      const code = codeOf(line);
      if (!ASM.test(code) || PORTABLE.test(code)) continue;
      // assembly written for riscv (in a riscv-guarded block) is what we want, not a hazard
      const context = file.lines.slice(Math.max(0, i - 15), i + 1).join('\n');
      if (RISCV.test(context)) continue;
      const guarded = guardedByOtherArch(file.lines, i);
      findings.push({
        kind: 'inline-asm',
        severity: guarded ? ('low' as const) : ('medium' as const),
        file: file.path,
        line: i + 1,
        snippet: snippetOf(line),
        message: guarded
          ? "inline assembly inside another architecture's #if branch (riscv64 takes another branch)"
          : 'inline assembly for another architecture will not assemble for riscv64',
        suggestion:
          'check that it is guarded by an architecture macro with a C fallback; otherwise add one (or riscv64 assembly)',
      });
    }
    return findings;
  },
};
