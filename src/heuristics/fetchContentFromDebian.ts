import { DOWNLOAD_FAILED } from './disableDownloadingOption.ts';
import { installForRepair } from './installForRepair.ts';
import { installNamedDependency, packageFor } from './installNamedDependency.ts';
import { mapCommands, withPackages } from './planEdits.ts';
import type { HeuristicMatch, HeuristicOutcome, RecoveryHeuristic } from './RecoveryHeuristic.ts';

const CMAKE_CONFIGURE = /^cmake\s.*-S\s/;
/** FetchContent's own words when the sub-build that downloads a dependency fails. */
const FETCH_FAILED = /FetchContent\.cmake:\d+ \(message\):\n\s+Build step for ([A-Za-z0-9_.+-]+) failed/;
/**
 * Debian packages that ship a dependency's source tree for builds to compile in (as Debian's own
 * packages of FetchContent users do): FetchContent takes it through FETCHCONTENT_SOURCE_DIR_<NAME>.
 * googletest's CMake package is GTest, not its FetchContent name, so find_package cannot stand in.
 */
const DEBIAN_SOURCE_TREES: readonly { names: RegExp; url: RegExp; pkg: string; dir: string }[] = [
  {
    names: /^(googletest|gtest|google_?test)$/i,
    url: /\/google\/googletest\b|googletest[-_.]/,
    pkg: 'googletest',
    dir: '/usr/src/googletest',
  },
];

/** Where FetchContent tried to download from, as its sub-build logged it. */
function downloadUrl(output: string, name: string): string {
  const used = /Using src='([^']+)'/.exec(output)?.[1];
  const cloned = /unable to access '([^']+)'/.exec(output)?.[1];
  return used ?? cloned ?? name;
}

function withCmakeFlags(outcome: HeuristicOutcome, flags: string): HeuristicOutcome {
  if (!outcome.applied || !outcome.plan) return outcome;
  const plan = mapCommands(outcome.plan, (c) =>
    CMAKE_CONFIGURE.test(c) && !c.includes(flags) ? `${c} ${flags}` : c,
  );
  return { ...outcome, description: `${outcome.description}; configure with ${flags}`, plan };
}

/**
 * A CMake configure step whose FetchContent download fails (builds have no network) and that
 * cannot simply leave the part out (disable-downloading-option comes first): the dependency from
 * Debian instead. A package that ships the source tree is given to FetchContent as its source
 * folder; otherwise the Debian package with the CMake package of the same name is installed and
 * FetchContent told to try find_package first (FETCHCONTENT_TRY_FIND_PACKAGE_MODE=ALWAYS, CMake
 * 3.24 and later), which is what packagers do.
 */
export const fetchContentFromDebian: RecoveryHeuristic = {
  name: 'fetchcontent-from-debian',
  description: "give FetchContent the dependency's Debian package instead of a download",
  match(ctx): HeuristicMatch | null {
    const out = ctx.failure.output;
    const name = FETCH_FAILED.exec(out)?.[1];
    if (!name || !DOWNLOAD_FAILED.test(out)) return null;
    const configure = ctx.plan.phases.flatMap((p) => p.commands).find((c) => CMAKE_CONFIGURE.test(c));
    if (!configure) return null;
    const url = downloadUrl(out, name);
    const tree = DEBIAN_SOURCE_TREES.find((t) => t.names.test(name) || t.url.test(url));
    const variable = `FETCHCONTENT_SOURCE_DIR_${name.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}`;
    if (tree && !configure.includes(`-D${variable}=`))
      return {
        key: `source ${name} ${tree.pkg} ${tree.dir}`,
        reason: `FetchContent cannot download ${name} (${url})`,
      };
    if (configure.includes('-DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=ALWAYS')) return null;
    return { key: `find ${name}`, reason: `FetchContent cannot download ${name} (${url})` };
  },
  async apply(ctx, match) {
    const [how, name, pkg, dir] = match.key.split(' ') as [string, string, string?, string?];
    if (how === 'source' && pkg && dir) {
      const flags = `-DFETCHCONTENT_SOURCE_DIR_${name.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}=${dir}`;
      const { command, failed } = await installForRepair(
        ctx,
        [pkg],
        `installing ${pkg} failed (${match.reason})`,
      );
      if (failed) return failed;
      return withCmakeFlags(
        {
          applied: true,
          description: `installed ${pkg} (ships the source of ${name}; ${match.reason})`,
          commands: [command],
          plan: withPackages(ctx.plan, [pkg]),
        },
        flags,
      );
    }
    const find = '-DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=ALWAYS';
    const wanted = { kind: 'cmake-package', name } as const;
    // installed already (the analysis found the dependency): only FetchContent must be told
    const known = await packageFor(ctx, wanted);
    if (!known)
      return {
        applied: false,
        description: `no Debian package provides ${name} (FetchContent would download)`,
        commands: [],
      };
    if (ctx.plan.packages.includes(known))
      return withCmakeFlags(
        {
          applied: true,
          description: `${known} is installed (${match.reason})`,
          commands: [],
          plan: ctx.plan,
        },
        find,
      );
    const installed = await installNamedDependency(ctx, [wanted], 'FetchContent would download');
    return withCmakeFlags(installed, find);
  },
};
