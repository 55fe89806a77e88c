import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { NodeRunContext } from '../../../engine/types.ts';
import type { BuildPlan, ExecutedCommand } from '../../state/PortState.ts';
import { type FakeCommandResult, FakeSandbox, fakePortServices } from '../../testing/fakePortServices.ts';
import { runPlanPhases } from './runPlanPhases.ts';

const plan: BuildPlan = {
  buildSystem: 'make',
  dir: '.',
  phases: [
    { name: 'configure', commands: ['./configure'] },
    { name: 'build', commands: ['make', 'make docs'] },
    { name: 'install', commands: ['make install'] },
    { name: 'test', commands: ['make check'] },
  ],
  packages: [],
  expectedArtifacts: [],
  origin: 'default',
};

function context(controller = new AbortController()): NodeRunContext {
  return { signal: controller.signal } as NodeRunContext;
}

async function run(script: (command: string) => FakeCommandResult, p: BuildPlan = plan, ctx = context()) {
  const sandbox = new FakeSandbox(script);
  const svc = fakePortServices(sandbox);
  const record = { attempt: 3, executed: [] as ExecutedCommand[], notes: [] as string[] };
  const failed = await runPlanPhases(svc, sandbox, p, ctx, record);
  return { failed, record, sandbox, log: readFileSync(svc.buildLog, 'utf8') };
}

describe('runPlanPhases', () => {
  it('runs the build phases in order, logs each command and leaves the test phase to finish', async () => {
    const { failed, record, sandbox, log } = await run(() => ({ exitCode: 0 }));
    expect(failed).toBeUndefined();
    expect(sandbox.commands).toEqual(['./configure', 'make', 'make docs', 'make install']);
    expect(record.executed.map((e) => [e.phase, e.command, e.attempt, e.origin])).toEqual([
      ['configure', './configure', 3, 'plan'],
      ['build', 'make', 3, 'plan'],
      ['build', 'make docs', 3, 'plan'],
      ['install', 'make install', 3, 'plan'],
    ]);
    expect(log).toContain('### [build] (in /build/src) $ make docs');
  });

  it('stops at the first failed command, with its place in the phase and the tail of its output', async () => {
    const long = `${'x'.repeat(70 * 1024)}\nmain.c:3: error: boom`;
    const { failed, record, sandbox } = await run((c) =>
      c === 'make docs' ? { exitCode: 2, stdout: long, stderr: 'make: *** [docs] Error 1' } : { exitCode: 0 },
    );
    expect(sandbox.commands).toEqual(['./configure', 'make', 'make docs']);
    expect(failed?.index).toBe(1);
    expect(failed?.limited).toBe(false);
    expect(failed?.failure).toMatchObject({
      phase: 'build',
      command: 'make docs',
      exitCode: 2,
      timedOut: false,
    });
    expect(failed?.failure.output.length).toBe(64 * 1024);
    expect(failed?.failure.output.endsWith('main.c:3: error: boom\nmake: *** [docs] Error 1')).toBe(true);
    expect(record.executed.at(-1)).toMatchObject({ command: 'make docs', exitCode: 2 });
  });

  it('goes past a failed optional phase with a note, and runs the next phase', async () => {
    const optional: BuildPlan = {
      ...plan,
      phases: [
        { name: 'prepare', commands: ['./autogen.sh', 'touch x'], optional: true },
        { name: 'build', commands: ['make'] },
      ],
    };
    const { failed, record, sandbox } = await run(
      (c) => (c === './autogen.sh' ? { exitCode: 1 } : { exitCode: 0 }),
      optional,
    );
    expect(failed).toBeUndefined();
    expect(sandbox.commands).toEqual(['./autogen.sh', 'make']);
    expect(record.notes).toEqual(['the optional prepare step failed (exit 1): ./autogen.sh']);
  });

  it('marks a command that hit a sandbox limit or the time limit, which no repair can help', async () => {
    const disk = await run((c) =>
      c === 'make'
        ? { exitCode: 1, limit: { kind: 'disk', detail: 'no space left on /build' } }
        : { exitCode: 0 },
    );
    expect(disk.failed?.limited).toBe(true);
    expect(disk.failed?.failure).toMatchObject({
      category: 'DISK_SPACE',
      evidence: 'no space left on /build',
    });
    const slow = await run((c) => (c === 'make' ? { exitCode: 124, timedOut: true } : { exitCode: 0 }));
    expect(slow.failed?.limited).toBe(true);
    expect(slow.failed?.failure.category).toBeUndefined();
  });

  it('throws when the port is stopped, after recording the command that ran', async () => {
    const controller = new AbortController();
    const sandbox = new FakeSandbox(() => {
      controller.abort(new Error('stopped by the user'));
      return { exitCode: 0 };
    });
    const record = { attempt: 1, executed: [] as ExecutedCommand[], notes: [] as string[] };
    await expect(
      runPlanPhases(fakePortServices(sandbox), sandbox, plan, context(controller), record),
    ).rejects.toThrow('stopped by the user');
    expect(record.executed.map((e) => e.command)).toEqual(['./configure']);
  });
});
