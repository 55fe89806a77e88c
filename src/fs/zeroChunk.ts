/** The chunk size of rvport's file copies, and a chunk of zeros to hold a read one against. */
export const COPY_CHUNK = 1 << 20;
const ZEROS = Buffer.alloc(COPY_CHUNK);

/**
 * True when the first `length` bytes of `buffer` are all zero: a copy leaves such a chunk as a
 * hole instead of writing it, so a file the build padded with holes stays sparse on the host.
 */
export function isZeroChunk(buffer: Buffer, length: number): boolean {
  for (let at = 0; at < length; at += COPY_CHUNK) {
    const end = Math.min(length, at + COPY_CHUNK);
    if (buffer.compare(ZEROS, 0, end - at, at, end) !== 0) return false;
  }
  return true;
}
