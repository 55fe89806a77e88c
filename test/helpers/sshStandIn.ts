import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChrootSandbox } from '../../src/sandbox/index.ts';

/**
 * An sshd of the host's OpenSSH on 127.0.0.1 and a free port, with its own host key and config:
 * no PAM, keys only (one generated client key in its authorized_keys), no forwarding, no
 * terminal, and a ForceCommand that decides what every session runs. With `sandboxSession`'s
 * script the sessions run inside an rvport riscv64 sandbox instance: a stand-in for a real
 * riscv64 machine's protocol and userland (not for its speed). Runs as root, which sshd needs
 * for its privilege separation.
 */
export interface SshStandIn {
  port: number;
  url: string;
  dir: string;
  /** The private key the stand-in accepts. */
  clientKey: string;
  /** The host key's fingerprint, as its owner would hand it out. */
  hostKeyFingerprint: string;
  /** Gives the stand-in a new host key (a reinstalled machine, or another one) and restarts it. */
  changeHostKey(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function listening(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`the stand-in sshd did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function keygen(file: string): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'rvport-test', '-f', file]);
}

function fingerprint(pub: string): string {
  return (
    execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', pub], { encoding: 'utf8' }).split(' ')[1] ?? ''
  );
}

/**
 * Starts an sshd whose sessions all run `forceCommand` (a host script reading
 * SSH_ORIGINAL_COMMAND; see sandboxSession).
 */
export async function startSshStandIn(forceCommand: string): Promise<SshStandIn> {
  if (process.getuid?.() !== 0) throw new Error('the SSH stand-in runs sshd, which needs root');
  // sshd's privilege separation folder (made by the ssh service on a machine that runs one)
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const dir = mkdtempSync(join(tmpdir(), 'rvport-sshd-'));
  chmodSync(dir, 0o700);
  const hostKey = join(dir, 'host_ed25519');
  const clientKey = join(dir, 'client_ed25519');
  keygen(hostKey);
  keygen(clientKey);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(`${clientKey}.pub`), { mode: 0o600 });
  const port = await freePort();
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      // the key files live under /tmp, which is world-writable: StrictModes would refuse them
      'StrictModes no',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin prohibit-password',
      'AllowUsers root',
      'PermitTTY no',
      'AllowTcpForwarding no',
      'AllowAgentForwarding no',
      'AllowStreamLocalForwarding no',
      'X11Forwarding no',
      'PermitTunnel no',
      'PermitUserEnvironment no',
      'PrintMotd no',
      'LogLevel ERROR',
      `ForceCommand ${forceCommand}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr?.on('data', (d: Buffer) => {
      log = (log + d.toString()).slice(-4000);
    });
    const exited = new Promise<never>((_, reject) =>
      child?.once('exit', (code) => reject(new Error(`sshd exited (${code}): ${log}`))),
    );
    await Promise.race([listening(port, 10_000), exited]);
    exited.catch(() => {});
  };
  const stopSshd = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const gone = new Promise((r) => running.once('exit', r));
    running.kill('SIGTERM');
    await gone;
  };
  await start();
  const standIn: SshStandIn = {
    port,
    url: `ssh://root@127.0.0.1:${port}`,
    dir,
    clientKey,
    hostKeyFingerprint: fingerprint(`${hostKey}.pub`),
    async changeHostKey() {
      await stopSshd();
      rmSync(hostKey);
      rmSync(`${hostKey}.pub`);
      keygen(hostKey);
      standIn.hostKeyFingerprint = fingerprint(`${hostKey}.pub`);
      await start();
    },
    async stop() {
      await stopSshd();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return standIn;
}

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A ForceCommand script that runs the session's command inside a sandbox instance of this
 * process (alive as long as it is), as
 * `rvport sandbox exec` enters one: `/bin/sh -c "$SSH_ORIGINAL_COMMAND"` as root inside, whose
 * HOME (/root) is writable there.
 */
export function sandboxSession(box: ChrootSandbox): string {
  const argv = box.hostCommand(['/bin/sh', '-c'], { cwd: '/root' });
  const dir = mkdtempSync(join(tmpdir(), 'rvport-sshd-session-'));
  const script = join(dir, 'session.sh');
  writeFileSync(script, `#!/bin/sh\nexec ${argv.map(quote).join(' ')} "$SSH_ORIGINAL_COMMAND"\n`, {
    mode: 0o755,
  });
  return script;
}
