import { isContextLine } from './firstErrorLine.ts';

/** Lines that say what went wrong, in the order a reader would look for them. */
const ERROR_LINE =
  /\b(error|fatal|undefined reference|not found|no such file|cannot|could not|failed|unable to)\b/i;
const MAX_SIGNATURE = 240;

/**
 * Reduces an error message to what stays the same when the same error happens again: the first
 * error-like lines, without numbers, addresses, temporary paths and timing. Two errors with equal
 * signatures are one error seen twice (loop detection).
 */
export function errorSignature(message: string): string {
  const lines = message
    .split('\n')
    .filter((l) => !isContextLine(l))
    .map((l) => l.trim())
    .filter(Boolean);
  const errorLines = lines.filter((l) => ERROR_LINE.test(l));
  const picked = (errorLines.length > 0 ? errorLines : lines.slice(-3)).slice(0, 3);
  return picked
    .map((line) =>
      line
        .toLowerCase()
        .replace(/\/tmp\/[^\s:'"]+/g, '<tmp>')
        .replace(/0x[0-9a-f]+/g, '<hex>')
        .replace(/\b[0-9a-f]{12,}\b/g, '<hash>')
        .replace(/\d+(\.\d+)*/g, 'N')
        .replace(/\s+/g, ' '),
    )
    .join(' | ')
    .slice(0, MAX_SIGNATURE);
}
