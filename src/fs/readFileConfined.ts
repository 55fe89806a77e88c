import { closeSync, readSync } from 'node:fs';
import { ConfinedPathError, isConfinedPathError } from './ConfinedPathError.ts';
import { openConfined } from './openConfined.ts';

/** Larger files are refused unless the caller says otherwise (a build can write a huge file). */
export const DEFAULT_MAX_READ_BYTES = 64 * 1024 * 1024;

/**
 * The content of a regular file of the tree, read through a descriptor opened inside it (see
 * openConfined): never through a link that leaves the tree, never a device or FIFO. A file that
 * grows past `maxBytes` while it is read is refused too.
 */
export function readFileConfined(root: string, rel: string, options: { maxBytes?: number } = {}): Buffer {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_READ_BYTES;
  const { fd, path, stats } = openConfined(root, rel);
  try {
    if (stats.size > maxBytes) throw tooLarge(rel, path, stats.size, maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(
        Math.min(Math.max(stats.size - total, 0) + 1, 1 << 20, maxBytes - total + 1),
      );
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      total += read;
      if (total > maxBytes) throw tooLarge(rel, path, total, maxBytes);
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/** The first `bytes` bytes of a regular file of the tree (fewer when it is shorter). */
export function readHeadConfined(root: string, rel: string, bytes: number): Buffer {
  const { fd } = openConfined(root, rel);
  try {
    const head = Buffer.alloc(bytes);
    let total = 0;
    while (total < bytes) {
      const read = readSync(fd, head, total, bytes - total, total);
      if (read === 0) break;
      total += read;
    }
    return head.subarray(0, total);
  } finally {
    closeSync(fd);
  }
}

/** The text of a file, or null when it is missing, refused or too large (and why, for a note). */
export function readTextConfined(
  root: string,
  rel: string,
  options: { maxBytes?: number; encoding?: BufferEncoding } = {},
): { text: string } | { text: null; reason: string; code: string } {
  try {
    const content = readFileConfined(root, rel, options);
    return { text: content.toString(options.encoding ?? 'utf8') };
  } catch (error) {
    if (isConfinedPathError(error)) return { text: null, reason: error.message, code: error.code };
    const code = (error as NodeJS.ErrnoException)?.code ?? 'unreadable';
    return { text: null, reason: `${rel}: ${(error as Error)?.message ?? String(error)}`, code };
  }
}

function tooLarge(rel: string, path: string, size: number, max: number): ConfinedPathError {
  return new ConfinedPathError('too-large', `${rel}: ${path} is larger than ${max} bytes (${size})`, {
    path: rel,
  });
}
