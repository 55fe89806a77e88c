import type { ElfFacts } from '../../verify/index.ts';

/**
 * A source with no code of a compiled language that built no ELF file or archive (a dictionary,
 * fonts, scripts) is not verified, and the reason says what it is rather than that a riscv64
 * output is missing. Null when the source has compiled code, when it is not known, or when the
 * build made any object file.
 */
export function nothingToProve(
  compiledSources: number | undefined,
  facts: readonly ElfFacts[],
): string | null {
  if (compiledSources !== 0 || facts.some((f) => f.kind !== 'not_elf')) return null;
  return 'the source has no compiled code (no C, C++, assembly, Fortran, Go or Rust file) and the build made no ELF file: it is data or scripts, with nothing specific to a machine to prove';
}
