import { defineWorkflow, SubgraphNode } from '../../engine/index.ts';
import type { PortState } from '../state/PortState.ts';
import { buildFixGraph } from './buildFixGraph.ts';
import { PortNode } from './nodeNames.ts';
import { analystNode } from './nodes/analyst.ts';
import { cachedRecipeNode } from './nodes/cachedRecipe.ts';
import { differentialNode } from './nodes/differential.ts';
import { escalateNode } from './nodes/escalate.ts';
import { finishNode } from './nodes/finish.ts';
import { heuristicPlanNode } from './nodes/heuristicPlan.ts';
import { initNode } from './nodes/init.ts';
import { optimizeNode } from './nodes/optimize.ts';
import { replayNode } from './nodes/replay.ts';
import { scoutNode } from './nodes/scout.ts';
import { supervisorNode } from './nodes/supervisor.ts';

/** The seed's step limit of a port run; the attempt limit and the cost cap stop it long before. */
export const PORT_MAX_STEPS = 120;

/**
 * The port graph: the seed's ten nodes, one of them the build/fix subgraph (three nodes), routed
 * by its nine routing functions, and after finish the differential tests and the replay.
 */
export const portGraph = defineWorkflow<PortState>({
  id: 'port',
  start: PortNode.init,
  maxSteps: PORT_MAX_STEPS,
  nodes: {
    [PortNode.init]: initNode,
    [PortNode.cachedRecipe]: cachedRecipeNode,
    [PortNode.analyst]: analystNode,
    [PortNode.heuristicPlan]: heuristicPlanNode,
    [PortNode.scout]: scoutNode,
    [PortNode.supervisor]: supervisorNode,
    [PortNode.buildFixSubgraph]: SubgraphNode<PortState>({
      workflow: buildFixGraph,
      then: PortNode.supervisor,
    }),
    [PortNode.finish]: finishNode,
    [PortNode.differential]: differentialNode,
    [PortNode.replay]: replayNode,
    [PortNode.optimize]: optimizeNode,
    [PortNode.escalate]: escalateNode,
  },
});
