// The one file that lists every node of the port graph: the parent's twelve and the build/fix
// subgraph's three. The edges are declared where each node is made (graph/nodes/*.ts): a node's
// `targets` names where it may go and its `then` picks one, a fixed node or a routing function of
// graph/routes/ (portGraph.test.ts pins them). In short:
//   init → cached_recipe | analyst | escalate      cached_recipe → analyst | supervisor
//   analyst → heuristic_plan | escalate            heuristic_plan → supervisor | scout
//   scout → supervisor                             build_fix_subgraph → supervisor
//   supervisor → build_fix_subgraph | finish | analyst | scout | escalate
//   finish → differential → replay → optimize | end;  optimize → end;  escalate → end
//   build_fix_subgraph: build → verify | fix | end,  verify → fix | end,  fix → build | end
import { defineWorkflow, SubgraphNode } from '../../engine/index.ts';
import type { PortState } from '../state/PortState.ts';
import { BuildFixNode, PortNode } from './nodeNames.ts';
import { analystNode } from './nodes/analyst.ts';
import { buildNode } from './nodes/build.ts';
import { cachedRecipeNode } from './nodes/cachedRecipe.ts';
import { differentialNode } from './nodes/differential.ts';
import { escalateNode } from './nodes/escalate.ts';
import { finishNode } from './nodes/finish.ts';
import { fixNode } from './nodes/fix.ts';
import { heuristicPlanNode } from './nodes/heuristicPlan.ts';
import { initNode } from './nodes/init.ts';
import { optimizeNode } from './nodes/optimize.ts';
import { replayNode } from './nodes/replay.ts';
import { scoutNode } from './nodes/scout.ts';
import { supervisorNode } from './nodes/supervisor.ts';
import { verifyNode } from './nodes/verify.ts';

/** The seed's step limit of a port run; the attempt limit and the cost cap stop it long before. */
export const PORT_MAX_STEPS = 120;

/** build → verify → fix, compiled as one node of the port graph (entry point: build). */
export const buildFixGraph = defineWorkflow<PortState>({
  id: 'build_fix',
  start: BuildFixNode.build,
  nodes: {
    [BuildFixNode.build]: buildNode,
    [BuildFixNode.verify]: verifyNode,
    [BuildFixNode.fix]: fixNode,
  },
});

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
