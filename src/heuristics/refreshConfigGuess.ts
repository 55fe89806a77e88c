import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { withPrepareCommands } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

const UNKNOWN_MACHINE =
  /unable to guess system type|cannot guess build type|machine `riscv64[^']*' not recognized|Invalid configuration `riscv64/;

/** config.guess and config.sub files below `root` (relative paths), not inside .git. */
export function findConfigHelpers(root: string, rel = '', depth = 0): string[] {
  if (depth > 6) return [];
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(join(root, rel), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return e.name === '.git' ? [] : findConfigHelpers(root, path, depth + 1);
    return e.isFile() && (e.name === 'config.guess' || e.name === 'config.sub') ? [path] : [];
  });
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
    const helpers = findConfigHelpers(join(ctx.sandbox.workspace, 'src'));
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
