/** The registered nodes of the port graph, named as in the seed (differential and replay are new). */
export const PortNode = {
  init: 'init',
  cachedRecipe: 'cached_recipe',
  analyst: 'analyst',
  heuristicPlan: 'heuristic_plan',
  scout: 'scout',
  supervisor: 'supervisor',
  buildFixSubgraph: 'build_fix_subgraph',
  finish: 'finish',
  differential: 'differential',
  replay: 'replay',
  optimize: 'optimize',
  escalate: 'escalate',
} as const;

export const BuildFixNode = {
  build: 'build',
  verify: 'verify',
  fix: 'fix',
} as const;
