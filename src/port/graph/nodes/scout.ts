import { FunctionNode } from '../../../engine/index.ts';
import { planWithScout } from '../../llm/planWithScout.ts';
import { installableOf, portServices } from '../../run/PortServices.ts';
import type { PortState } from '../../state/PortState.ts';
import { PortNode } from '../nodeNames.ts';

/**
 * Plans the build where no default plan will do (none for the build system, the analyst asked
 * for a custom plan, a re-plan after a dependency, tool or plan error): the LLM scout, checked
 * against the sandbox's conventions, or the fallback plan of the detected build system.
 */
export const scoutNode = FunctionNode<PortState>({
  then: PortNode.supervisor,
  run: async (s, ctx) => {
    const svc = portServices(ctx.services);
    svc.progress({ type: 'node', node: PortNode.scout });
    return {
      context: await planWithScout(s.context, {
        llm: svc.llm,
        home: svc.home,
        imageId: svc.sandbox.imageId,
        installable: svc.llm.offline ? null : await installableOf(svc),
      }),
    };
  },
});
