import { END } from './END.ts';
import type { Context, Workflow } from './types.ts';

/**
 * A Mermaid flowchart of a workflow: static transitions as solid arrows, the declared targets of
 * transition functions as dotted ones.
 */
export function toMermaid<C extends Context>(workflow: Workflow<C>): string {
  const id = (name: string) => (name === END ? 'END_' : `n_${name.replace(/[^A-Za-z0-9_]/g, '_')}`);
  const lines = ['flowchart TD', `  START_([start]) --> ${id(workflow.start)}`];
  let usesEnd = false;
  for (const [name, node] of workflow.nodes) {
    lines.push(`  ${id(name)}["${name}<br/><small>${node.kind}</small>"]`);
    if (typeof node.then === 'string') {
      usesEnd ||= node.then === END;
      lines.push(`  ${id(name)} --> ${id(node.then)}`);
    } else if (node.targets?.length) {
      for (const target of node.targets) {
        usesEnd ||= target === END;
        lines.push(`  ${id(name)} -.-> ${id(target)}`);
      }
    } else {
      lines.push(`  %% ${name}: transition function without declared targets`);
    }
  }
  if (usesEnd) lines.push('  END_([end])');
  return `${lines.join('\n')}\n`;
}
