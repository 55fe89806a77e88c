import type { Clock } from './clock.ts';
import type { EngineEvent } from './events.ts';
import type { RetryPolicy } from './retryPolicy.ts';

/**
 * A workflow's context. Values are `any` so that a workflow written without type arguments still
 * type-checks (TypeScript cannot infer the context type through nested node factories); pass the
 * type explicitly, `defineWorkflow<{ n: number }>(…)`, for full checking.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Context = Record<string, any>;

export type WorkflowStatus = 'pending' | 'running' | 'completed' | 'failed';

/** One message of an agent conversation, kept so that later agent steps have continuity. */
export interface HistoryMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  node?: string;
  at?: string;
}

export interface StateError {
  message: string;
  code: string;
  node: string | null;
  at: string;
}

/** One executed step, newest last; only the most recent ones are kept (see MAX_TRAIL). */
export interface StepRecord {
  step: number;
  node: string;
  next: string | null;
  outcome: 'ok' | 'failure-as-data' | 'failed' | 'interrupted';
  durationMs: number;
  attempts: number;
  at: string;
}

export interface WorkflowState<C extends Context = Context> {
  formatVersion: number;
  workflowId: string;
  /** The node to run next, or the node that was in flight or failed; null once completed. */
  currentNode: string | null;
  status: WorkflowStatus;
  context: C;
  history: HistoryMessage[];
  /** Node executions so far, subgraph steps included. */
  steps: number;
  startedAt: string;
  updatedAt: string;
  error: StateError | null;
  /** The last error of a node that declared its failures to be data; routing may read it. */
  lastFailure: StateError | null;
  trail: StepRecord[];
  /**
   * What a node saved while it ran (a subgraph's own state, the process group of a command), so
   * that a resume can continue inside it or clean up after it. Cleared when the node finishes.
   */
  inFlight: Record<string, unknown>;
  /** Where the workflow came from (a file path for `rvport workflow resume`). */
  source?: string;
}

/** What a node returns: a partial update. `context` merges one level deep; `history` appends. */
export interface NodeUpdate<C extends Context = Context> {
  context?: Partial<C>;
  history?: HistoryMessage[];
}

export type TransitionFn<C extends Context = Context> = (state: WorkflowState<C>) => string;
export type Transition<C extends Context = Context> = string | TransitionFn<C>;

/** Services the engine hands to a running node. */
export interface NodeRunContext {
  readonly node: string;
  readonly workflowId: string;
  readonly signal: AbortSignal;
  readonly clock: Clock;
  /** A directory for this workflow's logs (full command output and the like). */
  readonly logDir: string;
  /** Step number of this execution (1-based), unique within the run. */
  readonly step: number;
  /** Steps still allowed before the limit, for nodes that run steps of their own. */
  readonly remainingSteps: number;
  readonly emit: (event: EngineEvent) => void;
  /** What this node saved in flight during an earlier, interrupted run; undefined otherwise. */
  readonly inFlight: unknown;
  /** Checkpoints a value for this node in the state now (see WorkflowState.inFlight). */
  readonly saveInFlight: (value: unknown) => Promise<void>;
  /** Services injected by the caller of runWorkflow (an LLM client, a sandbox, …). */
  readonly services: Readonly<Record<string, unknown>>;
}

export interface NodeResult<C extends Context = Context> {
  update: NodeUpdate<C>;
  /** Extra steps this node ran internally (a subgraph's), counted against the limit. */
  innerSteps?: number;
}

export interface NodeDefinition<C extends Context = Context> {
  /** The factory that made it (FunctionNode, CommandNode, …), for diagrams and messages. */
  readonly kind: string;
  readonly run: (state: WorkflowState<C>, ctx: NodeRunContext) => Promise<NodeUpdate<C> | NodeResult<C>>;
  readonly then: Transition<C>;
  /** The targets a transition function may return; checked at definition and at run time. */
  readonly targets?: readonly string[];
  readonly retry?: Partial<RetryPolicy>;
  /** When true, an error is stored in `state.lastFailure` and routed instead of failing the run. */
  readonly failuresAsData?: boolean;
  /** Optional explicit name, used when nodes are given as an array. */
  readonly name?: string;
}

export interface WorkflowDefinition<C extends Context = Context> {
  id: string;
  start?: string;
  initialContext?: C;
  nodes: Record<string, NodeDefinition<C>> | ReadonlyArray<NodeDefinition<C> & { name: string }>;
  maxSteps?: number;
}

/** A validated workflow, ready to run. */
export interface Workflow<C extends Context = Context> {
  readonly kind: 'rvport.workflow';
  readonly id: string;
  readonly start: string;
  readonly initialContext: C;
  readonly nodes: ReadonlyMap<string, NodeDefinition<C>>;
  readonly maxSteps: number;
}

/** Common options of every node factory. */
export interface NodeOptions<C extends Context = Context> {
  then: Transition<C>;
  targets?: readonly string[];
  retry?: Partial<RetryPolicy>;
  failuresAsData?: boolean;
  name?: string;
}
