import type {
  Context,
  NodeDefinition,
  NodeOptions,
  NodeRunContext,
  NodeUpdate,
  WorkflowState,
} from '../types.ts';

// NoInfer: the context type comes from the workflow, not from what one node happens to return.
// biome-ignore lint/suspicious/noConfusingVoidType: a node that changes nothing may simply return
type FunctionNodeReturn<C extends Context> = NodeUpdate<NoInfer<C>> | undefined | void;

export interface FunctionNodeOptions<C extends Context> extends NodeOptions<C> {
  run: (
    state: WorkflowState<C>,
    ctx: NodeRunContext,
  ) => Promise<FunctionNodeReturn<C>> | FunctionNodeReturn<C>;
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
