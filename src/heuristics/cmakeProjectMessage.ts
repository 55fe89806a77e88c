import { installNamedDependency, keyOf, type NamedDependency, parseKey } from './installNamedDependency.ts';
import { namedInMessage } from './namedInMessage.ts';
import type { HeuristicContext, HeuristicMatch, RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { readTreeFile } from './readTreeFile.ts';

/** `CMake Error at CMakeLists.txt:6 (message):` and the indented text of the project's message. */
const PROJECT_MESSAGE = /^CMake Error at [^\n]+ \(message\):\n((?:[ \t]+\S[^\n]*\n?)+)/m;
const FIND_MODULE = /^CMake Error at (?:[^\n]*\/)?Find([A-Za-z0-9_][\w+-]*)\.cmake:\d+ \(message\):/m;
/** Where CMake logs its failed checks: 3.26 and later, and before. */
const CHECK_LOGS = ['CMakeFiles/CMakeConfigureLog.yaml', 'CMakeFiles/CMakeError.log'];

/** The build folder of the plan's CMake configure command (`-B build`), relative to its folder. */
function buildDir(ctx: HeuristicContext): string {
  for (const phase of ctx.plan.phases)
    for (const command of phase.commands) {
      const dir = /^cmake\s.*?-B\s*("?)([\w./-]+)\1(?:\s|$)/.exec(command)?.[2];
      if (dir && !dir.startsWith('/') && !dir.split('/').includes('..')) return dir;
    }
  return 'build';
}

/**
 * The headers and libraries CMake's failed checks did not find (check_include_file,
 * check_library_exists), latest first: the compiler's and linker's own messages in its log.
 */
export function fromCheckLog(log: string): NamedDependency[] {
  const found: NamedDependency[] = [];
  for (const m of log.matchAll(
    /fatal error: ([\w+./-]+\.(?:h|hh|hpp|hxx)): No such file or directory|cannot find -l([\w+.-]+?)(?::|\s|$)/gm,
  )) {
    if (m[1]) found.push({ kind: 'header', name: m[1] });
    else if (m[2]) found.push({ kind: 'library', name: m[2] });
  }
  return found.reverse().slice(0, 3);
}

/**
 * A project's own `message(FATAL_ERROR …)` after a failed check (`Zstandard support requested
 * but not available`): the names in the message, then the headers and libraries CMake's log of
 * failed checks did not find, resolved through the analysis's dependency list or the Contents
 * index; the first package found is installed.
 */
export const cmakeProjectMessage: RecoveryHeuristic = {
  name: 'cmake-project-message',
  description:
    "install the Debian package of the dependency a project's CMake error and CMake's check log name",
  async match(ctx: HeuristicContext): Promise<HeuristicMatch | null> {
    const message = PROJECT_MESSAGE.exec(ctx.failure.output)?.[1]?.replace(/\s+/g, ' ').trim();
    if (!message || /Could NOT find|package configuration file/.test(message)) return null;
    const { named, words } = namedInMessage(message);
    // a project's Find module that stops (`CMake Error at cmake_modules/FindINDI.cmake:285`)
    // is about the package it is named after
    const module = FIND_MODULE.exec(ctx.failure.output)?.[1];
    if (module) words.push({ kind: 'word', name: module });
    let log: string | null = null;
    for (const rel of CHECK_LOGS) {
      log = await readTreeFile(ctx, `${buildDir(ctx)}/${rel}`);
      if (log) break;
    }
    const all = [...named, ...(log ? fromCheckLog(log) : []), ...words];
    const wanted = all.filter((w, i) => all.findIndex((o) => o.kind === w.kind && o.name === w.name) === i);
    if (wanted.length === 0) return null;
    return { key: keyOf(wanted.slice(0, 8)), reason: `CMake: ${message}` };
  },
  apply(ctx, match) {
    return installNamedDependency(ctx, parseKey(match.key), 'CMake looked for');
  },
};
