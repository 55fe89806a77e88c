import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineWorkflow } from '../defineWorkflow.ts';
import { END } from '../END.ts';
import { runWorkflow } from '../runWorkflow.ts';
import { MemoryStateStore } from '../stores/MemoryStateStore.ts';
import type { Context } from '../types.ts';
import { CommandNode, type CommandResult } from './CommandNode.ts';

const logDir = mkdtempSync(join(tmpdir(), 'rvport-cmd-'));
afterAll(() => rmSync(logDir, { recursive: true, force: true }));

function run(nodes: Parameters<typeof defineWorkflow>[0]['nodes'], context: Context = {}) {
  return runWorkflow(defineWorkflow({ id: 'cmd', initialContext: context, nodes }), {
    store: new MemoryStateStore(),
    logDir,
  });
}

describe('CommandNode', () => {
  it('stores exitCode, stdout, stderr and duration under the node name, with the full log in a file', async () => {
    const result = await run({ hello: CommandNode({ command: 'echo hi; echo warn >&2', then: END }) });
    const stored = result.state.context.hello as CommandResult;
    expect(stored).toMatchObject({ exitCode: 0, stdout: 'hi\n', stderr: 'warn\n', timedOut: false });
    expect(stored.durationMs).toBeGreaterThanOrEqual(0);
    expect(readFileSync(stored.logFile, 'utf8')).toContain('hi\n');
  });

  it('uses resultKey, cwd, env and a command computed from the state', async () => {
    const result = await run(
      {
        where: CommandNode({
          command: (s) => `echo ${s.context.word as string} $FLAVOUR; pwd`,
          cwd: logDir,
          env: { FLAVOUR: 'vanilla' },
          resultKey: 'out',
          then: END,
        }),
      },
      { word: 'ice' },
    );
    expect((result.state.context.out as CommandResult).stdout).toBe(`ice vanilla\n${logDir}\n`);
  });

  it('fails the node on a non-zero exit, naming the command, status and stderr tail', async () => {
    const result = await run({ bad: CommandNode({ command: 'echo nope >&2; exit 4', then: END }) });
    expect(result.outcome).toBe('failed');
    expect(result.state.error?.code).toBe('command-failed');
    expect(result.state.error?.message).toMatch(/exited with status 4:\nnope/);
  });

  it('stores a failing result and routes it when failures are data', async () => {
    const result = await run({
      probe: CommandNode({
        command: 'exit 2',
        failuresAsData: true,
        then: (s) => ((s.context.probe as CommandResult).exitCode === 0 ? END : 'fallback'),
        targets: [END, 'fallback'],
      }),
      fallback: CommandNode({ command: 'echo fallback', then: END }),
    });
    expect(result.outcome).toBe('completed');
    expect((result.state.context.fallback as CommandResult).stdout).toBe('fallback\n');
  });

  it('caps the output kept in the state', async () => {
    const result = await run({ loud: CommandNode({ command: 'seq 1 100000', outputCap: 1000, then: END }) });
    const stored = result.state.context.loud as CommandResult;
    expect(stored.stdout.length).toBeLessThan(1100);
    expect(stored.stdout).toMatch(/omitted[\s\S]*100000\n$/);
    expect(readFileSync(stored.logFile, 'utf8').split('\n')).toHaveLength(100001);
  });

  it('kills a command that runs past its time-out', async () => {
    const started = Date.now();
    const result = await run({ slow: CommandNode({ command: 'sleep 20', timeoutMs: 200, then: END }) });
    expect(result.outcome).toBe('failed');
    expect(result.state.error?.message).toMatch(/timed out after 200 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
