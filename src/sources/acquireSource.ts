import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AcquiredSource, METADATA_FILE } from './AcquiredSource.ts';
import { acquireDebian } from './acquireDebian.ts';
import { acquireDirectory } from './acquireDirectory.ts';
import { acquireGit } from './acquireGit.ts';
import { acquireTarballFile, downloadTarball } from './acquireTarball.ts';
import type { SourceSpec } from './parseSource.ts';

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
  log?: (line: string) => void;
}

export type Acquired = Omit<AcquiredSource, 'name' | 'dir' | 'kind' | 'origin' | 'acquiredAt'>;

/**
 * Turns any SOURCE into a git working tree at `workDir/NAME` with its commit recorded. The
 * tree is built in a temporary folder inside `workDir` and renamed into place, so an
 * interrupted or failed acquisition leaves nothing half-written behind.
 */
export async function acquireSource(spec: SourceSpec, options: AcquireOptions): Promise<AcquiredSource> {
  await mkdir(options.workDir, { recursive: true });
  const target = join(options.workDir, spec.name);
  const local = spec.kind === 'directory' || spec.kind === 'tarball';
  if (options.reuse !== false && !local) {
    const existing = await readAcquired(target);
    if (existing && existing.origin === spec.raw) return existing;
  }
  const staging = join(options.workDir, `.${spec.name}.acquire-${randomBytes(4).toString('hex')}`);
  const tree = join(staging, 'tree');
  await mkdir(staging, { recursive: true });
  try {
    const acquired = await acquireInto(spec, tree, staging, options);
    const source: AcquiredSource = {
      name: spec.name,
      dir: target,
      kind: spec.kind,
      origin: spec.raw,
      acquiredAt: new Date().toISOString(),
      ...acquired,
    };
    await writeFile(join(tree, '.git', METADATA_FILE), `${JSON.stringify(source, null, 2)}\n`);
    if (existsSync(target)) {
      const old = join(staging, 'old');
      await rename(target, old);
    }
    await rename(tree, target);
    return source;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function acquireInto(
  spec: SourceSpec,
  tree: string,
  staging: string,
  options: AcquireOptions,
): Promise<Acquired> {
  const { signal, log } = options;
  switch (spec.kind) {
    case 'git':
      return acquireGit(spec.url, tree, { signal, log });
    case 'directory':
      return acquireDirectory(spec.path, tree, { signal, log });
    case 'tarball':
      return acquireTarballFile(spec.path, tree, staging, { signal, log });
    case 'tarball-url': {
      const file = await downloadTarball(spec.url, staging, { signal, log });
      return acquireTarballFile(file, tree, staging, { signal, log });
    }
    case 'debian':
      return acquireDebian(spec, tree, staging, {
        signal,
        log,
        aptDir: options.aptDir ?? join(options.workDir, '.debian-apt'),
        suite: options.suite,
        mirror: options.mirror,
      });
  }
}

/** The metadata of a tree acquired earlier, or null when there is none (or it is unreadable). */
export async function readAcquired(dir: string): Promise<AcquiredSource | null> {
  try {
    return JSON.parse(await readFile(join(dir, '.git', METADATA_FILE), 'utf8')) as AcquiredSource;
  } catch {
    return null;
  }
}
