import { runProcess } from '../process/runProcess.ts';
import { SourceError } from './SourceError.ts';
import { KEYLESS_SSH_COMMAND } from './sourceOrigin.ts';

/**
 * The whole environment host git gets: a fixed list, never the caller's GIT_* variables (a
 * GIT_DIR, GIT_CONFIG_* or GIT_EXEC_PATH from outside would point git at other metadata or
 * programs). No system or global configuration is read, so no credential helper, alias, filter
 * driver or `insteadOf` rewrite of the machine applies; no prompt, no pager.
 */
export const GIT_ENV: Readonly<Record<string, string>> = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_ASKPASS: '/bin/true',
  SSH_ASKPASS: '/bin/true',
  GIT_SSH_COMMAND: 'ssh -o BatchMode=yes',
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_ATTR_NOSYSTEM: '1',
  // A partial clone's missing objects are never fetched from a remote its own config names.
  GIT_NO_LAZY_FETCH: '1',
  GIT_OPTIONAL_LOCKS: '0',
  LC_ALL: 'C',
};

/** Variables passed through from rvport's environment: what ssh and https transports need. */
const PASSED_ENV = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'TMPDIR',
  'SSH_AUTH_SOCK',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
];

/**
 * Given on every command line, where git ranks them above any repository's own config (and
 * passes them to the git processes it starts: upload-pack, submodule clones). Together they stop
 * each way a repository's config or content could make host git run a program: hooks,
 * fsmonitor, ssh and pager commands, credential helpers, the `ext::` transport; implicit bare
 * repositories inside a tree are not entered. Filter, diff and merge drivers exist only when
 * config defines them, and the only config read is the one git or rvport wrote.
 */
export const SAFE_GIT_CONFIG: readonly string[] = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'core.attributesFile=/dev/null',
  'core.sshCommand=ssh -o BatchMode=yes',
  'core.pager=cat',
  'core.askPass=/bin/true',
  'core.autocrlf=false',
  'core.symlinks=true',
  'credential.helper=',
  'protocol.ext.allow=never',
  'safe.bareRepository=explicit',
  'submodule.recurse=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'user.name=rvport',
  'user.email=rvport@localhost',
].flatMap((setting) => ['-c', setting]);

export const GIT_TIMEOUT_MS = 30 * 60 * 1000;

export interface GitOptions {
  cwd?: string;
  /** The repository's metadata, given explicitly so git never looks for a `.git` in a tree. */
  gitDir?: string;
  /** The working tree, with `gitDir`. */
  workTree?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Only rvport's own variables (dates, an index file); added to the fixed environment. */
  env?: Record<string, string>;
  input?: string;
  /** More `-c` settings for this command (placed before the safe ones, which win: a later -c overrides an earlier one). */
  config?: readonly string[];
  /** A source from an untrusted origin: no ssh agent, an ssh that offers no key. */
  keyless?: boolean;
}

/** The environment of a host git process: the fixed list plus rvport's own additions. */
export function gitEnvironment(extra: Record<string, string> = {}, keyless = false): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSED_ENV) {
    const value = process.env[name];
    if (value !== undefined && !(keyless && name === 'SSH_AUTH_SOCK')) env[name] = value;
  }
  // GIT_SSH_COMMAND ranks above core.sshCommand
  const ssh: Record<string, string> = keyless ? { GIT_SSH_COMMAND: KEYLESS_SSH_COMMAND } : {};
  return { ...env, ...GIT_ENV, ...ssh, ...extra };
}

/** Runs host git with an argv (never a shell) and returns stdout; failures become `SourceError`. */
export async function git(args: readonly string[], options: GitOptions = {}): Promise<string> {
  const location = [
    ...(options.gitDir ? [`--git-dir=${options.gitDir}`] : []),
    ...(options.workTree ? [`--work-tree=${options.workTree}`] : []),
  ];
  const result = await runProcess({
    command: [
      'git',
      ...(options.config ?? []).flatMap((setting) => ['-c', setting]),
      ...SAFE_GIT_CONFIG,
      ...location,
      ...args,
    ],
    cwd: options.cwd ?? options.workTree,
    env: gitEnvironment(options.env, options.keyless),
    clearEnv: true,
    timeoutMs: options.timeoutMs ?? GIT_TIMEOUT_MS,
    signal: options.signal,
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
  if (result.exitCode !== 0) {
    // the first fatal line says why (git's hints follow it); the last lines say where
    const lines = (result.stderr || result.stdout)
      .trim()
      .split('\n')
      .filter((l) => l.trim() !== '');
    const fatal = lines.find((l) => l.startsWith('fatal:'));
    const tail = lines.slice(-3).filter((l) => l !== fatal);
    const detail = [...(fatal ? [fatal] : []), ...tail].join(' / ');
    const why = result.timedOut ? 'timed out' : result.aborted ? 'interrupted' : detail;
    throw new SourceError('acquire', `git ${args[0]} failed: ${why}`);
  }
  return result.stdout;
}

/** The commit HEAD names in the repository whose metadata is `gitDir`. */
export async function headCommit(gitDir: string, options: GitOptions = {}): Promise<string> {
  return (await git(['rev-parse', '--verify', 'HEAD^{commit}'], { ...options, gitDir })).trim();
}

/**
 * The git tree id of HEAD: a hash of the files' content, names and modes only, so the same source
 * imported twice, on any machine, at any time, has the same tree (commits differ in their dates).
 */
export async function headTree(gitDir: string, options: GitOptions = {}): Promise<string> {
  return (await git(['rev-parse', '--verify', 'HEAD^{tree}'], { ...options, gitDir })).trim();
}

/**
 * The commit a user's local repository is at, read with the safe settings above (its own config
 * can name no program that runs), or null when the folder is no readable repository.
 */
export async function localHeadCommit(dir: string, options: GitOptions = {}): Promise<string | null> {
  try {
    return (await git(['rev-parse', '--verify', 'HEAD^{commit}'], { ...options, cwd: dir })).trim();
  } catch {
    return null;
  }
}
