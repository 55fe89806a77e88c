import { type HazardRule, matchingLines, snippetOf } from './HazardRule.ts';

const NATIVE = /-m(arch|tune|cpu)=native\b/;

export const marchNative: HazardRule = {
  kind: 'march-native',
  description: '-march=native / -mtune=native',
  scanFile(file) {
    if (file.language !== 'build') return [];
    return matchingLines(file, NATIVE, 3).map(({ line, text }) => ({
      kind: 'march-native',
      severity: 'medium' as const,
      file: file.path,
      line,
      snippet: snippetOf(text),
      message:
        '-march=native tunes for the build machine, which is not the riscv64 target (and the cross compiler may reject it)',
      suggestion: 'drop it or replace it with -march=rv64gc for a portable riscv64 binary',
    }));
  },
};
