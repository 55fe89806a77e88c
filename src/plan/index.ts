// The plan room: the build plan and its parts as values (phases, packages, environment, source
// patches). Pure; it imports nothing of the workflow, so capabilities take plans without PortState.
export type { BuildPlan, PlanPhase } from './BuildPlan.ts';
export { allowedPlanEnv, planEnvProblem } from './planEnvironment.ts';
export { type DefaultPhaseLike, planPhases } from './planPhases.ts';
export { patchFileName, type SourcePatch } from './SourcePatch.ts';
