import { archFamiliesIn, type HazardRule, RISCV, snippetOf } from './HazardRule.ts';

const CONDITIONAL = /^\s*#\s*(if|ifdef|ifndef|elif)\b/;

/**
 * Preprocessor conditionals on x86/ARM/… macros in a file that never mentions riscv: the riscv64
 * build takes whatever `#else` branch exists (or none). One finding per file.
 */
export const archMacros: HazardRule = {
  kind: 'arch-macros',
  description: 'architecture macros (x86, ARM, …) with no riscv branch',
  scanFile(file) {
    if (file.language !== 'c' || RISCV.test(file.text)) return [];
    const families = new Set<string>();
    let first: { line: number; text: string } | null = null;
    let count = 0;
    file.lines.forEach((text, i) => {
      if (!CONDITIONAL.test(text)) return;
      const found = archFamiliesIn(text);
      if (found.length === 0) return;
      for (const f of found) families.add(f);
      count++;
      first ??= { line: i + 1, text };
    });
    if (!first) return [];
    const hit = first as { line: number; text: string };
    const list = families.size >= 2;
    return [
      {
        kind: 'arch-macros',
        severity: list ? 'medium' : 'low',
        file: file.path,
        line: hit.line,
        snippet: snippetOf(hit.text),
        message: `${count} conditional${count === 1 ? '' : 's'} on ${[...families].join('/')} macros and no riscv branch${list ? ' (a per-architecture list without riscv)' : ''}`,
        suggestion:
          'check what the #else branch does on riscv64; add a `defined(__riscv)` branch where the generic one is wrong',
      },
    ];
  },
};
