import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_STEPS, defineWorkflow } from './defineWorkflow.ts';
import { END } from './END.ts';
import { WorkflowDefinitionError } from './errors.ts';
import { FunctionNode } from './nodes/FunctionNode.ts';
import type { NodeDefinition } from './types.ts';

const noop = () => ({});

describe('defineWorkflow', () => {
  it('takes the first node as start and applies defaults', () => {
    const wf = defineWorkflow({
      id: 'ok',
      nodes: { one: FunctionNode({ run: noop, then: 'two' }), two: FunctionNode({ run: noop, then: END }) },
    });
    expect(wf.start).toBe('one');
    expect(wf.maxSteps).toBe(DEFAULT_MAX_STEPS);
    expect(wf.initialContext).toEqual({});
    expect([...wf.nodes.keys()]).toEqual(['one', 'two']);
  });

  it('honours an explicit start', () => {
    const wf = defineWorkflow({
      id: 'ok',
      start: 'two',
      nodes: { one: FunctionNode({ run: noop, then: END }), two: FunctionNode({ run: noop, then: 'one' }) },
    });
    expect(wf.start).toBe('two');
  });

  it('reports every problem at once', () => {
    const broken = {
      id: 'bad id!',
      start: 'missing',
      maxSteps: 0,
      nodes: [
        { ...FunctionNode({ run: noop, then: 'ghost' }), name: 'a' },
        { ...FunctionNode({ run: noop, then: END }), name: 'a' },
        { kind: 'FunctionNode', then: END, name: 'b' } as unknown as NodeDefinition & { name: string },
        { ...FunctionNode({ run: noop, then: () => END, targets: ['nobody'] }), name: 'c' },
        { ...FunctionNode({ run: noop, then: '' }), name: 'd' },
      ],
    };
    let error: WorkflowDefinitionError | undefined;
    try {
      defineWorkflow(broken);
    } catch (e) {
      error = e as WorkflowDefinitionError;
    }
    expect(error).toBeInstanceOf(WorkflowDefinitionError);
    expect(error?.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/id 'bad id!' must start/),
        "duplicate node name 'a'",
        "node 'b' is missing 'run'",
        expect.stringMatching(/node 'd' is missing 'then'/),
        "node 'a' goes to unknown node 'ghost'",
        "node 'c' declares unknown target 'nobody'",
        "start node 'missing' does not exist",
        'maxSteps must be a positive integer',
      ]),
    );
    expect(error?.message.split('\n').length).toBe(error ? error.problems.length + 1 : 0);
  });

  it('refuses an empty workflow and a missing id', () => {
    expect(() => defineWorkflow({ nodes: {} } as never)).toThrow(
      /missing field 'id'[\s\S]*at least one node/,
    );
  });

  it('refuses END as a node name', () => {
    expect(() =>
      defineWorkflow({ id: 'x', nodes: { [END]: FunctionNode({ run: noop, then: END }) } }),
    ).toThrow(/reserved/);
  });
});
