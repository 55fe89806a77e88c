import { join } from 'node:path';
import type { EngineEvent } from '../../engine/index.ts';
import { type RunResult, runWorkflow } from '../../engine/index.ts';
import { portGraph } from '../graph/portGraph.ts';
import type { PortState } from '../state/PortState.ts';
import type { PortCheckpoint } from './openPortCheckpoint.ts';
import type { PortServices } from './PortServices.ts';

/** What a port's graph run gives back: the engine's outcome and the port state to write out. */
export interface PortGraphRun {
  outcome: RunResult<PortState>['outcome'];
  resumed: boolean;
  /** The node the run stopped at (interrupted or failed), null once completed. */
  stoppedAt: string | null;
  state: PortState;
}

/**
 * Runs (or resumes) the port graph from the checkpoint, and always gives the sandbox instance
 * back. The total time adds up across resumed runs; an engine-level failure (a crashed node, the
 * step limit) becomes an escalation for the user.
 */
export async function runPortGraph(
  checkpoint: PortCheckpoint,
  services: PortServices,
  initial: PortState,
  /** An SSH target is reached before the graph runs: an unknown host key or a refused login is
   * the user's to fix (a clear message and exit 1), not a failure of a node. */
  reachTargetFirst: boolean,
  io: { signal: AbortSignal; onEngineEvent?: (event: EngineEvent) => void },
): Promise<PortGraphRun> {
  const started = Date.now();
  let result: RunResult<PortState>;
  try {
    if (reachTargetFirst) await services.sandbox.get();
    result = await runWorkflow(portGraph, {
      id: checkpoint.runId,
      store: checkpoint.store,
      logDir: join(services.home, 'runs', 'logs', checkpoint.runId),
      signal: io.signal,
      services: { port: services },
      context: initial,
      source: initial.source.spec,
      ...(io.onEngineEvent ? { onEvent: io.onEngineEvent } : {}),
    });
  } finally {
    await services.sandbox.discard().catch(() => {});
  }
  const state: PortState = {
    ...result.state.context,
    timings: {
      ...result.state.context.timings,
      total: (result.state.context.timings.total ?? 0) + Date.now() - started,
    },
  };
  if (result.outcome === 'failed') {
    state.buildStatus = 'ESCALATED';
    state.escalationReason ??= `rvport failed in node ${result.state.currentNode}: ${result.error?.message ?? result.state.error?.message}`;
  }
  return { outcome: result.outcome, resumed: result.resumed, stoppedAt: result.state.currentNode, state };
}
