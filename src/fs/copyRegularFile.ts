import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fchmodSync,
  ftruncateSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { ConfinedPathError } from './ConfinedPathError.ts';
import { openConfined } from './openConfined.ts';
import { COPY_CHUNK, isZeroChunk } from './zeroChunk.ts';

/** No artifact we ship is larger; a build that writes a sparse terabyte does not fill OUT/. */
export const MAX_COPY_BYTES = 2 * 1024 * 1024 * 1024;

export interface CopiedFile {
  /** The source path resolved inside the tree. */
  from: string;
  /** Apparent size: what the file holds, holes counted. */
  bytes: number;
  /** 0o755 or 0o644. */
  mode: number;
  /** SHA-256 of the bytes written (holes read as zeros), hex. */
  sha256: string;
}

/**
 * Copies a regular file of an untrusted tree to `dest` (a path rvport owns, e.g. under OUT/):
 * the copy is always a new regular file that rvport wrote, with the content read from a
 * descriptor opened inside the tree (links inside it followed, links leaving it refused; never a
 * device, FIFO or socket), and mode 0o755 when the original is executable by anyone, 0o644
 * otherwise: no setuid, setgid or sticky bit, no write bit for others, whatever the build set.
 * `maxBytes` bounds the apparent size (holes count); chunks of zeros are left as holes, so a
 * sparse file is as small on the host's disk as it was in the sandbox. Written beside `dest` and
 * renamed, so `dest` is the old file or the whole copy.
 */
export function copyRegularFile(
  root: string,
  rel: string,
  dest: string,
  options: { maxBytes?: number } = {},
): CopiedFile {
  const maxBytes = options.maxBytes ?? MAX_COPY_BYTES;
  const source = openConfined(root, rel);
  const temp = `${dest}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  let out: number | null = null;
  try {
    if (source.stats.size > maxBytes)
      throw new ConfinedPathError(
        'too-large',
        `${rel}: ${source.stats.size} bytes (apparent size), over the limit of ${maxBytes}; not copied`,
        { path: rel },
      );
    const mode = source.stats.mode & 0o111 ? 0o755 : 0o644;
    out = openSync(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    const buffer = Buffer.alloc(COPY_CHUNK);
    const hash = createHash('sha256');
    let bytes = 0;
    for (;;) {
      const read = readSync(source.fd, buffer, 0, COPY_CHUNK, null);
      if (read === 0) break;
      if (bytes + read > maxBytes)
        throw new ConfinedPathError(
          'too-large',
          `${rel}: grew past the limit of ${maxBytes} bytes while copied; not copied`,
          { path: rel },
        );
      hash.update(buffer.subarray(0, read));
      if (!isZeroChunk(buffer, read))
        for (let done = 0; done < read; ) done += writeSync(out, buffer, done, read - done, bytes + done);
      bytes += read;
    }
    // the holes at the end: the length without writing them
    ftruncateSync(out, bytes);
    fchmodSync(out, mode);
    closeSync(out);
    out = null;
    renameSync(temp, dest);
    return { from: source.path, bytes, mode, sha256: hash.digest('hex') };
  } catch (error) {
    if (out !== null) closeSync(out);
    rmSync(temp, { force: true });
    throw error;
  } finally {
    closeSync(source.fd);
  }
}
