import { type HazardRule, matchingLines, snippetOf } from './HazardRule.ts';

/** Options removed from GCC long ago; old configure scripts still add them on any target. */
const OBSOLETE =
  /(^|[\s"'=])-(fforce-mem|fforce-addr|fno-strength-reduce|mcpu=\w+|fschedule-insns2?|fno-gcse-lm)\b/;
const REMOVED = new Set(['fforce-mem', 'fforce-addr']);

export const obsoleteCompilerFlags: HazardRule = {
  kind: 'obsolete-compiler-flag',
  description: 'compiler options that modern GCC no longer accepts or that name another CPU',
  scanFile(file) {
    if (file.language !== 'build') return [];
    return matchingLines(file, OBSOLETE, 3).map(({ line, text }) => {
      const flag = OBSOLETE.exec(text)?.[2] ?? '';
      const removed = REMOVED.has(flag);
      return {
        kind: 'obsolete-compiler-flag',
        severity: removed ? ('high' as const) : ('low' as const),
        file: file.path,
        line,
        snippet: snippetOf(text),
        message: removed
          ? `-${flag} was removed from GCC (4.3); the riscv64 compiler fails with "unrecognized command-line option"`
          : `-${flag} is obsolete or names another CPU`,
        suggestion: `remove -${flag} from the build flags`,
      };
    });
  },
};
