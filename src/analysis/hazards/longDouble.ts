import { codeOf, type HazardRule, snippetOf } from './HazardRule.ts';

const ASSUMPTION =
  /\b__float80\b|\bLDBL_MANT_DIG\s*[!=]=\s*64\b|sizeof\s*\(\s*long\s+double\s*\)\s*[!=<>]=?\s*(8|10|12)\b|\b(long\s+double)\b.*\b(x87|80-?bit|extended precision)\b|\bfldt\b|\bfstpt\b/i;

/**
 * Code that assumes `long double` is the x87 80-bit type (or 64-bit): on riscv64 it is IEEE
 * binary128, 16 bytes, emulated in software.
 */
export const longDouble: HazardRule = {
  kind: 'long-double',
  description: 'assumptions about the size or format of long double',
  scanFile(file) {
    if (file.language !== 'c' || !/long\s+double|__float80|LDBL_/.test(file.text)) return [];
    const findings = [];
    for (let i = 0; i < file.lines.length && findings.length < 3; i++) {
      const line = codeOf(file.lines[i] ?? '');
      if (!ASSUMPTION.test(line)) continue;
      findings.push({
        kind: 'long-double',
        severity: 'medium' as const,
        file: file.path,
        line: i + 1,
        snippet: snippetOf(file.lines[i] ?? ''),
        message: 'assumes the x87 80-bit (or a 64-bit) long double; riscv64 long double is 128-bit IEEE quad',
        suggestion: 'use LDBL_MANT_DIG/sizeof at compile time instead of fixed sizes; avoid __float80',
      });
    }
    return findings;
  },
};
