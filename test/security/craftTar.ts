/** One member of a hand-made archive: what a hostile tool could write, unchecked. */
export interface CraftedEntry {
  name: string;
  /** tar type flag: '0' file, '1' hard link, '2' symlink, '3' char device, '5' folder, '6' fifo. */
  type: string;
  content?: string;
  linkname?: string;
  mode?: number;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(entry: CraftedEntry, size: number): Buffer {
  const block = Buffer.alloc(512);
  block.write(entry.name, 0, 100, 'utf8');
  block.write(octal(entry.mode ?? (entry.type === '5' ? 0o755 : 0o644), 8), 100, 'latin1');
  block.write(octal(0, 8), 108, 'latin1');
  block.write(octal(0, 8), 116, 'latin1');
  block.write(octal(size, 12), 124, 'latin1');
  block.write(octal(1_700_000_000, 12), 136, 'latin1');
  block.write('        ', 148, 'latin1');
  block.write(entry.type, 156, 'latin1');
  block.write(entry.linkname ?? '', 157, 100, 'utf8');
  block.write('ustar\0', 257, 'latin1');
  block.write('00', 263, 'latin1');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return block;
}

/** A ustar archive with exactly the given entries, in order (names up to 100 bytes). */
export function craftTar(entries: readonly CraftedEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const content = Buffer.from(entry.content ?? '', 'utf8');
    parts.push(header(entry, content.length), content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}
