import { cp, readdir, realpath } from 'node:fs/promises';
import type { StepOptions } from './acquireGit.ts';
import type { Acquired } from './acquireSource.ts';
import { commitTree, git, headCommit } from './git.ts';
import { SourceError } from './SourceError.ts';

/**
 * A local repository is cloned (its committed state, the user's folder untouched); a plain tree
 * is copied and becomes a repository with one commit.
 */
export async function acquireDirectory(path: string, tree: string, options: StepOptions): Promise<Acquired> {
  const entries = await readdir(path);
  if (entries.length === 0) throw new SourceError(`${path} is an empty directory`);
  const warnings: string[] = [];
  const isRepo = entries.includes('.git');
  if (isRepo) {
    const status = await git(['status', '--porcelain'], { cwd: path, signal: options.signal });
    if (status.trim() !== '') warnings.push(`${path} has uncommitted changes; they are not part of the port`);
    await git(['clone', '--quiet', '--no-hardlinks', '--', path, tree], { signal: options.signal });
    const gitmodules = await git(['ls-files', '--', '.gitmodules'], { cwd: tree, signal: options.signal });
    let submodules: Acquired['submodules'] = 'none';
    if (gitmodules.trim() !== '') {
      try {
        await git(['-c', 'protocol.file.allow=always', 'submodule', 'update', '--init', '--recursive'], {
          cwd: tree,
          signal: options.signal,
        });
        submodules = 'fetched';
      } catch (error) {
        submodules = 'unreachable';
        warnings.push(
          `some submodules could not be fetched: ${error instanceof Error ? error.message : error}`,
        );
      }
    }
    return {
      commit: await headCommit(tree, options),
      submodules,
      tarballSha256: null,
      debian: null,
      warnings,
    };
  }
  options.log?.(`importing the plain tree ${path}`);
  // A folder the user named through a link is copied, not the link (cp copies a link as a link,
  // and rvport's readers refuse a tree whose root is one).
  await cp(await realpath(path), tree, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  const commit = await commitTree(tree, `Import ${path}`, options);
  return { commit, submodules: 'none', tarballSha256: null, debian: null, warnings };
}
