import type { PortState } from '../../state/PortState.ts';
import { attemptsExhausted, escalationReason, isErrorLoop } from '../../steps/escalation.ts';
import { needsNewPlan } from '../../steps/needsNewPlan.ts';
import { PortNode } from '../nodeNames.ts';

/** The supervisor's rules, checked in the seed's order; the first match wins. No LLM. */
export function routeSupervisorToNext(state: PortState): string {
  if (state.buildStatus === 'SUCCESS') return PortNode.finish; // also at the attempt or cost limit
  if (state.buildStatus === 'ESCALATED') return PortNode.escalate;
  if (escalationReason(state) !== null) return PortNode.escalate;
  if (attemptsExhausted(state)) return PortNode.escalate;
  if (isErrorLoop(state)) return PortNode.escalate;
  if (state.packageAnalysis === null) return PortNode.analyst;
  if (state.buildStatus === 'FAILED' && needsNewPlan(state)) return PortNode.scout;
  if (state.buildStatus === 'FAILED') return PortNode.buildFixSubgraph;
  if (state.plan && (state.buildStatus === 'PENDING' || state.buildStatus === 'BUILDING')) {
    return PortNode.buildFixSubgraph;
  }
  return PortNode.scout;
}
