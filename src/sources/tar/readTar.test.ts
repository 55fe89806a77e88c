import { describe, expect, it } from 'vitest';
import { parseNumber, parsePax, readTar, type TarEntry } from './readTar.ts';

function header(name: string, type: string, size: number, extra: { linkname?: string } = {}): Buffer {
  const block = Buffer.alloc(512);
  block.write(name, 0, 100);
  block.write('0000644\0', 100, 'latin1');
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
  block.write('00000000000\0', 136, 'latin1');
  block.write('        ', 148, 'latin1');
  block.write(type, 156, 'latin1');
  block.write(extra.linkname ?? '', 157, 100);
  block.write('ustar\0' + '00', 257, 'latin1');
  let sum = 0;
  for (const b of block) sum += b;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return block;
}
const pad = (data: Buffer) => Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = body.length + 1;
  while (`${length}${body}`.length !== length) length += 1;
  return `${length}${body}`;
}

async function entries(archive: Buffer): Promise<(TarEntry & { data: string })[]> {
  const out: (TarEntry & { data: string })[] = [];
  async function* chunks() {
    for (let i = 0; i < archive.length; i += 700) yield archive.subarray(i, i + 700); // odd chunk sizes
  }
  await readTar(chunks(), async (entry, content) => {
    let data = '';
    if (entry.type === 'file') for await (const c of content) data += c.toString();
    out.push({ ...entry, data });
  });
  return out;
}

describe('readTar', () => {
  it('reads pax paths and link targets, GNU long names, and skips unread content', async () => {
    const pax = Buffer.from(paxRecord('path', `p/${'x'.repeat(200)}`) + paxRecord('linkpath', 'target'));
    const long = Buffer.from(`q/${'y'.repeat(150)}\0`);
    const archive = Buffer.concat([
      header('pax', 'x', pax.length),
      pad(pax),
      header('ignored', '2', 0),
      header('././@LongLink', 'L', long.length),
      pad(long),
      header('short', '0', 5),
      pad(Buffer.from('hello')),
      header('dev', '3', 0),
      header('skipped', '0', 3),
      pad(Buffer.from('abc')),
      Buffer.alloc(1024),
    ]);
    const read = await entries(archive);
    expect(read.map((e) => [e.name, e.type, e.linkname, e.data])).toEqual([
      [`p/${'x'.repeat(200)}`, 'symlink', 'target', ''],
      [`q/${'y'.repeat(150)}`, 'file', '', 'hello'],
      ['dev', 'character device', '', ''],
      ['skipped', 'file', '', 'abc'],
    ]);
  });

  it('refuses sparse files and oversized metadata', async () => {
    const pax = Buffer.from(paxRecord('GNU.sparse.major', '1'));
    await expect(
      entries(Buffer.concat([header('p', 'x', pax.length), pad(pax), header('s', '0', 0)])),
    ).rejects.toThrow(/sparse file/);
    await expect(entries(header('p', 'x', 2 * 1024 * 1024))).rejects.toThrow(/metadata of 2097152 bytes/);
  });

  it('refuses names that are not UTF-8', async () => {
    const block = header('x', '0', 0);
    block[0] = 0xff;
    let sum = 0;
    block.write('        ', 148, 'latin1');
    for (const b of block) sum += b;
    block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    await expect(entries(block)).rejects.toThrow(/not valid UTF-8/);
  });
});

describe('numbers and pax records', () => {
  it('parses octal and base-256 numbers', () => {
    expect(parseNumber(Buffer.from('0000755\0'))).toBe(0o755);
    expect(parseNumber(Buffer.from([0x80, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]))).toBe(2 ** 32);
    expect(() => parseNumber(Buffer.from('12x\0'))).toThrow(/bad number/);
  });

  it('parses records and refuses malformed ones', () => {
    expect(parsePax(Buffer.from(paxRecord('path', 'a b=c')))).toEqual(new Map([['path', 'a b=c']]));
    expect(() => parsePax(Buffer.from('99 path=x\n'))).toThrow(/malformed pax header/);
  });
});
