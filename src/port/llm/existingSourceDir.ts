import { statSync } from 'node:fs';
import { join, posix } from 'node:path';

/**
 * A folder an LLM named, normalised to the form plans use ('.' or `a/b`), when it is a real
 * folder of the source tree on the host; null otherwise (absolute, leaving the tree, missing, or
 * no tree to check against).
 */
export function existingSourceDir(root: string | undefined, dir: string): string | null {
  const cleaned = dir.trim().replace(/\\/g, '/');
  if (cleaned === '' || cleaned.startsWith('/')) return null;
  const normal = posix.normalize(cleaned).replace(/\/+$/, '') || '.';
  if (normal === '..' || normal.startsWith('../')) return null;
  if (normal === '.') return '.';
  if (!root) return null;
  try {
    return statSync(join(root, normal)).isDirectory() ? normal : null;
  } catch {
    return null;
  }
}
