import { mkdtemp, readFile, readlink, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageTree } from '../../src/sandbox/imageStore.ts';
import { type ChrootSandbox, createSandbox, findImages, sandboxPaths } from '../../src/sandbox/index.ts';
import { hostProcessesWith, PROVISION_TIMEOUT_MS, provisionedImages, waitFor } from './provisionedImages.ts';

let box: ChrootSandbox;

beforeAll(async () => {
  await provisionedImages();
  box = await createSandbox({ mode: 'emulated' });
}, PROVISION_TIMEOUT_MS);

afterAll(async () => {
  await box?.destroy();
});

describe('an emulated instance', () => {
  it('is a riscv64 userland', async () => {
    const result = await box.run(['uname', '-m']);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'riscv64\n', commandNotFound: false });
    expect((await box.run('dpkg --print-architecture')).stdout).toBe('riscv64\n');
  });

  it('says clearly when the command does not exist', async () => {
    const argv = await box.run(['no-such-tool-xyz', '--version']);
    expect(argv.exitCode).toBe(127);
    expect(argv.commandNotFound).toBe(true);
    expect(argv.stderr).toContain('no-such-tool-xyz');
    const line = await box.run('no-such-tool-xyz --version');
    expect(line.commandNotFound).toBe(true);
    expect((await box.run(['sh', '-c', 'exit 3'])).commandNotFound).toBe(false);
  });

  it('caps the output it keeps but counts all of it', async () => {
    const result = await box.run(['head', '-c', '1000000', '/dev/zero'], { outputCapBytes: 1000 });
    expect(result.exitCode).toBe(0);
    expect(result.stdoutBytes).toBe(1_000_000);
    expect(result.truncated).toBe(true);
    // the kept tail, after a line that says how much came before it
    const marker = '[… 999000 earlier bytes omitted …]\n';
    expect(result.stdout.startsWith(marker)).toBe(true);
    expect(result.stdout.length - marker.length).toBe(1000);
  });

  it('kills a command past its time limit with everything it started, even in a new session', async () => {
    const marker = `${4000 + Math.floor(Math.random() * 999)}.5`;
    const started = Date.now();
    const result = await box.run(
      ['sh', '-c', `setsid sleep ${marker} & sleep ${marker} & echo started; wait`],
      {
        timeoutMs: 2500,
      },
    );
    expect(result.timedOut).toBe(true);
    expect(result.stdout).toBe('started\n');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await waitFor(async () => (await hostProcessesWith(marker)).length === 0, 5000)).toBe(true);
  });

  it('has no network during builds, and network when asked for', async () => {
    const netdev = await box.run(['cat', '/proc/net/dev']);
    const interfaces = netdev.stdout
      .split('\n')
      .slice(2)
      .map((l) => l.trim().split(':')[0])
      .filter(Boolean);
    expect(interfaces).toEqual(['lo']);
    // loopback works without network: a test suite can talk to itself
    const loopback = await box.run([
      'python3',
      '-c',
      "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); socket.create_connection(s.getsockname()); print('loopback ok')",
    ]);
    expect(loopback.stdout).toBe('loopback ok\n');
    // a TCP connection to the apt mirror the image was made from
    const { rootfs } = await findImages();
    const mirror = new URL(rootfs?.mirror ?? 'http://invalid.');
    const { lookup } = await import('node:dns/promises');
    const { address } = await lookup(mirror.hostname, { family: 4 });
    const port = mirror.port || (mirror.protocol === 'https:' ? '443' : '80');
    const connect = `exec 3<>/dev/tcp/${address}/${port} && echo connected`;
    const offline = await box.run(['bash', '-c', connect], { timeoutMs: 20_000 });
    expect(offline.stdout).not.toContain('connected');
    expect(offline.stderr).toMatch(/unreachable|refused/i);
    const online = await box.run(['bash', '-c', connect], { network: true, timeoutMs: 20_000 });
    expect(online.stdout).toBe('connected\n');
  });

  it('moves files in and out, and reads and writes them', async () => {
    const hostDir = await mkdtemp(join(tmpdir(), 'rvport-copy-'));
    await writeFile(join(hostDir, 'a.txt'), 'alpha\n');
    await box.copyIn(hostDir, '/opt/incoming');
    expect((await box.run(['cat', '/opt/incoming/a.txt'])).stdout).toBe('alpha\n');
    await box.writeFile('/etc/rvport-test/conf', 'key=1\n', 0o600);
    expect((await box.readFile('/etc/rvport-test/conf')).toString()).toBe('key=1\n');
    expect((await box.run(['stat', '-c', '%a', '/etc/rvport-test/conf'])).stdout).toBe('600\n');
    await box.run([
      'sh',
      '-c',
      'mkdir -p /srv/out && echo beta > /srv/out/b.txt && ln -s /etc/shadow /srv/out/link',
    ]);
    const out = join(hostDir, 'out');
    await box.copyOut('/srv/out', out);
    expect(await readFile(join(out, 'b.txt'), 'utf8')).toBe('beta\n');
    // a link written inside stays a link; nothing on the host is followed or copied
    await expect(readlink(join(out, 'link'))).resolves.toBe('/etc/shadow');
    await expect(box.readFile('/no/such/file')).rejects.toThrow(/could not read/);
  });

  it('rolls back to a snapshot: the image changes and the workspace', async () => {
    // a whiteout (deleted file) and an opaque folder (replaced folder) in the saved upper layer
    await box.run([
      'sh',
      '-c',
      'echo one > /opt/state && echo src > /build/source.c && rm /usr/bin/xargs && rm -rf /usr/share/man && mkdir /usr/share/man && touch /usr/share/man/only',
    ]);
    const snap = await box.snapshot();
    await box.run([
      'sh',
      '-c',
      'echo two > /opt/state && rm /build/source.c && touch /opt/new && rm -rf /usr/share/doc',
    ]);
    expect((await box.run(['cat', '/opt/state'])).stdout).toBe('two\n');
    await box.rollback(snap);
    const after = await box.run([
      'sh',
      '-c',
      'cat /opt/state /build/source.c; ls /opt/new 2>&1; ls -d /usr/share/doc',
    ]);
    expect(after.stdout).toContain('one\nsrc\n');
    expect(after.stdout).toContain('/usr/share/doc\n');
    expect(after.stdout).toMatch(/No such file/);
    const layers = await box.run(['sh', '-c', 'ls /usr/share/man; ls /usr/bin/xargs 2>&1']);
    expect(layers.stdout).toMatch(/^only\n.*No such file/);
  });

  it('starts a new instance on the cached image in well under 2 s', async () => {
    const started = performance.now();
    const other = await createSandbox({ mode: 'accelerated' });
    const result = await other.run(['true']);
    const elapsed = performance.now() - started;
    await other.destroy();
    expect(result.exitCode).toBe(0);
    expect(elapsed).toBeLessThan(2000);
  });
});

describe('isolation', () => {
  it('destructive commands leave the host, the image and another running instance intact', async () => {
    const canaryDir = await mkdtemp(join(tmpdir(), 'rvport-canary-'));
    const canary = join(canaryDir, 'canary');
    await writeFile(canary, 'intact\n');
    const { rootfs, tools } = await findImages();
    const paths = sandboxPaths();
    const imageFile = join(imageTree(paths, rootfs?.key ?? ''), 'etc/debian_version');
    const imageBefore = await readFile(imageFile, 'utf8');
    const hostBefore = await readFile('/etc/hostname', 'utf8').catch(() => '');

    const victim = await createSandbox({ mode: 'accelerated' });
    const bystander = await createSandbox({ mode: 'emulated' });
    try {
      await bystander.run(['sh', '-c', 'echo mine > /opt/owner']);
      const survivor = bystander.run(['sh', '-c', 'sleep 12; cat /opt/owner; echo alive']);
      const attacks = [
        'echo x > /native/usr/bin/pwned',
        `echo x > ${canary}`,
        'echo 1 > /proc/sys/kernel/panic',
        'mount -o remount,rw /native',
        'mount -t tmpfs none /mnt',
        'mknod /tmp/disk b 254 0',
        'hostname pwned',
        'chroot / true',
      ];
      const results: string[] = [];
      for (const attack of attacks) {
        const r = await victim.run(['sh', '-c', `${attack} && echo SUCCEEDED`]);
        results.push(`${attack}: ${r.stdout.includes('SUCCEEDED') ? 'SUCCEEDED' : 'refused'}`);
      }
      expect(results.filter((r) => r.endsWith('SUCCEEDED'))).toEqual([]);
      const wipe = await victim.run(['sh', '-c', 'kill -9 -1; rm -rf /etc /usr 2>/dev/null; echo done'], {
        timeoutMs: 120_000,
      });
      expect(wipe.timedOut).toBe(false);
      // the victim really lost its /usr (its own copy), nothing else did
      expect((await victim.run(['/usr/bin/true'])).exitCode).not.toBe(0);

      const bystanderResult = await survivor;
      expect(bystanderResult.stdout).toBe('mine\nalive\n');
      expect(await readFile(canary, 'utf8')).toBe('intact\n');
      expect(await readFile(imageFile, 'utf8')).toBe(imageBefore);
      await stat(join(imageTree(paths, rootfs?.key ?? ''), 'usr/bin/gcc-14'));
      await expect(stat(join(imageTree(paths, tools?.key ?? ''), 'usr/bin/pwned'))).rejects.toThrow();
      expect(await readFile('/etc/hostname', 'utf8').catch(() => '')).toBe(hostBefore);
      expect((await bystander.run(['uname', '-m'])).stdout).toBe('riscv64\n');
      // and a new instance has a whole /usr again
      const fresh = await createSandbox({ mode: 'emulated' });
      expect((await fresh.run(['ls', '/usr/bin/gcc-14'])).exitCode).toBe(0);
      await fresh.destroy();
    } finally {
      await victim.destroy();
      await bystander.destroy();
    }
  }, 240_000);
});

describe('cleanup at start', () => {
  it('detaches a mount left under the sandbox folder and removes the stale instance holding it', async () => {
    const { cleanupStale, listInstances } = await import('../../src/sandbox/index.ts');
    const paths = sandboxPaths();
    const stale = await createSandbox({ mode: 'emulated' });
    // as if a run of a process that no longer exists had left its merged root mounted
    const record = join(paths.instance(stale.id), 'instance.json');
    const json = JSON.parse(await readFile(record, 'utf8'));
    await writeFile(record, JSON.stringify({ ...json, ownerPid: 2 ** 22 + 1 }));
    const merged = join(paths.instance(stale.id), 'merged');
    const { runProcess } = await import('../../src/process/runProcess.ts');
    expect((await runProcess({ command: ['mount', '-t', 'tmpfs', 'leftover', merged] })).exitCode).toBe(0);
    const report = await cleanupStale(paths);
    expect(report.removedInstances).toContain(stale.id);
    expect(report.unmounted).toContain(merged);
    expect((await readFile('/proc/self/mountinfo', 'utf8')).includes(merged)).toBe(false);
    expect((await listInstances(paths)).some((i) => i.id === stale.id)).toBe(false);
  });
});
