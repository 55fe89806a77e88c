import { withEnv } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/**
 * An installed header's declaration of a function that clashes with the C library's:
 * `/usr/include/libiberty/libiberty.h:112:14: error: ambiguating new declaration of ‘char*
 * basename(const char*)’` (glibc declares basename for C++ otherwise). Such headers leave the
 * declaration out when the build says the system has it (`#if !HAVE_DECL_BASENAME`), the macro a
 * configure check of the header's own project defines and the including project does not.
 */
const CLASH =
  /^(\/usr\/include\/[\w+./-]+\.h):\d+:\d+: error: (?:ambiguating new declaration of|conflicting types for|conflicting declaration of)(?: C function)? [‘'`][^’'\n(]*?\b(\w+) ?\(/m;

/**
 * Defines HAVE_DECL_NAME=1 in CPPFLAGS where an installed header's declaration of NAME clashes
 * with the C library's and the header guards it with that macro (read in the sandbox): the
 * header then takes the system's declaration. A header without such a guard is left alone.
 */
export const haveDeclDefine: RecoveryHeuristic = {
  name: 'have-decl-define',
  description:
    "define HAVE_DECL_NAME=1 where an installed header's declaration of NAME clashes with the C library's",
  match(ctx) {
    const m = CLASH.exec(ctx.failure.output);
    if (!m?.[1] || !m[2] || m[1].split('/').includes('..')) return null;
    return {
      key: `HAVE_DECL_${m[2].toUpperCase()}`,
      reason: `${m[1]} declares ${m[2]} as the C library does not`,
    };
  },
  async apply(ctx, match) {
    const header = /^(\S+) declares/.exec(match.reason)?.[1] ?? '';
    const guarded = await ctx.sandbox.run(['grep', '-qw', match.key, header], {});
    if (guarded.exitCode !== 0 || (ctx.plan.env?.CPPFLAGS ?? '').includes(`-D${match.key}=`))
      return {
        applied: false,
        description: `${header} does not leave the declaration to ${match.key}`,
        commands: [],
      };
    const flag = `-D${match.key}=1`;
    return {
      applied: true,
      description: `build with CPPFLAGS including ${flag} (${header} then takes the C library's declaration)`,
      commands: [],
      plan: withEnv(ctx.plan, 'CPPFLAGS', flag, 'append'),
    };
  },
};
