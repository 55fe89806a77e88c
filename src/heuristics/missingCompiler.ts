import { installNamedDependency, keyOf, parseKey } from './installNamedDependency.ts';
import type { HeuristicContext, HeuristicMatch, RecoveryHeuristic } from './RecoveryHeuristic.ts';

/** meson: `ERROR: Unknown compiler(s): [['ldc2'], ['ldc'], ['gdc'], ['dmd']]` (the names it tried). */
const MESON_UNKNOWN = /ERROR: Unknown compiler\(s\): (\[.*\])\s*$/m;
/** CMake: `No CMAKE_Fortran_COMPILER could be found.` (a language of `project()` or `enable_language()`). */
const CMAKE_NO_COMPILER = /No CMAKE_(\w+)_COMPILER could be found/;

/**
 * gcc: `gcc: fatal error: cannot execute 'cc1obj': …` (the driver is there, its front end is not;
 * the quotes are typographic in a UTF-8 locale).
 */
const GCC_NO_FRONT_END = /cannot execute ['‘](?:[^'’\n]*\/)?(cc1obj|cc1objplus|f951|gnat1|cc1d|go1)['’]/;

/** Front ends the accelerated modes' cross gcc lacks, whatever is installed (it has C and C++). */
const EMULATED_ONLY_FRONT_ENDS: ReadonlySet<string> = new Set(['cc1obj', 'cc1objplus', 'gnat1']);

/** The Debian program whose package brings each gcc front end. */
const GCC_FRONT_END_COMPILERS: Readonly<Record<string, string>> = {
  cc1obj: 'gobjc',
  cc1objplus: 'gobjc++',
  f951: 'gfortran',
  gnat1: 'gnat',
  cc1d: 'gdc',
  go1: 'gccgo',
};

/** The programs that compile a CMake language, in the order Debian users would pick them. */
const CMAKE_LANGUAGE_COMPILERS: Readonly<Record<string, readonly string[]>> = {
  C: ['gcc'],
  CXX: ['g++'],
  Fortran: ['gfortran'],
  ASM_NASM: ['nasm'],
  ASM_MASM: [],
  OBJC: ['gobjc'],
  OBJCXX: ['gobjc++'],
  Swift: ['swiftc'],
  HIP: [],
  CUDA: ['nvcc'],
};

/** The compiler programs a failure names (alternatives, in the build system's order). */
export function missingCompilers(output: string): string[] {
  const meson = MESON_UNKNOWN.exec(output)?.[1];
  if (meson) {
    // only the program of each candidate (`[['ccache', 'cc']]`: the last word is the compiler)
    return [...meson.matchAll(/\[([^[\]]*)\]/g)]
      .map((m) => [...(m[1] ?? '').matchAll(/'([^']+)'/g)].map((w) => w[1] as string).at(-1))
      .filter((name): name is string => !!name && /^[\w+.-]+$/.test(name));
  }
  const frontEnd = GCC_NO_FRONT_END.exec(output)?.[1];
  if (frontEnd) return [GCC_FRONT_END_COMPILERS[frontEnd] as string];
  const language = CMAKE_NO_COMPILER.exec(output)?.[1];
  return language ? [...(CMAKE_LANGUAGE_COMPILERS[language] ?? [])] : [];
}

/**
 * A language whose compiler the image lacks (a D part built with meson: ldc2, gdc; Fortran in a
 * CMake project, Objective-C sources given to a gcc without cc1obj): the Debian package of the first compiler the build system would accept is
 * installed and added to the plan. None packaged for riscv64: nothing is applied, and the
 * escalation names the compilers.
 */
export const missingCompiler: RecoveryHeuristic = {
  name: 'missing-compiler',
  description: 'install the compiler of a language the build needs and the image does not have',
  match(ctx: HeuristicContext): HeuristicMatch | null {
    const names = missingCompilers(ctx.failure.output);
    if (!names.length) return null;
    // the accelerated modes' x86_64 cross gcc takes no front end from a riscv64 package: the
    // port goes to emulated mode instead (port/run/modeRedo.ts)
    const frontEnd = GCC_NO_FRONT_END.exec(ctx.failure.output)?.[1];
    if (frontEnd && EMULATED_ONLY_FRONT_ENDS.has(frontEnd) && ctx.sandbox.mode !== 'emulated') return null;
    return {
      key: keyOf(names.map((name) => ({ kind: 'command' as const, name }))),
      reason: `no compiler for a language of the build (tried ${names.join(', ')})`,
    };
  },
  apply(ctx, match) {
    return installNamedDependency(ctx, parseKey(match.key), 'the build system looked for as a compiler');
  },
};
