import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeRunContext, WorkflowState } from '../../../engine/types.ts';
import type { PortServices } from '../../run/PortServices.ts';
import type { PortState } from '../../state/PortState.ts';
import { deterministicAnalysis } from '../../steps/deterministicAnalysis.ts';
import { type FakeLlmClient, fakeLlmClient } from '../../testing/fakeLlmClient.ts';
import { portStateForTree } from '../../testing/treeState.ts';
import { analystNode } from './analyst.ts';
import { scoutNode } from './scout.ts';

const TREE = {
  'meson.build': "project('foo', 'c')\nexecutable('foo', 'foo.c')\n",
  'foo.c': 'int main(){}\n',
};

function run(node: typeof analystNode, state: PortState, llm: FakeLlmClient, home: string) {
  const services = {
    home,
    llm,
    sandbox: { imageId: 'img-a', suite: 'trixie' },
    progress: () => {},
  } as unknown as PortServices;
  const workflowState = { context: state } as WorkflowState<PortState>;
  return node.run(workflowState, { services: { port: services } } as unknown as NodeRunContext) as Promise<{
    context: Partial<PortState>;
  }>;
}

describe('the analyst and scout nodes use the port LLM client', () => {
  const roots: string[] = [];
  afterEach(async () => {
    for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
  });

  it('analyst: the client of the services; offline it is the scripted analysis', async () => {
    const { state, root } = await portStateForTree(TREE);
    roots.push(root);
    const offline = await run(analystNode, state, fakeLlmClient([], { offline: true }), root);
    expect(offline.context.packageAnalysis).toEqual(deterministicAnalysis(state));
    const llm = fakeLlmClient([{ outcome: 'timeout' }]);
    const online = await run(analystNode, state, llm, root);
    expect(llm.requests[0]?.role).toBe('planner');
    expect(online.context.audit?.at(-1)?.detail).toMatch(/LLM timeout/);
  });

  it('scout: the client, the home and the image of the services', async () => {
    const { state, root } = await portStateForTree(TREE);
    roots.push(root);
    const llm = fakeLlmClient([{ outcome: 'invalid' }]);
    const update = await run(
      scoutNode,
      { ...state, packageAnalysis: deterministicAnalysis(state) },
      llm,
      root,
    );
    expect(llm.requests[0]?.role).toBe('scout');
    expect(update.context.plan?.origin).toBe('fallback');
    expect(update.context.plan?.buildSystem).toBe('meson');
  });
});
