import { describe, expect, it } from 'vitest';
import { toMermaid } from '../../engine/toMermaid.ts';
import { buildFixGraph, portGraph } from './portGraph.ts';

describe('the port graph', () => {
  it("registers the seed's ten parent nodes, the differential and replay nodes after finish, and three subgraph nodes", () => {
    expect([...portGraph.nodes.keys()]).toEqual([
      'init',
      'cached_recipe',
      'analyst',
      'heuristic_plan',
      'scout',
      'supervisor',
      'build_fix_subgraph',
      'finish',
      'differential',
      'replay',
      'optimize',
      'escalate',
    ]);
    expect([...buildFixGraph.nodes.keys()]).toEqual(['build', 'verify', 'fix']);
    expect(portGraph.start).toBe('init');
    expect(buildFixGraph.start).toBe('build');
  });

  it("has six routing functions in the parent (finish's now in replay) and three in the subgraph, plus the fixed edges", () => {
    const dynamic = (g: typeof portGraph) =>
      [...g.nodes].filter(([, n]) => typeof n.then === 'function').map(([k]) => k);
    expect(dynamic(portGraph)).toEqual([
      'init',
      'cached_recipe',
      'analyst',
      'heuristic_plan',
      'supervisor',
      'replay',
    ]);
    expect(dynamic(buildFixGraph)).toEqual(['build', 'verify', 'fix']);
    const fixed = [...portGraph.nodes]
      .filter(([, n]) => typeof n.then === 'string')
      .map(([k, n]) => `${k}->${n.then}`);
    expect(fixed).toEqual([
      'scout->supervisor',
      'build_fix_subgraph->supervisor',
      'finish->differential',
      'differential->replay',
      'optimize->__end__',
      'escalate->__end__',
    ]);
  });

  it('draws as Mermaid with every declared route', () => {
    const text = toMermaid(portGraph);
    expect(text).toContain('n_supervisor -.-> n_build_fix_subgraph');
    expect(text).toContain('n_init -.-> n_cached_recipe');
    expect(text).toContain('n_replay -.-> n_optimize');
  });
});
