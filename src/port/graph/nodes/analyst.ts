import { FunctionNode } from '../../../engine/index.ts';
import { analyzePackage } from '../../llm/analyzePackage.ts';
import { installableOf, portServices } from '../../run/PortServices.ts';
import type { PortState } from '../../state/PortState.ts';
import { PortNode } from '../nodeNames.ts';
import { routeAnalystToNext } from '../routes/routeAnalystToNext.ts';

/**
 * The package analysis: the LLM analyst (planner role) over the real build files, merged with the
 * scripted analysis; without an LLM, or when it does not answer, the scripted analysis alone.
 */
export const analystNode = FunctionNode<PortState>({
  targets: [PortNode.escalate, PortNode.heuristicPlan],
  then: (s) => routeAnalystToNext(s.context),
  run: async (s, ctx) => {
    const svc = portServices(ctx.services);
    svc.progress({ type: 'node', node: PortNode.analyst });
    const installable = svc.llm.offline ? null : await installableOf(svc);
    return { context: await analyzePackage(s.context, svc.llm, installable) };
  },
});
