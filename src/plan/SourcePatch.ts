/** A change to the source tree, kept as a patch file of the recipe. */
export interface SourcePatch {
  /** The file name in patches/ (`0001-short-name.patch`). */
  name: string;
  /** A git diff against the source tree, paths relative to its root (`a/…`, `b/…`). */
  diff: string;
}

/** `0003-rename-strnlen.patch` from the patch's place in the list and a summary. */
export function patchFileName(index: number, summary: string): string {
  const slug =
    summary
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48)
      .replace(/-+$/g, '') || 'fix';
  return `${String(index + 1).padStart(4, '0')}-${slug}.patch`;
}
