import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { craftAr } from '../../../test/security/craftAr.ts';
import { copyArMember, readArMember, readArMembers } from './readAr.ts';

const dir = mkdtempSync(join(tmpdir(), 'rvport-ar-'));
let count = 0;
function archive(bytes: Buffer): string {
  const file = join(dir, `a${count++}.ar`);
  writeFileSync(file, bytes);
  return file;
}

describe('readArMembers', () => {
  it('lists members with where their bytes are, odd sizes padded, and copies one out', async () => {
    const file = archive(
      craftAr([
        { name: 'debian-binary', content: '2.0\n' },
        { name: 'odd/', content: 'abc' }, // GNU ar ends names with a slash
        { name: 'data.tar.xz', content: 'payload' },
      ]),
    );
    const members = await readArMembers(file);
    expect(members.map((m) => [m.name, m.size])).toEqual([
      ['debian-binary', 4],
      ['odd', 3],
      ['data.tar.xz', 7],
    ]);
    const [, odd, data] = members;
    if (!odd || !data) throw new Error('members missing');
    expect((await readArMember(file, odd, 64)).toString()).toBe('abc');
    await copyArMember(file, data, join(dir, 'out'));
    expect(readFileSync(join(dir, 'out'), 'utf8')).toBe('payload');
    // never over an existing file
    await expect(copyArMember(file, data, join(dir, 'out'))).rejects.toThrow(/EEXIST/);
  });

  it.each([
    ['no signature', Buffer.from('not an archive at all, really'), /no ar signature/],
    ['a path as a name', craftAr([{ name: '../evil', content: 'x' }]), /ar member named "..\/evil"/],
    ['an absolute name', craftAr([{ name: '/etc/passwd', content: 'x' }]), /ar member named/],
    ['a long-name table', craftAr([{ name: '//', content: 'x' }]), /does not read/],
    ['a BSD long name', craftAr([{ name: '#1/20', content: 'x'.repeat(20) }]), /does not read/],
    [
      'a size past the end',
      craftAr([{ name: 'data.tar', content: 'x', size: '999999' }]),
      /runs past the end/,
    ],
    [
      'a size that is no number',
      craftAr([{ name: 'data.tar', content: 'x', size: '-1' }]),
      /bad member size/,
    ],
    [
      'a name twice',
      craftAr([
        { name: 'data.tar', content: 'a' },
        { name: 'data.tar', content: 'b' },
      ]),
      /appears twice/,
    ],
  ])('refuses %s', async (_what, bytes, message) => {
    await expect(readArMembers(archive(bytes))).rejects.toThrow(message);
  });

  it('refuses an oversized member and too many members, with their codes', async () => {
    const big = archive(craftAr([{ name: 'data.tar', content: Buffer.alloc(4096) }]));
    await expect(readArMembers(big, { maxMemberBytes: 1024 })).rejects.toMatchObject({
      name: 'SourceError',
      code: 'archive-too-large',
    });
    const many = archive(craftAr(Array.from({ length: 5 }, (_, i) => ({ name: `m${i}`, content: 'x' }))));
    await expect(readArMembers(many, { maxMembers: 4 })).rejects.toMatchObject({
      code: 'archive-too-many-files',
    });
    // a claimed size is judged before anything is read
    const claimed = archive(craftAr([{ name: 'data.tar', content: 'x', size: String(3 * 1024 ** 3) }]));
    await expect(readArMembers(claimed)).rejects.toMatchObject({ code: 'archive-too-large' });
  });
});
