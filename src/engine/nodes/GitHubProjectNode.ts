import { NodeFailedError } from '../errors.ts';
import type { Context, NodeDefinition, NodeOptions, WorkflowState } from '../types.ts';

export const DEFAULT_GITHUB_GRAPHQL_URL = 'https://api.github.com/graphql';

type Dynamic<C extends Context, T> = T | ((state: WorkflowState<C>) => T);

export interface GitHubProjectNodeOptions<C extends Context> extends NodeOptions<C> {
  /** The node id of the ProjectV2 (PVT_…). */
  projectId: Dynamic<C, string>;
  /** The node id of the project item (PVTI_…). */
  itemId: Dynamic<C, string>;
  /** The option to select, by name ('In progress', 'Done', …). */
  status: Dynamic<C, string>;
  /** The single-select field to set; default 'Status'. */
  fieldName?: string;
  /** GraphQL endpoint; default `$GITHUB_GRAPHQL_URL` or GitHub's public API. */
  apiUrl?: string;
  /** Environment variable holding the token; default GITHUB_TOKEN, then GH_TOKEN. */
  tokenEnv?: string;
  resultKey?: string;
}

export interface GitHubProjectResult {
  itemId: string;
  status: string;
  optionId: string;
}

const FIELD_QUERY = `query($project: ID!, $field: String!) {
  node(id: $project) { ... on ProjectV2 { field(name: $field) {
    ... on ProjectV2SingleSelectField { id options { id name } } } } }
}`;

const SET_STATUS = `mutation($project: ID!, $item: ID!, $field: ID!, $option: String!) {
  updateProjectV2ItemFieldValue(input: { projectId: $project, itemId: $item, fieldId: $field,
    value: { singleSelectOptionId: $option } }) { projectV2Item { id } }
}`;

/** Sets the status field of a GitHub Projects item through the GraphQL API. */
export function GitHubProjectNode<C extends Context = Context>(
  options: GitHubProjectNodeOptions<C>,
): NodeDefinition<C> {
  const { projectId, itemId, status, fieldName, apiUrl, tokenEnv, resultKey, ...rest } = options;
  return {
    ...rest,
    kind: 'GitHubProjectNode',
    run: async (state, ctx) => {
      const pick = <T>(v: Dynamic<C, T>): T =>
        typeof v === 'function' ? (v as (s: WorkflowState<C>) => T)(state) : v;
      const token = tokenEnv ? process.env[tokenEnv] : (process.env.GITHUB_TOKEN ?? process.env.GH_TOKEN);
      if (!token) {
        throw new NodeFailedError(
          'no-github-token',
          `no GitHub token: set ${tokenEnv ?? 'GITHUB_TOKEN'} in the environment`,
          { node: ctx.node },
        );
      }
      const url = apiUrl ?? process.env.GITHUB_GRAPHQL_URL ?? DEFAULT_GITHUB_GRAPHQL_URL;
      const call = (query: string, variables: Record<string, string>) =>
        graphql(url, token, query, variables, ctx.signal, ctx.node);
      const project = pick(projectId);
      const item = pick(itemId);
      const wanted = pick(status);
      const field = fieldName ?? 'Status';

      const data = (await call(FIELD_QUERY, { project, field })) as {
        node?: { field?: { id?: string; options?: { id: string; name: string }[] } | null } | null;
      };
      const found = data.node?.field;
      if (!found?.id || !found.options) {
        throw new NodeFailedError(
          'github-field',
          `project ${project} has no single-select field '${field}'`,
          { node: ctx.node },
        );
      }
      const option = found.options.find((o) => o.name.toLowerCase() === wanted.toLowerCase());
      if (!option) {
        const names = found.options.map((o) => `'${o.name}'`).join(', ');
        throw new NodeFailedError(
          'github-option',
          `field '${field}' has no option '${wanted}' (options: ${names})`,
          { node: ctx.node },
        );
      }
      await call(SET_STATUS, { project, item, field: found.id, option: option.id });
      const result: GitHubProjectResult = { itemId: item, status: option.name, optionId: option.id };
      return { context: { [resultKey ?? ctx.node]: result } as Partial<C> };
    },
  };
}

async function graphql(
  url: string,
  token: string,
  query: string,
  variables: Record<string, string>,
  signal: AbortSignal,
  node: string,
): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json',
    },
    body: JSON.stringify({ query, variables }),
    signal,
  });
  const text = await response.text();
  if (!response.ok) {
    // The status stays in the message so the engine's rate-limit rule sees a 429 or 402.
    throw new NodeFailedError(
      'github-http',
      `GitHub GraphQL request failed: HTTP ${response.status} ${text.slice(0, 300)}`,
      { node },
    );
  }
  let body: { data?: unknown; errors?: { message: string }[] };
  try {
    body = JSON.parse(text);
  } catch {
    throw new NodeFailedError('github-http', `GitHub GraphQL answer is not JSON: ${text.slice(0, 200)}`, {
      node,
    });
  }
  if (body.errors?.length) {
    throw new NodeFailedError(
      'github-graphql',
      `GitHub GraphQL error: ${body.errors.map((e) => e.message).join('; ')}`,
      { node },
    );
  }
  return body.data;
}
