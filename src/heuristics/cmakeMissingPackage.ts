import { installNamedDependency, keyOf, type NamedDependency, parseKey } from './installNamedDependency.ts';
import type { HeuristicContext, HeuristicMatch, RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { readTreeFile } from './readTreeFile.ts';

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

/** Namespaces of targets CMake or the project makes itself, never a package's. */
const BUILTIN_NAMESPACES = new Set(['Threads', 'PkgConfig', 'CMake']);

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
  // an imported target no find_package made (one that was QUIET, or none): `Vulkan::Headers`
  const target = new RegExp(
    `(?:The link interface of target "[^"]+" contains|Target "[^"]+" links to):\\s+(${NAME})::(${NAME})\\s+but the target was not found`,
  ).exec(output);
  if (target?.[1] && target[2] && !BUILTIN_NAMESPACES.has(target[1])) {
    const [, ns, name] = target as unknown as [string, string, string];
    // the package is named by both parts (VulkanHeaders) or by the namespace (fmt::fmt, GTest::gtest)
    const joined: NamedDependency = { kind: 'cmake-package', name: `${ns}${name}` };
    return { what: `no target ${ns}::${name}`, wanted: [joined, ...asPackage(ns)] };
  }
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

/** The first arguments of each call of a CMake command (comments dropped), in order. */
function calls(cmake: string, command: string): string[][] {
  const text = cmake.replace(/#[^\n]*/g, '');
  const out: string[][] = [];
  for (const m of text.matchAll(new RegExp(`\\b${command}\\s*\\(([^)]*)\\)`, 'gi')))
    out.push(
      (m[1] as string)
        .split(/\s+/)
        .filter(Boolean)
        .map((a) => a.replace(/^"|"$/g, '')),
    );
  return out;
}

const KEYWORDS =
  /^(NAMES|HINTS|PATHS|PATH_SUFFIXES|DOC|NO_\w+|REQUIRED|QUIET|NAMES_PER_DIR|ENV|IMPORTED_TARGET|GLOBAL)$/;

/**
 * What a project's own Find module looks for: the headers of its find_path calls, the libraries
 * of its find_library calls, the modules of its pkg_check_modules calls. They name the files a
 * Debian package provides where the CMake package's name does not (FindLame looks for mp3lame).
 */
export function findModuleNames(module: string): NamedDependency[] {
  const names = (args: string[]) => {
    const at = args.indexOf('NAMES');
    const list = at === -1 ? args.slice(1, 2) : args.slice(at + 1);
    const end = list.findIndex((a) => KEYWORDS.test(a));
    return (end === -1 ? list : list.slice(0, end)).filter((n) => new RegExp(`^${NAME}(/${NAME})*$`).test(n));
  };
  const out: NamedDependency[] = [];
  for (const args of calls(module, 'find_path'))
    for (const n of names(args)) if (/\.(h|hh|hpp|hxx)$/.test(n)) out.push({ kind: 'header', name: n });
  for (const args of calls(module, 'find_library'))
    for (const n of names(args)) out.push({ kind: 'library', name: n.replace(/^lib/, '') });
  for (const args of [...calls(module, 'pkg_check_modules'), ...calls(module, 'pkg_search_module')])
    for (const n of args.slice(1).filter((a) => !KEYWORDS.test(a)))
      if (new RegExp(`^${NAME}$`).test(n)) out.push({ kind: 'pkgconfig', name: n });
  return out;
}

/** The project's own Find module that failed, named in CMake's call stack (`cmake/FindFoo.cmake:4`). */
function projectModule(output: string, name: string): string | null {
  const escaped = name.replace(/[.+]/g, '\\$&');
  const module = new RegExp(`^\\s+((?:[\\w.+-]+/)*Find${escaped}\\.cmake):\\d+ `, 'm').exec(output)?.[1];
  return module && !module.split('/').includes('..') ? module : null;
}

/**
 * CMake stopped at a dependency in its own words (`Could NOT find Foo (missing: FOO_INCLUDE_DIR)`,
 * no `FooConfig.cmake`, a required find_program): the package is resolved through the analysis's
 * dependency list or the Contents index, installed, and added to the plan.
 */
export const cmakeMissingPackage: RecoveryHeuristic = {
  name: 'cmake-missing-package',
  description: 'install the Debian package of a package, program or library CMake could not find',
  async match(ctx: HeuristicContext): Promise<HeuristicMatch | null> {
    const missing = cmakeMissing(ctx.failure.output);
    if (!missing || missing.wanted.length === 0) return null;
    const name = missing.wanted[0]?.kind === 'cmake-package' ? missing.wanted[0].name : null;
    const module = name ? projectModule(ctx.failure.output, name) : null;
    const text = module ? await readTreeFile(ctx, module) : null;
    const wanted = [...missing.wanted, ...(text ? findModuleNames(text) : [])];
    const unique = wanted.filter(
      (w, i) => wanted.findIndex((o) => o.kind === w.kind && o.name === w.name) === i,
    );
    return { key: keyOf(unique.slice(0, 10)), reason: `CMake: ${missing.what}` };
  },
  apply(ctx, match) {
    return installNamedDependency(ctx, parseKey(match.key), 'CMake looked for');
  },
};
