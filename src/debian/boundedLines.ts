import type { FileHandle } from 'node:fs/promises';

const CHUNK_BYTES = 1024 * 1024;

/**
 * The lines of an open file, read in chunks: at most `maxLineBytes` are held for one line, so a
 * file without line breaks cannot fill the memory. A longer line throws.
 */
export async function* boundedLines(file: FileHandle, maxLineBytes: number): AsyncGenerator<string> {
  const buffer = Buffer.alloc(CHUNK_BYTES);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for (;;) {
    const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) break;
    let start = 0;
    for (;;) {
      const end = buffer.indexOf(10, start);
      if (end < 0 || end >= bytesRead) break;
      pendingBytes += end - start;
      if (pendingBytes > maxLineBytes) throw new Error(`a line longer than ${maxLineBytes} bytes`);
      pending.push(buffer.subarray(start, end));
      yield Buffer.concat(pending).toString('utf8');
      pending = [];
      pendingBytes = 0;
      start = end + 1;
    }
    pendingBytes += bytesRead - start;
    if (pendingBytes > maxLineBytes) throw new Error(`a line longer than ${maxLineBytes} bytes`);
    pending.push(Buffer.from(buffer.subarray(start, bytesRead)));
  }
  if (pendingBytes > 0) yield Buffer.concat(pending).toString('utf8');
}
