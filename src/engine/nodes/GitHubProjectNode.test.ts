import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../clock.ts';
import { defineWorkflow } from '../defineWorkflow.ts';
import { END } from '../END.ts';
import { runWorkflow } from '../runWorkflow.ts';
import { MemoryStateStore } from '../stores/MemoryStateStore.ts';
import { GitHubProjectNode } from './GitHubProjectNode.ts';

interface Seen {
  auth: string | undefined;
  query: string;
  variables: Record<string, string>;
}

let server: Server;
let url: string;
const seen: Seen[] = [];
let failNext: number | undefined;

/** A local stand-in for GitHub's GraphQL API that checks what it is asked. */
beforeAll(async () => {
  server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const { query, variables } = JSON.parse(body) as { query: string; variables: Record<string, string> };
    seen.push({ auth: req.headers.authorization, query, variables });
    res.setHeader('content-type', 'application/json');
    if (failNext) {
      res.statusCode = failNext;
      failNext = undefined;
      res.end('{"message":"API rate limit exceeded"}');
      return;
    }
    if (req.headers.authorization !== 'Bearer t0ken') {
      res.statusCode = 401;
      res.end('{"message":"Bad credentials"}');
      return;
    }
    if (query.includes('field(name: $field)')) {
      const field =
        variables.field === 'Status'
          ? {
              id: 'F1',
              options: [
                { id: 'o-todo', name: 'Todo' },
                { id: 'o-done', name: 'Done' },
              ],
            }
          : null;
      res.end(JSON.stringify({ data: { node: { field } } }));
    } else if (query.includes('updateProjectV2ItemFieldValue')) {
      res.end(
        JSON.stringify({
          data: { updateProjectV2ItemFieldValue: { projectV2Item: { id: variables.item } } },
        }),
      );
    } else {
      res.end(JSON.stringify({ errors: [{ message: 'unexpected query' }] }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  process.env.RVPORT_TEST_GH_TOKEN = 't0ken';
});
afterAll(() => {
  server.close();
  delete process.env.RVPORT_TEST_GH_TOKEN;
});

function workflow(status: string, extra: Partial<Parameters<typeof GitHubProjectNode>[0]> = {}) {
  return defineWorkflow({
    id: 'gh',
    initialContext: { item: 'PVTI_1' },
    nodes: {
      mark: GitHubProjectNode<{ item: string; mark?: unknown }>({
        projectId: 'PVT_9',
        itemId: (s) => s.context.item,
        status,
        apiUrl: url,
        tokenEnv: 'RVPORT_TEST_GH_TOKEN',
        then: END,
        ...extra,
      }),
    },
  });
}

describe('GitHubProjectNode', () => {
  it('looks up the Status option and sets it on the item', async () => {
    seen.length = 0;
    const result = await runWorkflow(workflow('done'), { store: new MemoryStateStore() });
    expect(result.outcome).toBe('completed');
    expect(result.state.context.mark).toEqual({ itemId: 'PVTI_1', status: 'Done', optionId: 'o-done' });
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({ auth: 'Bearer t0ken', variables: { project: 'PVT_9', field: 'Status' } });
    expect(seen[1]?.query).toMatch(/updateProjectV2ItemFieldValue/);
    expect(seen[1]?.variables).toEqual({ project: 'PVT_9', item: 'PVTI_1', field: 'F1', option: 'o-done' });
  });

  it('names the options when the status does not exist', async () => {
    const result = await runWorkflow(workflow('Shipped'), { store: new MemoryStateStore() });
    expect(result.state.error?.message).toMatch(/no option 'Shipped' \(options: 'Todo', 'Done'\)/);
  });

  it('reports a missing field and a missing token', async () => {
    const noField = await runWorkflow(workflow('Done', { fieldName: 'Stage' }), {
      store: new MemoryStateStore(),
    });
    expect(noField.state.error?.message).toMatch(/no single-select field 'Stage'/);
    const noToken = await runWorkflow(workflow('Done', { tokenEnv: 'RVPORT_TEST_NO_TOKEN' }), {
      store: new MemoryStateStore(),
    });
    expect(noToken.state.error?.code).toBe('no-github-token');
  });

  it('retries an HTTP 429 through the engine rate-limit rule', async () => {
    seen.length = 0;
    failNext = 429;
    const clock = new FakeClock();
    const result = await runWorkflow(workflow('Todo'), { store: new MemoryStateStore(), clock });
    expect(result.outcome).toBe('completed');
    expect(clock.sleeps).toHaveLength(1);
    expect(seen).toHaveLength(3);
  });
});
