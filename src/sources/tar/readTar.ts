import { SourceError } from '../SourceError.ts';

const BLOCK = 512;
/** A pax extended header or GNU long name larger than this is refused (real ones are tiny). */
export const MAX_TAR_METADATA_BYTES = 1024 * 1024;

export type TarEntryType =
  | 'file'
  | 'directory'
  | 'symlink'
  | 'hardlink'
  | 'character device'
  | 'block device'
  | 'fifo'
  | 'unsupported';

/** One archive member, its name and link target as the archive spells them (not yet checked). */
export interface TarEntry {
  name: string;
  type: TarEntryType;
  /** The raw type flag, for messages about unsupported kinds. */
  typeflag: string;
  mode: number;
  size: number;
  /** Seconds since the epoch. */
  mtime: number;
  linkname: string;
}

/** Reads exact byte counts from a stream of chunks. */
class ChunkReader {
  private pending: Buffer = Buffer.alloc(0);
  private readonly iterator: AsyncIterator<Buffer>;
  constructor(source: AsyncIterable<Buffer>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** The next `n` bytes, or fewer when the stream ends first. */
  async read(n: number): Promise<Buffer> {
    while (this.pending.length < n) {
      const next = await this.iterator.next();
      if (next.done) break;
      this.pending = this.pending.length === 0 ? next.value : Buffer.concat([this.pending, next.value]);
    }
    const out = this.pending.subarray(0, n);
    this.pending = this.pending.subarray(out.length);
    return out;
  }

  /** `n` bytes as a sequence of chunks, without gathering them in memory. */
  async *stream(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.pending.length === 0) {
        const next = await this.iterator.next();
        if (next.done) throw truncated();
        this.pending = next.value;
      }
      const take = this.pending.subarray(0, Math.min(left, this.pending.length));
      this.pending = this.pending.subarray(take.length);
      left -= take.length;
      yield take;
    }
  }

  async skip(n: number): Promise<void> {
    for await (const _ of this.stream(n)) {
      // discarded
    }
  }

  async close(): Promise<void> {
    await this.iterator.return?.();
  }
}

function truncated(): SourceError {
  return new SourceError('acquire', 'cannot read tarball: it ends in the middle of an entry');
}

function text(block: Buffer, start: number, length: number): Buffer {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return end === -1 ? field : field.subarray(0, end);
}

/** Octal, or GNU base-256 for values that do not fit (the high bit of the first byte set). */
export function parseNumber(field: Buffer): number {
  const first = field[0] ?? 0;
  if (first & 0x80) {
    let value = first & 0x7f;
    for (const byte of field.subarray(1)) value = value * 256 + byte;
    if (first & 0x40) throw new SourceError('acquire', 'cannot read tarball: negative number in a header');
    return value;
  }
  const digits = field.toString('latin1').replace(/\0.*$/s, '').trim();
  if (digits === '') return 0;
  if (!/^[0-7]+$/.test(digits)) {
    throw new SourceError('acquire', `cannot read tarball: bad number ${JSON.stringify(digits)} in a header`);
  }
  return Number.parseInt(digits, 8);
}

function checksumOk(block: Buffer): boolean {
  let stored: number;
  try {
    stored = parseNumber(block.subarray(148, 156));
  } catch {
    return false;
  }
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0);
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  return stored === unsigned || stored === signed;
}

/** A name must be valid UTF-8: it becomes a file name, and a lossy decoding would change it. */
function decodeName(raw: Buffer, what: string): string {
  const name = raw.toString('utf8');
  if (!Buffer.from(name, 'utf8').equals(raw)) {
    throw new SourceError(
      'unsafe-entry',
      `tarball ${what} ${JSON.stringify(raw.toString('latin1'))} is not valid UTF-8; refusing the tarball`,
    );
  }
  return name;
}

/** `LEN key=value\n` records of a pax extended header. */
export function parsePax(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space === -1) break;
    const length = Number.parseInt(data.subarray(at, space).toString('latin1'), 10);
    if (!Number.isInteger(length) || length <= space - at || at + length > data.length) {
      throw new SourceError('acquire', 'cannot read tarball: malformed pax header');
    }
    const record = data.subarray(space + 1, at + length - 1);
    const equals = record.indexOf(0x3d);
    if (equals > 0)
      records.set(
        record.subarray(0, equals).toString('utf8'),
        decodeName(record.subarray(equals + 1), 'pax value'),
      );
    at += length;
  }
  return records;
}

const TYPES: Record<string, TarEntryType> = {
  '0': 'file',
  '\0': 'file',
  '7': 'file',
  '5': 'directory',
  '2': 'symlink',
  '1': 'hardlink',
  '3': 'character device',
  '4': 'block device',
  '6': 'fifo',
};

/**
 * Reads a tar stream (POSIX ustar and pax, GNU long names, old v7 headers) and calls `visit`
 * for each member with its content as a stream; content `visit` leaves unread is skipped. It
 * does no file system work itself: the caller decides what an entry may become.
 */
export async function readTar(
  source: AsyncIterable<Buffer>,
  visit: (entry: TarEntry, content: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  const reader = new ChunkReader(source);
  let pax = new Map<string, string>();
  let longName: string | null = null;
  let longLink: string | null = null;
  try {
    for (;;) {
      const block = await reader.read(BLOCK);
      if (block.length === 0) return; // no end marker: tolerated, as GNU tar does
      if (block.length < BLOCK) throw truncated();
      if (block.every((b) => b === 0)) return;
      if (!checksumOk(block)) {
        throw new SourceError(
          'acquire',
          'cannot read tarball: a header checksum is wrong (not a tar archive?)',
        );
      }
      const typeflag = String.fromCharCode(block[156] ?? 0);
      const size = parseNumber(block.subarray(124, 136));
      const padded = Math.ceil(size / BLOCK) * BLOCK;
      if (typeflag === 'x' || typeflag === 'g' || typeflag === 'L' || typeflag === 'K') {
        if (size > MAX_TAR_METADATA_BYTES) {
          throw new SourceError(
            'unsafe-entry',
            `tarball metadata of ${size} bytes is larger than allowed; refusing`,
          );
        }
        const data = (await reader.read(padded)).subarray(0, size);
        if (data.length < size) throw truncated();
        if (typeflag === 'x') pax = new Map([...pax, ...parsePax(data)]);
        else if (typeflag === 'L') longName = decodeName(text(data, 0, data.length), 'entry name');
        else if (typeflag === 'K') longLink = decodeName(text(data, 0, data.length), 'link target');
        // 'g' (global) headers carry comments such as git archive's commit id: nothing to apply
        continue;
      }
      if ([...pax.keys()].some((k) => k.startsWith('GNU.sparse'))) {
        throw new SourceError(
          'unsafe-entry',
          'tarball holds a sparse file, which rvport does not unpack; refusing',
        );
      }
      const magic = block.subarray(257, 263).toString('latin1');
      const prefix = magic === 'ustar\0' ? text(block, 345, 155) : Buffer.alloc(0);
      const shortName = text(block, 0, 100);
      const joined = prefix.length > 0 ? Buffer.concat([prefix, Buffer.from('/'), shortName]) : shortName;
      const entrySize = pax.has('size') ? Number(pax.get('size')) : size;
      if (!Number.isSafeInteger(entrySize) || entrySize < 0) {
        throw new SourceError('acquire', 'cannot read tarball: bad size in a pax header');
      }
      const entry: TarEntry = {
        name: pax.get('path') ?? longName ?? decodeName(joined, 'entry name'),
        type: TYPES[typeflag] ?? 'unsupported',
        typeflag,
        mode: parseNumber(block.subarray(100, 108)),
        size: entrySize,
        mtime: pax.has('mtime')
          ? Math.floor(Number(pax.get('mtime')))
          : parseNumber(block.subarray(136, 148)),
        linkname: pax.get('linkpath') ?? longLink ?? decodeName(text(block, 157, 100), 'link target'),
      };
      pax = new Map();
      longName = null;
      longLink = null;
      // the visitor may read the content or not; whatever it leaves is skipped
      let delivered = 0;
      const content: AsyncIterable<Buffer> = {
        async *[Symbol.asyncIterator]() {
          for await (const chunk of reader.stream(entry.size - delivered)) {
            delivered += chunk.length;
            yield chunk;
          }
        },
      };
      await visit(entry, content);
      await reader.skip(entry.size - delivered);
      await reader.skip(Math.ceil(entry.size / BLOCK) * BLOCK - entry.size);
    }
  } finally {
    await reader.close();
  }
}
