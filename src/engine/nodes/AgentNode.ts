import { NodeFailedError } from '../errors.ts';
import type {
  Context,
  HistoryMessage,
  NodeDefinition,
  NodeOptions,
  NodeRunContext,
  WorkflowState,
} from '../types.ts';

export interface AgentMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface AgentToolCall {
  id?: string;
  name: string;
  input: unknown;
}

export interface AgentToolSpec {
  name: string;
  description: string;
}

export interface AgentRequest {
  role?: string;
  system?: string;
  messages: AgentMessage[];
  tools?: AgentToolSpec[];
  signal?: AbortSignal;
}

export interface AgentReply {
  text: string;
  usage?: { inputTokens: number; outputTokens: number };
  costUsd?: number;
  toolCalls?: AgentToolCall[];
}

/** The LLM as the engine sees it. rvport's LLM layer implements it; tests pass a fake. */
export interface AgentClient {
  complete(request: AgentRequest): Promise<AgentReply>;
}

export interface AgentTool<C extends Context> {
  description: string;
  run: (input: unknown, state: WorkflowState<C>, ctx: NodeRunContext) => Promise<string> | string;
}

/** Tool rounds an agent step may take before it must answer. */
export const DEFAULT_MAX_TOOL_ROUNDS = 4;

export interface AgentNodeOptions<C extends Context> extends NodeOptions<C> {
  prompt: string | ((state: WorkflowState<C>) => string);
  system?: string;
  /** The model role (planner, fixer, …) the client maps to a model. */
  role?: string;
  /** The client; default the `llm` service given to runWorkflow. */
  client?: AgentClient;
  /** Where the answer goes in the context; default the node's name. */
  resultKey?: string;
  /** Turns the answer text into the stored value; an exception fails the node. */
  parse?: (text: string) => unknown;
  /** Send the run's earlier agent messages along (default true). */
  includeHistory?: boolean;
  tools?: Record<string, AgentTool<C>>;
  maxToolRounds?: number;
}

/**
 * One LLM step through an injected client. The prompt and the answer are appended to the
 * state's history, so later agent steps continue the conversation.
 */
export function AgentNode<C extends Context = Context>(options: AgentNodeOptions<C>): NodeDefinition<C> {
  const { prompt, system, role, client, resultKey, parse, includeHistory, tools, maxToolRounds, ...rest } =
    options;
  return {
    ...rest,
    kind: 'AgentNode',
    run: async (state, ctx) => {
      const llm = client ?? (ctx.services.llm as AgentClient | undefined);
      if (!llm || typeof llm.complete !== 'function') {
        throw new NodeFailedError(
          'no-llm-client',
          `agent node '${ctx.node}' has no LLM client (pass one, or the 'llm' service)`,
          { node: ctx.node },
        );
      }
      const at = new Date(ctx.clock.now()).toISOString();
      const question = typeof prompt === 'function' ? prompt(state) : prompt;
      const earlier: AgentMessage[] =
        includeHistory === false
          ? []
          : state.history.filter(
              (m): m is HistoryMessage & AgentMessage => m.role === 'user' || m.role === 'assistant',
            );
      const messages: AgentMessage[] = [
        ...earlier.map(({ role: r, content }) => ({ role: r, content })),
        { role: 'user', content: question },
      ];
      const added: HistoryMessage[] = [{ role: 'user', content: question, node: ctx.node, at }];
      const toolSpecs = Object.entries(tools ?? {}).map(([name, t]) => ({
        name,
        description: t.description,
      }));

      let reply = await llm.complete(request(messages));
      for (let round = 0; reply.toolCalls?.length && tools; round++) {
        if (round >= (maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS)) {
          throw new NodeFailedError(
            'tool-rounds',
            `agent node '${ctx.node}' kept calling tools after ${round} rounds`,
            { node: ctx.node },
          );
        }
        const results: string[] = [];
        for (const call of reply.toolCalls) {
          const tool = tools[call.name];
          const output = tool ? await tool.run(call.input, state, ctx) : `unknown tool '${call.name}'`;
          results.push(`[${call.name}] ${output}`);
        }
        const toolText = results.join('\n\n');
        messages.push(
          { role: 'assistant', content: reply.text || '(tool calls)' },
          { role: 'user', content: toolText },
        );
        added.push(
          { role: 'assistant', content: reply.text, node: ctx.node, at },
          { role: 'tool', content: toolText, node: ctx.node, at },
        );
        reply = await llm.complete(request(messages));
      }
      added.push({ role: 'assistant', content: reply.text, node: ctx.node, at });
      const value = parse ? parse(reply.text) : reply.text;
      return { context: { [resultKey ?? ctx.node]: value } as Partial<C>, history: added };

      function request(msgs: AgentMessage[]) {
        return {
          messages: msgs,
          signal: ctx.signal,
          ...(role ? { role } : {}),
          ...(system ? { system } : {}),
          ...(toolSpecs.length ? { tools: toolSpecs } : {}),
        };
      }
    },
  };
}
