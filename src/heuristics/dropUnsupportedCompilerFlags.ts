import { replaceInBuildFiles } from './buildFileEdit.ts';
import { withBuildPhaseFirst, withPrepareCommands } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

const Q = `[‘'\`"]`;
const E = `[’'\`"]`;
const UNRECOGNIZED = new RegExp(`unrecognized command[- ]line option ${Q}(-[fm][\\w=.,+-]+)${E}`, 'g');
/** riscv64 GCC on an x86 `-march` value (`-march=i386`, `-march=pentium4`, `-march=native`). */
const ISA_STRING = new RegExp(`${Q}(-march=[\\w.+-]+)${E}: ISA string`, 'g');
/** riscv64 GCC on an x86 `-mtune` value: `unknown cpu ‘i686’ for ‘-mtune’`. */
const UNKNOWN_CPU = new RegExp(`unknown cpu ${Q}([\\w.+-]+)${E} for ${Q}-mtune${E}`, 'g');
/** An x86 CPU as `-mtune` names one; a build that set an x86 `-march` set its `-mtune` beside it. */
const X86_TUNE =
  /(?<=\s)-mtune=(?:i[3-6]86|pentium[\w-]*|prescott|nocona|core[\w-]*|k[68]|athlon[\w-]*|opteron[\w-]*|x86-64[\w-]*|haswell|broadwell|skylake[\w-]*|znver\d|atom|silvermont|bonnell|generic)(?=\s)/g;
const MARCH_NATIVE = /[‘'`"]-march=native[’'`"]|-march=native/;
/** What -march=native becomes: the riscv64 Debian baseline. */
export const RISCV64_BASELINE_MARCH = '-march=rv64gc';
/** Flags GCC dropped together; one error names the first. */
const COMPANIONS: Readonly<Record<string, string>> = { '-fforce-mem': '-fforce-addr' };

/** Every compiler flag the failed build's errors name as one riscv64 GCC does not take. */
export function unsupportedFlags(output: string): string[] {
  const flags = new Set<string>();
  if (/[‘'`"]-march=native[’'`"]/.test(output) || (MARCH_NATIVE.test(output) && /error/.test(output)))
    flags.add('-march=native');
  for (const m of output.matchAll(ISA_STRING)) flags.add(m[1] ?? '');
  // the compiler stops at -march and says nothing yet of the x86 -mtune on the same command
  if (flags.size > 0) for (const m of output.matchAll(X86_TUNE)) flags.add(m[0]);
  for (const m of output.matchAll(UNKNOWN_CPU)) flags.add(`-mtune=${m[1] ?? ''}`);
  for (const m of output.matchAll(UNRECOGNIZED)) flags.add(m[1] ?? '');
  flags.delete('');
  return [...flags];
}

/**
 * Compiler flags GCC for riscv64 does not take, all that one failed build names at once:
 * -march=native becomes the riscv64 baseline; another -march or -mtune value (an x86 CPU a
 * configure script chose, `-march=i386 -mtune=i686`), x86-only -m options (-m64, -msse2) and
 * flags GCC dropped long ago (-fforce-mem, -fforce-addr) are removed from the build files.
 */
export const dropUnsupportedCompilerFlags: RecoveryHeuristic = {
  name: 'drop-unsupported-compiler-flag',
  description:
    'replace -march=native and remove compiler flags riscv64 GCC does not know from the build files',
  match(ctx) {
    const flags = unsupportedFlags(ctx.failure.output);
    if (flags.length === 0) return null;
    const reason =
      flags.length === 1 && flags[0] === '-march=native'
        ? '-march=native does not name a riscv64 ISA'
        : `the compiler does not know ${flags.join(', ')}`;
    return { key: flags.join(' '), reason };
  },
  async apply(ctx, match) {
    const flags = match.key.split(' ');
    const withCompanions = flags.flatMap((f) => (COMPANIONS[f] ? [f, COMPANIONS[f] as string] : [f]));
    const commands = withCompanions.map((flag) =>
      replaceInBuildFiles(flag, flag === '-march=native' ? RISCV64_BASELINE_MARCH : ''),
    );
    const replaced = flags.includes('-march=native')
      ? [`replaced -march=native with ${RISCV64_BASELINE_MARCH}`]
      : [];
    const removed = withCompanions.filter((f) => f !== '-march=native');
    const what = [...replaced, ...(removed.length ? [`removed ${removed.join(', ')}`] : [])].join(' and ');
    return {
      applied: true,
      description: `${what} in the build files`,
      commands,
      // in the sources before configure, and in what configure generated before make
      plan: withBuildPhaseFirst(withPrepareCommands(ctx.plan, commands), commands),
    };
  },
};
