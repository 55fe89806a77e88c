import { runProcess } from '../../process/runProcess.ts';
import { SandboxError } from '../errors.ts';
import type { SubordinateIds } from './subordinateIds.ts';
import { asTreeOwner } from './userNamespace.ts';

const TREE_OP_TIMEOUT_MS = 30 * 60_000;

/**
 * Runs one of rvport's own file commands (cp, chown, rm, mkdir) with the sandbox ids' rights:
 * files the sandbox owns are readable and writable, `chown 0:0` hands a host-made file to the
 * sandbox's root. The same for root and for an ordinary user.
 */
export async function runAsTreeOwner(
  ids: SubordinateIds,
  argv: readonly string[],
  options: { input?: string | Buffer; timeoutMs?: number } = {},
): Promise<string> {
  const result = await runProcess({
    command: asTreeOwner(ids, argv),
    clearEnv: true,
    env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C.UTF-8' },
    timeoutMs: options.timeoutMs ?? TREE_OP_TIMEOUT_MS,
    captureBytes: 16 * 1024,
    input: options.input,
  });
  if (result.exitCode !== 0) {
    throw new SandboxError('sandbox-failed', `${argv.slice(0, 4).join(' ')} failed: ${result.stderr.trim()}`);
  }
  return result.stdout;
}

/** Hands host-made paths (and everything below them) to the sandbox's root. */
export function giveToSandboxRoot(ids: SubordinateIds, paths: readonly string[]): Promise<string> {
  return runAsTreeOwner(ids, ['chown', '-R', '-P', '0:0', '--', ...paths]);
}
