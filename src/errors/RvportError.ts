/**
 * The base of rvport's public errors. `code` is stable and kebab-case (`corrupt-state`,
 * `host-key-unknown`): most codes were already so, among them those the dashboard's HTTP API
 * answers with, and the casing tells rvport's codes apart from Node's own (`ENOENT`, read through
 * the same `.code`) and from the port's SCREAMING_SNAKE failure categories. Constructors take
 * `(code, message, options?)`; a class with a single code takes `(message, options?)`. Extra
 * facts go in the options (or are fields of a class built from data, like PreflightError's checks).
 */
export interface RvportErrorOptions {
  cause?: unknown;
}

/** Marks rvport's errors so two copies of the package (or of a module) still recognise them. */
const BRAND = Symbol.for('rvport.error');

export class RvportError extends Error {
  override name = 'RvportError';
  readonly code: string;

  constructor(code: string, message: string, options?: RvportErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/**
 * The one guard for rvport's errors: true for an RvportError of any copy of the package (by its
 * brand, not `instanceof` or `name`), with `code` when one is given.
 */
export function isRvportError(error: unknown, code?: string): error is RvportError {
  if (!(error instanceof Error) || (error as unknown as Record<symbol, unknown>)[BRAND] !== true)
    return false;
  const c = (error as { code?: unknown }).code;
  return typeof c === 'string' && (code === undefined || c === code);
}

/** An RvportError whose class is `name` (subclasses set their own name), with `code` when given. */
export function isRvportErrorNamed(
  error: unknown,
  names: readonly string[],
  code?: string,
): error is RvportError {
  return isRvportError(error, code) && names.includes(error.name);
}
