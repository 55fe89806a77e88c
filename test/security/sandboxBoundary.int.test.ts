import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChrootSandbox, createSandbox } from '../../src/sandbox/index.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from '../sandbox/provisionedImages.ts';

/**
 * Real attacks from inside a sandbox instance, each against the host: the instance must stop it,
 * the host's canaries must be untouched and the command must end with a clear reason.
 */
const ATTACK_SOURCE = readFileSync(new URL('./fixtures/open-by-handle.c', import.meta.url), 'utf8');

let box: ChrootSandbox;
let canaryDir: string;
let secret: string;

beforeAll(async () => {
  await provisionedImages();
  canaryDir = await mkdtemp(join(tmpdir(), 'rvport-canary-'));
  secret = `host-secret-${Math.random().toString(36).slice(2)}`;
  await writeFile(join(canaryDir, 'secret'), `${secret}\n`, { mode: 0o600 });
  box = await createSandbox({
    mode: 'accelerated',
    limits: {
      resources: { memoryBytes: 256 * 1024 ** 2, processes: 64 },
      tmpfs: { tmp: '16m', shm: '8m' },
      outputBytes: 2 * 1024 ** 2,
      // a du every 2 s: often enough to stop the filler quickly, and room for the next command to
      // start and remove its file before the first measure even on a loaded machine
      disk: { maxInstanceBytes: 64 * 1024 ** 2, usageCheckMs: 2000 },
    },
  });
}, PROVISION_TIMEOUT_MS);

afterAll(async () => {
  await box?.destroy();
  await rm(canaryDir, { recursive: true, force: true });
});

describe('the sandbox boundary', () => {
  it('refuses open_by_handle_at: root inside has no capability over the host filesystem', async () => {
    await box.writeFile('/build/attack.c', ATTACK_SOURCE);
    const compiled = await box.run('gcc -O1 -o /build/attack /build/attack.c');
    expect(compiled.exitCode, compiled.stderr).toBe(0);
    const rel = relative('/', canaryDir);
    const result = await box.run(['/build/attack', `${rel}/secret`, `${rel}/pwned`]);
    expect(result.stdout).toContain('escape: refused');
    expect(result.stdout).not.toContain(secret);
    expect(existsSync(join(canaryDir, 'pwned'))).toBe(false);
  });

  it('runs as an unprivileged host id: the host sees its files owned by the subordinate range', async () => {
    const ids = await box.run('cat /proc/self/uid_map');
    const [inside, outside] = ids.stdout.trim().split(/\s+/).map(Number);
    expect(inside).toBe(0);
    expect(outside).toBeGreaterThan(0);
    // a host file of root's, readable to root, is not readable to root inside
    const shadow = await box.run([
      'sh',
      '-c',
      'cat /proc/1/root/etc/shadow; cat /proc/self/mountinfo | wc -l',
    ]);
    expect(shadow.stdout).not.toMatch(/^root:\$/m);
  });

  it('cannot make device nodes, and the workspace and /tmp ignore set-id bits and devices', async () => {
    const mknod = await box.run(['sh', '-c', 'mknod /build/sda b 8 0']);
    expect(mknod.exitCode).not.toBe(0);
    expect(existsSync(join(box.workspace, 'sda'))).toBe(false);
    const mounts = await box.run(['sh', '-c', 'grep -E " /(build|tmp|dev/shm) " /proc/self/mounts']);
    for (const line of mounts.stdout.trim().split('\n')) expect(line).toMatch(/nosuid.*nodev|nodev.*nosuid/);
  });

  it('cannot retune the kernel or rename the host', async () => {
    const before = hostname();
    const result = await box.run([
      'sh',
      '-c',
      'echo 1 > /proc/sys/kernel/sysrq; echo owned > /proc/sys/kernel/hostname; hostname owned-inside; echo c > /proc/sysrq-trigger; hostname',
    ]);
    expect(result.stderr).toMatch(/Read-only file system|Permission denied/);
    expect(hostname()).toBe(before);
    expect(readFileSync('/proc/sys/kernel/hostname', 'utf8').trim()).toBe(before);
  });

  it('stops a fork bomb at the process limit, with that reason', async () => {
    const result = await box.run(['sh', '-c', 'for i in $(seq 300); do sleep 20 & done; wait'], {
      timeoutMs: 60_000,
    });
    expect(result.limit?.kind).toBe('processes');
    expect(result.stderr).toMatch(/process limit of the sandbox/);
  });

  it('stops a memory hog at the memory limit, with that reason', async () => {
    const result = await box.run(
      ['sh', '-c', 'head -c 600000000 /dev/zero | tail -c 500000000 > /dev/null'],
      {
        timeoutMs: 120_000,
      },
    );
    expect(result.exitCode).not.toBe(0);
    expect(result.limit?.kind).toBe('memory');
  });

  it('gives /tmp a size: filling it fails inside and costs the host nothing', async () => {
    const result = await box.run(['sh', '-c', 'head -c 64000000 /dev/zero > /tmp/fill']);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/No space left on device/);
  });

  it('stops a log flood at the output limit, with that reason', async () => {
    const logDir = await mkdtemp(join(tmpdir(), 'rvport-flood-'));
    const logFile = join(logDir, 'build.log');
    const result = await box.run(['yes', 'flood'], { logFile, timeoutMs: 60_000 });
    expect(result.limit?.kind).toBe('output');
    const log = await readFile(logFile);
    expect(log.length).toBeLessThan(3 * 1024 ** 2);
    expect(log.toString('utf8')).toMatch(/was stopped/);
    await rm(logDir, { recursive: true, force: true });
  });

  it('keeps the environment of a command away from the host processes that start it', async () => {
    // a host library that leaves a mark when any host program loads it
    const dir = await mkdtemp(join(tmpdir(), 'rvport-preload-'));
    await mkdir(join(dir, 'marks'));
    const source = join(dir, 'mark.c');
    await writeFile(
      source,
      `#include <stdio.h>\n__attribute__((constructor)) static void mark(void) { FILE *f = fopen("${dir}/marks/loaded", "w"); if (f) fclose(f); }\n`,
    );
    execFileSync('gcc', ['-shared', '-fPIC', '-o', join(dir, 'mark.so'), source]);
    const result = await box.run(['sh', '-c', 'echo "$LD_AUDIT|$GCONV_PATH"'], {
      env: { LD_PRELOAD: join(dir, 'mark.so'), LD_AUDIT: join(dir, 'mark.so'), GCONV_PATH: dir },
    });
    expect(existsSync(join(dir, 'marks', 'loaded'))).toBe(false);
    expect(result.stdout).toContain(`${join(dir, 'mark.so')}|${dir}`);
    await rm(dir, { recursive: true, force: true });
  });

  it('with network for a person, resolv.conf stays read-only', async () => {
    const before = readFileSync('/etc/resolv.conf', 'utf8');
    const result = await box.run(['sh', '-c', 'echo "nameserver 6.6.6.6" > /etc/resolv.conf'], {
      network: true,
    });
    expect(result.exitCode).not.toBe(0);
    expect(readFileSync('/etc/resolv.conf', 'utf8')).toBe(before);
  });

  it('copies in and out without writing or reading through links the build planted', async () => {
    const planted = await box.run([
      'sh',
      '-c',
      `mkdir -p /build/out && ln -s / /build/.rvport-transfer && ln -s ${canaryDir} /build/src && ln -s ${canaryDir}/secret /build/out/secret && cp /bin/true /build/out/tool && chmod 4755 /build/out/tool`,
    ]);
    expect(planted.exitCode, planted.stderr).toBe(0);
    const incoming = await mkdtemp(join(tmpdir(), 'rvport-incoming-'));
    await writeFile(join(incoming, 'main.c'), 'int main(void) { return 0; }\n');
    await box.copyIn(incoming, '/build/src');
    // the link was replaced inside; the host folder it named is untouched
    expect(existsSync(join(canaryDir, 'main.c'))).toBe(false);
    expect((await box.run(['cat', '/build/src/main.c'])).stdout).toContain('int main');
    const outgoing = join(incoming, 'copied');
    await box.copyOut('/build/out', outgoing);
    // the link comes out as a link (never read on the host), the set-id bit is gone
    const { lstat, readlink, stat } = await import('node:fs/promises');
    expect((await lstat(join(outgoing, 'secret'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(outgoing, 'secret'))).toBe(`${canaryDir}/secret`);
    expect((await stat(join(outgoing, 'tool'))).mode & 0o7000).toBe(0);
    await rm(incoming, { recursive: true, force: true });
  });

  it('has no network during a build: only loopback', async () => {
    const result = await box.run(['sh', '-c', "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '"]);
    expect(result.stdout.trim()).toBe('lo');
  });
  it('stops a build that fills the disk at the instance limit, with that reason', async () => {
    const result = await box.run(['sh', '-c', 'head -c 200000000 /dev/zero > /build/fill; sleep 30'], {
      timeoutMs: 60_000,
    });
    expect(result.limit?.kind).toBe('disk');
    expect(result.timedOut).toBe(false);
    // the instance is still over its limit until the file goes, so removing it must be quick
    const removed = await box.run(['rm', '-f', '/build/fill']);
    expect(removed.exitCode, removed.stderr).toBe(0);
  });
});
