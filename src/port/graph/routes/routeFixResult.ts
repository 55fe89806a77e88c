import { END } from '../../../engine/index.ts';
import type { PortState } from '../../state/PortState.ts';
import { attemptsExhausted } from '../../steps/escalation.ts';
import { BuildFixNode } from '../nodeNames.ts';

/** After a fix, build again, unless the fixer gave up or no attempts remain. */
export function routeFixResult(state: PortState): string {
  if (state.buildStatus === 'ESCALATED' || state.buildStatus === 'FAILED') return END;
  if (attemptsExhausted(state)) return END;
  return BuildFixNode.build;
}
