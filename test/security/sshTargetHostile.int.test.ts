import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSandboxError } from '../../src/sandbox/index.ts';
import { addTarget } from '../../src/sandbox/ssh/addTarget.ts';
import { createSshSandbox } from '../../src/sandbox/ssh/createSshSandbox.ts';
import type { SshSandbox } from '../../src/sandbox/ssh/SshSandbox.ts';
import { runCli } from '../helpers/rvportCli.ts';
import { type SshStandIn, startSshStandIn } from '../helpers/sshStandIn.ts';
import { type CraftedEntry, craftTar } from './craftTar.ts';

/**
 * A hostile remote: an sshd whose every session runs a script of ours instead of the command. It
 * answers the workspace setup as a riscv64 machine would, then does what `behaviour` says:
 * answers a copy out with a crafted tar, or prints terminal escapes. rvport's side is real (the
 * OpenSSH client, the CLI); the host canary folder must stay untouched.
 */
const HOSTILE = (dir: string) => `#!/bin/sh
behaviour=$(cat '${dir}/behaviour')
case $SSH_ORIGINAL_COMMAND in
  *rvport-open*)
    id=\${SSH_ORIGINAL_COMMAND##* }
    case $behaviour in
      root-etc) printf '/etc\\nriscv64\\n';;
      x86) printf '/root/.cache/rvport-target/%s\\nx86_64\\n' "$id";;
      *) printf '/root/.cache/rvport-target/%s\\nriscv64\\n' "$id";;
    esac
    exit 0;;
  *rvport-copy-out*) cat '${dir}/payload.tar'; exit 0;;
  *rvport-run*)
    printf 'out \\033]52;c;cm0gLXJmIH4=\\007\\033[2J\\n'
    printf 'cat: \\033]0;pwned\\007\\033[31mno such file\\n' >&2
    exit 1;;
  *) exit 0;;
esac
`;

let standIn: SshStandIn;
let dir: string;
let home: string;
let canary: string;
let box: SshSandbox;

const behave = (what: string, payload?: CraftedEntry[]) => {
  writeFileSync(join(dir, 'behaviour'), what);
  if (payload) writeFileSync(join(dir, 'payload.tar'), craftTar(payload));
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rvport-ssh-hostile-'));
  canary = join(dir, 'canary');
  mkdirSync(canary);
  writeFileSync(join(canary, 'secret.txt'), 'host secret\n');
  behave('plain');
  writeFileSync(join(dir, 'session.sh'), HOSTILE(dir), { mode: 0o755 });
  standIn = await startSshStandIn(join(dir, 'session.sh'));
  home = mkdtempSync(join(tmpdir(), 'rvport-ssh-hostile-home-'));
  await addTarget({
    url: standIn.url,
    fingerprint: standIn.hostKeyFingerprint,
    identity: standIn.clientKey,
    home,
  });
  box = await createSshSandbox({ target: standIn.url, home });
}, 60_000);

afterAll(async () => {
  await standIn?.stop();
  for (const d of [dir, home]) if (d) rmSync(d, { recursive: true, force: true });
});

function canaryUntouched(): void {
  expect(readdirSync(canary)).toEqual(['secret.txt']);
  expect(readFileSync(join(canary, 'secret.txt'), 'utf8')).toBe('host secret\n');
}

async function refusedCopyOut(payload: CraftedEntry[], pattern: RegExp): Promise<void> {
  behave('tar', payload);
  const dest = join(dir, `dest-${Math.random().toString(36).slice(2)}`);
  const error = await box.copyOut('/build/src', dest).catch((e: unknown) => e);
  expect(isSandboxError(error) && error.code).toBe('sandbox-failed');
  expect((error as Error).message).toMatch(
    /refused what ssh:\/\/root@127\.0\.0\.1:\d+ sent for \/build\/src/,
  );
  expect((error as Error).message).toMatch(pattern);
  expect(existsSync(dest)).toBe(false);
  canaryUntouched();
}

describe('a hostile SSH target', () => {
  it('cannot write through a link that leads out of the destination', async () => {
    await refusedCopyOut(
      [
        { name: 'src/', type: '5' },
        { name: 'src/out', type: '2', linkname: canary },
        { name: 'src/out/owned.txt', type: '0', content: 'owned' },
      ],
      /lies under the symbolic link/,
    );
    await refusedCopyOut(
      [
        { name: 'src/', type: '5' },
        { name: 'src/up', type: '2', linkname: '../../../..' },
      ],
      /points outside the tree/,
    );
  });

  it('cannot name a path outside the destination', async () => {
    await refusedCopyOut(
      [
        { name: 'src/', type: '5' },
        { name: `src/../../${'../'.repeat(8)}${canary.slice(1)}/owned.txt`, type: '0', content: 'owned' },
      ],
      /'\.\.' component/,
    );
    await refusedCopyOut([{ name: `${canary}/owned.txt`, type: '0', content: 'owned' }], /absolute path/);
  });

  it('cannot make devices, and loses set-id bits', async () => {
    await refusedCopyOut(
      [
        { name: 'src/', type: '5' },
        { name: 'src/tty', type: '3' },
      ],
      /only files, folders and symbolic links/,
    );
    behave('tar', [
      { name: 'src/', type: '5' },
      { name: 'src/suid', type: '0', content: '#!/bin/sh\n', mode: 0o4755 },
    ]);
    const dest = join(dir, 'setid');
    await box.copyOut('/build/src', dest);
    expect(lstatSync(join(dest, 'suid')).mode & 0o7777).toBe(0o755);
    canaryUntouched();
  });

  it('gets its terminal escapes shown as text, never sent to the terminal', async () => {
    behave('plain');
    const result = await box.run(['cat', '/build/x']);
    expect(result.exitCode).toBe(1); // output is only data to the host
    const error = await box.readFile('/build/x').catch((e: unknown) => e);
    const message = (error as Error).message;
    expect(message).toContain('\\x1b]0;pwned\\x07');
    expect(message.includes('\u001b') || message.includes('\u0007')).toBe(false);
  });

  it('is never given files outside its workspace by rvport', async () => {
    for (const attempt of [
      box.writeFile('/etc/profile.d/x.sh', 'echo owned'),
      box.writeFile('/build/../etc/x', 'owned'),
      box.copyIn(canary, '/usr/local/bin'),
    ]) {
      const error = await attempt.catch((e: unknown) => e);
      expect((error as Error).message).toMatch(/only \/build \(the target's workspace\) is rvport's there/);
    }
  });

  it('cannot put the workspace elsewhere or pass for riscv64', async () => {
    behave('root-etc');
    const elsewhere = await createSshSandbox({ target: standIn.url, home }).catch((e: unknown) => e);
    expect((elsewhere as Error).message).toMatch(/answered the workspace setup with unexpected text/);
    behave('x86');
    const other = await createSshSandbox({ target: standIn.url, home }).catch((e: unknown) => e);
    expect(isSandboxError(other) && other.code).toBe('bad-target');
    expect((other as Error).message).toMatch(/is x86_64, not riscv64/);
    behave('plain');
  });
});

describe('host keys of an SSH target', () => {
  it('refuses an unknown key at the ssh level too, without a prompt', async () => {
    // a known_hosts that pins another key of the same type: ssh itself must refuse
    const fresh = mkdtempSync(join(tmpdir(), 'rvport-ssh-otherkey-'));
    try {
      mkdirSync(join(fresh, 'targets'));
      const known = readFileSync(join(home, 'targets', 'known_hosts'), 'utf8');
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(fresh, 'other')]);
      const otherKey = readFileSync(join(fresh, 'other.pub'), 'utf8').split(' ').slice(0, 2).join(' ');
      const other = known.replace(/ssh-ed25519 \S+/, otherKey);
      writeFileSync(join(fresh, 'targets', 'known_hosts'), other);
      const started = Date.now();
      const run = await runCli(['probe', '--target', standIn.url, '--identity', standIn.clientKey], {
        cwd: dir,
        env: { RVPORT_HOME: fresh },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /the host key of ssh:\/\/root@127\.0\.0\.1:\d+ is not the one pinned for it: refused/,
      );
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('stops a port on a target with an unknown key before anything runs', { timeout: 60_000 }, async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'rvport-ssh-portnokey-'));
    const project = join(fresh, 'tiny');
    mkdirSync(project);
    writeFileSync(join(project, 'main.c'), 'int main(void){return 0;}\n');
    try {
      const run = await runCli(
        ['port', project, '--target', standIn.url, '--offline', '--out', join(fresh, 'out')],
        {
          cwd: dir,
          env: { RVPORT_HOME: fresh },
        },
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/the host key of ssh:\/\/root@127\.0\.0\.1:\d+ is not known to rvport/);
      expect(run.stderr).toMatch(/to fix it, run:\n\s+rvport target add/);
      expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('refuses a changed host key', { timeout: 60_000 }, async () => {
    await standIn.changeHostKey();
    const error = await createSshSandbox({ target: standIn.url, home }).catch((e: unknown) => e);
    expect(isSandboxError(error) && error.code).toBe('host-key-changed');
    const run = await runCli(['probe', '--target', standIn.url, '--identity', standIn.clientKey], {
      cwd: dir,
      env: { RVPORT_HOME: home },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/is not the one pinned for it: refused/);
    expect(run.stderr).toMatch(/rvport target add ssh:\/\/root@127\.0\.0\.1:\d+ --host-key-fingerprint/);
  });
});
