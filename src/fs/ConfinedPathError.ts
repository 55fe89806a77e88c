import { isRvportErrorNamed, RvportError, type RvportErrorOptions } from '../errors/index.ts';

/** Why a path could not be used inside its tree; `code` lets callers react without parsing text. */
export type ConfinedPathErrorCode =
  /** A symbolic link (or `..`) leads out of the tree, or the tree's root is itself a link. */
  | 'outside-tree'
  /** More links on the way than a kernel would follow (a loop, or a chain meant to wear us out). */
  | 'link-loop'
  | 'not-found'
  /** Not a regular file where one is needed: a folder, device, FIFO or socket. */
  | 'not-a-file'
  | 'not-a-directory'
  | 'too-large'
  /** An absolute path, an empty one, or one with a NUL byte, where a path inside the tree is needed. */
  | 'invalid-path';

export interface ConfinedPathErrorOptions extends RvportErrorOptions {
  /** The path asked for, relative to the tree's root. */
  path: string;
}

export class ConfinedPathError extends RvportError {
  override name = 'ConfinedPathError';
  declare readonly code: ConfinedPathErrorCode;
  /** The path asked for, relative to the tree's root. */
  readonly path: string;
  constructor(code: ConfinedPathErrorCode, message: string, { path, ...options }: ConfinedPathErrorOptions) {
    super(code, message, options);
    this.path = path;
  }
}

export function isConfinedPathError(error: unknown): error is ConfinedPathError {
  return isRvportErrorNamed(error, ['ConfinedPathError']);
}
