/** The folder make was in when it failed: the last "Entering directory" before the first error. */
export function failingDirectory(output: string): string | null {
  const firstError = output.search(/\*\*\* /);
  const before = firstError === -1 ? output : output.slice(0, firstError);
  const entered = [...before.matchAll(/Entering directory '([^']+)'/g)].at(-1)?.[1];
  return entered ?? null;
}

/** Folders that hold documentation, not code. */
export const DOC_DIR = /\/(doc|docs|documentation|man|manual|spec|info)(\/|$)/;
