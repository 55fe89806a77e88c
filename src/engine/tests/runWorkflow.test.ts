import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock.ts';
import { defineWorkflow } from '../defineWorkflow.ts';
import { END } from '../END.ts';
import type { EngineEvent } from '../events.ts';
import { FunctionNode } from '../nodes/FunctionNode.ts';
import { SubgraphNode } from '../nodes/SubgraphNode.ts';
import { resetWorkflow, runWorkflow } from '../runWorkflow.ts';
import { MemoryStateStore } from '../stores/MemoryStateStore.ts';
import type { WorkflowState } from '../types.ts';

type Counter = { n: number; log: string[] };

function counting(limit: number, maxSteps?: number) {
  return defineWorkflow<Counter>({
    id: 'count',
    initialContext: { n: 0, log: [] },
    ...(maxSteps ? { maxSteps } : {}),
    nodes: {
      start: FunctionNode({ run: (s) => ({ context: { log: [...s.context.log, 'start'] } }), then: 'inc' }),
      inc: FunctionNode({
        run: (s) => ({ context: { n: s.context.n + 1 } }),
        then: (s) => (s.context.n < limit ? 'inc' : END),
        targets: ['inc', END],
      }),
    },
  });
}

describe('runWorkflow', () => {
  it('runs to END, counting steps and saving a completed state', async () => {
    const store = new MemoryStateStore();
    const events: EngineEvent['type'][] = [];
    const result = await runWorkflow(counting(3), { store, onEvent: (e) => events.push(e.type) });
    expect(result.outcome).toBe('completed');
    expect(result.state).toMatchObject({
      status: 'completed',
      currentNode: null,
      steps: 4,
      context: { n: 3 },
    });
    expect(result.state.trail.map((r) => `${r.node}>${r.next}`)).toEqual([
      'start>inc',
      'inc>inc',
      'inc>inc',
      `inc>${END}`,
    ]);
    expect(await store.load('count')).toEqual(result.state);
    expect(events[0]).toBe('run:start');
    expect(events.at(-1)).toBe('run:end');
    expect(events.filter((e) => e === 'transition')).toHaveLength(4);
  });

  it('does not run a completed workflow again; reset starts it over', async () => {
    const store = new MemoryStateStore();
    await runWorkflow(counting(2), { store });
    const again = await runWorkflow(counting(2), { store });
    expect(again.outcome).toBe('already-completed');
    expect(again.state.steps).toBe(3);
    expect(await resetWorkflow('count', { store })).toBe(true);
    expect((await runWorkflow(counting(2), { store, context: { n: 1 } })).state.steps).toBe(2);
  });

  it('fails a node, keeps the state there, and resumes without re-running earlier nodes', async () => {
    const store = new MemoryStateStore();
    const runs: string[] = [];
    let broken = true;
    const wf = defineWorkflow({
      id: 'flaky',
      nodes: {
        first: FunctionNode({ run: () => void runs.push('first'), then: 'second' }),
        second: FunctionNode({
          run: () => {
            runs.push('second');
            if (broken) throw new Error('disk on fire');
            return { context: { done: true } };
          },
          then: END,
        }),
      },
    });
    const failed = await runWorkflow(wf, { store });
    expect(failed.outcome).toBe('failed');
    expect(failed.state).toMatchObject({ status: 'failed', currentNode: 'second', steps: 1 });
    expect(failed.state.error).toMatchObject({ message: 'disk on fire', node: 'second' });
    broken = false;
    const resumed = await runWorkflow(wf, { store });
    expect(resumed).toMatchObject({ outcome: 'completed', resumed: true });
    expect(resumed.state.error).toBeNull();
    expect(runs).toEqual(['first', 'second', 'second']);
  });

  it('stops a loop without exit at the step limit, saved as failed with the reason', async () => {
    const store = new MemoryStateStore();
    const result = await runWorkflow(counting(Number.POSITIVE_INFINITY, 25), { store });
    expect(result.outcome).toBe('failed');
    expect(result.error?.name).toBe('StepLimitError');
    expect(result.state).toMatchObject({ status: 'failed', steps: 25, currentNode: 'inc' });
    expect(result.state.error?.code).toBe('step-limit');
    expect(result.state.error?.message).toMatch(/step limit of 25/);
  });

  it('fails with a clear message when a transition function returns an unknown node', async () => {
    const wf = defineWorkflow({
      id: 'bad',
      nodes: { a: FunctionNode({ run: () => ({}), then: () => 'b' }) },
    });
    const result = await runWorkflow(wf, { store: new MemoryStateStore() });
    expect(result.state.error).toMatchObject({ code: 'invalid-transition', node: 'a' });
    expect(result.state.error?.message).toMatch(/node 'a' returned "b"/);
  });

  it('retries a rate-limited node with the seed rule, on the injected clock', async () => {
    const clock = new FakeClock(0, 0.5);
    let calls = 0;
    const wf = defineWorkflow({
      id: 'rl',
      nodes: {
        call: FunctionNode({
          run: () => {
            calls++;
            if (calls < 3) throw new Error('429 Too Many Requests');
            return { context: { ok: true } };
          },
          then: END,
        }),
      },
    });
    const result = await runWorkflow(wf, { store: new MemoryStateStore(), clock });
    expect(result.outcome).toBe('completed');
    expect(clock.sleeps).toEqual([37_500, 67_500]);
    expect(result.state.trail[0]?.attempts).toBe(3);
  });

  it('gives up on a rate limit after three runs', async () => {
    const clock = new FakeClock();
    let calls = 0;
    const wf = defineWorkflow({
      id: 'rl',
      nodes: {
        call: FunctionNode({
          run: () => {
            calls++;
            throw new Error('quota exceeded');
          },
          then: END,
        }),
      },
    });
    const result = await runWorkflow(wf, { store: new MemoryStateStore(), clock });
    expect(result.outcome).toBe('failed');
    expect(calls).toBe(3);
    expect(clock.sleeps).toHaveLength(2);
  });

  it('applies a node retry policy with exponential backoff', async () => {
    const clock = new FakeClock(0, 0.5);
    let calls = 0;
    const wf = defineWorkflow({
      id: 'retry',
      nodes: {
        call: FunctionNode({
          run: () => {
            if (++calls < 4) throw new Error('flaky');
            return {};
          },
          retry: { maxAttempts: 4, initialDelayMs: 10, factor: 3 },
          then: END,
        }),
      },
    });
    expect((await runWorkflow(wf, { store: new MemoryStateStore(), clock })).outcome).toBe('completed');
    expect(clock.sleeps).toEqual([10, 30, 90]);
  });

  it('routes the failures of a node that declares them data', async () => {
    const wf = defineWorkflow({
      id: 'data',
      nodes: {
        risky: FunctionNode({
          run: () => {
            throw new Error('expected trouble');
          },
          failuresAsData: true,
          then: (s) => (s.lastFailure ? 'recover' : END),
        }),
        recover: FunctionNode({ run: (s) => ({ context: { saw: s.lastFailure?.message } }), then: END }),
      },
    });
    const result = await runWorkflow(wf, { store: new MemoryStateStore() });
    expect(result.outcome).toBe('completed');
    expect(result.state.context.saw).toBe('expected trouble');
    expect(result.state.trail[0]?.outcome).toBe('failure-as-data');
  });

  it('saves an interrupted run as pending at the node in flight, and resumes there', async () => {
    const store = new MemoryStateStore();
    const controller = new AbortController();
    const seen: string[] = [];
    const wf = defineWorkflow({
      id: 'stop',
      nodes: {
        a: FunctionNode({ run: () => void seen.push('a'), then: 'b' }),
        b: FunctionNode({
          run: () => {
            seen.push('b');
            controller.abort();
          },
          then: 'c',
        }),
        c: FunctionNode({ run: () => void seen.push('c'), then: END }),
      },
    });
    const first = await runWorkflow(wf, { store, signal: controller.signal });
    expect(first.outcome).toBe('interrupted');
    expect(first.state).toMatchObject({ status: 'pending', currentNode: 'b', steps: 1 });
    const second = await runWorkflow(wf, { store });
    expect(second.outcome).toBe('completed');
    expect(seen).toEqual(['a', 'b', 'b', 'c']);
  });

  it('refuses a second concurrent run of the same id', async () => {
    const store = new MemoryStateStore();
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const wf = defineWorkflow({
      id: 'slow',
      nodes: { wait: FunctionNode({ run: () => gate.then(() => ({})), then: END }) },
    });
    const first = runWorkflow(wf, { store });
    await expect(runWorkflow(wf, { store })).rejects.toThrow(/already running/);
    release();
    expect((await first).outcome).toBe('completed');
  });

  it('refuses a saved state whose node the workflow no longer has', async () => {
    const store = new MemoryStateStore();
    const wf = defineWorkflow({ id: 'v', nodes: { old: FunctionNode({ run: () => ({}), then: END }) } });
    const controller = new AbortController();
    controller.abort();
    await runWorkflow(wf, { store, signal: controller.signal });
    const changed = defineWorkflow({
      id: 'v',
      nodes: { renamed: FunctionNode({ run: () => ({}), then: END }) },
    });
    await expect(runWorkflow(changed, { store })).rejects.toThrow(/node 'old'/);
  });
});

describe('SubgraphNode', () => {
  type Loop = { attempts: number; built: boolean; fixes: number };

  function buildFix(failAtFix: { remaining: number }) {
    return defineWorkflow<Loop>({
      id: 'build_fix',
      nodes: {
        build: FunctionNode({
          run: (s) => ({ context: { attempts: s.context.attempts + 1, built: s.context.fixes >= 2 } }),
          then: 'verify',
        }),
        verify: FunctionNode({
          run: () => ({}),
          then: (s) => (s.context.built ? END : 'fix'),
          targets: [END, 'fix'],
        }),
        fix: FunctionNode({
          run: (s) => {
            if (failAtFix.remaining-- > 0) throw new Error('fixer crashed');
            return { context: { fixes: s.context.fixes + 1 } };
          },
          then: 'build',
        }),
      },
    });
  }

  function parent(inner: ReturnType<typeof buildFix>, maxSteps?: number) {
    return defineWorkflow<Loop>({
      id: 'port',
      initialContext: { attempts: 0, built: false, fixes: 0 },
      ...(maxSteps ? { maxSteps } : {}),
      nodes: {
        plan: FunctionNode({ run: () => ({}), then: 'build_fix_subgraph' }),
        build_fix_subgraph: SubgraphNode({ workflow: inner, then: 'finish' }),
        finish: FunctionNode({ run: () => ({ context: {} }), then: END }),
      },
    });
  }

  it('runs a loop as one node, merging its context and counting its steps', async () => {
    const result = await runWorkflow(parent(buildFix({ remaining: 0 })), { store: new MemoryStateStore() });
    expect(result.outcome).toBe('completed');
    expect(result.state.context).toMatchObject({ attempts: 3, fixes: 2, built: true });
    // plan + subgraph (build verify fix build verify fix build verify = 8) + the subgraph node + finish
    expect(result.state.steps).toBe(11);
    expect(result.state.inFlight).toEqual({});
  });

  it('resumes inside the subgraph at the node that failed', async () => {
    const store = new MemoryStateStore();
    const failures = { remaining: 1 };
    const wf = parent(buildFix(failures));
    const first = await runWorkflow(wf, { store });
    expect(first.outcome).toBe('failed');
    expect(first.state.currentNode).toBe('build_fix_subgraph');
    expect(first.state.inFlight.build_fix_subgraph).toMatchObject({ currentNode: 'fix', status: 'failed' });
    expect((first.state.inFlight.build_fix_subgraph as WorkflowState).context).toMatchObject({ attempts: 1 });
    const second = await runWorkflow(wf, { store });
    expect(second.outcome).toBe('completed');
    // the build before the crash is not repeated: three builds in total, as without the crash
    expect(second.state.context).toMatchObject({ attempts: 3, fixes: 2 });
  });

  it('counts subgraph steps against the parent step limit', async () => {
    const never = defineWorkflow({
      id: 'spin',
      nodes: { again: FunctionNode({ run: () => ({}), then: 'again' }) },
    });
    const wf = defineWorkflow({
      id: 'outer',
      maxSteps: 10,
      nodes: { sub: SubgraphNode({ workflow: never, then: END }) },
    });
    const result = await runWorkflow(wf, { store: new MemoryStateStore() });
    expect(result.outcome).toBe('failed');
    expect(result.state.error?.code).toBe('step-limit');
    expect((result.state.inFlight.sub as WorkflowState).steps).toBe(9);
  });
});
