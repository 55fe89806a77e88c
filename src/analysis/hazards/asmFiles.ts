import { posix } from 'node:path';
import type { Finding, HazardRule } from './HazardRule.ts';

const ASM_FILE = /\.(S|s|asm|nasm|sx)$/;
const RISCV_PATH = /riscv|rv64|rv32/i;
const RISCV_CODE = /\b(addi|ld|sd|lw|sw|auipc|jalr)\s+(a[0-7]|t[0-6]|s([0-9]|1[01])|ra|sp|zero)\b/;
const X86_CODE =
  /%[re]?[abcd]x\b|%[re]?[sd]i\b|%xmm\d|%ymm\d|\b(e|r)[abcd]x\b|\bxmm\d+\b|\bBITS\s+(32|64)\b|\bSECTION\s+\.text\b|\bmovdq[au]\b|\bpush[lq]?\s+%/i;

/** Assembly sources (`.S`, `.s`, `.asm`) written for another architecture. */
export const asmFiles: HazardRule = {
  kind: 'asm-file',
  description: 'assembly source files for another architecture',
  scanTree(tree) {
    const findings: Finding[] = [];
    for (const path of tree.files) {
      if (!ASM_FILE.test(path) || RISCV_PATH.test(path)) continue;
      const text = tree.read(path) ?? '';
      if (RISCV_CODE.test(text)) continue;
      const x86 = X86_CODE.test(text) || /x86|i386|amd64|x64|sse|avx|mmx|nasm/i.test(posix.basename(path));
      findings.push({
        kind: 'asm-file',
        severity: 'medium',
        file: path,
        line: null,
        snippet: posix.basename(path),
        message: `${x86 ? 'x86 ' : ''}assembly source: it cannot be assembled for riscv64`,
        suggestion:
          'build the portable C implementation instead (most projects have a configure/CMake option to disable assembly)',
      });
    }
    return findings;
  },
};
