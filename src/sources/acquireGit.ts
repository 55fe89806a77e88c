import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Acquired } from './acquireSource.ts';
import { fetchSubmodules, type TopSource } from './fetchSubmodules.ts';
import { git, headCommit } from './git.ts';

export interface StepOptions {
  signal?: AbortSignal;
  log?: (line: string) => void;
}

/**
 * Clones a git URL with its submodules. Builds run without network, so submodules are fetched
 * now; when some cannot be reached (or are refused) the clone is kept and the gap recorded as a
 * warning. The clone's `.git` is written by git itself, never by the remote, so it stays in the
 * tree (builds may run `git describe`).
 */
export async function acquireGit(url: string, tree: string, options: StepOptions): Promise<Acquired> {
  options.log?.(`cloning ${url}`);
  await git(['clone', '--quiet', '--no-recurse-submodules', '--template=', '--', url, tree], {
    signal: options.signal,
    config: [
      'protocol.allow=never',
      ...['https', 'http', 'ssh', 'git', 'file'].map((p) => `protocol.${p}.allow=always`),
    ],
  });
  const gitDir = join(tree, '.git');
  const commit = await headCommit(gitDir, options);
  const top: TopSource = url.startsWith('file://')
    ? { kind: 'local', root: fileURLToPath(url) }
    : { kind: 'remote', url };
  const { submodules, warnings } = await fetchSubmodules(tree, top, options);
  return { commit, gitDir, submodules, tarballSha256: null, debian: null, warnings };
}
