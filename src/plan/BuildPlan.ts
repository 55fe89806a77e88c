// The build plan: what a port runs in the sandbox (its phases, packages, environment), a value the
// workflow, the heuristics, the optimizer and the replay share. Pure data; it imports nothing.

export interface PlanPhase {
  /** prepare: rvport's own fixes to the tree (refreshed helper scripts, edits); then the build system's. */
  name: 'prepare' | 'bootstrap' | 'configure' | 'build' | 'test' | 'install';
  commands: string[];
  /** Phases that may fail without failing the build (tests). */
  optional?: boolean;
}

export interface BuildPlan {
  buildSystem: string;
  /** The folder of the build, relative to the source root. */
  dir: string;
  phases: PlanPhase[];
  /** Debian packages to install before the build. */
  packages: string[];
  /** Environment of every command (CFLAGS, LDFLAGS, PYTHONPATH, … set by repairs). */
  env?: Record<string, string>;
  expectedArtifacts: string[];
  origin: 'default' | 'fallback' | 'llm' | 'cache';
}
