import { posix } from 'node:path';
import { existsConfined, readTextConfined } from '../fs/index.ts';
import { shellQuote } from '../process/shellQuote.ts';
import { buildTreeRoot } from './buildTreeRoot.ts';
import { withPrepareCommands } from './planEdits.ts';
import type { HeuristicContext, HeuristicMatch, RecoveryHeuristic } from './RecoveryHeuristic.ts';

/** git's words when `git describe` has nothing to describe with. */
const DESCRIBE_FAILED =
  /fatal: No names found, cannot describe anything|fatal: No tags can describe '[0-9a-f]+'|fatal: not a git repository/;
/** A build's words for a version it could not make. */
const NO_VERSION =
  /(cannot|could not|can't|unable to|failed to) (determine|get|find|compute|work out|read) (the )?(project |package )?version|version (number )?(is )?(empty|unknown|not set)|no version (found|number)|VERSION "[^"]*" format invalid|invalid version( number| string)?\b|git-version-gen[^\n]*UNKNOWN/i;
/** What a version may look like to go into a tag name and a file (the tree is hostile). */
const VERSION = /^v?(\d+(?:\.\d+)+(?:[-.+~]?[A-Za-z0-9]+)*)$/;
/** Version files packagers and release tarballs carry, in the order they are trusted. */
const VERSION_FILES = ['.tarball-version', '.version', 'VERSION', 'version.txt', 'VERSION.txt'];

function versionOf(text: string | null): string | null {
  const first = text?.split('\n')[0]?.trim() ?? '';
  const m = VERSION.exec(first);
  return m?.[1] && m[1].length <= 40 ? m[1] : null;
}

/** The literal version the build files declare (CMake `project(… VERSION x)`, AC_INIT, meson). */
function declaredVersion(root: string, dir: string): string | null {
  const read = (rel: string) => readTextConfined(root, posix.join(dir, rel), { maxBytes: 1024 * 1024 }).text;
  const patterns: [string, RegExp][] = [
    ['CMakeLists.txt', /^\s*project\s*\([^)]*?\bVERSION\s+"?([\w.+~-]+)"?/im],
    ['configure.ac', /^\s*AC_INIT\(\s*\[?[^,\]]+\]?\s*,\s*\[?\s*([\w.+~-]+)\s*\]?\s*[,)]/m],
    ['meson.build', /^\s*project\s*\([^)]*?\bversion\s*:\s*'([\w.+~-]+)'/im],
  ];
  for (const [file, pattern] of patterns) {
    const version = versionOf(pattern.exec(read(file) ?? '')?.[1] ?? null);
    if (version) return version;
  }
  return null;
}

/**
 * The version to give a build that asks git for one: a version file in the tree, the version
 * the build files declare, the Debian version of a `debian:` source, else `0.0.0` (a snapshot
 * of an upstream branch has no release number of its own).
 */
export function fallbackVersion(ctx: HeuristicContext): { version: string; from: string } {
  const root = buildTreeRoot(ctx);
  for (const file of VERSION_FILES) {
    const version = versionOf(
      readTextConfined(root, posix.join(ctx.plan.dir, file), { maxBytes: 4096 }).text,
    );
    if (version) return { version, from: `the tree's ${file}` };
  }
  const declared = declaredVersion(root, ctx.plan.dir);
  if (declared) return { version: declared, from: 'the version the build files declare' };
  const debian = /^debian:[^=]+=(?:\d+:)?([^-\s]+)/.exec(ctx.source.spec)?.[1];
  const fromDebian = versionOf(debian ?? null);
  if (fromDebian) return { version: fromDebian, from: 'the Debian source version' };
  return { version: '0.0.0', from: 'no version recorded anywhere' };
}

/**
 * A build that takes its version from `git describe` (CMake's execute_process, a configure
 * m4_esyscmd, git-version-gen, a version.sh) stops on a snapshot without tags: `fatal: No names
 * found`, then `Cannot determine version number`. Packagers give it the version another way;
 * here the build's copy of the checkout gets an annotated tag `vVERSION` on its commit, so every
 * form of `git describe` answers, and a tree without git metadata gets the `.tarball-version`
 * git-version-gen reads first. The version comes from the tree (fallbackVersion).
 */
export const gitVersionFallback: RecoveryHeuristic = {
  name: 'git-version-fallback',
  description:
    'give a build that asks git for its version a tag (or a .tarball-version) with a recorded version',
  match(ctx): HeuristicMatch | null {
    const out = ctx.failure.output;
    if (!NO_VERSION.test(out) || !(DESCRIBE_FAILED.test(out) || /git-version-gen/.test(out))) return null;
    const root = buildTreeRoot(ctx);
    const hasGit = existsConfined(root, '.git/HEAD');
    if (
      !hasGit &&
      !/git-version-gen/.test(out) &&
      !existsConfined(root, posix.join(ctx.plan.dir, 'build-aux/git-version-gen'))
    )
      return null;
    const { version, from } = fallbackVersion(ctx);
    return {
      key: `${hasGit ? 'tag' : 'tarball-version'} ${version}`,
      reason: `the build takes its version from git describe, which finds no tag in this snapshot; version ${version} (${from})`,
    };
  },
  async apply(ctx, match) {
    const [how, version] = match.key.split(' ') as [string, string];
    const command =
      how === 'tag'
        ? `git -C "$RVPORT_SRC" -c user.name=rvport -c user.email=rvport@localhost tag -f -a -m ${shellQuote(`version ${version} for git describe`)} ${shellQuote(`v${version}`)} HEAD`
        : `printf '%s\\n' ${shellQuote(version)} > "$RVPORT_SRC"/${shellQuote(posix.join(ctx.plan.dir, '.tarball-version'))}`;
    return {
      applied: true,
      description:
        how === 'tag'
          ? `tag the build's copy of the checkout v${version} before the build (${match.reason})`
          : `write .tarball-version ${version} before the build (${match.reason})`,
      commands: [],
      plan: withPrepareCommands(ctx.plan, [command]),
    };
  },
};
