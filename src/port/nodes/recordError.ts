import { classifyError, severityOf } from '../classifyError.ts';
import { errorSignature } from '../errorSignature.ts';
import type { ErrorRecord, PortState } from '../PortState.ts';
import type { ErrorCategory } from '../vocabulary.ts';

/** Lines of a failed command's output kept in an error record. */
export const ERROR_TAIL_LINES = 40;

export interface ErrorInput {
  node: string;
  output: string;
  phase?: string;
  command?: string;
  exitCode?: number;
  timedOut?: boolean;
  /** Decided by the caller instead of by the output. */
  category?: ErrorCategory;
  /** The line that decided, when the caller decided (a sandbox limit's reason). */
  evidence?: string;
}

/** Builds an error record: category from the rules (or given), signature for loop detection. */
export function makeError(input: ErrorInput): ErrorRecord {
  const fromOutput = classifyError(input.output, { timedOut: input.timedOut ?? false });
  const classified = input.evidence ? { ...fromOutput, evidence: input.evidence } : fromOutput;
  const category = input.category ?? classified.category;
  const lines = input.output.split('\n');
  const message = lines.slice(-ERROR_TAIL_LINES).join('\n').trim() || '(no output)';
  const evidence =
    classified.evidence && !message.includes(classified.evidence) ? `${classified.evidence}\n…\n` : '';
  return {
    at: new Date().toISOString(),
    node: input.node,
    ...(input.phase ? { phase: input.phase } : {}),
    ...(input.command ? { command: input.command } : {}),
    ...(input.exitCode !== undefined ? { exitCode: input.exitCode } : {}),
    category,
    severity: input.category ? severityOf(input.category) : classified.severity,
    message: `${evidence}${message}`,
    ...(classified.evidence && (!input.category || input.evidence) ? { evidence: classified.evidence } : {}),
    signature: `${category}: ${errorSignature(classified.evidence || message)}`,
  };
}

/** Recording an error counts one attempt (SPEC section 4). */
export function recordError(
  state: PortState,
  error: ErrorRecord,
): Pick<PortState, 'errors' | 'attemptCount'> {
  return { errors: [...state.errors, error], attemptCount: state.attemptCount + 1 };
}
