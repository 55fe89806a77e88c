/**
 * Engine failures carry a stable `code`. Guards check `code` rather than `instanceof`, so two
 * copies of the package still agree. Interruption is not a failure and is not in this hierarchy.
 */
export class EngineError extends Error {
  override name = 'EngineError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** A workflow definition with problems; all of them are listed at once. */
export class WorkflowDefinitionError extends EngineError {
  override name = 'WorkflowDefinitionError';
  constructor(
    readonly workflowId: string,
    readonly problems: readonly string[],
  ) {
    super(
      `workflow '${workflowId}' is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
      'INVALID_WORKFLOW',
    );
  }
}

/** A transition function returned something that is not a node of the workflow. */
export class TransitionError extends EngineError {
  override name = 'TransitionError';
  constructor(
    readonly node: string,
    readonly value: unknown,
    readonly allowed: readonly string[],
  ) {
    super(
      `transition from node '${node}' returned ${JSON.stringify(value) ?? String(value)}, ` +
        `which is not an allowed target (allowed: ${allowed.join(', ')})`,
      'INVALID_TRANSITION',
    );
  }
}

export class StepLimitError extends EngineError {
  override name = 'StepLimitError';
  constructor(
    readonly limit: number,
    readonly node: string,
  ) {
    super(
      `step limit of ${limit} reached before node '${node}': the workflow is probably looping ` +
        `without an exit (raise maxSteps if the loop is intended)`,
      'STEP_LIMIT',
    );
  }
}

export class StateFileError extends EngineError {
  override name = 'StateFileError';
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`state file ${file} is unusable: ${reason} (inspect it, or delete it with reset)`, 'CORRUPT_STATE');
  }
}

export class WorkflowLockedError extends EngineError {
  override name = 'WorkflowLockedError';
  constructor(
    readonly workflowId: string,
    readonly pid: number,
  ) {
    super(`workflow '${workflowId}' is already running in process ${pid}`, 'LOCKED');
  }
}

export class NodeFailedError extends EngineError {
  override name = 'NodeFailedError';
  constructor(
    readonly node: string,
    message: string,
    code = 'NODE_FAILED',
  ) {
    super(message, code);
  }
}

export function isEngineError(error: unknown, code?: string): error is EngineError {
  if (typeof error !== 'object' || error === null) return false;
  const c = (error as { code?: unknown }).code;
  return typeof c === 'string' && error instanceof Error && (code === undefined || c === code);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
