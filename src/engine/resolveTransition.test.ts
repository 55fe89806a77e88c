import { describe, expect, it } from 'vitest';
import { END } from './END.ts';
import { TransitionError } from './errors.ts';
import { FunctionNode } from './nodes/FunctionNode.ts';
import { resolveTransition } from './resolveTransition.ts';
import { createInitialState } from './state.ts';

const names = new Set(['a', 'b', 'c']);
const state = createInitialState('t', 'a', { go: 'b' as string }, new Date(0));

describe('resolveTransition', () => {
  it('returns a static target as is', () => {
    expect(resolveTransition('a', FunctionNode({ run: () => ({}), then: 'c' }), state, names)).toBe('c');
  });

  it('calls a transition function with the state', () => {
    const node = FunctionNode<{ go: string }>({ run: () => ({}), then: (s) => s.context.go });
    expect(resolveTransition('a', node, state, names)).toBe('b');
  });

  it('accepts END from a function', () => {
    expect(resolveTransition('a', FunctionNode({ run: () => ({}), then: () => END }), state, names)).toBe(
      END,
    );
  });

  it('rejects an unknown node, naming the node, the value and the allowed targets', () => {
    const node = FunctionNode({ run: () => ({}), then: () => 'nowhere' });
    expect(() => resolveTransition('a', node, state, names)).toThrow(TransitionError);
    try {
      resolveTransition('a', node, state, names);
    } catch (error) {
      const e = error as TransitionError;
      expect(e.message).toContain("node 'a'");
      expect(e.message).toContain('"nowhere"');
      expect(e.allowed).toEqual(['a', 'b', 'c', END]);
      expect(e.code).toBe('invalid-transition');
    }
  });

  it('rejects a non-string result', () => {
    const node = FunctionNode({ run: () => ({}), then: () => 42 as unknown as string });
    expect(() => resolveTransition('a', node, state, names)).toThrow(/returned 42/);
  });

  it('restricts a function to its declared targets', () => {
    const node = FunctionNode({ run: () => ({}), then: () => 'c', targets: ['b', END] });
    expect(() => resolveTransition('a', node, state, names)).toThrow(/allowed: b, __end__/);
  });
});
