import type { BuildPlan, PlanPhase } from '../plan/index.ts';
import { planEnvProblem } from '../plan/index.ts';
import { shellQuote } from '../process/shellQuote.ts';

/** Pure edits of a build plan used by the heuristics; each returns a new plan. */

export function withPackages(plan: BuildPlan, packages: readonly string[]): BuildPlan {
  return { ...plan, packages: [...new Set([...plan.packages, ...packages])].sort() };
}

/** Adds commands to the prepare phase (run first, on every build from scratch), once each. */
export function withPrepareCommands(plan: BuildPlan, commands: readonly string[]): BuildPlan {
  const prepare = plan.phases.find((p) => p.name === 'prepare');
  const merged = [...(prepare?.commands ?? []), ...commands.filter((c) => !prepare?.commands.includes(c))];
  const phase: PlanPhase = { name: 'prepare', commands: merged };
  return { ...plan, phases: [phase, ...plan.phases.filter((p) => p.name !== 'prepare')] };
}

/**
 * Sets (or appends to) an environment variable of every command. A variable the plan allow-list
 * refuses is a mistake of the heuristic, refused here: the build would never see it.
 */
export function withEnv(
  plan: BuildPlan,
  name: string,
  value: string,
  mode: 'set' | 'append' = 'set',
): BuildPlan {
  const problem = planEnvProblem(name);
  if (problem) throw new Error(`a plan cannot carry ${name}: ${problem}`);
  const current = plan.env?.[name];
  const next = mode === 'append' && current ? `${current} ${value}` : value;
  return { ...plan, env: { ...plan.env, [name]: next } };
}

/** What autoconf gives CFLAGS and the like when nothing sets them. */
const DEFAULT_FLAGS = '-g -O2';

/**
 * Adds a compiler flag to each of the flags variables: appended where the plan sets the variable,
 * else the usual defaults plus the flag (setting a variable replaces configure's own -g -O2).
 */
export function withCompilerFlag(plan: BuildPlan, names: readonly string[], flag: string): BuildPlan {
  return names.reduce(
    (edited, name) =>
      edited.env?.[name]
        ? withEnv(edited, name, flag, 'append')
        : withEnv(edited, name, `${DEFAULT_FLAGS} ${flag}`),
    plan,
  );
}

/** Inserts a phase before another (or at the end), replacing one of the same name. */
export function withPhaseBefore(plan: BuildPlan, phase: PlanPhase, before: PlanPhase['name']): BuildPlan {
  const rest = plan.phases.filter((p) => p.name !== phase.name);
  const at = rest.findIndex((p) => p.name === before);
  const phases = at === -1 ? [...rest, phase] : [...rest.slice(0, at), phase, ...rest.slice(at)];
  return { ...plan, phases };
}

/**
 * Runs commands first in the build phase, once each: after configure, where an edit reaches the
 * Makefiles it generated (a value configure substituted, such as `-m$ARCH_BITS`).
 */
export function withBuildPhaseFirst(plan: BuildPlan, commands: readonly string[]): BuildPlan {
  return {
    ...plan,
    phases: plan.phases.map((p) =>
      p.name === 'build'
        ? { ...p, commands: [...commands.filter((c) => !p.commands.includes(c)), ...p.commands] }
        : p,
    ),
  };
}

/** Rewrites every command of the plan. */
export function mapCommands(
  plan: BuildPlan,
  f: (command: string, phase: PlanPhase['name']) => string,
): BuildPlan {
  return {
    ...plan,
    phases: plan.phases.map((p) => ({ ...p, commands: p.commands.map((c) => f(c, p.name)) })),
  };
}

/**
 * A prepare command that takes the folder `name` out of a Makefile's SUBDIRS (Makefile.am before
 * the bootstrap, Makefile.in before configure), on the lines `address` selects: a line number, or
 * the SUBDIRS assignments.
 */
export function withoutSubdirCommand(makefile: string, name: string, address: number | 'SUBDIRS'): string {
  const where = address === 'SUBDIRS' ? '/^SUBDIRS[[:space:]]*=/' : String(address);
  const word = name.replace(/[.+]/g, '\\$&');
  return `sed -i -E ${shellQuote(`${where}s/(^|[[:space:]=])${word}([[:space:]]|\\\\|$)/\\1\\2/g`)} "${makefile}"`;
}
