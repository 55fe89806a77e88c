import { replaceInBuildFiles } from './buildFileEdit.ts';
import { withPrepareCommands } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

const UNRECOGNIZED = /unrecognized command[- ]line option [‘'`"](-[fm][\w=.+-]+)[’'`"]/;
const MARCH_NATIVE = /[‘'`"]-march=native[’'`"]: ISA string|-march=native/;
/** What -march=native becomes: the riscv64 Debian baseline. */
export const RISCV64_BASELINE_MARCH = '-march=rv64gc';

/**
 * A compiler flag GCC for riscv64 does not take: -march=native becomes the riscv64 baseline;
 * flags GCC dropped long ago (-fforce-mem, -fforce-addr) and x86-only -m options are removed
 * from the build files.
 */
export const dropUnsupportedCompilerFlags: RecoveryHeuristic = {
  name: 'drop-unsupported-compiler-flag',
  description:
    'replace -march=native and remove compiler flags riscv64 GCC does not know from the build files',
  match(ctx) {
    const out = ctx.failure.output;
    if (/[‘'`"]-march=native[’'`"]/.test(out) || (MARCH_NATIVE.test(out) && /error/.test(out))) {
      return { key: '-march=native', reason: '-march=native does not name a riscv64 ISA' };
    }
    const flag = UNRECOGNIZED.exec(out)?.[1];
    return flag ? { key: flag, reason: `the compiler does not know ${flag}` } : null;
  },
  async apply(ctx, match) {
    const flag = match.key;
    const command =
      flag === '-march=native'
        ? replaceInBuildFiles(flag, RISCV64_BASELINE_MARCH)
        : replaceInBuildFiles(flag, '');
    // GCC reports one unknown flag at a time; the known companions go in the same step.
    const companions = flag === '-fforce-mem' ? [replaceInBuildFiles('-fforce-addr', '')] : [];
    const commands = [command, ...companions];
    const what =
      flag === '-march=native'
        ? `replaced -march=native with ${RISCV64_BASELINE_MARCH}`
        : `removed ${flag}${companions.length ? ' and -fforce-addr' : ''}`;
    return {
      applied: true,
      description: `${what} in the build files`,
      commands,
      plan: withPrepareCommands(ctx.plan, commands),
    };
  },
};
