import { withEnv } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/**
 * Atomic operations the compiler turns into libatomic calls (sub-word or 16-byte atomics on
 * riscv64): link libatomic.
 */
export const addLibatomic: RecoveryHeuristic = {
  name: 'link-libatomic',
  description: 'add -latomic when atomic operations are undefined at link time',
  match(ctx) {
    const symbol = /undefined reference to `(__atomic_\w+)'/.exec(ctx.failure.output)?.[1];
    return symbol ? { key: 'libatomic', reason: `${symbol} lives in libatomic` } : null;
  },
  async apply(ctx) {
    const plan = withEnv(withEnv(ctx.plan, 'LDFLAGS', '-latomic', 'append'), 'LIBS', '-latomic', 'append');
    return { applied: true, description: 'link with -latomic (LDFLAGS and LIBS)', commands: [], plan };
  },
};
