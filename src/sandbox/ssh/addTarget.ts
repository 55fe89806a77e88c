import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { rvportHome } from '../../config/rvportHome.ts';
import { runProcess } from '../../process/runProcess.ts';
import { SandboxError } from '../errors.ts';
import {
  type HostKey,
  hostKeyFingerprint,
  normalizeFingerprint,
  parseHostKeys,
  pinHostKeys,
} from './knownHosts.ts';
import { parseSshTarget } from './parseSshTarget.ts';
import { SSH_CONNECT_TIMEOUT_S, SSH_ENV } from './sshArgv.ts';
import { saveTarget, targetPaths } from './targetStore.ts';

export interface AddTargetOptions {
  url: string;
  /** The key's fingerprint as its owner gave it: only a key with it is pinned. */
  fingerprint?: string;
  /** Trust on first use: pin whatever keys answer now. */
  acceptNew?: boolean;
  name?: string;
  identity?: string;
  home?: string;
}

export interface AddTargetResult {
  url: string;
  name: string;
  pinned: Array<{ type: string; fingerprint: string }>;
  /** The key rvport logs in with, when it is rvport's own: its public half goes to authorized_keys. */
  publicKey: string | null;
}

/**
 * Pins a target's host key in rvport's known_hosts and saves the target. The keys come from
 * `ssh-keyscan` (the network's word, so only a key whose fingerprint the user gave is pinned,
 * unless trust on first use was asked for), and rvport's own client key is made when none is named.
 */
export async function addTarget(options: AddTargetOptions): Promise<AddTargetResult> {
  const home = options.home ?? rvportHome();
  const target = parseSshTarget(options.url);
  const wanted = options.fingerprint === undefined ? undefined : normalizeFingerprint(options.fingerprint);
  if (wanted === null)
    throw new SandboxError('bad-target', `not a SHA256 fingerprint: ${JSON.stringify(options.fingerprint)}`);
  if (!wanted && !options.acceptNew) {
    throw new SandboxError(
      'host-key-unknown',
      `a target's host key is pinned, never guessed: give --host-key-fingerprint SHA256:… (from the machine's owner) or --accept-new-host-key`,
    );
  }
  const paths = targetPaths(home);
  await mkdir(paths.dir, { recursive: true, mode: 0o700 });
  const scanned = await scanHostKeys(target.host, target.port, target.knownHostsName);
  if (scanned.length === 0)
    throw new SandboxError(
      'target-unreachable',
      `${target.url} presented no host key (is sshd listening there?)`,
    );
  let keys: HostKey[] = scanned;
  if (wanted) {
    keys = scanned.filter((k) => hostKeyFingerprint(k) === wanted);
    if (keys.length === 0) {
      throw new SandboxError(
        'host-key-changed',
        `${target.url} did not present a host key with fingerprint ${wanted} (it presented ${scanned.map(hostKeyFingerprint).join(', ')}): nothing pinned`,
      );
    }
  }
  await pinHostKeys(paths.knownHosts, target.knownHostsName, keys);
  const identity = options.identity;
  let publicKey: string | null = null;
  if (!identity) {
    if (!existsSync(paths.identity)) {
      const made = await runProcess({
        command: ['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C', 'rvport', '-f', paths.identity],
        clearEnv: true,
        env: SSH_ENV,
        timeoutMs: 30_000,
      });
      if (made.exitCode !== 0)
        throw new SandboxError('sandbox-failed', `ssh-keygen failed: ${made.stderr.trim()}`);
    }
    publicKey = (await readFile(`${paths.identity}.pub`, 'utf8')).trim();
  }
  const name = options.name ?? target.host;
  await saveTarget(home, { name, url: target.url, ...(identity ? { identity } : {}) });
  return {
    url: target.url,
    name,
    pinned: keys.map((k) => ({ type: k.type, fingerprint: hostKeyFingerprint(k) })),
    publicKey,
  };
}

async function scanHostKeys(host: string, port: number, name: string): Promise<HostKey[]> {
  const result = await runProcess({
    command: [
      'ssh-keyscan',
      '-T',
      String(SSH_CONNECT_TIMEOUT_S),
      '-p',
      String(port),
      '-t',
      'ed25519,ecdsa,rsa',
      '--',
      host,
    ],
    clearEnv: true,
    env: SSH_ENV,
    timeoutMs: (SSH_CONNECT_TIMEOUT_S + 10) * 1000,
    captureBytes: 64 * 1024,
  });
  return parseHostKeys(result.stdout, name);
}
