import { withCompilerFlag } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/** Absolute-address relocations of the medlow code model that no longer reach their target. */
const TRUNCATED = /^(.*): relocation truncated to fit: R_RISCV_(HI20|LO12_I|LO12_S)\b/gm;

/**
 * The package's own code uses the medlow code model (absolute addresses within ±2 GiB) and the
 * program outgrew it: compile with -mcmodel=medany (PC-relative), as Debian's riscv64 toolchain
 * does for position-independent code. Only when a truncated relocation is in the package's code,
 * not only in the toolchain's start files.
 */
export const mcmodelMedany: RecoveryHeuristic = {
  name: 'mcmodel-medany',
  description: 'compile with -mcmodel=medany when medlow relocations are truncated',
  match(ctx) {
    const sites = [...ctx.failure.output.matchAll(TRUNCATED)].map((m) => m[1] ?? '');
    const own = sites.filter((site) => !/^crtstuff\.c:/.test(site));
    return own.length
      ? { key: 'mcmodel-medany', reason: `relocation truncated to fit (${own[0]}): medlow cannot reach it` }
      : null;
  },
  async apply(ctx) {
    const plan = withCompilerFlag(ctx.plan, ['CFLAGS', 'CXXFLAGS', 'FFLAGS', 'FCFLAGS'], '-mcmodel=medany');
    return {
      applied: true,
      description: 'compile with -mcmodel=medany (CFLAGS, CXXFLAGS, FFLAGS, FCFLAGS)',
      commands: [],
      plan,
    };
  },
};
