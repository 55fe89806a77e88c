import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseQuiltSeries, unsafePatchName } from './parseQuiltSeries.ts';

describe('parseQuiltSeries', () => {
  it('reads a real series with patches in subfolders (util-linux)', () => {
    const series = readFileSync(join(import.meta.dirname, 'fixtures', 'util-linux.series'), 'utf8');
    const { patches, refused } = parseQuiltSeries(series);
    expect(refused).toEqual([]);
    expect(patches[0]).toEqual({ name: 'debian/man-getopt-examples.patch', strip: 1 });
    expect(patches.at(-1)).toEqual({
      name: 'upstream/libmount-restrict-source-path-canonicalization-for-non-ro.patch',
      strip: 1,
    });
    expect(patches).toHaveLength(11);
  });

  it('skips comments and blank lines and keeps -pN', () => {
    const series =
      '# leading comment\n\nfix-build.patch\nold.diff -p0\nother.patch -p 2 # why\n  # indented\n';
    expect(parseQuiltSeries(series).patches).toEqual([
      { name: 'fix-build.patch', strip: 1 },
      { name: 'old.diff', strip: 0 },
      { name: 'other.patch', strip: 2 },
    ]);
  });

  it('refuses entries that leave debian/patches', () => {
    const { patches, refused } = parseQuiltSeries('../../etc/passwd\n/etc/shadow\nok.patch\na/./b\n');
    expect(patches).toEqual([{ name: 'ok.patch', strip: 1 }]);
    expect(refused).toHaveLength(3);
    expect(refused[0]).toMatch(/"\.\.\/\.\.\/etc\/passwd" is refused/);
  });

  it('names the reason', () => {
    expect(unsafePatchName('/abs')).toBe('an absolute path');
    expect(unsafePatchName('a/../b')).toMatch(/'\.\.'/);
    expect(unsafePatchName('a\tb$')).toBe('unusual characters');
    expect(unsafePatchName('upstream/0001-fix.patch')).toBeNull();
  });
});
