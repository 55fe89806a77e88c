import type { PortState } from '../../state/PortState.ts';
import { PortNode } from '../nodeNames.ts';

/** A default plan goes to the supervisor; without one the scout plans. */
export function routeHeuristicPlanToNext(state: PortState): string {
  return state.plan ? PortNode.supervisor : PortNode.scout;
}
