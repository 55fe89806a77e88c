import { describe, expect, it } from 'vitest';
import { appendTrail, applyUpdate, createInitialState, MAX_TRAIL, STATE_FORMAT_VERSION } from './state.ts';
import type { StepRecord } from './types.ts';

describe('createInitialState', () => {
  it('starts pending at the start node with a copy of the context', () => {
    const context = { list: [1] };
    const state = createInitialState('w', 'first', context, new Date(1000));
    expect(state).toMatchObject({ workflowId: 'w', currentNode: 'first', status: 'pending', steps: 0 });
    expect(state.formatVersion).toBe(STATE_FORMAT_VERSION);
    expect(state.updatedAt).toBe('1970-01-01T00:00:01.000Z');
    context.list.push(2);
    expect(state.context.list).toEqual([1]);
  });
});

describe('applyUpdate', () => {
  const base = createInitialState(
    'w',
    'a',
    { a: 1, nested: { x: 1, y: 2 } as Record<string, number> },
    new Date(0),
  );

  it('merges context one level deep: top-level keys replaced, others kept', () => {
    const next = applyUpdate(base, { context: { nested: { x: 5 } } });
    expect(next.context).toEqual({ a: 1, nested: { x: 5 } });
    expect(base.context.nested).toEqual({ x: 1, y: 2 });
  });

  it('appends history and leaves the rest alone', () => {
    const once = applyUpdate(base, { history: [{ role: 'user', content: 'hi' }] });
    const twice = applyUpdate(once, { history: [{ role: 'assistant', content: 'hello' }] });
    expect(twice.history.map((m) => m.content)).toEqual(['hi', 'hello']);
    expect(applyUpdate(base, {})).toEqual(base);
  });
});

describe('appendTrail', () => {
  it('keeps only the last MAX_TRAIL records', () => {
    let trail: StepRecord[] = [];
    for (let step = 1; step <= MAX_TRAIL + 7; step++) {
      trail = appendTrail(trail, {
        step,
        node: 'n',
        next: 'n',
        outcome: 'ok',
        durationMs: 0,
        attempts: 1,
        at: '',
      });
    }
    expect(trail).toHaveLength(MAX_TRAIL);
    expect(trail[0]?.step).toBe(8);
    expect(trail.at(-1)?.step).toBe(MAX_TRAIL + 7);
  });
});
