import { posix } from 'node:path';
import { existsConfined } from '../fs/index.ts';
import { buildTreeRoot } from './buildTreeRoot.ts';
import { withPhaseBefore } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

const CONFIGURE_MISSING =
  /\.\/configure: (?:\d+: )?(?:not found|No such file or directory)|sh: \d+: \.\/configure: not found/;

/**
 * `./configure` is not there but `configure.ac` is: generate it (the project's autogen.sh or
 * bootstrap script when it has one, `autoreconf -fi` otherwise) before configuring.
 */
export const bootstrapAutotools: RecoveryHeuristic = {
  name: 'bootstrap-autotools',
  description: 'generate a missing configure script from configure.ac',
  match(ctx) {
    if (!CONFIGURE_MISSING.test(ctx.failure.output)) return null;
    const has = inPlanDir(ctx);
    if (!has('configure.ac') && !has('configure.in')) return null;
    return { key: ctx.plan.dir, reason: 'configure is missing but configure.ac is there' };
  },
  async apply(ctx) {
    const has = inPlanDir(ctx);
    const command = has('autogen.sh')
      ? 'NOCONFIGURE=1 sh ./autogen.sh'
      : has('bootstrap')
        ? 'sh ./bootstrap'
        : 'autoreconf -fi';
    return {
      applied: true,
      description: `generate configure with \`${command}\``,
      commands: [command],
      plan: withPhaseBefore(ctx.plan, { name: 'bootstrap', commands: [command] }, 'configure'),
    };
  },
};

/** Whether the plan's folder of the build tree holds a file (inside the tree only). */
function inPlanDir(ctx: Parameters<RecoveryHeuristic['match']>[0]): (name: string) => boolean {
  return (name) => existsConfined(buildTreeRoot(ctx), posix.join(ctx.plan.dir, name));
}
