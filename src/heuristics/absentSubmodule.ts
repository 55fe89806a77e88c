import { posix } from 'node:path';
import { readTextConfined } from '../fs/index.ts';
import type { Submodule } from '../sources/index.ts';
import { buildTreeRoot } from './buildTreeRoot.ts';
import { declaredCmakeOptions } from './cmakeOptions.ts';
import { configureWithSwitches, offeredConfigureSwitches } from './configureSwitches.ts';
import { enclosingSwitch, OPTIONAL_PART } from './disableDownloadingOption.ts';
import { describeSubmodule, missingSubmoduleIn } from './missingSubmodule.ts';
import { mapCommands } from './planEdits.ts';
import type { HeuristicContext, HeuristicMatch, RecoveryHeuristic } from './RecoveryHeuristic.ts';

const CMAKE_CONFIGURE = /^cmake\s.*-S\s/;
/** Option words that mean "use the system's copy" (ON) or "use the bundled copy" (OFF). */
const SYSTEM_WORD = /SYSTEM|EXTERNAL|FIND/;
const BUNDLED_WORD = /BUNDLED|VENDORED|BUILTIN|INTERNAL|EMBEDDED|THIRD_?PARTY/;
/** Folder names of parts a package builds without, and the word their switches carry. */
const PART_FOLDERS: readonly [RegExp, string][] = [
  [/^(unit)?tests?$|^testing$|^t$/i, 'TEST'],
  [/^bench(mark)?s?$/i, 'BENCH'],
  [/^examples?$|^samples?$|^demos?$/i, 'EXAMPLE'],
  [/^docs?$|^documentation$/i, 'DOC'],
  [/^fuzz(ing|ers?)?$|^oss-?fuzz$/i, 'FUZZ'],
];

/** `third_party/zlib-ng` → `ZLIB_NG`, the spelling of a name in a CMake option. */
function optionWord(path: string): string {
  const leaf = path.split('/').at(-1) ?? path;
  return leaf
    .replace(/^lib(?=.{3})/i, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_');
}

/** The optional part a submodule belongs to (`tests/munit` → TEST), from its folders. */
function partOf(path: string): string | null {
  for (const folder of path.split('/'))
    for (const [pattern, word] of PART_FOLDERS) if (pattern.test(folder)) return word;
  return null;
}

/** The first `CMake Error at FILE:LINE` of the output with a file of the tree. */
function cmakeErrorAt(output: string): { file: string; line: number } | null {
  const m = /^CMake Error at ([^\s:]+\.(?:txt|cmake)):(\d+)/m.exec(output);
  if (!m?.[1] || m[1].startsWith('/') || m[1].split('/').includes('..')) return null;
  return { file: m[1], line: Number(m[2]) };
}

/**
 * A folder add_subdirectory names that the source does not have, not a submodule: a release
 * tarball that leaves out a vendored copy (lib3mf's UnitTests/googletest), as a folder relative to
 * the tree. Its way around is a submodule's: the system copy, or the optional part turned off.
 */
function absentCmakeFolder(output: string): Submodule | null {
  const m =
    /^CMake Error at (?:([^\s:]+)\/)?CMakeLists\.txt:\d+ \(add_subdirectory\):\s+add_subdirectory given source\s+"([\w+./-]+)"\s+which is not an existing\s+directory/im.exec(
      output,
    );
  const folder = m?.[1] ?? '';
  if (!m?.[2] || folder.startsWith('/') || m[2].startsWith('/')) return null;
  const path = posix.normalize(posix.join(folder, m[2]));
  if (path.startsWith('..')) return null;
  return { name: path, path, url: null };
}

/**
 * The CMake options that get a build past an absent submodule, in the order they are tried:
 * the project's switch to use the system's copy of that library, then the optional part the
 * failing line sits in (`if(FOO_BUILD_TESTS)`), then the switches of the part the submodule's
 * folder is (tests, benchmarks…). Options the plan already sets are not offered again.
 */
function cmakeWayAround(ctx: HeuristicContext, sub: Submodule): string[] {
  const root = buildTreeRoot(ctx);
  const { options, text } = declaredCmakeOptions(root, ctx.plan.dir);
  const configure = ctx.plan.phases.flatMap((p) => p.commands).find((c) => CMAKE_CONFIGURE.test(c)) ?? '';
  const fresh = (name: string) => !new RegExp(`-D${name}(:\\w+)?=`).test(configure);
  const word = optionWord(sub.path);
  // the library's name as a whole part of the option's (`USE_SYSTEM_ZLIB`, not `…_ZLIBX`)
  const names = (o: string) => word.length >= 3 && new RegExp(`(^|_)${word}(_|$)`).test(o);
  const system = options.filter((o) => names(o) && (SYSTEM_WORD.test(o) || BUNDLED_WORD.test(o)));
  const systemFlags = system
    .filter(fresh)
    .map((o) => (SYSTEM_WORD.test(o) && !BUNDLED_WORD.test(o) ? `-D${o}=ON` : `-D${o}=OFF`));
  if (systemFlags.length > 0) return systemFlags.slice(0, 1);
  const at = cmakeErrorAt(ctx.failure.output);
  if (at) {
    const read = readTextConfined(root, posix.join(ctx.plan.dir, at.file));
    const around =
      read.text === null
        ? null
        : enclosingSwitch(read.text, at.line, (v) => OPTIONAL_PART.test(v) && fresh(v));
    if (around) return [`-D${around}=OFF`];
  }
  const part = partOf(sub.path);
  if (!part) return [];
  const switches = options.filter(
    (o) => o.includes(part) && /BUILD|ENABLE|WITH|^[A-Z0-9]+_[A-Z]+S?$/.test(o),
  );
  if (part === 'TEST' && /\bBUILD_TESTING\b/.test(text) && !switches.includes('BUILD_TESTING'))
    switches.push('BUILD_TESTING');
  return switches.filter(fresh).map((o) => `-D${o}=OFF`);
}

/** The configure switches that do the same for an autotools build, when its configure offers them. */
function configureWayAround(ctx: HeuristicContext, sub: Submodule): string[] {
  const leaf = optionWord(sub.path).toLowerCase().replace(/_/g, '-');
  const part = partOf(sub.path);
  const candidates = [
    `--with-system-${leaf}`,
    `--without-included-${leaf}`,
    `--without-bundled-${leaf}`,
    ...(part === 'TEST' ? ['--disable-tests', '--disable-testing'] : []),
    ...(part === 'BENCH' ? ['--disable-benchmarks', '--disable-bench'] : []),
    ...(part === 'EXAMPLE' ? ['--disable-examples'] : []),
    ...(part === 'FUZZ' ? ['--disable-fuzzing'] : []),
  ];
  const offered = offeredConfigureSwitches(ctx, candidates);
  const configure = ctx.plan.phases.flatMap((p) => p.commands).join('\n');
  const first = offered.find((s) => !configure.includes(s));
  return first ? [first] : [];
}

/**
 * A build that stops on a submodule whose folder is empty (a checkout without
 * `--recurse-submodules`: `add_subdirectory` of a folder with no CMakeLists.txt, a source file
 * CMake cannot find, `Making all in vendor/foo` without a Makefile). The way out packagers take:
 * the system's copy of the library when the project has a switch for it, or the optional part
 * (tests, benchmarks) turned off. When the package cannot do without it, the heuristic does not
 * apply and says which submodule is missing, for the escalation.
 */
export const absentSubmodule: RecoveryHeuristic = {
  name: 'absent-submodule',
  description:
    'use the system library or turn off the optional part instead of a submodule whose content is absent',
  match(ctx): HeuristicMatch | null {
    const submodule = missingSubmoduleIn(buildTreeRoot(ctx), ctx.failure.output, ctx.plan.dir);
    const sub = submodule ?? absentCmakeFolder(ctx.failure.output);
    if (!sub) return null;
    const cmake = ctx.plan.phases.some((p) => p.commands.some((c) => CMAKE_CONFIGURE.test(c)));
    const flags = cmake ? cmakeWayAround(ctx, sub) : configureWayAround(ctx, sub);
    const what = submodule
      ? `the submodule ${describeSubmodule(sub)} has no content in this checkout`
      : `the folder ${sub.path} that CMake adds is not in the source (a release without its vendored copy)`;
    return flags.length > 0
      ? { key: `${sub.path} ${flags.join(' ')}`, reason: what }
      : { key: sub.path, reason: what };
  },
  async apply(ctx, match) {
    const [path, ...flags] = match.key.split(' ');
    if (flags.length === 0)
      return {
        applied: false,
        description: `${match.reason} and the build cannot do without it (no switch for a system copy or to leave the part out); ${path} must be fetched`,
        commands: [],
      };
    const switches = flags.join(' ');
    if (!flags[0]?.startsWith('-D'))
      return configureWithSwitches(ctx.plan, switches, `configure with ${switches} (${match.reason})`);
    const plan = mapCommands(ctx.plan, (c) =>
      CMAKE_CONFIGURE.test(c) && !c.includes(switches) ? `${c} ${switches}` : c,
    );
    return {
      applied: true,
      description: `configure with ${switches} (${match.reason})`,
      commands: [],
      plan,
    };
  },
};
