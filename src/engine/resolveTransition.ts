import { END } from './END.ts';
import { TransitionError } from './errors.ts';
import type { Context, NodeDefinition, WorkflowState } from './types.ts';

/**
 * The next node after `node`: a static name, or what the transition function returns for the
 * state. A function result must be a node of the workflow (or END), and one of the node's
 * declared `targets` when it has any.
 */
export function resolveTransition<C extends Context>(
  node: string,
  definition: NodeDefinition<C>,
  state: WorkflowState<C>,
  nodeNames: ReadonlySet<string>,
): string {
  const { then } = definition;
  if (typeof then === 'string') return then; // validated when the workflow was defined
  const value: unknown = then(state);
  const allowed = definition.targets ?? [...nodeNames, END];
  if (typeof value !== 'string' || !allowed.includes(value) || (value !== END && !nodeNames.has(value))) {
    throw new TransitionError(node, value, allowed);
  }
  return value;
}
