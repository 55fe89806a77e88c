import type { PortState } from '../../state/PortState.ts';
import { PortNode } from '../nodeNames.ts';

/**
 * The analyst always writes an analysis (LLM or fallback); none means it crashed. An analyst
 * stopped by the LLM cost cap keeps its fallback analysis but escalates.
 */
export function routeAnalystToNext(state: PortState): string {
  if (state.packageAnalysis === null || state.buildStatus === 'ESCALATED') return PortNode.escalate;
  return PortNode.heuristicPlan;
}
