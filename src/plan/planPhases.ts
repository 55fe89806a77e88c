import type { PlanPhase } from './BuildPlan.ts';

/** A build system's default phase, as the analysis gives it (any value of that shape). */
export interface DefaultPhaseLike {
  name: Exclude<PlanPhase['name'], 'prepare'>;
  commands: readonly string[];
}

/** A default plan's phases as a port runs them. */
export function planPhases(base: { phases: readonly DefaultPhaseLike[] }): PlanPhase[] {
  return base.phases.map((p) => ({
    name: p.name,
    commands: [...p.commands],
    // Tests run in finish; an install step is a convenience (a plain Makefile may have none):
    // neither decides whether the build worked.
    ...(p.name === 'test' || p.name === 'install' ? { optional: true } : {}),
  }));
}
