import { walkConfined } from '../fs/index.ts';
import { buildTreeRoot } from './buildTreeRoot.ts';
import { withPrepareCommands } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

const UNKNOWN_MACHINE =
  /unable to guess system type|cannot guess build type|machine `riscv64[^']*' not recognized|Invalid configuration `riscv64/;

/** Folders below the root searched for helpers. */
const HELPER_DEPTH = 6;

/**
 * config.guess and config.sub files below `root` (relative paths), not inside .git. Links are not
 * followed: the prepare step copies over regular files only.
 */
export function findConfigHelpers(root: string): string[] {
  try {
    return walkConfined(root, { maxDepth: HELPER_DEPTH, skipDir: (name) => name === '.git' })
      .entries.filter((e) => e.type === 'file' && (e.name === 'config.guess' || e.name === 'config.sub'))
      .map((e) => e.path);
  } catch {
    return [];
  }
}

/**
 * config.guess or config.sub too old to know riscv64: replace every copy in the tree with the
 * sandbox's current ones (autotools-dev), as a prepare step so every rebuild repeats it.
 */
export const refreshConfigGuess: RecoveryHeuristic = {
  name: 'refresh-config-guess',
  description: 'replace config.guess/config.sub that do not know riscv64 with current ones',
  match(ctx) {
    return UNKNOWN_MACHINE.test(ctx.failure.output)
      ? { key: 'tree', reason: 'config.guess/config.sub do not know riscv64' }
      : null;
  },
  async apply(ctx) {
    const helpers = findConfigHelpers(buildTreeRoot(ctx));
    if (helpers.length === 0)
      return { applied: false, description: 'no config.guess or config.sub in the tree', commands: [] };
    const commands = helpers.map((h) => `cp /usr/share/misc/${h.split('/').at(-1)} "$RVPORT_SRC/${h}"`);
    return {
      applied: true,
      description: `refreshed ${helpers.join(', ')}`,
      commands,
      plan: withPrepareCommands(ctx.plan, commands),
    };
  },
};
