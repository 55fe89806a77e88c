import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { SourceError } from '../SourceError.ts';

/** The system decompressor for each compressed format, chosen by the file's first bytes. */
const FORMATS: { magic: readonly number[]; command: readonly string[] }[] = [
  { magic: [0x1f, 0x8b], command: ['gzip', '-dc'] },
  { magic: [0x1f, 0x9d], command: ['gzip', '-dc'] },
  { magic: [0x42, 0x5a, 0x68], command: ['bzip2', '-dc'] },
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], command: ['xz', '-dc'] },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], command: ['zstd', '-dcq'] },
  { magic: [0x4c, 0x5a, 0x49, 0x50], command: ['lzip', '-dc'] },
];
/** The old lzma format has no magic number; its name says what it is. */
const LZMA_NAME = /\.(tar\.lzma|tlz)$/i;

export interface Decompressed {
  stream: AsyncIterable<Buffer>;
  /** Resolves when the decompressor ended well; rejects with a SourceError otherwise. */
  finished(): Promise<void>;
  /** Stops reading (the decompressor is killed unless its output already ended). */
  close(): void;
}

/**
 * The uncompressed bytes of a (possibly compressed) tar file. Decompression runs in the
 * system's own gzip/bzip2/xz/zstd/lzip, with no shell and an environment of PATH only; the tar
 * format itself is read by rvport, which decides what reaches the disk.
 */
export async function openDecompressed(file: string, signal?: AbortSignal): Promise<Decompressed> {
  const head = Buffer.alloc(8);
  const handle = await open(file, 'r');
  try {
    await handle.read(head, 0, 8, 0);
  } finally {
    await handle.close();
  }
  const format = FORMATS.find((f) => f.magic.every((b, i) => head[i] === b));
  const command = format?.command ?? (LZMA_NAME.test(file) ? ['xz', '--format=lzma', '-dc'] : null);
  if (!command) {
    const stream = createReadStream(file, { signal });
    return {
      stream,
      finished: async () => {},
      close: () => stream.destroy(),
    };
  }
  const [program = '', ...args] = command;
  const child = spawn(program, [...args, '--', file], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
    signal,
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    if (stderr.length < 4096) stderr += d.toString();
  });
  // Killed before its output ended (the archive's end marker came first): its exit status
  // then says nothing. When the output ended by itself, a failure is a corrupt file.
  let closed = false;
  let ended = false;
  child.stdout.on('end', () => {
    ended = true;
  });
  const exit = new Promise<void>((resolve, reject) => {
    child.on('error', (error) =>
      reject(
        new SourceError(
          'acquire',
          `cannot decompress ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? `${program} is not installed` : error.message}`,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code === 0 || closed) resolve();
      else
        reject(
          new SourceError(
            'acquire',
            `cannot read tarball: ${program} failed: ${stderr.trim().split('\n').slice(-2).join(' / ') || `exit ${code}`}`,
          ),
        );
    });
  });
  exit.catch(() => {}); // read through finished(); never an unhandled rejection
  // Once the reader stops early, the decompressor dies of a broken pipe: not a failure.
  const output = child.stdout[Symbol.asyncIterator]();
  const stream: AsyncIterable<Buffer> = {
    [Symbol.asyncIterator]: () => ({
      next: () => output.next(),
      return: async () => {
        if (!ended) closed = true;
        await output.return?.();
        return { done: true, value: undefined };
      },
    }),
  };
  return {
    stream,
    finished: () => exit,
    close: () => {
      if (ended) return;
      closed = true;
      child.kill('SIGKILL');
    },
  };
}
