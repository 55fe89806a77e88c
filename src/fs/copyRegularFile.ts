import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { ConfinedPathError } from './ConfinedPathError.ts';
import { openConfined } from './openConfined.ts';

/** No artifact we ship is larger; a build that writes a sparse terabyte does not fill OUT/. */
export const MAX_COPY_BYTES = 2 * 1024 * 1024 * 1024;
const CHUNK = 1 << 20;

export interface CopiedFile {
  /** The source path resolved inside the tree. */
  from: string;
  bytes: number;
  /** 0o755 or 0o644. */
  mode: number;
}

/**
 * Copies a regular file of an untrusted tree to `dest` (a path rvport owns, e.g. under OUT/):
 * the copy is always a new regular file that rvport wrote, with the content read from a
 * descriptor opened inside the tree (links inside it followed, links leaving it refused; never a
 * device, FIFO or socket), and mode 0o755 when the original is executable by anyone, 0o644
 * otherwise: no setuid, setgid or sticky bit, no write bit for others, whatever the build set.
 * Written beside `dest` and renamed, so `dest` is the old file or the whole copy.
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
      throw new ConfinedPathError('too-large', rel, `${rel}: larger than ${maxBytes} bytes; not copied`);
    const mode = source.stats.mode & 0o111 ? 0o755 : 0o644;
    out = openSync(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    const buffer = Buffer.alloc(CHUNK);
    let bytes = 0;
    for (;;) {
      const read = readSync(source.fd, buffer, 0, CHUNK, null);
      if (read === 0) break;
      bytes += read;
      if (bytes > maxBytes)
        throw new ConfinedPathError('too-large', rel, `${rel}: grew past ${maxBytes} bytes while copied`);
      for (let done = 0; done < read; ) done += writeSync(out, buffer, done, read - done);
    }
    fchmodSync(out, mode);
    closeSync(out);
    out = null;
    renameSync(temp, dest);
    return { from: source.path, bytes, mode };
  } catch (error) {
    if (out !== null) closeSync(out);
    rmSync(temp, { force: true });
    throw error;
  } finally {
    closeSync(source.fd);
  }
}
