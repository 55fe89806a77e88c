import { FunctionNode } from '../../engine/nodes/FunctionNode.ts';
import { PortNode } from '../nodeNames.ts';
import { portServices } from '../PortServices.ts';
import type { PortState } from '../PortState.ts';
import { planFromAnalysis } from '../planFromAnalysis.ts';
import { replanSignatureOf } from '../replanSignatures.ts';
import { withAudit } from './audit.ts';
import { makeError, recordError } from './recordError.ts';

/**
 * Plans the build. The LLM scout plugs in here later; without it (this implementation) the
 * fallback plan is the standard plan of the detected build system. A re-plan after a plan error
 * uses up that error's signature, so each one comes back here only once.
 */
export const scoutNode = FunctionNode<PortState>({
  then: PortNode.supervisor,
  run: (s, ctx) => {
    portServices(ctx.services).progress({ type: 'node', node: PortNode.scout });
    const state = s.context;
    const last = state.errors.at(-1);
    const signature = last ? replanSignatureOf(last.message) : null;
    const replansUsed =
      signature && !state.replansUsed.includes(signature)
        ? [...state.replansUsed, signature]
        : state.replansUsed;
    const plan = planFromAnalysis(state, 'fallback');
    if (!plan) {
      const error = makeError({
        node: PortNode.scout,
        output: `no build plan: the build system is ${state.packageAnalysis?.buildSystem ?? 'unknown'} and no LLM is configured to plan it`,
        category: 'CONFIGURATION',
      });
      return {
        context: {
          ...recordError(state, error),
          replansUsed,
          buildStatus: 'ESCALATED',
          escalationReason: 'no build plan could be made without an LLM (unknown build system)',
          audit: withAudit(state, PortNode.scout, 'no plan'),
        },
      };
    }
    return {
      context: {
        plan,
        replansUsed,
        buildStatus: 'PENDING',
        audit: withAudit(
          state,
          PortNode.scout,
          'fallback plan',
          `${plan.buildSystem} in ${plan.dir}${signature ? ` after ${signature}` : ''}`,
        ),
      },
    };
  },
});
