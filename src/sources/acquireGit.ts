import type { Acquired } from './acquireSource.ts';
import { git, headCommit } from './git.ts';
import { SourceError } from './SourceError.ts';

export interface StepOptions {
  signal?: AbortSignal;
  log?: (line: string) => void;
}

/**
 * Clones a git URL with its submodules. Builds run without network, so submodules are fetched
 * now; when some cannot be reached the clone is kept and the gap recorded as a warning.
 */
export async function acquireGit(url: string, tree: string, options: StepOptions): Promise<Acquired> {
  options.log?.(`cloning ${url}`);
  await git(['clone', '--quiet', '--no-recurse-submodules', '--', url, tree], { signal: options.signal });
  const commit = await headCommit(tree, options);
  const warnings: string[] = [];
  let submodules: Acquired['submodules'] = 'none';
  const gitmodules = await git(['ls-files', '--', '.gitmodules'], { cwd: tree, signal: options.signal });
  if (gitmodules.trim() !== '') {
    try {
      options.log?.('fetching submodules');
      // local submodules are only allowed for a local SOURCE (git's CVE-2022-39253 default)
      const local =
        url.startsWith('file://') || url.startsWith('/') ? ['-c', 'protocol.file.allow=always'] : [];
      await git([...local, 'submodule', 'update', '--init', '--recursive'], {
        cwd: tree,
        signal: options.signal,
      });
      submodules = 'fetched';
    } catch (error) {
      if (options.signal?.aborted) throw error;
      submodules = 'unreachable';
      warnings.push(
        `some submodules could not be fetched: ${error instanceof SourceError ? error.message : error}`,
      );
    }
  }
  return { commit, submodules, tarballSha256: null, debian: null, warnings };
}
