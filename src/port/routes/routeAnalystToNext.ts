import { PortNode } from '../nodeNames.ts';
import type { PortState } from '../PortState.ts';

/** The analyst always writes an analysis (LLM or fallback); none means it crashed. */
export function routeAnalystToNext(state: PortState): string {
  return state.packageAnalysis === null ? PortNode.escalate : PortNode.heuristicPlan;
}
