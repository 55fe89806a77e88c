import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractTarball, normalizeEntryName, unsafeEntryReason } from './extractTarball.ts';

const root = mkdtempSync(join(tmpdir(), 'rvport-extract-'));
const sh = (cmd: string) => execFileSync('/bin/sh', ['-c', cmd], { cwd: root, encoding: 'utf8' });
const deep = `${'d'.repeat(60)}/${'e'.repeat(60)}/${'f'.repeat(60)}`;

mkdirSync(join(root, 'pkg-2.0', deep), { recursive: true });
writeFileSync(join(root, 'pkg-2.0', 'configure'), '#!/bin/sh\n');
execFileSync('chmod', ['755', join(root, 'pkg-2.0', 'configure')]);
writeFileSync(join(root, 'pkg-2.0', deep, `${'n'.repeat(120)}.c`), 'int x;\n');
writeFileSync(join(root, 'pkg-2.0', 'ünïcode.txt'), 'u\n');
symlinkSync('configure', join(root, 'pkg-2.0', 'link'));
execFileSync('touch', ['-d', '2001-02-03 04:05:06Z', join(root, 'pkg-2.0', 'configure')]);

async function extracted(file: string): Promise<string> {
  const dest = join(root, 'out', file);
  await extractTarball(join(root, file), dest, join(root, 'scratch'));
  return dest;
}

describe('extractTarball', () => {
  it.each([
    ['plain.tar', 'tar -cf plain.tar pkg-2.0'],
    ['gnu.tar.gz', 'tar --format=gnu -czf gnu.tar.gz pkg-2.0'],
    ['pax.tar.bz2', 'tar --format=posix -cjf pax.tar.bz2 pkg-2.0'],
    ['ustar.tar.xz', 'tar --format=ustar -cJf ustar.tar.xz pkg-2.0 2>/dev/null || true'],
    ['pkg.tar.zst', 'tar -c pkg-2.0 | zstd -q -o pkg.tar.zst'],
    ['pkg.tar.lzma', 'tar -c pkg-2.0 | xz --format=lzma > pkg.tar.lzma'],
  ])('unpacks %s: long names, modes, times, links, the top folder dropped', async (file, make) => {
    sh(make);
    const dest = await extracted(file);
    expect(readdirSync(dest).sort()).toEqual([
      'configure',
      'dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd',
      'link',
      'ünïcode.txt',
    ]);
    if (file !== 'ustar.tar.xz')
      expect(readFileSync(join(dest, deep, `${'n'.repeat(120)}.c`), 'utf8')).toBe('int x;\n');
    expect(statSync(join(dest, 'configure')).mode & 0o777).toBe(0o755);
    expect(statSync(join(dest, 'configure')).mtime.toISOString()).toBe('2001-02-03T04:05:06.000Z');
    expect(readlinkSync(join(dest, 'link'))).toBe('configure');
  });

  it('keeps several top entries as they are', async () => {
    sh('tar -cf flat.tar -C pkg-2.0 configure link');
    expect(readdirSync(await extracted('flat.tar')).sort()).toEqual(['configure', 'link']);
  });

  it('unpacks one folder as the root when asked, and refuses an archive without it', async () => {
    sh('tar -cf rooted.tar pkg-2.0');
    const dest = join(root, 'out', 'rooted');
    await extractTarball(join(root, 'rooted.tar'), dest, join(root, 'scratch'), {
      root: `pkg-2.0/${deep.split('/')[0]}`,
    });
    expect(readdirSync(dest)).toEqual([deep.split('/')[1]]);
    await expect(
      extractTarball(join(root, 'rooted.tar'), dest, join(root, 'scratch'), { root: 'pkg-2.0/configure' }),
    ).rejects.toThrow(/rooted.tar has no folder pkg-2.0\/configure/);
  });

  it('refuses an empty tarball, a non-tarball and a truncated one', async () => {
    sh('tar -cf empty.tar --files-from /dev/null');
    await expect(extracted('empty.tar')).rejects.toThrow(/empty.tar is an empty tarball/);
    writeFileSync(join(root, 'junk.tar'), 'this is no tar archive at all'.repeat(40));
    await expect(extracted('junk.tar')).rejects.toThrow(/checksum is wrong/);
    const whole = readFileSync(join(root, 'plain.tar'));
    writeFileSync(join(root, 'cut.tar'), whole.subarray(0, 700));
    await expect(extracted('cut.tar')).rejects.toThrow(/ends in the middle of an entry/);
    writeFileSync(join(root, 'bad.tar.gz'), Buffer.from([0x1f, 0x8b, 1, 2, 3, 4, 5, 6, 7]));
    await expect(extracted('bad.tar.gz')).rejects.toThrow(/cannot read tarball: gzip failed/);
  });
});

describe('entry names', () => {
  it('are normalized and judged', () => {
    expect(normalizeEntryName('./a//b/')).toBe('a/b');
    expect(normalizeEntryName('./')).toBe('');
    expect(unsafeEntryReason('/etc/x')).toBe('absolute path');
    expect(unsafeEntryReason('a/../../x')).toBe("'..' component");
    expect(unsafeEntryReason('a/..b')).toBeNull();
    expect(unsafeEntryReason('a\0b')).toBe('NUL character');
  });
});
