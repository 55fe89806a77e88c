import { codeOf, type HazardRule, snippetOf } from './HazardRule.ts';

const SMALL =
  '(bool|char|signed char|unsigned char|short|unsigned short|u?int(8|16)_t|uchar|ushort|s?u?(8|16)|UInt8|UInt16|SInt8|SInt16)';
const PATTERNS = [
  new RegExp(`std::atomic\\s*<\\s*${SMALL}\\s*>`),
  new RegExp(`\\b(_Atomic\\s*\\(?\\s*${SMALL}|atomic_(bool|char|schar|uchar|short|ushort|flag))\\b`),
  new RegExp(`\\b__(sync|atomic)_\\w+\\s*\\(\\s*\\(\\s*(volatile\\s+)?${SMALL}\\s*\\*`),
];
const ANY_BUILTIN =
  /\b__(sync|atomic)_(fetch_and_\w+|\w+_and_fetch|bool_compare_and_swap|val_compare_and_swap|lock_test_and_set|exchange\w*|compare_exchange\w*|fetch_\w+|store|load|test_and_set)\s*\(/;

/**
 * Atomics on 8/16-bit values: riscv64 has only 32/64-bit AMOs, so GCC calls libatomic for them;
 * the link fails without -latomic. Generic `__sync`/`__atomic` builtins are reported as info.
 */
export const subwordAtomics: HazardRule = {
  kind: 'subword-atomics',
  description: 'atomic operations on 8/16-bit values (need -latomic on riscv64)',
  scanFile(file) {
    if (file.language !== 'c') return [];
    const findings = [];
    let builtin: { line: number; text: string } | null = null;
    for (let i = 0; i < file.lines.length && findings.length < 3; i++) {
      const code = codeOf(file.lines[i] ?? '');
      if (PATTERNS.some((p) => p.test(code))) {
        findings.push({
          kind: 'subword-atomics',
          severity: 'medium' as const,
          file: file.path,
          line: i + 1,
          snippet: snippetOf(code),
          message: 'atomic operation on an 8/16-bit value: riscv64 implements it in libatomic',
          suggestion: 'link with -latomic (or widen the value to 32 bits)',
        });
      } else if (!builtin && ANY_BUILTIN.test(code)) builtin = { line: i + 1, text: code };
    }
    if (findings.length === 0 && builtin) {
      findings.push({
        kind: 'subword-atomics',
        severity: 'info' as const,
        file: file.path,
        line: builtin.line,
        snippet: snippetOf(builtin.text),
        message: 'GCC atomic builtins: fine for 32/64-bit values, need -latomic for 8/16-bit ones',
        suggestion: 'if linking fails with undefined __atomic_* symbols, add -latomic',
      });
    }
    return findings;
  },
};
