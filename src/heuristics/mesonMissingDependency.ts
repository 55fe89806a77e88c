import { installNamedDependency, keyOf, type NamedDependency, parseKey } from './installNamedDependency.ts';
import { namedInMessage } from './namedInMessage.ts';
import type { HeuristicContext, HeuristicMatch, RecoveryHeuristic } from './RecoveryHeuristic.ts';

const NAME = '[A-Za-z0-9_][\\w+.-]*';

/** What meson said it could not find: a dependency (pkg-config, then CMake) or a program. */
export function mesonMissing(output: string): { what: string; wanted: NamedDependency[] } | null {
  // meson.build:144:0: ERROR: Dependency "uuid" not found, tried pkgconfig and cmake
  // (or only "Run-time dependency glib-2.0 found: NO" when the log is cut short)
  const dependency =
    new RegExp(`ERROR: Dependency "(${NAME})" not found`).exec(output) ??
    new RegExp(`^Run-time dependency (${NAME}) found: NO`, 'm').exec(output);
  if (dependency?.[1]) {
    const name = dependency[1];
    // without pkg-config itself meson finds no module at all: that comes first
    const noPkgConfig =
      /^Found pkg-config: NO|Did not find pkg-config by name|Pkg-config for machine host machine not found/m.test(
        output,
      );
    return {
      what: `dependency ${name} not found${noPkgConfig ? ' (nor pkg-config itself)' : ''}`,
      wanted: [
        ...(noPkgConfig ? [{ kind: 'command' as const, name: 'pkg-config' }] : []),
        { kind: 'pkgconfig', name },
        { kind: 'cmake-package', name },
        { kind: 'library', name: name.replace(/^lib/, '') },
      ],
    };
  }
  // meson.build:695:0: ERROR: Program 'gperf' not found or not executable
  // (older meson lists them: "Program(s) ['gperf'] not found or not executable")
  const program = /ERROR: Program(?:\(s\))? \[?'([^']+)'(?:, '[^']+')*\]? not found/.exec(output);
  if (program?.[1] && new RegExp(`^${NAME}$`).test(program[1]))
    return { what: `program ${program[1]} not found`, wanted: [{ kind: 'command', name: program[1] }] };
  // the project's own error(): "meson.build:78:3: ERROR: Problem encountered: iniparser library
  // is required", after meson's checks (`Has header "x.h" : NO`, `Library x found: NO`)
  const problem = /ERROR: Problem encountered: ([^\n]+)/.exec(output);
  if (problem?.[1]) {
    const { named, words } = namedInMessage(problem[1]);
    const checks: NamedDependency[] = [];
    for (const m of output
      .slice(0, problem.index)
      .matchAll(/^Has header "([^"]+)" ?: NO|^Library ([\w+.-]+) found: NO/gm))
      checks.push(m[1] ? { kind: 'header', name: m[1] } : { kind: 'library', name: m[2] as string });
    const wanted = [...named, ...checks.reverse().slice(0, 3), ...words];
    if (wanted.length > 0) return { what: problem[1].trim(), wanted };
  }
  return null;
}

/**
 * meson stopped at a dependency or a program it could not find: the package is resolved through
 * the analysis's dependency list or the Contents index, installed, and added to the plan.
 */
export const mesonMissingDependency: RecoveryHeuristic = {
  name: 'meson-missing-dependency',
  description: 'install the Debian package of a dependency or program meson could not find',
  match(ctx: HeuristicContext): HeuristicMatch | null {
    const missing = mesonMissing(ctx.failure.output);
    return missing ? { key: keyOf(missing.wanted.slice(0, 8)), reason: `meson: ${missing.what}` } : null;
  },
  apply(ctx, match) {
    return installNamedDependency(ctx, parseKey(match.key), 'meson looked for');
  },
};
