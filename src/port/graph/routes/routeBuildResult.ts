import { END } from '../../../engine/index.ts';
import type { PortState } from '../../state/PortState.ts';
import { attemptsExhausted } from '../../steps/escalation.ts';
import { BuildFixNode } from '../nodeNames.ts';

/** A successful build is verified; a failed one goes to the fixer while attempts remain. */
export function routeBuildResult(state: PortState): string {
  if (state.buildStatus === 'SUCCESS') return BuildFixNode.verify;
  if (state.buildStatus === 'ESCALATED' || attemptsExhausted(state)) return END;
  return BuildFixNode.fix;
}
