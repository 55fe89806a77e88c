import type { ErrorRecord, PortState } from '../../state/PortState.ts';
import type { ErrorCategory } from '../../state/vocabulary.ts';
import { classifyError, severityOf } from '../../steps/classifyError.ts';
import { errorSignature } from '../../steps/errorSignature.ts';
import { firstErrorLine } from '../../steps/firstErrorLine.ts';

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

/**
 * Builds an error record: category from the rules (or given), and the first real error line of
 * the output, which the signature for loop detection is made from (the last lines may be a
 * warning another file printed after the failure).
 */
export function makeError(input: ErrorInput): ErrorRecord {
  const errorLine = firstErrorLine(input.output);
  const fromOutput = classifyError(input.output, { timedOut: input.timedOut ?? false, errorLine });
  const classified = input.evidence ? { ...fromOutput, evidence: input.evidence } : fromOutput;
  const category = input.category ?? classified.category;
  const lines = input.output.split('\n');
  const message = lines.slice(-ERROR_TAIL_LINES).join('\n').trim() || '(no output)';
  // Lines the tail does not show are put before it: the error line, and the deciding line.
  const before = [
    ...(errorLine && errorLine.index < lines.length - ERROR_TAIL_LINES ? [errorLine.text] : []),
    ...(classified.evidence &&
    !message.includes(classified.evidence) &&
    classified.evidence !== errorLine?.text
      ? [classified.evidence]
      : []),
  ];
  const evidence = before.length > 0 ? `${before.join('\n')}\n…\n` : '';
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
    ...(errorLine ? { errorLine: errorLine.text } : {}),
    signature: `${category}: ${errorSignature(errorLine?.text || classified.evidence || message)}`,
  };
}

/** Recording an error counts one attempt (SPEC section 4). */
export function recordError(
  state: PortState,
  error: ErrorRecord,
): Pick<PortState, 'errors' | 'attemptCount'> {
  return { errors: [...state.errors, error], attemptCount: state.attemptCount + 1 };
}
