import type { HeuristicContext, HeuristicMatch, RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { readConfigLog } from './readTreeFile.ts';
import { withCFlagEverywhere } from './withFlagEverywhere.ts';

/**
 * Old C that GCC 14 no longer accepts by default (implicit function declarations, implicit int,
 * int-conversion, incompatible pointer types are errors since GCC 14): build with -fpermissive,
 * which turns exactly those back into warnings, as GCC's porting notes advise.
 *
 * Old configure scripts are old C too: a test program such as `extern void foo (); (void) exit
 * (0);` (no <stdlib.h>) stops at GCC 14's new errors, configure takes that for "no void", and the
 * build stops later on the wrong answer (`#error ANSI C compiler without void or unsigned char
 * or prototypes`). The evidence is then in config.log, not in the build's output: a failed test
 * program's error with one of GCC 14's new error flags. CFLAGS in the plan's environment reaches
 * configure, so the repair is the same.
 */
const GCC14_ERRORS =
  /error: (implicit declaration of function|type defaults to ‘int’|type defaults to 'int')|\[-W(implicit-function-declaration|implicit-int|int-conversion|incompatible-pointer-types|return-mismatch|declaration-missing-parameter-type)\]/;

/** A test program's compile error in config.log (`conftest.c:13:28: error: …`). */
const CONFTEST_ERROR = /^conftest\.c:\d+:\d+: error: /;

/** The first line of the output that is one of GCC 14's new errors. */
function gcc14Error(text: string, line: RegExp = /error/): string | undefined {
  return text.split('\n').find((l) => GCC14_ERRORS.test(l) && line.test(l));
}

/**
 * A build that stopped after configure succeeded, whose config.log shows a configure test
 * program rejected for one of GCC 14's new errors: the line, or null.
 */
async function configureTestError(ctx: HeuristicContext): Promise<string | null> {
  if (ctx.failure.phase !== 'build' || !/error/i.test(ctx.failure.output)) return null;
  const log = await readConfigLog(ctx);
  return (log && gcc14Error(log, CONFTEST_ERROR)) || null;
}

export const permissiveOldC: RecoveryHeuristic = {
  name: 'permissive-old-c',
  description:
    "compile old C with -fpermissive (GCC 14's new errors become warnings again), configure's tests included",
  async match(ctx): Promise<HeuristicMatch | null> {
    const line = gcc14Error(ctx.failure.output);
    if (line) return { key: 'cflags', reason: `GCC 14 rejects old C: ${line.trim()}` };
    const test = await configureTestError(ctx);
    return test
      ? {
          key: 'cflags',
          reason: `GCC 14 rejected configure's old test programs, so configure answered wrongly (config.log: ${test.trim()})`,
        }
      : null;
  },
  apply(ctx) {
    return withCFlagEverywhere(ctx, '-fpermissive');
  },
};
