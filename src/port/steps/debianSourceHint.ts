import { join } from 'node:path';
import type { Analysis } from '../../analysis/index.ts';
import { DebianSourceIndex } from '../../debian/DebianSourceIndex.ts';
import { DEFAULT_DEBIAN_SUITE, debianMirror } from '../../debian/debianMirror.ts';
import { matchDebianSource } from '../../debian/matchDebianSource.ts';
import { parseBuildDepends } from '../../debian/parseBuildDepends.ts';
import { projectKey } from '../../debian/projectKey.ts';
import type { AcquiredSource } from '../../sources/index.ts';
import { PrivateApt } from '../../sources/index.ts';
import type { DebianKnowledge } from '../state/PortState.ts';

export interface SourceIndexOptions {
  /** The private apt folder of Debian sources (`sourcesDir/.debian-apt`). */
  aptDir: string;
  suite?: string;
  mirror?: string;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

const NOTHING = { installed: [], leftOut: [], patchesApplied: [], patchesSkipped: [] };

/**
 * Debian's knowledge of a source when its packaging is not at hand: for a `debian:` source whose
 * debian.tar the mirror lacks, the Build-Depends the archive's Sources index lists for it; for
 * any other tree, those of the Debian source package it is (matched by a URL the tree gives for
 * itself, or by its declared project name). Debian builds that package for riscv64 with these,
 * so they are installed before the build as hints, with the same care as a `debian:` source's
 * (an install that fails is undone and narrowed down). Null when nothing matches or the index
 * cannot be had; never an error.
 */
export function debianSourceHint(
  acquired: Pick<AcquiredSource, 'debian'>,
  project: Analysis['project'],
  index: DebianSourceIndex,
): DebianKnowledge | null {
  if (acquired.debian?.packaging) return null;
  if (acquired.debian) {
    const entry = index.named(acquired.debian.package);
    if (!entry) return null;
    return {
      ...NOTHING,
      buildDepends: parseBuildDepends(entry.buildDepends),
      problems: [
        `Build-Depends taken from the archive's Sources index for ${entry.name} ${entry.version} (${acquired.debian.binary ? "the tree is Debian's packaged crate, its patches applied" : 'no debian.tar: no patches'})`,
      ],
      hint: { package: entry.name, version: entry.version, via: 'its name' },
      ...(entry.goImportPath ? { goImportPath: entry.goImportPath } : {}),
    };
  }
  // a forge repository the tree names as its own counts as a declared name
  const repoNames = project.urls.map((u) => projectKey(u.url)?.split('/')[2]).filter((n): n is string => !!n);
  const match = matchDebianSource(index, project.urls, [...project.names, ...repoNames]);
  if (!match) return null;
  return {
    ...NOTHING,
    buildDepends: parseBuildDepends(match.entry.buildDepends),
    problems: [
      `the tree is Debian's source package ${match.entry.name} ${match.entry.version} (by ${match.via}): its Build-Depends are installed as hints`,
    ],
    hint: { package: match.entry.name, version: match.entry.version, via: match.via },
    ...(match.entry.goImportPath ? { goImportPath: match.entry.goImportPath } : {}),
  };
}

/**
 * The archive's Sources index of the private apt that fetches `debian:` sources, its lists
 * updated first when a mirror is known (they are a day old at most); null without lists.
 */
export async function loadSourceIndex(options: SourceIndexOptions): Promise<DebianSourceIndex | null> {
  const lists = join(options.aptDir, 'state', 'lists');
  const mirror = options.mirror ?? debianMirror();
  if (mirror) {
    const apt = await PrivateApt.create(
      options.aptDir,
      options.suite ?? process.env.RVPORT_DEBIAN_SUITE ?? DEFAULT_DEBIAN_SUITE,
      mirror,
    );
    await apt.ensureLists({
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
  }
  return DebianSourceIndex.load(lists, options.signal);
}
