import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rvportHome } from '../../src/config/rvportHome.ts';
import type { OptimizationReport } from '../../src/optimize/OptimizationReport.ts';
import type { ProbeReport } from '../../src/probe/buildProbeReport.ts';
import { type ChrootSandbox, createSandbox, isSandboxError } from '../../src/sandbox/index.ts';
import { addTarget } from '../../src/sandbox/ssh/addTarget.ts';
import { createSshSandbox } from '../../src/sandbox/ssh/createSshSandbox.ts';
import type { SshSandbox } from '../../src/sandbox/ssh/SshSandbox.ts';
import { CRUNCH_PROJECT } from '../helpers/crunchProject.ts';
import { runCli } from '../helpers/rvportCli.ts';
import { type SshStandIn, sandboxSession, startSshStandIn } from '../helpers/sshStandIn.ts';
import { provisionedImages } from './provisionedImages.ts';

/**
 * The SSH target against a stand-in: the host's sshd on 127.0.0.1 whose sessions run inside a
 * rvport riscv64 sandbox instance (the real protocol and a real riscv64 userland, under
 * qemu). rvport's side is the real thing: the OpenSSH client, its own known_hosts, the CLI.
 */
let instance: ChrootSandbox;
let standIn: SshStandIn;
let home: string;
let box: SshSandbox;
let scratch: string;

beforeAll(async () => {
  await provisionedImages();
  // emulated: a real riscv64 machine compiles with its native gcc (which, unlike the cross
  // compilers of accelerated mode, reads LIBRARY_PATH)
  // not kept: should this process die, the next sandbox start removes the instance
  instance = await createSandbox({ mode: 'emulated' });
  standIn = await startSshStandIn(sandboxSession(instance));
  home = mkdtempSync(join(tmpdir(), 'rvport-ssh-home-'));
  scratch = mkdtempSync(join(tmpdir(), 'rvport-ssh-scratch-'));
  await addTarget({
    url: standIn.url,
    fingerprint: standIn.hostKeyFingerprint,
    identity: standIn.clientKey,
    name: 'standin',
    home,
  });
  // installs are checked against the lists of the images provisionedImages() made (the default home)
  box = await createSshSandbox({ target: 'standin', home, imagesHome: rvportHome() });
}, 20 * 60_000);

afterAll(async () => {
  await box?.destroy().catch(() => undefined);
  await standIn?.stop();
  await instance?.destroy();
  for (const dir of [home, scratch]) if (dir) rmSync(dir, { recursive: true, force: true });
}, 120_000);

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(args, { cwd: scratch, env: { RVPORT_HOME: home, ...env } });

describe('the SSH target', () => {
  it('probes the remote riscv64 machine through the CLI', { timeout: 10 * 60_000 }, async () => {
    const run = await cli(['probe', '--json', '--target', 'standin']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as ProbeReport;
    expect(report.target).toBe('ssh');
    expect(report.mode).toBe('native');
    expect(report.machine).toBe('riscv64');
    expect(report.isa?.base).toBe('rv64');
    expect(report.isa?.extensions).toEqual(expect.arrayContaining(['i', 'm', 'a', 'f', 'd', 'c']));
    expect(report.cores).toBeGreaterThan(0);
    expect(report.memoryMb).toBeGreaterThan(0);
    const gcc = report.compilers.find((c) => c.name === 'gcc');
    expect(gcc?.target).toBe('riscv64-linux-gnu');
    expect(gcc?.march.accepted).toContain('rv64gc');
    // the stand-in's userland runs under qemu-user, and the probe says so with its evidence
    expect(report.emulated.is).toBe(true);
    expect(report.emulated.evidence.length).toBeGreaterThan(0);
    // one throwaway workspace per probe, removed after it
    const left = await instance.run(['/bin/sh', '-c', 'ls -A /root/.cache/rvport-target | wc -l']);
    expect(left.stdout.trim()).toBe('1'); // only the suite's own box
  });

  it('runs commands with streaming output, exit codes, stdin and a clean environment', async () => {
    const chunks: Array<{ at: number; text: string }> = [];
    const started = Date.now();
    const result = await box.run('echo first; sleep 2; echo second; echo oops >&2; exit 7', {
      onStdout: (c) => chunks.push({ at: Date.now() - started, text: c.toString() }),
    });
    expect(result.exitCode).toBe(7);
    expect(result.stdout).toBe('first\nsecond\n');
    expect(result.stderr).toBe('oops\n');
    // the first line arrived while the command still ran
    expect(chunks[0]?.text).toBe('first\n');
    expect(chunks[0]?.at ?? Infinity).toBeLessThan(result.durationMs - 1500);

    const env = await box.run(['env'], { env: { EXTRA: 'x' } });
    const names = env.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('=')[0]);
    expect(names.sort()).toEqual(
      [
        'CPATH',
        'EXTRA',
        'HOME',
        'LANG',
        'LD_LIBRARY_PATH',
        'LIBRARY_PATH',
        'PATH',
        'PKG_CONFIG_PATH',
        'SHELL',
        'TMPDIR',
      ].sort(),
    );
    expect(env.stdout).toContain(`HOME=${box.remoteRoot}/home`);

    const input = await box.run(['cat'], { input: 'from the host\n' });
    expect(input.stdout).toBe('from the host\n');
    const missing = await box.run(['no-such-program']);
    expect(missing.commandNotFound).toBe(true);
    const where = await box.run('pwd');
    expect(where.stdout).toBe('/build\n'); // the remote folder, named as the local workspace
  });

  it('kills a command at its time limit, also on the remote side', { timeout: 60_000 }, async () => {
    const result = await box.run('sleep 6; echo late > /build/late', { timeoutMs: 1000 });
    expect(result.timedOut).toBe(true);
    expect(result.durationMs).toBeLessThan(5000);
    await new Promise((r) => setTimeout(r, 7000));
    const late = await box.run(['test', '-e', '/build/late']);
    expect(late.exitCode).toBe(1);
  });

  it('keeps the tail of the output and stops a command past the output limit', {
    timeout: 60_000,
  }, async () => {
    const capped = await box.run('head -c 100000 /dev/zero | tr "\\0" a; echo; echo end', {
      outputCapBytes: 1000,
    });
    expect(capped.exitCode).toBe(0);
    expect(capped.truncated).toBe(true);
    expect(capped.stdoutBytes).toBe(100005);
    expect(capped.stdout).toMatch(/^\[… 99005 earlier bytes omitted …\]\na{995}\nend\n$/);

    const limited = await createSshSandbox({ target: 'standin', home, limits: { outputBytes: 64 * 1024 } });
    try {
      const flood = await limited.run('yes flood');
      expect(flood.limit?.kind).toBe('output');
      expect(flood.stderr).toMatch(/more than 65536 bytes of output/);
    } finally {
      await limited.destroy();
    }
  });

  it('copies a tree in and out: files, modes, folders and links', { timeout: 120_000 }, async () => {
    const tree = join(scratch, 'tree');
    mkdirSync(join(tree, 'sub'), { recursive: true });
    writeFileSync(join(tree, 'a.txt'), 'alpha\n');
    writeFileSync(join(tree, 'sub', 'run.sh'), '#!/bin/sh\necho ran\n', { mode: 0o755 });
    symlinkSync('a.txt', join(tree, 'link'));
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    writeFileSync(join(tree, 'bytes.bin'), bytes);
    await box.copyIn(tree, '/build/src');
    expect(await box.readFile('/build/src/bytes.bin')).toEqual(bytes);
    expect((await box.run(['sub/run.sh'], { cwd: '/build/src' })).stdout).toBe('ran\n');
    expect((await box.readFile('/build/src/link')).toString()).toBe('alpha\n');
    await box.writeFile('/build/src/made-there.txt', 'remote\n', 0o600);

    const back = join(scratch, 'back');
    await box.copyOut('/build/src', back);
    expect(readFileSync(join(back, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(readFileSync(join(back, 'made-there.txt'), 'utf8')).toBe('remote\n');
    expect(lstatSync(join(back, 'sub', 'run.sh')).mode & 0o777).toBe(0o755);
    expect(readlinkSync(join(back, 'link'))).toBe('a.txt');
    const single = join(scratch, 'single.txt');
    await box.copyOut('/build/src/a.txt', single);
    expect(readFileSync(single, 'utf8')).toBe('alpha\n');
    const missing = await box.copyOut('/build/nothing', join(scratch, 'none')).catch((e: unknown) => e);
    expect(isSandboxError(missing) && missing.message).toMatch(/no such file: \/build\/nothing/);
  });

  it('snapshots and rolls back the workspace', { timeout: 120_000 }, async () => {
    await box.writeFile('/build/state.txt', 'before\n');
    const snapshot = await box.snapshot();
    await box.writeFile('/build/state.txt', 'after\n');
    await box.writeFile('/build/extra.txt', 'new\n');
    await box.rollback(snapshot);
    expect((await box.readFile('/build/state.txt')).toString()).toBe('before\n');
    expect((await box.run(['test', '-e', '/build/extra.txt'])).exitCode).toBe(1);
  });

  it('installs a package into the workspace prefix, not the remote system', {
    timeout: 10 * 60_000,
  }, async () => {
    const result = await box.installPackages(['libcjson-dev']);
    expect(result.exitCode, result.stderr).toBe(0);
    const header = await box.run(
      'ls "$HOME/../prefix/usr/include/cjson/cJSON.h" && test ! -e /usr/include/cjson/cJSON.h',
    );
    expect(header.exitCode, header.stderr).toBe(0);
    // the compiler finds it through CPATH and LIBRARY_PATH
    await box.writeFile(
      '/build/j.c',
      '#include <cjson/cJSON.h>\nint main(void){return cJSON_Parse("1")==0;}\n',
    );
    const built = await box.run('gcc -o j j.c -lcjson && ./j');
    expect(built.exitCode, built.stderr).toBe(0);
  });

  it('removes its remote folder on destroy', { timeout: 60_000 }, async () => {
    const other = await createSshSandbox({ target: standIn.url, home });
    const root = other.remoteRoot;
    expect((await instance.run(['test', '-d', root])).exitCode).toBe(0);
    await other.destroy();
    expect((await instance.run(['test', '-e', root])).exitCode).toBe(1);
  });

  it('removes the workspace a killed rvport left there when the next one starts', {
    timeout: 120_000,
  }, async () => {
    const left = await createSshSandbox({ target: standIn.url, home });
    const root = left.remoteRoot;
    // its owner dies without destroying it (a kill -9): the pid of a process that has exited
    const ownerFile = join(home, 'targets', 'instances', root.split('/').at(-1) ?? '', 'owner.json');
    const owner = JSON.parse(readFileSync(ownerFile, 'utf8'));
    const gone = spawnSync('true').pid;
    writeFileSync(ownerFile, JSON.stringify({ ...owner, ownerPid: gone }));
    // a live owner's workspace (this process's own box) stays
    const next = await createSshSandbox({ target: standIn.url, home });
    try {
      expect((await instance.run(['test', '-e', root])).exitCode).toBe(1);
      expect(existsSync(ownerFile)).toBe(false);
      expect((await instance.run(['test', '-d', box.remoteRoot])).exitCode).toBe(0);
    } finally {
      await next.destroy();
    }
  });
});

describe('a port on the SSH target', () => {
  it('builds a small C project there and verifies its ELF files here', { timeout: 15 * 60_000 }, async () => {
    const project = join(scratch, 'hello-rv');
    mkdirSync(project);
    writeFileSync(
      join(project, 'hello.c'),
      '#include <stdio.h>\nint main(void){puts("hello riscv");return 0;}\n',
    );
    writeFileSync(
      join(project, 'Makefile'),
      'PREFIX ?= /usr/local\nall: hello\nhello: hello.c\n\t$(CC) $(CFLAGS) -o $@ $<\ninstall: hello\n\tmkdir -p $(DESTDIR)$(PREFIX)/bin\n\tcp hello $(DESTDIR)$(PREFIX)/bin/\n',
    );
    const out = join(scratch, 'port-out');
    const run = await cli(['port', project, '--target', 'standin', '--offline', '--json', '--out', out]);
    const result = JSON.parse(run.stdout) as {
      result: string;
      exitCode: number;
      mode: string;
      verification: { verdict: string };
    };
    expect(result.result, run.stderr).toBe('verified');
    expect(run.code).toBe(0);
    expect(result.mode).toBe('native');
    expect(result.verification.verdict).toBe('verified');
    // the artifact came back to the host and is a riscv64 ELF file
    const elf = readFileSync(join(out, 'hello-rv', 'artifacts', 'hello'));
    expect(elf.subarray(0, 4).toString('latin1')).toBe('\u007fELF');
    expect(elf.readUInt16LE(18)).toBe(243); // EM_RISCV
    // the port's remote workspace is gone
    const left = await instance.run(['/bin/sh', '-c', 'ls -A /root/.cache/rvport-target | wc -l']);
    expect(left.stdout.trim()).toBe('1');
  });
});

describe('performance mode on the SSH target', () => {
  it('builds, gates and times the tunes there, with the statistics, and no speed claim on an emulated machine', {
    timeout: 40 * 60_000,
  }, async () => {
    const project = join(scratch, 'crunch');
    mkdirSync(project);
    for (const [name, text] of Object.entries(CRUNCH_PROJECT)) writeFileSync(join(project, name), text);
    const out = join(scratch, 'optimize-out');
    // no LLM: the workload is the package's tests, the one source that needs none
    const run = await cli([
      'port',
      project,
      '--target',
      'standin',
      '--offline',
      '--optimize',
      '--json',
      '--out',
      out,
    ]);
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const state = JSON.parse(readFileSync(join(out, 'crunch', 'state.json'), 'utf8'));
    expect(state.options.mode).toBe('native');
    const report: OptimizationReport = state.optimization;
    expect(report.status, report.reason).toBe('done');
    expect(report.workload?.source).toBe('tests');
    // the stand-in's sessions run under qemu, and the probe through ssh says so
    expect(report.target?.emulated).toBe(true);
    const gated = report.tunes.filter((t) => t.status === 'gated');
    expect(gated.length, JSON.stringify(report.tunes, null, 1)).toBeGreaterThanOrEqual(4);
    for (const tune of gated) {
      expect(tune.timing?.runs).toBe(3);
      expect(tune.timing?.p).toBeGreaterThan(0);
      expect(tune.timing?.method).toBe('exact');
    }
    expect(report.winner).toBeNull();
    expect(report.verdict).toMatch(/^no speed claim under emulation/);
    expect(readFileSync(join(out, 'crunch', 'report.md'), 'utf8')).toContain('## Optimization');
  });
});

describe('host keys', () => {
  it('refuses an unknown host key without prompting', { timeout: 60_000 }, async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'rvport-ssh-nokey-'));
    try {
      const started = Date.now();
      const run = await runCli(['probe', '--target', standIn.url, '--identity', standIn.clientKey], {
        cwd: scratch,
        env: { RVPORT_HOME: fresh },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/the host key of ssh:\/\/root@127\.0\.0\.1:\d+ is not known to rvport/);
      expect(run.stderr).toMatch(/rvport target add .* --host-key-fingerprint/);
      expect(Date.now() - started).toBeLessThan(30_000);
      // TOFU only when asked, and then only the key that answered
      const added = await runCli(
        ['target', 'add', standIn.url, '--accept-new-host-key', '--identity', standIn.clientKey, '--json'],
        {
          cwd: scratch,
          env: { RVPORT_HOME: fresh },
        },
      );
      expect(added.code, added.stderr).toBe(0);
      expect(JSON.parse(added.stdout).pinned[0].fingerprint).toBe(standIn.hostKeyFingerprint);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('refuses a key whose fingerprint is not the one given', { timeout: 60_000 }, async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'rvport-ssh-wrongfp-'));
    try {
      const run = await runCli(
        ['target', 'add', standIn.url, '--host-key-fingerprint', `SHA256:${'A'.repeat(43)}`],
        { cwd: scratch, env: { RVPORT_HOME: fresh } },
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/did not present a host key with fingerprint SHA256:A{43}.*nothing pinned/);
      expect(existsSync(join(fresh, 'targets', 'known_hosts'))).toBe(false);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
