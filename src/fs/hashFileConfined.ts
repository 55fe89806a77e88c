import { createHash } from 'node:crypto';
import { closeSync, readSync } from 'node:fs';
import { ConfinedPathError } from './ConfinedPathError.ts';
import { openConfined } from './openConfined.ts';
import { COPY_CHUNK } from './zeroChunk.ts';

export interface FileDigest {
  /** The path resolved inside the tree. */
  path: string;
  /** Bytes read (apparent size). */
  size: number;
  /** SHA-256 of the content, hex. */
  sha256: string;
}

/**
 * The SHA-256 of a regular file of an untrusted tree, read in chunks through a descriptor
 * opened inside it (see openConfined): bounded memory whatever its size, never through a link
 * that leaves the tree. A file larger than `maxBytes`, or growing past it while read, is refused.
 */
export function hashFileConfined(root: string, rel: string, options: { maxBytes: number }): FileDigest {
  const { fd, path, stats } = openConfined(root, rel);
  try {
    const tooLarge = () =>
      new ConfinedPathError('too-large', `${rel}: ${path} is larger than ${options.maxBytes} bytes`, {
        path: rel,
      });
    if (stats.size > options.maxBytes) throw tooLarge();
    const hash = createHash('sha256');
    const buffer = Buffer.alloc(Math.min(COPY_CHUNK, stats.size + 1));
    let size = 0;
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      size += read;
      if (size > options.maxBytes) throw tooLarge();
      hash.update(buffer.subarray(0, read));
    }
    return { path, size, sha256: hash.digest('hex') };
  } finally {
    closeSync(fd);
  }
}
