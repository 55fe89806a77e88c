import { describe, expect, it } from 'vitest';
import { defineWorkflow } from '../defineWorkflow.ts';
import { END } from '../END.ts';
import { runWorkflow } from '../runWorkflow.ts';
import { MemoryStateStore } from '../stores/MemoryStateStore.ts';
import { type AgentClient, AgentNode, type AgentReply, type AgentRequest } from './AgentNode.ts';

/** A scripted client: answers in order and records each request. */
function fakeClient(replies: AgentReply[]): AgentClient & { requests: AgentRequest[] } {
  const requests: AgentRequest[] = [];
  return {
    requests,
    async complete(request) {
      requests.push(structuredClone({ ...request, signal: undefined }));
      const next = replies.shift();
      if (!next) throw new Error('no more scripted replies');
      return next;
    },
  };
}

describe('AgentNode', () => {
  it('asks the client, stores the parsed answer and keeps the conversation in history', async () => {
    const client = fakeClient([{ text: '{"plan":"make"}' }, { text: 'looks fine' }]);
    const wf = defineWorkflow<{ pkg: string }>({
      id: 'agent',
      initialContext: { pkg: 'zlib' },
      nodes: {
        plan: AgentNode({
          role: 'planner',
          system: 'You plan builds.',
          prompt: (s) => `How to build ${s.context.pkg}?`,
          parse: (text) => JSON.parse(text),
          then: 'review',
        }),
        review: AgentNode({ prompt: 'Any concerns?', resultKey: 'concerns', then: END }),
      },
    });
    const result = await runWorkflow(wf, { store: new MemoryStateStore(), services: { llm: client } });
    expect(result.state.context).toMatchObject({ plan: { plan: 'make' }, concerns: 'looks fine' });
    expect(client.requests[0]).toMatchObject({
      role: 'planner',
      system: 'You plan builds.',
      messages: [{ role: 'user', content: 'How to build zlib?' }],
    });
    // the second step sees the first exchange
    expect(client.requests[1]?.messages.map((m) => m.content)).toEqual([
      'How to build zlib?',
      '{"plan":"make"}',
      'Any concerns?',
    ]);
    expect(result.state.history.map((m) => `${m.node}:${m.role}`)).toEqual([
      'plan:user',
      'plan:assistant',
      'review:user',
      'review:assistant',
    ]);
  });

  it('runs the tools the model calls and sends their output back', async () => {
    const client = fakeClient([
      { text: '', toolCalls: [{ name: 'read', input: { path: 'configure.ac' } }] },
      { text: 'autotools' },
    ]);
    const wf = defineWorkflow({
      id: 'tools',
      nodes: {
        look: AgentNode({
          prompt: 'Which build system?',
          client,
          tools: {
            read: {
              description: 'read a file',
              run: (input) => `contents of ${(input as { path: string }).path}`,
            },
          },
          then: END,
        }),
      },
    });
    const result = await runWorkflow(wf, { store: new MemoryStateStore() });
    expect(result.state.context.look).toBe('autotools');
    expect(client.requests[0]?.tools).toEqual([{ name: 'read', description: 'read a file' }]);
    expect(client.requests[1]?.messages.at(-1)?.content).toBe('[read] contents of configure.ac');
  });

  it('fails clearly without a client, and when the answer does not parse', async () => {
    const noClient = defineWorkflow({ id: 'none', nodes: { ask: AgentNode({ prompt: 'hi', then: END }) } });
    expect((await runWorkflow(noClient, { store: new MemoryStateStore() })).state.error?.code).toBe(
      'no-llm-client',
    );
    const bad = defineWorkflow({
      id: 'bad',
      nodes: {
        ask: AgentNode({
          prompt: 'hi',
          client: fakeClient([{ text: 'not json' }]),
          parse: JSON.parse,
          then: END,
        }),
      },
    });
    expect((await runWorkflow(bad, { store: new MemoryStateStore() })).state.error?.message).toMatch(/JSON/);
  });
});
