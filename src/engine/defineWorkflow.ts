import { END } from './END.ts';
import { WorkflowDefinitionError } from './errors.ts';
import type { Context, NodeDefinition, Workflow, WorkflowDefinition } from './types.ts';

export const DEFAULT_MAX_STEPS = 120;
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Validates a workflow definition and returns the runnable workflow. Every problem is collected
 * and reported together: unknown or missing targets, duplicate names, missing fields.
 */
export function defineWorkflow<C extends Context = Context>(definition: WorkflowDefinition<C>): Workflow<C> {
  const problems: string[] = [];
  const id = typeof definition?.id === 'string' ? definition.id : '';
  if (!id) problems.push("missing field 'id' (a non-empty string)");
  else if (!ID_PATTERN.test(id)) {
    problems.push(
      `id '${id}' must start with a letter or digit and contain only letters, digits, '.', '_' and '-'`,
    );
  }

  const nodes = new Map<string, NodeDefinition<C>>();
  const entries: Array<[string | undefined, NodeDefinition<C>]> = Array.isArray(definition?.nodes)
    ? definition.nodes.map((n) => [n?.name, n])
    : Object.entries((definition?.nodes ?? {}) as Record<string, NodeDefinition<C>>);
  if (definition?.nodes === undefined) problems.push("missing field 'nodes'");
  else if (entries.length === 0) problems.push('a workflow needs at least one node');

  entries.forEach(([name, node], index) => {
    const label = name ? `node '${name}'` : `node #${index + 1}`;
    if (!name) {
      problems.push(`${label} has no name`);
      return;
    }
    if (name === END) problems.push(`'${END}' is reserved and cannot name a node`);
    if (nodes.has(name)) {
      problems.push(`duplicate node name '${name}'`);
      return;
    }
    if (typeof node !== 'object' || node === null) {
      problems.push(`${label} is not a node (use a factory such as FunctionNode)`);
      return;
    }
    if (typeof node.run !== 'function') problems.push(`${label} is missing 'run'`);
    if (node.then === undefined || node.then === null || node.then === '') {
      problems.push(`${label} is missing 'then' (a node name, END, or a function of the state)`);
    } else if (typeof node.then !== 'string' && typeof node.then !== 'function') {
      problems.push(`${label} has a 'then' that is neither a node name nor a function`);
    }
    nodes.set(name, node);
  });

  for (const [name, node] of nodes) {
    if (typeof node.then === 'string' && node.then && node.then !== END && !nodes.has(node.then)) {
      problems.push(`node '${name}' goes to unknown node '${node.then}'`);
    }
    for (const target of node.targets ?? []) {
      if (target !== END && !nodes.has(target))
        problems.push(`node '${name}' declares unknown target '${target}'`);
    }
  }

  const start = definition?.start ?? entries[0]?.[0] ?? '';
  if (definition?.start !== undefined && !nodes.has(definition.start)) {
    problems.push(`start node '${definition.start}' does not exist`);
  }
  const maxSteps = definition?.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) problems.push(`maxSteps must be a positive integer`);
  const initialContext = definition?.initialContext ?? ({} as C);
  if (typeof initialContext !== 'object' || initialContext === null || Array.isArray(initialContext)) {
    problems.push('initialContext must be an object');
  }

  if (problems.length > 0) throw new WorkflowDefinitionError(id || '(no id)', problems);
  return { kind: 'rvport.workflow', id, start, initialContext, nodes, maxSteps };
}

export function isWorkflow(value: unknown): value is Workflow {
  return (value as { kind?: unknown } | null)?.kind === 'rvport.workflow';
}
