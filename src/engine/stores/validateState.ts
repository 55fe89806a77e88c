import { StateFileError } from '../errors.ts';
import { STATE_FORMAT_VERSION } from '../state.ts';
import type { WorkflowState } from '../types.ts';

const STATUSES = new Set(['pending', 'running', 'completed', 'failed']);

/** Checks that parsed JSON is a state this engine can resume; throws naming the file otherwise. */
export function validateState(value: unknown, where: string, expectedId: string): WorkflowState {
  const problems: string[] = [];
  const s = value as Partial<WorkflowState> | null;
  if (typeof s !== 'object' || s === null || Array.isArray(s))
    throw new StateFileError(where, 'not a JSON object');
  if (s.formatVersion !== STATE_FORMAT_VERSION) {
    problems.push(`format version ${String(s.formatVersion)} (this rvport reads ${STATE_FORMAT_VERSION})`);
  }
  if (s.workflowId !== expectedId)
    problems.push(`workflowId is ${JSON.stringify(s.workflowId)}, expected '${expectedId}'`);
  if (!STATUSES.has(s.status as string)) problems.push(`unknown status ${JSON.stringify(s.status)}`);
  if (s.currentNode !== null && typeof s.currentNode !== 'string') problems.push('currentNode is missing');
  if (typeof s.context !== 'object' || s.context === null) problems.push('context is missing');
  if (!Array.isArray(s.history)) problems.push('history is missing');
  if (typeof s.steps !== 'number') problems.push('steps is missing');
  if (!Array.isArray(s.trail)) problems.push('trail is missing');
  if (typeof s.inFlight !== 'object' || s.inFlight === null) problems.push('inFlight is missing');
  if (problems.length > 0) throw new StateFileError(where, problems.join('; '));
  return s as WorkflowState;
}
