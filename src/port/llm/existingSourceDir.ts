import { posix } from 'node:path';
import { existsConfined } from '../../fs/index.ts';

/**
 * A folder an LLM named, normalised to the form plans use ('.' or `a/b`), when it is a real
 * folder of the source tree on the host; null otherwise (absolute, leaving the tree, missing, or
 * no tree to check against). A folder reached through a symbolic link counts only when the link
 * stays inside the tree.
 */
export function existingSourceDir(root: string | undefined, dir: string): string | null {
  const cleaned = dir.trim().replace(/\\/g, '/');
  if (cleaned === '' || cleaned.startsWith('/')) return null;
  const normal = posix.normalize(cleaned).replace(/\/+$/, '') || '.';
  if (normal === '..' || normal.startsWith('../')) return null;
  if (normal === '.') return '.';
  if (!root) return null;
  return existsConfined(root, normal, { directory: true }) ? normal : null;
}
