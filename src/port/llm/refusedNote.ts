import type { ExcerptSource } from '../../llm/index.ts';

/**
 * Why a prompt leaves a file of the tree out for the host's safety (a link leading out of the
 * tree, or a loop of links), or null when the file is just missing, unreadable or too large.
 */
export function refusedReason(code: string): string | null {
  if (code === 'outside-tree') return 'a symbolic link that leads outside the source tree';
  if (code === 'link-loop') return 'a loop of symbolic links';
  return null;
}

/** What a prompt shows in place of a file it would not read: the model knows it exists. */
export function refusedNote(path: string, reason: string): ExcerptSource {
  return { path, content: `(not read: ${reason})`, priority: 0 };
}
