import type { Context, NodeUpdate, StepRecord, WorkflowState } from './types.ts';

/** Version of the checkpoint format; a file with another version is refused, not guessed at. */
export const STATE_FORMAT_VERSION = 1;
/** Step records kept in the state; older ones are dropped (the step count stays exact). */
export const MAX_TRAIL = 50;

export function createInitialState<C extends Context>(
  workflowId: string,
  start: string,
  context: C,
  now: Date,
): WorkflowState<C> {
  const at = now.toISOString();
  return {
    formatVersion: STATE_FORMAT_VERSION,
    workflowId,
    currentNode: start,
    status: 'pending',
    context: structuredClone(context),
    history: [],
    steps: 0,
    startedAt: at,
    updatedAt: at,
    error: null,
    lastFailure: null,
    trail: [],
    inFlight: {},
  };
}

/** Merges a node's partial update: context one level deep, history appended. Pure. */
export function applyUpdate<C extends Context>(
  state: WorkflowState<C>,
  update: NodeUpdate<C>,
): WorkflowState<C> {
  return {
    ...state,
    context: update.context ? { ...state.context, ...update.context } : state.context,
    history: update.history?.length ? [...state.history, ...update.history] : state.history,
  };
}

export function appendTrail(trail: readonly StepRecord[], record: StepRecord): StepRecord[] {
  const next = trail.length >= MAX_TRAIL ? trail.slice(trail.length - MAX_TRAIL + 1) : trail.slice();
  next.push(record);
  return next;
}
