import { SandboxError } from '../errors.ts';
import type { SshTarget } from './parseSshTarget.ts';
import { printable } from './printable.ts';

/** The message and fix for a target whose key rvport does not know (documented in the README). */
export function unknownHostKey(target: SshTarget): SandboxError {
  return new SandboxError(
    'host-key-unknown',
    `the host key of ${target.url} is not known to rvport; it was not asked for and nothing ran there`,
    {
      fix: `rvport target add ${target.url} --host-key-fingerprint SHA256:…   (the fingerprint from the machine's owner: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub)\nor, trusting whoever answers now: rvport target add ${target.url} --accept-new-host-key`,
    },
  );
}

/**
 * What ssh's own exit status 255 and its messages say about a connection that failed. ssh writes
 * these before any remote output exists; a remote that prints the same words on stderr and exits
 * 255 only makes its own command fail.
 */
export function classifySshFailure(target: SshTarget, exitCode: number, stderr: string): SandboxError | null {
  if (exitCode !== 255) return null;
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key for .* has changed/.test(stderr)) {
    return new SandboxError(
      'host-key-changed',
      `the host key of ${target.url} is not the one pinned for it: refused (it may be another machine, or the machine was reinstalled)`,
      {
        fix: `check the new key with the machine's owner, then: rvport target add ${target.url} --host-key-fingerprint SHA256:…`,
      },
    );
  }
  if (/Host key verification failed|No \S+ host key is known for|host key is known for/.test(stderr))
    return unknownHostKey(target);
  if (/Permission denied \(|Too many authentication failures/.test(stderr)) {
    return new SandboxError(
      'target-unreachable',
      `${target.url} refused the key: ${printable(stderr.trim(), 400)}`,
      {
        fix: `add rvport's public key to the remote user's ~/.ssh/authorized_keys (rvport target add prints it), or name a key with --identity`,
      },
    );
  }
  if (
    /Connection refused|Connection timed out|No route to host|Could not resolve hostname|Connection closed|Network is unreachable|kex_exchange_identification/.test(
      stderr,
    )
  ) {
    return new SandboxError(
      'target-unreachable',
      `cannot reach ${target.url}: ${printable(stderr.trim(), 400)}`,
    );
  }
  return null;
}
