import { type HazardRule, snippetOf } from './HazardRule.ts';

const FREESTANDING = /(^|[\s"'=])-(ffreestanding|nostdlib|nostartfiles)\b/;
const LINKER_SCRIPT = /(^|[\s"'=])-T\s*\S+|\.lds\b|\$\([A-Z_]*LDS\)/;

/**
 * A freestanding program with its own linker script (a boot loader, a firmware, a memory
 * tester): it runs on the bare hardware it was written for, not on riscv64 Linux.
 */
export const bareMetal: HazardRule = {
  kind: 'bare-metal',
  description: 'freestanding programs with their own linker script',
  scanFile(file) {
    if (file.language !== 'build' || !FREESTANDING.test(file.text) || !LINKER_SCRIPT.test(file.text))
      return [];
    const index = file.lines.findIndex((l) => FREESTANDING.test(l));
    return [
      {
        kind: 'bare-metal',
        severity: 'high',
        file: file.path,
        line: index + 1,
        snippet: snippetOf(file.lines[index] ?? ''),
        message:
          'a freestanding program with its own linker script: it targets bare hardware, not riscv64 Linux',
        suggestion:
          'a riscv64 port means new boot and hardware code; check whether upstream supports riscv at all',
      },
    ];
  },
};
