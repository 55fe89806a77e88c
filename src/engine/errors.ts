import { isRvportErrorNamed, RvportError, type RvportErrorOptions } from '../errors/index.ts';

/**
 * Engine failures carry a stable kebab-case `code` (the convention of src/errors/). Interruption
 * is not a failure and is not in this hierarchy.
 */
export class EngineError extends RvportError {
  override name = 'EngineError';
}

/** The engine's classes, by name: isEngineError recognises them in any copy of the package. */
const ENGINE_ERROR_NAMES = [
  'EngineError',
  'WorkflowDefinitionError',
  'TransitionError',
  'StepLimitError',
  'StateFileError',
  'WorkflowLockedError',
  'NodeFailedError',
];

/** A workflow definition with problems; all of them are listed at once. */
export class WorkflowDefinitionError extends EngineError {
  override name = 'WorkflowDefinitionError';
  constructor(
    readonly workflowId: string,
    readonly problems: readonly string[],
  ) {
    super(
      'invalid-workflow',
      `workflow '${workflowId}' is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
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
      'invalid-transition',
      `transition from node '${node}' returned ${JSON.stringify(value) ?? String(value)}, ` +
        `which is not an allowed target (allowed: ${allowed.join(', ')})`,
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
      'step-limit',
      `step limit of ${limit} reached before node '${node}': the workflow is probably looping ` +
        `without an exit (raise maxSteps if the loop is intended)`,
    );
  }
}

export class StateFileError extends EngineError {
  override name = 'StateFileError';
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super('corrupt-state', `state file ${file} is unusable: ${reason} (inspect it, or delete it with reset)`);
  }
}

export class WorkflowLockedError extends EngineError {
  override name = 'WorkflowLockedError';
  constructor(
    readonly workflowId: string,
    readonly pid: number,
  ) {
    super('locked', `workflow '${workflowId}' is already running in process ${pid}`);
  }
}

export interface NodeFailedErrorOptions extends RvportErrorOptions {
  /** The node that failed. */
  node: string;
}

export class NodeFailedError extends EngineError {
  override name = 'NodeFailedError';
  readonly node: string;
  constructor(code: string, message: string, { node, ...options }: NodeFailedErrorOptions) {
    super(code, message, options);
    this.node = node;
  }
}

export function isEngineError(error: unknown, code?: string): error is EngineError {
  return isRvportErrorNamed(error, ENGINE_ERROR_NAMES, code);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
