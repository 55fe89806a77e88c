import { FunctionNode } from '../../../engine/index.ts';
import { portServices } from '../../run/PortServices.ts';
import type { PortState } from '../../state/PortState.ts';
import { PortNode } from '../nodeNames.ts';
import { routeSupervisorToNext } from '../routes/routeSupervisorToNext.ts';
import { withAudit } from './audit.ts';

/** Logs where the port stands; its routing function decides what comes next. No LLM. */
export const supervisorNode = FunctionNode<PortState>({
  targets: [PortNode.finish, PortNode.escalate, PortNode.analyst, PortNode.scout, PortNode.buildFixSubgraph],
  then: (s) => routeSupervisorToNext(s.context),
  run: (s, ctx) => {
    const state = s.context;
    portServices(ctx.services).progress({ type: 'node', node: PortNode.supervisor });
    const last = state.errors.at(-1);
    const summary = `status ${state.buildStatus}, attempt ${state.attemptCount}/${state.options.maxAttempts}${last ? `, last error ${last.category}` : ''}`;
    return { context: { audit: withAudit(state, PortNode.supervisor, 'summary', summary) } };
  },
});
