import { END } from '../../../engine/index.ts';
import type { PortState } from '../../state/PortState.ts';
import type { ErrorCategory } from '../../state/vocabulary.ts';
import { attemptsExhausted } from '../../steps/escalation.ts';
import { BuildFixNode } from '../nodeNames.ts';

/** Categories the fixer gets another go at after a fix was already tried. */
const FIXER_CATEGORIES: ReadonlySet<ErrorCategory> = new Set(['LINKING', 'COMPILATION', 'ARCHITECTURE']);

/**
 * A verified build (or an escalation) leaves the loop; a wrong-architecture verdict goes to the
 * fixer; a build given another plan because it proved nothing goes back to the build.
 */
export function routeVerifyResult(state: PortState): string {
  // a heuristic gave a build that proved nothing another plan (repairNothingProven)
  if (state.buildStatus === 'BUILDING') return BuildFixNode.build;
  if (state.buildStatus === 'SUCCESS' || state.buildStatus === 'ESCALATED') return END;
  if (attemptsExhausted(state)) return END;
  const category = state.errors.at(-1)?.category;
  if (state.fixAttempts.length > 0 && (category === undefined || !FIXER_CATEGORIES.has(category))) return END;
  return BuildFixNode.fix;
}
