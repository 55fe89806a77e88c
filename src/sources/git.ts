import { runProcess } from '../process/runProcess.ts';
import { SourceError } from './SourceError.ts';

/** Git never prompts for credentials and never runs a pager: rvport runs unattended. */
export const GIT_ENV: Record<string, string> = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_ASKPASS: '/bin/true',
  SSH_ASKPASS: '/bin/true',
  GIT_SSH_COMMAND: 'ssh -o BatchMode=yes',
  GIT_PAGER: 'cat',
  GIT_CONFIG_NOSYSTEM: '1',
};
export const GIT_TIMEOUT_MS = 30 * 60 * 1000;
const IDENTITY = [
  '-c',
  'user.name=rvport',
  '-c',
  'user.email=rvport@localhost',
  '-c',
  'commit.gpgsign=false',
];

export interface GitOptions {
  cwd?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  env?: Record<string, string | undefined>;
}

/** Runs git with an argv (never a shell) and returns stdout; failures become `SourceError`. */
export async function git(args: readonly string[], options: GitOptions = {}): Promise<string> {
  const result = await runProcess({
    command: ['git', ...args],
    cwd: options.cwd,
    env: { ...GIT_ENV, ...options.env },
    timeoutMs: options.timeoutMs ?? GIT_TIMEOUT_MS,
    signal: options.signal,
  });
  if (result.exitCode !== 0) {
    const detail = (result.stderr || result.stdout).trim().split('\n').slice(-3).join(' / ');
    const why = result.timedOut ? 'timed out' : result.aborted ? 'interrupted' : detail;
    throw new SourceError(`git ${args[0]} failed: ${why}`, 'acquire');
  }
  return result.stdout;
}

/**
 * Makes a plain tree a repository with one commit holding every file (ignore rules are
 * overridden: the tree is what was shipped) and returns the commit id.
 */
export async function commitTree(dir: string, message: string, options: GitOptions = {}): Promise<string> {
  await git(['init', '-q', '--initial-branch=main', '.'], { ...options, cwd: dir });
  await git(['config', 'core.autocrlf', 'false'], { ...options, cwd: dir });
  await git(['add', '-A', '-f', '.'], { ...options, cwd: dir });
  const epoch = process.env.SOURCE_DATE_EPOCH;
  const dates = epoch ? { GIT_AUTHOR_DATE: `@${epoch} +0000`, GIT_COMMITTER_DATE: `@${epoch} +0000` } : {};
  await git([...IDENTITY, 'commit', '-q', '--no-verify', '--allow-empty', '-m', message], {
    ...options,
    cwd: dir,
    env: { ...options.env, ...dates },
  });
  return headCommit(dir, options);
}

export async function headCommit(dir: string, options: GitOptions = {}): Promise<string> {
  return (await git(['rev-parse', 'HEAD'], { ...options, cwd: dir })).trim();
}

/**
 * The git tree id of HEAD: a hash of the files' content, names and modes only, so the same source
 * imported twice, on any machine, at any time, has the same tree (commits differ in their dates).
 */
export async function headTree(dir: string, options: GitOptions = {}): Promise<string> {
  return (await git(['rev-parse', 'HEAD^{tree}'], { ...options, cwd: dir })).trim();
}
