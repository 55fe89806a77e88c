import { posix } from 'node:path';
import { existsConfined } from '../fs/index.ts';
import { buildTreeRoot } from './buildTreeRoot.ts';
import { withPhaseBefore } from './planEdits.ts';
import type { HeuristicContext, RecoveryHeuristic } from './RecoveryHeuristic.ts';

/**
 * autoconf's and automake's words for helper scripts the tree never got (a checkout bootstrapped
 * by `autoconf` alone, or by a script that runs automake without --add-missing):
 *   configure: error: cannot find required auxiliary files: compile missing install-sh
 *   configure: error: cannot find install-sh, install.sh, or shtool in "." "./.." "./../.."
 *   configure.ac:4: error: required file 'build-aux/compile' not found
 */
const AUX_MISSING = [
  /cannot find required auxiliary files: ([\w .+-]+)/,
  /cannot find (install-sh), install\.sh, or shtool in/,
  /error: required file '(?:[\w.+-]+\/)*([\w.+-]+)' not found\n[^\n]*'automake --add-missing' can install/,
];

/** The helper files named, for the report (`compile missing install-sh`). */
function missingAux(output: string): string | null {
  for (const pattern of AUX_MISSING) {
    const named = pattern.exec(output)?.[1];
    if (named) return named.trim();
  }
  return null;
}

const BOOTSTRAP = 'autoreconf -fi';

function hasConfigureAc(ctx: HeuristicContext): boolean {
  const root = buildTreeRoot(ctx);
  return ['configure.ac', 'configure.in'].some((name) =>
    existsConfined(root, posix.join(ctx.plan.dir, name)),
  );
}

/**
 * configure or automake stops at auxiliary files (config.guess, compile, missing, install-sh,
 * depcomp) the tree lacks: `autoreconf -fi` installs them (automake --add-missing) and
 * regenerates configure, in a bootstrap phase before configure, after any bootstrap the plan
 * already runs (whose script left them out).
 */
export const autotoolsAuxFiles: RecoveryHeuristic = {
  name: 'autotools-aux-files',
  description: "install the autotools auxiliary files a tree lacks with autoreconf's --install",
  match(ctx) {
    const named = missingAux(ctx.failure.output);
    if (!named || !hasConfigureAc(ctx)) return null;
    const bootstrap = ctx.plan.phases.find((p) => p.name === 'bootstrap');
    if (bootstrap?.commands.at(-1) === BOOTSTRAP) return null;
    return { key: ctx.plan.dir, reason: `the tree lacks autotools auxiliary files (${named})` };
  },
  async apply(ctx) {
    const earlier = ctx.plan.phases.find((p) => p.name === 'bootstrap')?.commands ?? [];
    const commands = [...earlier.filter((c) => c !== BOOTSTRAP), BOOTSTRAP];
    return {
      applied: true,
      description: `install the missing auxiliary files and regenerate configure with \`${BOOTSTRAP}\``,
      commands: [BOOTSTRAP],
      plan: withPhaseBefore(ctx.plan, { name: 'bootstrap', commands }, 'configure'),
    };
  },
};
