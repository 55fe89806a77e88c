import { existsSync } from 'node:fs';
import { join } from 'node:path';
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
    const dir = join(ctx.sandbox.workspace, 'src', ctx.plan.dir);
    if (!existsSync(join(dir, 'configure.ac')) && !existsSync(join(dir, 'configure.in'))) return null;
    return { key: ctx.plan.dir, reason: 'configure is missing but configure.ac is there' };
  },
  async apply(ctx) {
    const dir = join(ctx.sandbox.workspace, 'src', ctx.plan.dir);
    const command = existsSync(join(dir, 'autogen.sh'))
      ? 'NOCONFIGURE=1 sh ./autogen.sh'
      : existsSync(join(dir, 'bootstrap'))
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
