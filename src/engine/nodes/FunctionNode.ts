import type {
  Context,
  NodeDefinition,
  NodeOptions,
  NodeRunContext,
  NodeUpdate,
  WorkflowState,
} from '../types.ts';

export interface FunctionNodeOptions<C extends Context> extends NodeOptions<C> {
  run: (
    state: WorkflowState<C>,
    ctx: NodeRunContext,
  ) => Promise<NodeUpdate<C> | undefined> | NodeUpdate<C> | undefined;
}

/** A step written in TypeScript: it reads the state and returns a partial update. */
export function FunctionNode<C extends Context = Context>(
  options: FunctionNodeOptions<C>,
): NodeDefinition<C> {
  const { run, ...rest } = options;
  return {
    ...rest,
    kind: 'FunctionNode',
    run: async (state, ctx) => (await run(state, ctx)) ?? {},
  };
}
