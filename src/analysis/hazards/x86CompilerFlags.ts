import { type HazardRule, matchingLines, snippetOf } from './HazardRule.ts';

const X86_FLAGS =
  /(^|[\s"'=(])-(msse\d?(\.\d)?|mssse3|mavx\w*|mmmx|m3dnow|mfpmath=\w+|m32|malign-double|mpreferred-stack-boundary=\d+|march=(?:x86-64\S*|i[3-6]86|pentium\S*|k6\S*|k8|athlon\S*|core2|nehalem|haswell|skylake\S*|znver\d)|mno-(?:mmx|sse\d?|avx\d*|3dnow)|mno-cygwin|mstackrealign)\b/;

/** x86-only compiler options in build files: the riscv64 compiler rejects them. */
export const x86CompilerFlags: HazardRule = {
  kind: 'x86-compiler-flag',
  description: 'x86-only compiler options',
  scanFile(file) {
    if (file.language !== 'build') return [];
    return matchingLines(file, X86_FLAGS, 3).map(({ line, text }) => ({
      kind: 'x86-compiler-flag',
      severity: 'medium' as const,
      file: file.path,
      line,
      snippet: snippetOf(text),
      message: `x86-only compiler option ${X86_FLAGS.exec(text)?.[2] ? `-${X86_FLAGS.exec(text)?.[2]}` : ''}: riscv64 gcc rejects it`,
      suggestion: 'make sure the option is only used when the target is x86, or remove it',
    }));
  },
};
