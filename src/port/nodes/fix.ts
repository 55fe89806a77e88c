import { FunctionNode } from '../../engine/nodes/FunctionNode.ts';
import { BuildFixNode } from '../nodeNames.ts';
import { portServices } from '../PortServices.ts';
import type { PortState } from '../PortState.ts';
import { routeFixResult } from '../routes/routeFixResult.ts';
import { withAudit } from './audit.ts';

/**
 * Proposes and applies one fix. The LLM fixer (fixer role) plugs in here; without it there is
 * no fix to try, and the port escalates as the seed says: the heuristics already had their go.
 */
export const fixNode = FunctionNode<PortState>({
  targets: [BuildFixNode.build, '__end__'],
  then: (s) => routeFixResult(s.context),
  run: (s, ctx) => {
    portServices(ctx.services).progress({ type: 'node', node: BuildFixNode.fix });
    const state = s.context;
    const last = state.errors.at(-1);
    const reason = `no fix available without an LLM: the recovery heuristics could not repair ${last ? `the ${last.category} error` : 'the failure'}${last?.phase ? ` in the ${last.phase} phase` : ''}`;
    return {
      context: {
        buildStatus: 'ESCALATED',
        escalationReason: reason,
        audit: withAudit(state, BuildFixNode.fix, 'no fixer', reason),
      },
    };
  },
});
