import { WorkflowLockedError } from '../errors.ts';
import type { WorkflowState } from '../types.ts';
import type { StateStore } from './StateStore.ts';
import { validateState } from './validateState.ts';

/** Keeps states in memory (serialised, so that it behaves like the file store). */
export class MemoryStateStore implements StateStore {
  private readonly states = new Map<string, string>();
  private readonly locks = new Set<string>();

  locate(workflowId: string): string {
    return `memory:${workflowId}`;
  }

  async load(workflowId: string): Promise<WorkflowState | undefined> {
    const text = this.states.get(workflowId);
    return text === undefined
      ? undefined
      : validateState(JSON.parse(text), this.locate(workflowId), workflowId);
  }

  async save(state: WorkflowState): Promise<void> {
    this.states.set(state.workflowId, JSON.stringify(state));
  }

  async delete(workflowId: string): Promise<boolean> {
    return this.states.delete(workflowId);
  }

  async list(): Promise<string[]> {
    return [...this.states.keys()].sort();
  }

  async lock(workflowId: string): Promise<() => Promise<void>> {
    if (this.locks.has(workflowId)) throw new WorkflowLockedError(workflowId, process.pid);
    this.locks.add(workflowId);
    return async () => {
      this.locks.delete(workflowId);
    };
  }
}
