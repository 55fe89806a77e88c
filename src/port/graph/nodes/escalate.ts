import { END, FunctionNode } from '../../../engine/index.ts';
import { systemApiDriftOf } from '../../diagnosis/systemApiDriftOf.ts';
import { portServices } from '../../run/PortServices.ts';
import type { PortState } from '../../state/PortState.ts';
import { escalationReason } from '../../steps/escalation.ts';
import { PortNode } from '../nodeNames.ts';
import { withAudit } from './audit.ts';

/**
 * Marks the port escalated with its reason; the runner writes escalation.md from the state. A
 * build in native-userland mode on its own evidence keeps the evidence of its last instance (it
 * decides whether runPort builds it again in accelerated mode). A build that used a system
 * library's API the sandbox's headers no longer have gets it looked up, for escalation.md. No LLM.
 */
export const escalateNode = FunctionNode<PortState>({
  then: END,
  run: async (s, ctx) => {
    const svc = portServices(ctx.services);
    svc.progress({ type: 'node', node: PortNode.escalate });
    const state = s.context;
    const reason = state.escalationReason ?? escalationReason(state) ?? 'the port could not go on';
    const evidence = state.userlandEvidence ?? (await svc.collectFailedModeEvidence?.());
    const apiDrift = await systemApiDriftOf(state, () => svc.sandbox.get());
    return {
      context: {
        ...(evidence ? { userlandEvidence: evidence } : {}),
        ...(apiDrift.length > 0 ? { apiDrift } : {}),
        buildStatus: 'ESCALATED',
        escalationReason: reason,
        audit: withAudit(state, PortNode.escalate, 'escalated', reason),
      },
    };
  },
});
