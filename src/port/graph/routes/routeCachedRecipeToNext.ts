import type { PortState } from '../../state/PortState.ts';
import { PortNode } from '../nodeNames.ts';

/** A cached recipe that gave a plan goes straight to the supervisor; otherwise plan as usual. */
export function routeCachedRecipeToNext(state: PortState): string {
  return state.plan ? PortNode.supervisor : PortNode.analyst;
}
