import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Clock, systemClock } from './clock.ts';
import { END } from './END.ts';
import { errorMessage, isEngineError, NodeFailedError, StateFileError, StepLimitError } from './errors.ts';
import type { EngineEvent, EngineEventListener, RunOutcome } from './events.ts';
import { resolveTransition } from './resolveTransition.ts';
import { DEFAULT_RETRY_POLICY, nextRetry } from './retryPolicy.ts';
import { appendTrail, applyUpdate, createInitialState } from './state.ts';
import { FileStateStore } from './stores/FileStateStore.ts';
import type { StateStore } from './stores/StateStore.ts';
import type {
  Context,
  NodeDefinition,
  NodeResult,
  NodeRunContext,
  NodeUpdate,
  StateError,
  StepRecord,
  Workflow,
  WorkflowState,
} from './types.ts';

export interface RunOptions<C extends Context = Context> {
  /** Where checkpoints go; default a FileStateStore in `stateDir`. */
  store?: StateStore;
  /** Directory of the default file store; default `.graph-state`. */
  stateDir?: string;
  /** Directory for node logs; default `<stateDir>/logs/<id>`. */
  logDir?: string;
  signal?: AbortSignal;
  clock?: Clock;
  onEvent?: EngineEventListener;
  /** Services handed to nodes (an LLM client, a sandbox, …). */
  services?: Record<string, unknown>;
  /** Merged over the workflow's initial context when a run starts fresh (ignored on resume). */
  context?: Partial<C>;
  /** Recorded in the state (e.g. the workflow file), so the run can be resumed from the CLI. */
  source?: string;
  /** Run under another id than the workflow's (several runs of one workflow). */
  id?: string;
}

export interface RunResult<C extends Context = Context> {
  outcome: RunOutcome;
  state: WorkflowState<C>;
  /** Why the run failed (also recorded in `state.error`). */
  error?: Error;
  resumed: boolean;
}

/**
 * Runs a workflow to the end, a failure, or an interruption, checkpointing after every node.
 * If a state for the id exists, the run resumes at its current node; a completed run is not
 * run again (reset it first).
 */
export async function runWorkflow<C extends Context>(
  workflow: Workflow<C>,
  options: RunOptions<C> = {},
): Promise<RunResult<C>> {
  const id = options.id ?? workflow.id;
  const store = options.store ?? new FileStateStore(options.stateDir);
  const release = await store.lock(id);
  try {
    return await execute(workflow, id, store, options);
  } finally {
    await release();
  }
}

async function execute<C extends Context>(
  workflow: Workflow<C>,
  id: string,
  store: StateStore,
  options: RunOptions<C>,
): Promise<RunResult<C>> {
  const clock = options.clock ?? systemClock;
  const signal = options.signal ?? new AbortController().signal;
  const emit = (event: EngineEvent) => options.onEvent?.(event);
  const logDir = options.logDir ?? defaultLogDir(store, id);
  const nodeNames = new Set(workflow.nodes.keys());
  const now = () => new Date(clock.now()).toISOString();

  const existing = (await store.load(id)) as WorkflowState<C> | undefined;
  if (existing?.status === 'completed') {
    emit({ type: 'run:end', workflowId: id, outcome: 'already-completed' });
    return { outcome: 'already-completed', state: existing, resumed: true };
  }
  const resumed = existing !== undefined;
  let state: WorkflowState<C> =
    existing ??
    createInitialState(
      id,
      workflow.start,
      { ...workflow.initialContext, ...options.context } as C,
      new Date(clock.now()),
    );
  if (state.currentNode !== null && !nodeNames.has(state.currentNode)) {
    throw new StateFileError(
      store.locate(id),
      `it stops at node '${state.currentNode}', which workflow '${workflow.id}' does not have`,
    );
  }
  state = { ...state, status: 'running', error: null, updatedAt: now() };
  if (options.source !== undefined) state.source = options.source;
  await store.save(state);
  emit({ type: 'run:start', workflowId: id, node: state.currentNode ?? END, resumed });

  const stop = async (outcome: RunOutcome, record?: StepRecord, error?: Error): Promise<RunResult<C>> => {
    const status = outcome === 'completed' ? 'completed' : outcome === 'failed' ? 'failed' : 'pending';
    state = {
      ...state,
      status,
      updatedAt: now(),
      trail: record ? appendTrail(state.trail, record) : state.trail,
      error: error ? toStateError(error, state.currentNode, now()) : null,
    };
    await store.save(state);
    emit({ type: 'run:end', workflowId: id, outcome, ...(error ? { message: error.message } : {}) });
    return { outcome, state, resumed, ...(error ? { error } : {}) };
  };

  while (state.currentNode !== null) {
    const node = state.currentNode;
    if (signal.aborted) return stop('interrupted');
    if (state.steps >= workflow.maxSteps)
      return stop('failed', undefined, new StepLimitError(workflow.maxSteps, node));
    const definition = workflow.nodes.get(node) as NodeDefinition<C>;
    const step = state.steps + 1;
    const started = clock.now();
    const ctx: NodeRunContext = {
      node,
      workflowId: id,
      signal,
      clock,
      logDir,
      step,
      remainingSteps: workflow.maxSteps - step,
      emit,
      services: options.services ?? {},
      inFlight: state.inFlight[node],
      saveInFlight: async (value) => {
        state = { ...state, inFlight: { ...state.inFlight, [node]: value }, updatedAt: now() };
        await store.save(state);
      },
    };
    const record = (outcome: StepRecord['outcome'], attempts: number, next: string | null): StepRecord => ({
      step,
      node,
      next,
      outcome,
      attempts,
      durationMs: clock.now() - started,
      at: now(),
    });

    const attempt = await runWithRetries(definition, state, ctx);
    if (attempt.kind === 'interrupted')
      return stop('interrupted', record('interrupted', attempt.attempts, null));
    let outcome: StepRecord['outcome'] = 'ok';
    let update: NodeUpdate<C> = {};
    let innerSteps = 0;
    if (attempt.kind === 'failed') {
      const error = attempt.error;
      emit({
        type: 'node:error',
        workflowId: id,
        node,
        message: error.message,
        asData: !!definition.failuresAsData,
      });
      if (!definition.failuresAsData) return stop('failed', record('failed', attempt.attempts, null), error);
      outcome = 'failure-as-data';
      state = { ...state, lastFailure: toStateError(error, node, now()) };
    } else {
      ({ update, innerSteps } = attempt);
      if (state.lastFailure?.node === node) state = { ...state, lastFailure: null };
    }

    const { [node]: _finished, ...inFlight } = state.inFlight;
    state = { ...applyUpdate(state, update), steps: state.steps + 1 + innerSteps, inFlight };
    let next: string;
    try {
      next = resolveTransition(node, definition, state, nodeNames);
    } catch (error) {
      return stop('failed', record('failed', attempt.attempts, null), error as Error);
    }
    state = {
      ...state,
      currentNode: next === END ? null : next,
      trail: appendTrail(state.trail, record(outcome, attempt.attempts, next)),
      status: next === END ? 'completed' : 'running',
      updatedAt: now(),
    };
    await store.save(state);
    emit({ type: 'node:end', workflowId: id, node, step, durationMs: clock.now() - started });
    emit({ type: 'transition', workflowId: id, from: node, to: next });
  }
  emit({ type: 'run:end', workflowId: id, outcome: 'completed' });
  return { outcome: 'completed', state, resumed };
}

type AttemptResult<C extends Context> =
  | { kind: 'ok'; update: NodeUpdate<C>; innerSteps: number; attempts: number }
  | { kind: 'failed'; error: Error; attempts: number }
  | { kind: 'interrupted'; attempts: number };

/** Runs one node, retrying per its policy and the rate-limit rule; never throws. */
async function runWithRetries<C extends Context>(
  definition: NodeDefinition<C>,
  state: WorkflowState<C>,
  ctx: NodeRunContext,
): Promise<AttemptResult<C>> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...definition.retry };
  for (let attempts = 1; ; attempts++) {
    ctx.emit({
      type: 'node:start',
      workflowId: ctx.workflowId,
      node: ctx.node,
      step: ctx.step,
      attempt: attempts,
    });
    try {
      const raw = await definition.run(state, ctx);
      if (ctx.signal.aborted) return { kind: 'interrupted', attempts };
      const { update, innerSteps } = normalizeResult(raw);
      return { kind: 'ok', update, innerSteps, attempts };
    } catch (thrown) {
      if (ctx.signal.aborted) return { kind: 'interrupted', attempts };
      const error =
        thrown instanceof Error
          ? thrown
          : new NodeFailedError('node-failed', errorMessage(thrown), { node: ctx.node });
      const decision = nextRetry(error, attempts, policy, ctx.clock.random());
      if (!decision) return { kind: 'failed', error, attempts };
      ctx.emit({
        type: 'node:retry',
        workflowId: ctx.workflowId,
        node: ctx.node,
        attempt: attempts,
        delayMs: decision.delayMs,
        reason: `${decision.reason}: ${error.message}`,
      });
      try {
        await ctx.clock.sleep(decision.delayMs, ctx.signal);
      } catch {
        return { kind: 'interrupted', attempts };
      }
    }
  }
}

function normalizeResult<C extends Context>(
  raw: NodeUpdate<C> | NodeResult<C> | undefined,
): NodeResult<C> & {
  innerSteps: number;
} {
  if (raw && typeof raw === 'object' && 'update' in raw) {
    return { update: raw.update ?? {}, innerSteps: raw.innerSteps ?? 0 };
  }
  return { update: (raw as NodeUpdate<C> | undefined) ?? {}, innerSteps: 0 };
}

function toStateError(error: Error, node: string | null, at: string): StateError {
  return {
    message: error.message,
    code: isEngineError(error) ? error.code : error.name || 'Error',
    node,
    at,
  };
}

function defaultLogDir(store: StateStore, id: string): string {
  return store instanceof FileStateStore
    ? join(store.dir, 'logs', id)
    : join(tmpdir(), 'rvport-graph-logs', id);
}

/** Deletes the saved state (and logs) of a run; false when there was none. */
export async function resetWorkflow(
  id: string,
  options: { store?: StateStore; stateDir?: string } = {},
): Promise<boolean> {
  const store = options.store ?? new FileStateStore(options.stateDir);
  const release = await store.lock(id);
  try {
    return await store.delete(id);
  } finally {
    await release();
  }
}
