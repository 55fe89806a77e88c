import { END } from '../../engine/END.ts';
import { FunctionNode } from '../../engine/nodes/FunctionNode.ts';
import { PortNode } from '../nodeNames.ts';
import { portServices } from '../PortServices.ts';
import type { PortState } from '../PortState.ts';
import { withAudit } from './audit.ts';

/**
 * Performance mode (--optimize). It never changes the result of the port. Until it is built
 * (a later issue), it records that it was skipped and why, so the report is honest.
 */
export const optimizeNode = FunctionNode<PortState>({
  then: END,
  run: (s, ctx) => {
    portServices(ctx.services).progress({ type: 'node', node: PortNode.optimize });
    const verified = s.context.verification?.verdict === 'verified';
    const why = verified
      ? 'performance mode is not available in this version of rvport'
      : 'the port is not verified';
    return { context: { audit: withAudit(s.context, PortNode.optimize, 'skipped', why) } };
  },
});
