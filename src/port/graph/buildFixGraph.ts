import { defineWorkflow } from '../../engine/index.ts';
import type { PortState } from '../state/PortState.ts';
import { BuildFixNode } from './nodeNames.ts';
import { buildNode } from './nodes/build.ts';
import { fixNode } from './nodes/fix.ts';
import { verifyNode } from './nodes/verify.ts';

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
