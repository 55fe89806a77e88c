import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { type Acquired, type AcquiredSource, METADATA_FILE, METADATA_FOLDER } from './AcquiredSource.ts';
import { acquireDebian } from './acquireDebian.ts';
import { acquireDirectory } from './acquireDirectory.ts';
import { acquireGit } from './acquireGit.ts';
import { acquireTarballFile, downloadTarball } from './acquireTarball.ts';
import { rereadBuildDepends } from './keepDebianPackaging.ts';
import type { SourceSpec } from './parseSource.ts';
import type { FetchRules } from './sourceOrigin.ts';
import type { TarballLimits } from './tar/extractTarball.ts';

export interface AcquireOptions {
  /** The work folder: the tree lands in `workDir/NAME`; nothing is written outside it. */
  workDir: string;
  signal?: AbortSignal;
  /**
   * Reuse a tree acquired earlier from the same remote SOURCE (default), or fetch again. Local
   * folders and tarballs are always taken afresh: they change under the same name, and copying
   * them costs no network.
   */
  reuse?: boolean;
  /** Debian sources only: the private apt state (default `workDir/.debian-apt`). */
  aptDir?: string;
  /** Debian suite (default trixie, the sandbox's release). */
  suite?: string;
  /** Debian mirror (default: the one this machine's apt sources use). */
  mirror?: string;
  /** Unpacking limits for tarballs (defaults MAX_TARBALL_BYTES, MAX_TARBALL_ENTRIES). */
  tarballLimits?: Partial<TarballLimits>;
  log?: (line: string) => void;
  /** Who chose the SOURCE and what its fetches may reach (default: the command line, public addresses only). */
  fetch?: FetchRules;
}

/** rvport's records about the tree `name` (its metadata file and, for imports, its git dir). */
export function metadataDir(workDir: string, name: string): string {
  return join(workDir, METADATA_FOLDER, name);
}

/**
 * Turns any SOURCE into a tree at `workDir/NAME` with its commit recorded. The tree is built in
 * a temporary folder inside `workDir` and renamed into place, so an interrupted or failed
 * acquisition leaves nothing half-written behind. The records go last: a crash in between
 * leaves no record, and the next run acquires again.
 */
export async function acquireSource(spec: SourceSpec, options: AcquireOptions): Promise<AcquiredSource> {
  await mkdir(options.workDir, { recursive: true });
  const target = join(options.workDir, spec.name);
  const meta = metadataDir(options.workDir, spec.name);
  const local = spec.kind === 'directory' || spec.kind === 'tarball';
  if (options.reuse !== false && !local) {
    const existing = await readAcquired(options.workDir, spec.name);
    if (existing && existing.origin === spec.raw) {
      const packaging = existing.debian?.packaging;
      return packaging && existing.debian
        ? { ...existing, debian: { ...existing.debian, packaging: rereadBuildDepends(packaging) } }
        : existing;
    }
  }
  const staging = join(options.workDir, `.${spec.name}.acquire-${randomBytes(4).toString('hex')}`);
  const tree = join(staging, 'tree');
  const stagedMeta = join(staging, 'meta');
  await mkdir(stagedMeta, { recursive: true });
  try {
    // an import's git dir holds no path, so it is built here and moved with the record
    const stagedGitDir = join(stagedMeta, 'git');
    const acquired = await acquireInto(spec, tree, stagedGitDir, stagedMeta, staging, options);
    const packaging = acquired.debian?.packaging;
    if (packaging) packaging.dir = join(meta, relative(stagedMeta, packaging.dir));
    const source: AcquiredSource = {
      name: spec.name,
      dir: target,
      kind: spec.kind,
      origin: spec.raw,
      acquiredAt: new Date().toISOString(),
      ...acquired,
      gitDir: acquired.gitDir === stagedGitDir ? join(meta, 'git') : join(target, '.git'),
    };
    await writeFile(join(stagedMeta, METADATA_FILE), `${JSON.stringify(source, null, 2)}\n`);
    await rm(meta, { recursive: true, force: true });
    if (existsSync(target)) await rename(target, join(staging, 'old'));
    await rename(tree, target);
    await mkdir(join(options.workDir, METADATA_FOLDER), { recursive: true });
    await rename(stagedMeta, meta);
    return source;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function acquireInto(
  spec: SourceSpec,
  tree: string,
  gitDir: string,
  metaDir: string,
  staging: string,
  options: AcquireOptions,
): Promise<Acquired> {
  const { signal, log, fetch } = options;
  const limits = options.tarballLimits;
  switch (spec.kind) {
    case 'git':
      return acquireGit(spec.url, tree, { signal, log, fetch });
    case 'directory':
      return acquireDirectory(spec.path, tree, gitDir, { signal, log, fetch });
    case 'tarball':
      return acquireTarballFile(spec.path, tree, gitDir, staging, { signal, log, limits });
    case 'tarball-url': {
      const file = await downloadTarball(spec.url, staging, { signal, log, fetch });
      return acquireTarballFile(file, tree, gitDir, staging, { signal, log, limits });
    }
    case 'debian':
      return acquireDebian(spec, tree, gitDir, staging, {
        signal,
        log,
        limits,
        aptDir: options.aptDir ?? join(options.workDir, '.debian-apt'),
        packagingDir: join(metaDir, 'debian'),
        suite: options.suite,
        mirror: options.mirror,
      });
  }
}

/**
 * The record of the tree `name` acquired earlier in `workDir`, or null when there is none (or it
 * is unreadable, or its tree is gone). Its place is rvport's own, never inside a tree.
 */
export async function readAcquired(workDir: string, name: string): Promise<AcquiredSource | null> {
  try {
    const source = JSON.parse(
      await readFile(join(metadataDir(workDir, name), METADATA_FILE), 'utf8'),
    ) as AcquiredSource;
    const dir = join(workDir, name);
    if (source.name !== name || source.dir !== dir || !existsSync(dir) || !existsSync(source.gitDir))
      return null;
    return source;
  } catch {
    return null;
  }
}
