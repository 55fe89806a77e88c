import { join } from 'node:path';
import { NodeFailedError, WorkflowLockedError } from '../errors.ts';
import { runWorkflow } from '../runWorkflow.ts';
import type { StateStore } from '../stores/StateStore.ts';
import type {
  Context,
  NodeDefinition,
  NodeOptions,
  NodeRunContext,
  NodeUpdate,
  Workflow,
  WorkflowState,
} from '../types.ts';

export interface SubgraphNodeOptions<C extends Context, S extends Context> extends NodeOptions<C> {
  workflow: Workflow<S>;
  /** The subgraph's starting context; default the parent's context. */
  input?: (state: WorkflowState<C>) => S;
  /** What the finished subgraph gives back; default its context and history. */
  output?: (inner: WorkflowState<S>) => NodeUpdate<C>;
}

/**
 * A compiled workflow run as one node, with its own loop (build → verify → fix, say). Its state
 * is checkpointed inside the parent's state after each of its steps, so a resume continues
 * inside the subgraph; its steps count against the parent's step limit.
 */
export function SubgraphNode<C extends Context = Context, S extends Context = C>(
  options: SubgraphNodeOptions<C, S>,
): NodeDefinition<C> {
  const { workflow, input, output, ...rest } = options;
  return {
    ...rest,
    kind: 'SubgraphNode',
    run: async (state, ctx) => {
      const fresh = ctx.inFlight === undefined;
      const result = await runWorkflow(
        { ...workflow, maxSteps: Math.max(0, Math.min(workflow.maxSteps, ctx.remainingSteps)) },
        {
          store: new SubstateStore(ctx),
          logDir: join(ctx.logDir, `${ctx.node}`),
          signal: ctx.signal,
          clock: ctx.clock,
          onEvent: ctx.emit,
          services: ctx.services,
          ...(fresh ? { context: (input ? input(state) : state.context) as unknown as Partial<S> } : {}),
        },
      );
      const inner = result.state;
      if (result.outcome === 'interrupted') throw ctx.signal.reason ?? new Error('interrupted');
      if (result.outcome === 'failed') {
        throw new NodeFailedError(
          inner.error?.code ?? 'subgraph-failed',
          `subgraph '${workflow.id}' failed at node '${inner.currentNode}': ${result.error?.message ?? inner.error?.message}`,
          { node: ctx.node },
        );
      }
      const update = output
        ? output(inner)
        : ({ context: inner.context, history: inner.history } as NodeUpdate<C>);
      return { update, innerSteps: inner.steps };
    },
  };
}

/** Keeps a subgraph's state inside its parent's checkpoint. */
class SubstateStore implements StateStore {
  private locked = false;
  constructor(private readonly ctx: NodeRunContext) {}

  locate(workflowId: string): string {
    return `subgraph '${workflowId}' of node '${this.ctx.node}'`;
  }
  async load(): Promise<WorkflowState | undefined> {
    return this.ctx.inFlight as WorkflowState | undefined;
  }
  async save(state: WorkflowState): Promise<void> {
    await this.ctx.saveInFlight(state);
  }
  async delete(): Promise<boolean> {
    return false;
  }
  async list(): Promise<string[]> {
    return [];
  }
  async lock(workflowId: string): Promise<() => Promise<void>> {
    if (this.locked) throw new WorkflowLockedError(workflowId, process.pid);
    this.locked = true;
    return async () => {
      this.locked = false;
    };
  }
}
