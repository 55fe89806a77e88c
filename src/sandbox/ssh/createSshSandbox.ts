import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { rvportHome } from '../../config/rvportHome.ts';
import { runProcess } from '../../process/runProcess.ts';
import { SandboxError } from '../errors.ts';
import type { SandboxLimitOverrides } from '../limits/SandboxLimits.ts';
import { sandboxPaths } from '../sandboxPaths.ts';
import { classifySshFailure, unknownHostKey } from './classifySshFailure.ts';
import { readPinnedKeys } from './knownHosts.ts';
import { printable } from './printable.ts';
import { isRemoteRoot, OPEN_SCRIPT } from './remoteWorkspace.ts';
import { SshSandbox } from './SshSandbox.ts';
import { remoteQuote, SSH_ENV, type SshClientFiles, sshArgv } from './sshArgv.ts';
import { recordWorkspaceOwner, removeStaleWorkspaces } from './staleWorkspaces.ts';
import { resolveTarget, targetPaths } from './targetStore.ts';

export interface CreateSshSandboxOptions {
  /** `ssh://user@host[:port]` or the name of a saved target. */
  target: string;
  /** RVPORT_HOME; default from the environment. */
  home?: string;
  /** A private key file; default the saved target's, then rvport's own, then OpenSSH's defaults. */
  identity?: string;
  env?: Record<string, string>;
  limits?: SandboxLimitOverrides;
  /** Keep a host copy of `/build` (the port reads the build tree on the host). */
  mirrorWorkspace?: boolean;
  /** Another Debian archive packages may come from. */
  mirror?: string;
  /**
   * The RVPORT_HOME whose riscv64 rootfs images' lists decide what installs fetch; default `home`.
   */
  imagesHome?: string;
}

const OPEN_TIMEOUT_MS = 90_000;

/** What the recipe cache keys a port on an SSH target by (the remote's own Debian userland). */
export const SSH_TARGET_IMAGE_ID = 'ssh-target';

/**
 * A fresh workspace on an SSH target. The host key must be pinned in rvport's known_hosts first
 * (`rvport target add`): an unknown key is refused here before any connection, a changed one by
 * ssh itself; neither ever prompts. The target must say it is riscv64.
 */
export async function createSshSandbox(options: CreateSshSandboxOptions): Promise<SshSandbox> {
  const home = options.home ?? rvportHome();
  const paths = targetPaths(home);
  const { target, record } = await resolveTarget(home, options.target);
  const identity =
    options.identity ?? record?.identity ?? (existsSync(paths.identity) ? paths.identity : undefined);
  const files: SshClientFiles = { knownHosts: paths.knownHosts, ...(identity ? { identity } : {}) };
  if ((await readPinnedKeys(paths.knownHosts, target.knownHostsName)).length === 0)
    throw unknownHostKey(target);
  const debCache = join(sandboxPaths(home).debCache, 'sandbox-riscv64');
  await removeStaleWorkspaces(paths.instances, { target, files, debCache });
  const id = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const command = ['exec', '/bin/sh', '-c', OPEN_SCRIPT, 'rvport-open', id].map(remoteQuote).join(' ');
  const opened = await runProcess({
    command: sshArgv(target, files, command),
    clearEnv: true,
    env: SSH_ENV,
    timeoutMs: OPEN_TIMEOUT_MS,
    captureBytes: 16 * 1024,
  });
  const failure = classifySshFailure(target, opened.exitCode, opened.stderr);
  if (failure) throw failure;
  if (opened.timedOut)
    throw new SandboxError(
      'target-unreachable',
      `${target.url} did not answer within ${OPEN_TIMEOUT_MS / 1000} s`,
    );
  if (opened.exitCode !== 0) {
    throw new SandboxError(
      'sandbox-failed',
      `could not make a workspace on ${target.url} (exit ${opened.exitCode}): ${printable(opened.stderr.trim(), 800)}`,
    );
  }
  const [root = '', machine = '', ...rest] = opened.stdout.trim().split('\n');
  if (!isRemoteRoot(root, id) || rest.length > 0) {
    throw new SandboxError(
      'sandbox-failed',
      `${target.url} answered the workspace setup with unexpected text: ${printable(opened.stdout, 400)}`,
    );
  }
  const localDir = join(paths.instances, id);
  await mkdir(join(localDir, 'build'), { recursive: true, mode: 0o700 });
  await recordWorkspaceOwner(localDir, target.url, root);
  const box = new SshSandbox({
    id,
    target,
    files,
    root,
    localDir,
    debCache,
    images: sandboxPaths(options.imagesHome ?? home),
    ...(options.env ? { env: options.env } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.mirrorWorkspace ? { mirrorWorkspace: true } : {}),
    ...(options.mirror ? { mirror: options.mirror } : {}),
  });
  if (machine !== 'riscv64') {
    await box.destroy().catch(() => undefined);
    throw new SandboxError(
      'bad-target',
      `${target.url} is ${printable(machine, 40) || 'an unknown machine'}, not riscv64`,
    );
  }
  return box;
}
