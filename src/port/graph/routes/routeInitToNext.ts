import type { PortState } from '../../state/PortState.ts';
import { PortNode } from '../nodeNames.ts';

/** After init: a failed acquisition escalates; a cached recipe is built from; else analyse. */
export function routeInitToNext(state: PortState): string {
  if (state.buildStatus === 'FAILED' || state.buildStatus === 'ESCALATED') return PortNode.escalate;
  if (state.cachedRecipe) return PortNode.cachedRecipe;
  return PortNode.analyst;
}
