import { constants } from 'node:fs';
import { chmod, copyFile, lstat, mkdir, readdir, readlink, rm, symlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { Acquired } from './AcquiredSource.ts';
import { gitEntryWarnings } from './acquireTarball.ts';
import { commitTree } from './commitTree.ts';
import { fetchSubmodules } from './fetchSubmodules.ts';
import { git, headCommit } from './git.ts';
import { SourceError } from './SourceError.ts';
import type { StepOptions } from './StepOptions.ts';

/**
 * A local repository is cloned (its committed state, the user's folder untouched); a plain tree
 * is copied and becomes one commit in a repository of rvport's own at `gitDir`.
 *
 * The clone goes through git's transport (`--no-local`): the only git process that opens the
 * user's repository is upload-pack, which runs no hook, fsmonitor or filter and honours its
 * pack-objects hook only from protected config (rvport reads none), with rvport's safe `-c`
 * settings passed along. A plain copy of the folder's `.git` would instead follow whatever
 * links and alternates it holds. The "uncommitted changes" check compares the user's files with
 * the clone's metadata (`--git-dir` of the clone, `--work-tree` the user's folder), so the
 * user's own config, hooks and fsmonitor are never read by host git.
 */
export async function acquireDirectory(
  path: string,
  tree: string,
  gitDir: string,
  options: StepOptions,
): Promise<Acquired> {
  const entries = await readdir(path);
  if (entries.length === 0) throw new SourceError('invalid', `${path} is an empty directory`);
  if (!entries.includes('.git')) return importTree(path, tree, gitDir, options, []);
  try {
    return await cloneLocal(path, tree, options);
  } catch (error) {
    const damage = repositoryDamage(error);
    if (!damage) throw error;
    // a partial or damaged clone: what the user has is its working tree, and that is ported
    await rm(tree, { recursive: true, force: true });
    const note = `${path} is a repository git cannot clone (${damage}); porting its working tree as it is, without its history (not a commit of it)`;
    return importTree(path, tree, gitDir, options, [note]);
  }
}

/**
 * git's words for a repository whose history names objects it lacks (a partial, shallow-broken
 * or damaged clone): upload-pack stops with "aborting due to possible repository corruption".
 */
const DAMAGED =
  /aborting due to possible repository corruption|unable to read [0-9a-f]{40}|did not send all necessary objects|missing (?:blob|tree|commit) [0-9a-f]{40}|bad object [0-9a-f]{40}/;

/** The line of git's error that says the repository is damaged, or null for any other failure. */
export function repositoryDamage(error: unknown): string | null {
  const message = error instanceof Error ? error.message : '';
  const line = message.split('\n').find((l) => DAMAGED.test(l));
  return line ? (DAMAGED.exec(line)?.[0] ?? null) : null;
}

/** Copies a tree (without a top-level .git) and makes it one commit in rvport's own repository. */
async function importTree(
  path: string,
  tree: string,
  gitDir: string,
  options: StepOptions,
  warnings: string[],
): Promise<Acquired> {
  options.log?.(`importing the plain tree ${path}`);
  for (const w of warnings) options.log?.(w);
  await copyTree(path, tree, warnings, new Set(['.git']));
  const { commit, listing } = await commitTree(tree, gitDir, `Import ${path}`, options);
  warnings.push(...gitEntryWarnings(listing.gitEntries));
  return { commit, gitDir, submodules: 'none', tarballSha256: null, debian: null, warnings };
}

async function cloneLocal(path: string, tree: string, options: StepOptions): Promise<Acquired> {
  const warnings: string[] = [];
  options.log?.(`cloning the local repository ${path}`);
  try {
    await git(
      ['clone', '--quiet', '--no-local', '--no-recurse-submodules', '--template=', '--', path, tree],
      {
        signal: options.signal,
        config: ['protocol.allow=never', 'protocol.file.allow=always'],
      },
    );
  } catch (error) {
    if (error instanceof Error && /dubious ownership/.test(error.message))
      throw new SourceError(
        'acquire',
        `${path} is a repository of another user, which git will not read as this one (its config could run programs); run rvport as its owner, or port a copy you own`,
      );
    throw error;
  }
  const gitDir = join(tree, '.git');
  const status = await git(['status', '--porcelain', '--ignore-submodules=all', '--untracked-files=normal'], {
    gitDir,
    workTree: path,
    signal: options.signal,
  }).catch(() => '');
  if (status.trim() !== '') warnings.push(`${path} has uncommitted changes; they are not part of the port`);
  const fetched = await fetchSubmodules(tree, { kind: 'local', root: path }, options);
  return {
    commit: await headCommit(gitDir, options),
    gitDir,
    submodules: fetched.submodules,
    tarballSha256: null,
    debian: null,
    warnings: [...warnings, ...fetched.warnings],
  };
}

/**
 * Copies a plain tree without following links: files, folders and links as they are (links
 * verbatim), modes without setuid, setgid and sticky bits. Sockets, fifos and devices are left
 * out with a warning: they are no source and must not reach a build.
 */
async function copyTree(
  from: string,
  to: string,
  warnings: string[],
  skip: ReadonlySet<string> = new Set(),
): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    const stat = await lstat(source);
    if (entry.isSymbolicLink()) {
      await symlink(await readlink(source), target);
      continue;
    }
    if (entry.isDirectory()) await copyTree(source, target, warnings);
    else if (entry.isFile()) await copyFile(source, target, constants.COPYFILE_EXCL);
    else {
      warnings.push(`${source} is neither a file, a folder nor a link; left out`);
      continue;
    }
    await chmod(target, entry.isDirectory() ? (stat.mode & 0o777) | 0o700 : stat.mode & 0o777);
    await utimes(target, stat.atime, stat.mtime);
  }
}
