import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { withCFlagEverywhere } from './withCFlagEverywhere.ts';

/**
 * Old C that GCC 14 no longer accepts by default (implicit function declarations, implicit int,
 * int-conversion, incompatible pointer types are errors since GCC 14): build with -fpermissive,
 * which turns exactly those back into warnings, as GCC's porting notes advise.
 */
const GCC14_ERRORS =
  /error: (implicit declaration of function|type defaults to ‘int’|type defaults to 'int')|\[-W(implicit-function-declaration|implicit-int|int-conversion|incompatible-pointer-types|return-mismatch|declaration-missing-parameter-type)\]/;

export const permissiveOldC: RecoveryHeuristic = {
  name: 'permissive-old-c',
  description: "compile old C with -fpermissive (GCC 14's new errors become warnings again)",
  match(ctx) {
    const line = ctx.failure.output.split('\n').find((l) => GCC14_ERRORS.test(l) && /error/.test(l));
    return line ? { key: 'cflags', reason: `GCC 14 rejects old C: ${line.trim()}` } : null;
  },
  apply(ctx) {
    return withCFlagEverywhere(ctx, '-fpermissive');
  },
};
