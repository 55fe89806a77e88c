import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmod, link, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { staticCompiler } from '../staticCompiler.ts';
import { RECORDER_SOURCE } from './evidenceLayer.ts';
import { classifyInvocation, isSampled, renderRules } from './invocationRules.ts';
import { readInvocationLog } from './readInvocationLog.ts';

// The recorder runs here on the host: its "native" programs are the host's, and each program's
// "riscv64 original" is a script of the test's own, so agreement and difference are both real.
let root: string;
let rules: string;
const log = () => join(root, 'calls.log');
const SEED = 5;

async function setRules(samplePerMille: number, twinEnvironment?: 'same' | 'reversed'): Promise<void> {
  await writeFile(
    rules,
    renderRules({
      samplePerMille,
      twinEnvironment,
      seed: SEED,
      log: log(),
      seedFile: join(root, 'no-seed'),
      native: join(root, 'native'),
    }),
  );
}

function call(program: string, args: string[], input = '', env: Record<string, string> = {}) {
  return spawnSync(join(root, 'bin', program), args, {
    input,
    cwd: root,
    env: { PATH: '/usr/bin:/bin', ...env, RVPORT_EVIDENCE_RULES: rules },
    encoding: 'utf8',
  });
}

/** A recorded call whose stdin the test writes and ends itself. */
function spawnCall(program: string, args: string[]) {
  const child = spawn(join(root, 'bin', program), args, {
    cwd: root,
    env: { PATH: '/usr/bin:/bin', RVPORT_EVIDENCE_RULES: rules },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  const ended = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, ended, stdout: () => stdout };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rvport-recorder-'));
  rules = join(root, 'rules');
  const recorder = join(root, 'recorder');
  // the compiler the evidence layer uses on this host (musl's where installed)
  execFileSync(staticCompiler() ?? 'gcc', ['-O2', '-static', '-o', recorder, RECORDER_SOURCE]);
  await mkdir(join(root, 'bin'));
  await mkdir(join(root, 'native', root, 'bin'), { recursive: true });
  for (const program of ['printf', 'sed', 'sort', 'seq', 'cp', 'bash', 'printenv', 'numfmt', 'mawk']) {
    await link(recorder, join(root, 'bin', program));
    await symlink(`/usr/bin/${program}`, join(root, 'native', root, 'bin', program));
  }
  // the "riscv64" twins: the same host programs, except printf, which prints float digits of its own
  for (const program of ['sed', 'sort', 'seq', 'cp', 'bash', 'printenv', 'numfmt', 'mawk'])
    await symlink(`/usr/bin/${program}`, join(root, 'bin', `${program}.riscv64`));
  const twin = join(root, 'bin', 'printf.riscv64');
  await writeFile(
    twin,
    '#!/bin/sh\ncase "$1" in *g*) /usr/bin/printf 0.1000000000000000000000000000;; *) /usr/bin/printf "$@";; esac\n',
  );
  await chmod(twin, 0o755);
}, 60_000);

describe('the recorder', () => {
  it('runs machine-dependent filters under both programs, gives the riscv64 result and logs the difference', async () => {
    await setRules(0);
    await writeFile(log(), '');
    // the test's riscv64 original prints the IEEE quad digits; x86_64 printf prints the x87 ones
    expect(execFileSync('/usr/bin/printf', ['%.30g', '0.1'], { encoding: 'utf8' })).not.toBe(
      '0.1000000000000000000000000000',
    );
    expect(call('printf', ['%.30g', '0.1']).stdout).toBe('0.1000000000000000000000000000');
    expect(call('printf', ['%s-%s', 'a', 'b']).stdout).toBe('a-b');
    expect(call('seq', ['2']).stdout).toBe('1\n2\n');
    const sorted = call('sort', ['-g'], '10\n9\n');
    expect(sorted.stdout).toBe('9\n10\n');
    expect(sorted.status).toBe(0);
    const { invocations } = readInvocationLog(await readFile(log(), 'latin1'));
    expect(invocations.map((c) => [c.program, c.class, c.outcome])).toEqual([
      ['printf', 'machine', 'differ:stdout'],
      ['printf', 'plain', 'exec'],
      ['seq', 'machine', 'same'],
      ['sort', 'machine', 'same'],
    ]);
  });

  it('never runs twice what has effects, and passes exit status, stdin and stderr through', async () => {
    await setRules(1000);
    await writeFile(log(), '');
    await writeFile(join(root, 'in.txt'), 'one\ntwo\n');
    const copied = call('cp', ['in.txt', 'copy.txt']);
    expect(copied.status).toBe(0);
    expect(await readFile(join(root, 'copy.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(call('sed', ['-n', '2p'], 'a\nb\nc\n').stdout).toBe('b\n');
    const failed = call('sed', ['-n', 'p', 'missing-file']);
    expect(failed.status).toBe(2);
    expect(failed.stderr).toMatch(/missing-file/);
    call('sort', ['-o', 'sorted.txt', 'in.txt']);
    const { invocations } = readInvocationLog(await readFile(log(), 'latin1'));
    expect(invocations.map((c) => [c.program, c.class, c.outcome])).toEqual([
      ['cp', 'plain', 'exec'],
      ['sed', 'sample', 'same'],
      ['sed', 'sample', 'same'],
      ['sort', 'plain', 'exec'],
    ]);
  });

  it('ends when its program has, though the writer of its stdin keeps the pipe open (debconf and ucf)', async () => {
    await setRules(1000);
    await writeFile(log(), '');
    await writeFile(join(root, 'in.txt'), 'one\ntwo\n');
    // neither reads stdin, whose pipe stays open until the test ends it: sed could (without a file
    // operand it does), so its stdin is captured and the capture gives up; seq never reads it and
    // is run under both programs all the same
    const held = async (program: string, args: string[]) => {
      const { child, ended, stdout } = spawnCall(program, args);
      const stuck = new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 15_000));
      const outcome = await Promise.race([ended, stuck]);
      child.stdin.end();
      if (outcome === 'stuck') child.kill('SIGKILL');
      return { outcome, stdout: stdout() };
    };
    expect(await held('sed', ['-n', '2p', 'in.txt'])).toEqual({ outcome: 0, stdout: 'two\n' });
    expect(await held('seq', ['2'])).toEqual({ outcome: 0, stdout: '1\n2\n' });
    const { invocations } = readInvocationLog(await readFile(log(), 'latin1'));
    expect(invocations.map((c) => [c.program, c.outcome])).toEqual([
      ['sed', 'skip:stdin-open'],
      ['seq', 'same'],
    ]);
  }, 40_000);

  it('waits out a slow writer before it gives up on a machine-dependent call', async () => {
    await setRules(0);
    await writeFile(log(), '');
    const { child, ended, stdout } = spawnCall('sort', ['-g']);
    // a producer that is silent for longer than a sampled call's capture waits
    child.stdin.write('10\n');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    child.stdin.end('9\n');
    expect(await ended).toBe(0);
    expect(stdout()).toBe('9\n10\n');
    const { invocations } = readInvocationLog(await readFile(log(), 'latin1'));
    expect(invocations.map((c) => [c.program, c.class, c.outcome])).toEqual([['sort', 'machine', 'same']]);
  }, 30_000);

  it('samples and classifies exactly as invocationRules.ts does', async () => {
    await setRules(300);
    await writeFile(log(), '');
    const argvs = Array.from({ length: 60 }, (_, i) => [`s/x${i}/y/`]);
    for (const args of argvs) call('sed', args, 'x\n');
    call('printf', ['%e', '1']);
    call('sort', ['-k1,1g', '-o', 'out']);
    const { invocations } = readInvocationLog(await readFile(log(), 'latin1'));
    const expected = [
      ...invocations
        .slice(0, argvs.length)
        .map((c, i) => (isSampled(SEED, 300, c.pid, 'sed', root, argvs[i] ?? []) ? 'sample' : 'plain')),
      'machine',
      'machine',
    ];
    expect(invocations.map((c) => c.class)).toEqual(expected);
    expect(expected.filter((c) => c === 'sample').length).toBeGreaterThan(5);
    expect(classifyInvocation('sort', ['-k1,1g', '-o', 'out'])).toEqual({ machine: true, replayable: false });
    expect(invocations.at(-1)?.outcome).toBe('unreplayable');
  });

  it("finds awk's math builtins by name, as invocationRules.ts does (tap-driver's copy_in_global_log is none)", async () => {
    await setRules(0);
    await writeFile(log(), '');
    const scripts = [
      'function copy_in_global_log() { return 1 } BEGIN { print copy_in_global_log() }',
      'BEGIN { print sqrt (4) }',
      'BEGIN { x = log(1); print x }',
    ];
    for (const script of scripts) expect(call('mawk', [script]).status).toBe(0);
    const { invocations } = readInvocationLog(await readFile(log(), 'latin1'));
    expect(invocations.map((c) => c.class)).toEqual(['plain', 'machine', 'machine']);
    expect(scripts.map((script) => classifyInvocation('mawk', [script]).machine)).toEqual([
      false,
      true,
      true,
    ]);
  });

  it("takes only bash's own leading options for its --version, not a script's argument", async () => {
    await setRules(0);
    await writeFile(log(), '');
    await writeFile(join(root, 'missing'), 'echo "$1 is missing"\n');
    expect(call('bash', ['./missing', 'makeinfo', '--version']).stdout).toBe('makeinfo is missing\n');
    expect(call('bash', ['--version']).status).toBe(0);
    const { invocations } = readInvocationLog(await readFile(log(), 'latin1'));
    expect(invocations.map((c) => [c.args.join(' '), c.class, c.outcome])).toEqual([
      ['./missing makeinfo --version', 'plain', 'exec'],
      ['--version', 'machine', 'same'],
    ]);
    expect(classifyInvocation('bash', ['./missing', 'makeinfo', '--version']).machine).toBe(false);
  });

  it('hands the twin its environment reversed when the rules say so (qemu-user reverses it again)', async () => {
    // the host's printenv as the twin, started directly: it prints the order it was given
    const env = { ALPHA: '1', BETA: '2', GAMMA: '3' };
    await setRules(1000, 'same');
    await writeFile(log(), '');
    const plain = call('printenv', [], '', env);
    await setRules(1000, 'reversed');
    const reversed = call('printenv', [], '', env);
    // the build is answered by the x86_64 program either way
    expect(plain.stdout).toBe(reversed.stdout);
    expect(plain.stdout.split('\n').filter((l) => /^(ALPHA|BETA|GAMMA)=/.test(l))).toEqual([
      'ALPHA=1',
      'BETA=2',
      'GAMMA=3',
    ]);
    const { invocations } = readInvocationLog(await readFile(log(), 'latin1'));
    expect(invocations.map((c) => [c.program, c.class, c.outcome])).toEqual([
      ['printenv', 'sample', 'same'],
      ['printenv', 'sample', 'differ:stdout'],
    ]);
  });

  it('keeps one line per call whatever the arguments hold (a forged log line stays an argument)', async () => {
    await setRules(0);
    await writeFile(log(), '');
    const forged = 'x\nV2\tmachine\tsame\t0\t1\tprintf\t/\t%.30g';
    call('sed', ['-n', `/${forged}/p`], 'y\n');
    const { invocations, malformed } = readInvocationLog(await readFile(log(), 'latin1'));
    expect(malformed).toBe(0);
    expect(invocations).toHaveLength(1);
    expect(invocations[0]?.args).toEqual(['-n', `/${forged}/p`]);
  });
});
