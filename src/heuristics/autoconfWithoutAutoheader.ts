import { posix } from 'node:path';
import { existsConfined } from '../fs/index.ts';
import { buildTreeRoot } from './buildTreeRoot.ts';
import { mapCommands } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

const AUTOHEADER_FAILED = /autoheader: warning: missing template|autoreconf: error: \S*autoheader failed/;

/**
 * An old project whose configure.in predates today's autoheader: autoreconf stops on missing
 * templates. When the project ships its config.h.in, generating configure with autoconf alone is
 * what its own build instructions do.
 */
export const autoconfWithoutAutoheader: RecoveryHeuristic = {
  name: 'autoconf-without-autoheader',
  description: 'generate configure with autoconf alone when autoheader fails and config.h.in is shipped',
  match(ctx) {
    if (!AUTOHEADER_FAILED.test(ctx.failure.output) || !/\bautoreconf\b/.test(ctx.failure.command))
      return null;
    return existsConfined(buildTreeRoot(ctx), posix.join(ctx.plan.dir, 'config.h.in'))
      ? { key: ctx.plan.dir, reason: 'autoheader fails, and config.h.in is shipped' }
      : null;
  },
  async apply(ctx) {
    const plan = mapCommands(ctx.plan, (c, phase) =>
      phase === 'bootstrap' && /\bautoreconf\b/.test(c) ? 'autoconf' : c,
    );
    return {
      applied: true,
      description: 'generate configure with `autoconf` (the shipped config.h.in stays)',
      commands: [],
      plan,
    };
  },
};
