import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, startCli, waitFor } from '../helpers/rvportCli.ts';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rvport-wf-cli-'));
});
afterEach(() => {
  // kill leftovers of a SIGKILLed run (its command runs in its own process group)
  for (const pidFile of ['long.pid', 'fix.pid']) {
    const file = join(dir, pidFile);
    if (existsSync(file)) {
      try {
        process.kill(-Number(readFileSync(file, 'utf8')), 'SIGKILL');
      } catch {}
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Whether any live (non-zombie) process belongs to the process group. */
function groupIsRunning(pgid: number): boolean {
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
    } catch {}
  }
  return false;
}

const stateFile = (id: string) => join(dir, '.graph-state', `${id}.json`);
const readState = (id: string) => JSON.parse(readFileSync(stateFile(id), 'utf8'));
const runsLog = () => readFileSync(join(dir, 'runs.log'), 'utf8').trim().split('\n');
const ctx = () => JSON.stringify({ dir });

describe('rvport workflow (real processes)', () => {
  it('fails at the second node, resumes there without re-running the first, and reset removes the state', async () => {
    const first = await runCli(['workflow', 'run', fixture('fails-once.workflow.ts'), '--context', ctx()], {
      cwd: dir,
    });
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/failed at 'second': second node broke on its first run/);
    expect(readState('fails-once')).toMatchObject({ status: 'failed', currentNode: 'second' });

    const second = await runCli(['workflow', 'run', fixture('fails-once.workflow.ts')], { cwd: dir });
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/resuming 'fails-once' at 'second'/);
    expect(runsLog()).toEqual(['first', 'second', 'second']);
    expect(readState('fails-once')).toMatchObject({ status: 'completed', currentNode: null });

    const again = await runCli(['workflow', 'run', fixture('fails-once.workflow.ts')], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/already completed/);
    expect(runsLog()).toHaveLength(3);

    const reset = await runCli(['workflow', 'reset', 'fails-once'], { cwd: dir });
    expect(reset.code).toBe(0);
    expect(existsSync(stateFile('fails-once'))).toBe(false);
  });

  it('resumes at a long command node after rvport is killed with SIGKILL in the middle of it', async () => {
    const { child, done } = startCli(
      ['workflow', 'run', fixture('long-command.workflow.ts'), '--context', ctx()],
      {
        cwd: dir,
      },
    );
    await waitFor(() => existsSync(join(dir, 'long.marker')), 20_000, 'the long command to start');
    expect(readState('long-command')).toMatchObject({ status: 'running', currentNode: 'long' });
    const orphanGroup = Number(readFileSync(join(dir, 'long.pid'), 'utf8'));
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');
    expect(groupIsRunning(orphanGroup)).toBe(true); // the command outlives the killed rvport…

    const resumed = await runCli(['workflow', 'run', fixture('long-command.workflow.ts')], { cwd: dir });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/resuming 'long-command' at 'long'/);
    expect(groupIsRunning(orphanGroup)).toBe(false); // …until the resumed run stops it before starting anew
    expect(runsLog()).toEqual(['before', 'long', 'long', 'after']);
    expect(readState('long-command').context.long.stdout).toBe('quick\n');
  });

  it('saves the state on Ctrl+C (SIGINT), exits 130, and resume continues', async () => {
    const { child, done } = startCli(
      ['workflow', 'run', fixture('long-command.workflow.ts'), '--context', ctx()],
      {
        cwd: dir,
      },
    );
    await waitFor(() => existsSync(join(dir, 'long.marker')), 20_000, 'the long command to start');
    child.kill('SIGINT');
    const interrupted = await done;
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toMatch(/interrupted at 'long'/);
    expect(readState('long-command')).toMatchObject({ status: 'pending', currentNode: 'long' });

    const resumed = await runCli(['workflow', 'resume', 'long-command'], { cwd: dir });
    expect(resumed.code).toBe(0);
    expect(runsLog()).toEqual(['before', 'long', 'long', 'after']);
  });

  it('stops a loop with no exit at the step limit', async () => {
    const result = await runCli(['workflow', 'run', fixture('endless.workflow.ts')], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/step limit of 30 reached before node 'spin'/);
    expect(readState('endless')).toMatchObject({
      status: 'failed',
      steps: 30,
      error: { code: 'step-limit' },
    });
  });

  it('runs a subgraph loop as one node and resumes inside it after SIGKILL', async () => {
    const { child, done } = startCli(
      ['workflow', 'run', fixture('subgraph.workflow.ts'), '--context', ctx()],
      {
        cwd: dir,
      },
    );
    await waitFor(() => existsSync(join(dir, 'fix.marker')), 20_000, 'the fix command to start');
    const inner = readState('with-subgraph').inFlight.build_fix_subgraph;
    expect(inner).toMatchObject({
      currentNode: 'fix',
      inFlight: { fix: { processGroup: expect.any(Object) } },
    });
    const orphanGroup = Number(readFileSync(join(dir, 'fix.pid'), 'utf8'));
    child.kill('SIGKILL');
    await done;

    const resumed = await runCli(['workflow', 'run', fixture('subgraph.workflow.ts')], { cwd: dir });
    expect(resumed.code).toBe(0);
    expect(groupIsRunning(orphanGroup)).toBe(false);
    expect(runsLog()).toEqual([
      'plan',
      'build',
      'verify',
      'fix',
      'fix',
      'build',
      'verify',
      'fix',
      'build',
      'verify',
      'finish',
    ]);
    const state = readState('with-subgraph');
    expect(state).toMatchObject({ status: 'completed', context: { builds: 3 }, inFlight: {} });
  });

  it("runs a plain .mjs file outside the project, its 'rvport' import resolving to the running rvport", async () => {
    const file = join(dir, 'plain.workflow.mjs');
    writeFileSync(
      file,
      `import { defineWorkflow, FunctionNode, END } from 'rvport';
export default defineWorkflow({ id: 'plain', nodes: { only: FunctionNode({ run: () => ({ context: { ok: 1 } }), then: END }) } });
`,
    );
    const result = await runCli(['workflow', 'run', file, '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'completed', context: { ok: 1 } });
  });

  it('shows status and a Mermaid graph', async () => {
    await runCli(['workflow', 'run', fixture('endless.workflow.ts'), '--id', 'spin-1'], { cwd: dir });
    const list = await runCli(['workflow', 'status', '--json'], { cwd: dir });
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ workflowId: 'spin-1', status: 'failed', steps: 30 }),
    ]);
    const one = await runCli(['workflow', 'status', 'spin-1'], { cwd: dir });
    expect(one.stdout).toMatch(/status: +failed/);
    const graph = await runCli(['workflow', 'graph', fixture('subgraph.workflow.ts')], { cwd: dir });
    expect(graph.code).toBe(0);
    expect(graph.stdout).toContain('flowchart TD');
    expect(graph.stdout).toContain('n_plan --> n_build_fix_subgraph');
  });

  it('gives clear errors and exit 1 for bad input', async () => {
    const missing = await runCli(['workflow', 'run', 'nope.ts'], { cwd: dir });
    expect(missing).toMatchObject({ code: 1 });
    expect(missing.stderr).toMatch(/workflow file not found/);

    const badJson = await runCli(['workflow', 'run', fixture('endless.workflow.ts'), '--context', '{oops'], {
      cwd: dir,
    });
    expect(badJson.code).toBe(1);
    expect(badJson.stderr).toMatch(/--context is not valid JSON/);

    const invalid = await runCli(['workflow', 'run', fixture('invalid.workflow.ts')], { cwd: dir });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/unknown node 'nowhere'[\s\S]*unknown node 'elsewhere'/);

    await runCli(['workflow', 'run', fixture('endless.workflow.ts')], { cwd: dir });
    writeFileSync(stateFile('endless'), '{ "truncated": ');
    const corrupt = await runCli(['workflow', 'run', fixture('endless.workflow.ts')], { cwd: dir });
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toContain(`state file ${stateFile('endless')} is unusable`);
    expect(corrupt.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace

    const noState = await runCli(['workflow', 'resume', 'ghost'], { cwd: dir });
    expect(noState.code).toBe(1);
    expect(noState.stderr).toMatch(/no saved state for 'ghost'/);
  }, 120_000); // six processes of the real binary: slow when the machine is busy
});
