import { archFamiliesIn, type HazardRule, RISCV, snippetOf } from './HazardRule.ts';

/**
 * Build files that list architectures (source lists, flag tables, `case $host_cpu`) without
 * riscv: on riscv64 the generic branch is taken, or nothing is built.
 */
export const archBuildLists: HazardRule = {
  kind: 'arch-list',
  description: 'per-architecture lists in build files without riscv',
  scanFile(file) {
    if (file.language !== 'build' || RISCV.test(file.text)) return [];
    const findings = [];
    for (let i = 0; i < file.lines.length && findings.length < 3; i++) {
      const line = file.lines[i] ?? '';
      if (/^\s*(#|dnl\b)/.test(line)) continue;
      const families = archFamiliesIn(line);
      if (families.length < 2) continue;
      findings.push({
        kind: 'arch-list',
        severity: 'medium' as const,
        file: file.path,
        line: i + 1,
        snippet: snippetOf(line),
        message: `architecture list (${families.join(', ')}) without riscv`,
        suggestion:
          'check which sources and flags riscv64 gets here; add riscv64 where the generic choice is wrong',
      });
    }
    return findings;
  },
};
