import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Acquired } from './AcquiredSource.ts';
import { fetchSubmodules, type TopSource, transportOf } from './fetchSubmodules.ts';
import { git, headCommit } from './git.ts';
import { pinnedFetchConfig } from './pinnedFetchConfig.ts';
import { publicAddresses } from './publicAddress.ts';
import { SourceError } from './SourceError.ts';
import type { StepOptions } from './StepOptions.ts';
import { DEFAULT_FETCH_RULES, type FetchRules, fetchPolicy, isTrustedOrigin } from './sourceOrigin.ts';

/**
 * Clones a git URL with its submodules. Builds run without network, so submodules are fetched
 * now; when some cannot be reached (or are refused) the clone is kept and the gap recorded as a
 * warning. The clone's `.git` is written by git itself, never by the remote, so it stays in the
 * tree (builds may run `git describe`).
 */
export async function acquireGit(url: string, tree: string, options: StepOptions): Promise<Acquired> {
  const rules = options.fetch ?? DEFAULT_FETCH_RULES;
  const fetchConfig = await cloneFetchConfig(url, rules);
  options.log?.(`cloning ${url}`);
  await git(['clone', '--quiet', '--no-recurse-submodules', '--template=', '--', url, tree], {
    signal: options.signal,
    config: [
      'protocol.allow=never',
      ...['https', 'http', 'ssh', 'git', 'file'].map((p) => `protocol.${p}.allow=always`),
      ...fetchConfig,
    ],
    keyless: !isTrustedOrigin(rules.origin),
  });
  const gitDir = join(tree, '.git');
  const commit = await headCommit(gitDir, options);
  const top: TopSource = url.startsWith('file://')
    ? { kind: 'local', root: fileURLToPath(url) }
    : { kind: 'remote', url };
  const { submodules, warnings } = await fetchSubmodules(tree, top, options);
  return { commit, gitDir, submodules, tarballSha256: null, debian: null, warnings };
}

/**
 * The commit a git URL's HEAD is at now (`git ls-remote`), asked with the same confinement as a
 * clone: what a recipe-cache entry for the URL is checked against. Throws `SourceError`.
 */
export async function remoteHeadCommit(url: string, options: StepOptions): Promise<string> {
  const rules = options.fetch ?? DEFAULT_FETCH_RULES;
  const fetchConfig = await cloneFetchConfig(url, rules);
  const listing = await git(['ls-remote', '--', url, 'HEAD'], {
    signal: options.signal,
    config: [
      'protocol.allow=never',
      ...['https', 'http', 'ssh', 'git', 'file'].map((p) => `protocol.${p}.allow=always`),
      ...fetchConfig,
    ],
    keyless: !isTrustedOrigin(rules.origin),
  });
  const commit = /^([0-9a-f]{40}(?:[0-9a-f]{24})?)\tHEAD$/m.exec(listing)?.[1];
  if (!commit) throw new SourceError('acquire', `${url} names no HEAD commit`);
  return commit;
}

const ORIGIN_NAMES: Record<FetchRules['origin'], string> = {
  'command-line': 'the command line',
  queue: 'a queue job',
  state: "a port's saved state (a resumed or replayed port)",
  cache: 'a recipe-cache entry',
};

/**
 * What the clone of the SOURCE `url` may reach: an ssh URL only when a person gave it (ssh logs
 * in with the host user's keys and agent); a web URL's addresses checked and pinned (and no
 * redirect unless a person chose the URL); a git:// host checked. Throws `SourceError`.
 */
async function cloneFetchConfig(url: string, rules: FetchRules): Promise<string[]> {
  const transport = transportOf(url);
  if (transport.kind === 'ssh' && !isTrustedOrigin(rules.origin)) {
    throw new SourceError(
      'untrusted-origin',
      `the ssh SOURCE ${url} came from ${ORIGIN_NAMES[rules.origin]}: rvport logs in with this machine's ssh keys only for a SOURCE given on the command line (give an https:// URL)`,
    );
  }
  if (transport.kind === 'web') return pinnedFetchConfig([url], fetchPolicy(rules, true));
  if (transport.kind === 'git' && !rules.allowPrivateAddresses) await publicAddresses(transport.host, url);
  return [];
}
