import type { SourceTree } from './SourceTree.ts';

/**
 * Files of languages that compile to machine code: C, C++, Objective-C, assembly, Fortran, D,
 * Go, Rust, Zig, Nim, Pascal, Ada, Haskell, OCaml, Vala (through C), CUDA. Headers count too: a
 * header-only library is still code a build compiles.
 */
const COMPILED =
  /\.(c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx|inl|m|mm|s|S|asm|f|for|f77|f90|f95|f03|f08|d|di|go|rs|zig|nim|pas|pp|adb|ads|hs|ml|mli|vala|cu)$/i;

/** How many files of the tree are source code of a compiled language. */
export function countCompiledSources(tree: Pick<SourceTree, 'files'>): number {
  return tree.files.filter((f) => COMPILED.test(f)).length;
}
