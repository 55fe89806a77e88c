import { archFamiliesIn, enclosingBlock, type HazardRule, RISCV, snippetOf } from './HazardRule.ts';

const ERROR = /^\s*#\s*error\b(.*)$/;
const ABOUT_ARCH = /\b(arch(itecture)?s?|cpus?|processors?|platforms?|targets?|machines?)\b/i;
const UNSUPPORTED =
  /\b(not supported|unsupported|unknown|no support|no target|not (yet )?(ported|implemented)|undefined|cannot determine|please define)\b/i;

/** `#error "architecture not supported"`: the riscv64 build stops at the preprocessor. */
export const archErrors: HazardRule = {
  kind: 'arch-error',
  description: '#error for unsupported architectures',
  scanFile(file) {
    if (file.language !== 'c') return [];
    const supportsRiscv = RISCV.test(file.text);
    const findings = [];
    for (let i = 0; i < file.lines.length && findings.length < 3; i++) {
      const message = ERROR.exec(file.lines[i] ?? '')?.[1] ?? null;
      if (message === null || !ABOUT_ARCH.test(message) || !UNSUPPORTED.test(message)) continue;
      // only the end of a chain that selects by architecture (not a missing feature or type)
      const block = enclosingBlock(file.lines, i);
      if (!block.some((d) => archFamiliesIn(d).length > 0)) continue;
      findings.push({
        kind: 'arch-error',
        severity: supportsRiscv ? ('low' as const) : ('high' as const),
        file: file.path,
        line: i + 1,
        snippet: snippetOf(file.lines[i] ?? ''),
        message: supportsRiscv
          ? 'architecture #error, but the file also handles riscv'
          : 'the code refuses unknown architectures and has no riscv branch: riscv64 support must be written (or the feature disabled)',
        suggestion: supportsRiscv
          ? 'check that the riscv branch matches riscv64 (__riscv && __riscv_xlen == 64)'
          : 'look for a newer upstream version with riscv64 support, or a build option that disables this part',
      });
    }
    return findings;
  },
};
