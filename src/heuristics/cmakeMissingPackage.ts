import { installNamedDependency, keyOf, type NamedDependency, parseKey } from './installNamedDependency.ts';
import type { HeuristicContext, HeuristicMatch, RecoveryHeuristic } from './RecoveryHeuristic.ts';

const NAME = '[A-Za-z0-9_][\\w+.-]*';

/**
 * A CMake package by its CMake name, as the candidates a Debian package can provide: its config
 * file (`FooConfig.cmake`), else a pkg-config module or a library of that name (CMake's own Find
 * modules, such as FindGIF, ship with CMake and no package owns them).
 */
function asPackage(name: string): NamedDependency[] {
  const lower = name.toLowerCase();
  return [
    { kind: 'cmake-package', name },
    { kind: 'pkgconfig', name: lower },
    { kind: 'library', name: lower.replace(/^lib/, '') },
  ];
}

/** What CMake said it could not find, in its own words. */
export function cmakeMissing(output: string): { what: string; wanted: NamedDependency[] } | null {
  // FindPackageHandleStandardArgs: "Could NOT find GIF (missing: GIF_LIBRARY GIF_INCLUDE_DIR)"
  const handled = new RegExp(`Could NOT find (${NAME})(?: \\(missing:|\\s*$)`, 'm').exec(output);
  if (handled?.[1]) return { what: `Could NOT find ${handled[1]}`, wanted: asPackage(handled[1]) };
  // find_package in config mode: 'Could not find a package configuration file provided by "fmt"'
  const config = new RegExp(
    `(?:Could not find a package configuration file provided by|By not providing "Find${NAME}\\.cmake" in CMAKE_MODULE_PATH this project has\\s+asked CMake to find a package configuration file provided by)\\s+"(${NAME})"`,
  ).exec(output);
  if (config?.[1])
    return { what: `no package configuration file for ${config[1]}`, wanted: asPackage(config[1]) };
  // find_program / find_library / find_path / find_file with REQUIRED
  const found = new RegExp(
    `CMake Error at [^\\n]*\\((find_program|find_library|find_path|find_file)\\):\\s*\\n\\s*Could not find (${NAME}) using the following (?:names|files): ([^\\n]+)`,
  ).exec(output);
  if (found) {
    const [, call, variable, list] = found as unknown as [string, string, string, string];
    const names = list.split(/\s+/).filter((n) => new RegExp(`^${NAME}$`).test(n));
    const kind = call === 'find_program' ? 'command' : call === 'find_library' ? 'library' : 'header';
    return {
      what: `${call} of ${variable}`,
      wanted: names.map((n) => ({ kind, name: kind === 'library' ? n.replace(/^lib/, '') : n })),
    };
  }
  return null;
}

/**
 * CMake stopped at a dependency in its own words (`Could NOT find Foo (missing: FOO_INCLUDE_DIR)`,
 * no `FooConfig.cmake`, a required find_program): the package is resolved through the analysis's
 * dependency list or the Contents index, installed, and added to the plan.
 */
export const cmakeMissingPackage: RecoveryHeuristic = {
  name: 'cmake-missing-package',
  description: 'install the Debian package of a package, program or library CMake could not find',
  match(ctx: HeuristicContext): HeuristicMatch | null {
    const missing = cmakeMissing(ctx.failure.output);
    if (!missing || missing.wanted.length === 0) return null;
    return { key: keyOf(missing.wanted.slice(0, 8)), reason: `CMake: ${missing.what}` };
  },
  apply(ctx, match) {
    return installNamedDependency(ctx, parseKey(match.key), 'CMake looked for');
  },
};
