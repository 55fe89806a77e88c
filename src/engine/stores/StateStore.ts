import type { WorkflowState } from '../types.ts';

/** Where checkpoints live. The file store is the default; tests also use the memory store. */
export interface StateStore {
  /** The saved state, undefined when there is none; throws StateFileError when it is unusable. */
  load(workflowId: string): Promise<WorkflowState | undefined>;
  /** Saves atomically: a reader sees the previous state or the new one, never a mix. */
  save(state: WorkflowState): Promise<void>;
  /** Deletes the state; false when there was none. */
  delete(workflowId: string): Promise<boolean>;
  /** Ids of every saved state. */
  list(): Promise<string[]>;
  /** Takes the run lock for an id (one runner at a time); returns the release function. */
  lock(workflowId: string): Promise<() => Promise<void>>;
  /** Where the state of an id lives, for messages. */
  locate(workflowId: string): string;
}
