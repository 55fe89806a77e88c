import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectNames, projectUrls } from '../../analysis/projectUrls.ts';
import { SourceTree } from '../../analysis/SourceTree.ts';
import { DebianSourceIndex, parseSources } from '../../debian/DebianSourceIndex.ts';
import { debianSourceHint } from './debianSourceHint.ts';

const index = new DebianSourceIndex(
  parseSources(
    [
      'Package: libdemo1',
      'Version: 2.0-1',
      'Build-Depends: debhelper-compat (= 13), cmake, libz-dev | zlib1g-dev',
      'Homepage: https://github.com/demo-org/libdemo',
      '',
      'Package: gdemo',
      'Version: 1.0-3',
      'Build-Depends: debhelper-compat (= 13), libgtk-3-dev',
    ].join('\n'),
  ),
);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rvport-hint-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
/** What the analysis gives the hint: the tree's own URLs and declared names. */
function projectOf(dir: string, name: string) {
  const t = SourceTree.fromDisk(dir);
  return { urls: projectUrls(t, name), names: projectNames(t) };
}

describe('debianSourceHint', () => {
  it('gives a checkout the Build-Depends of the Debian source package whose Homepage it names', () => {
    const dir = tree({
      'CMakeLists.txt': 'project(libdemo C)\n',
      'README.md': 'https://github.com/demo-org/libdemo\n',
    });
    const hint = debianSourceHint({ debian: null }, projectOf(dir, 'checkout'), index);
    expect(hint?.buildDepends).toEqual([['cmake'], ['libz-dev', 'zlib1g-dev']]);
    expect(hint?.hint).toEqual({
      package: 'libdemo1',
      version: '2.0-1',
      via: 'its URL https://github.com/demo-org/libdemo (README.md)',
    });
  });

  it("gives a debian: source without its debian.tar the Sources index's Build-Depends", () => {
    const dir = tree({ Makefile: 'all:\n' });
    const debian = { package: 'gdemo', version: '1.0-3', suite: 'trixie', tarball: 'x', packaging: null };
    const hint = debianSourceHint({ debian }, projectOf(dir, 'gdemo'), index);
    expect(hint?.buildDepends).toEqual([['libgtk-3-dev']]);
    expect(hint?.problems?.[0]).toMatch(
      /^Build-Depends taken from the archive's Sources index for gdemo 1\.0-3/,
    );
  });

  it('gives nothing to a tree it cannot match', () => {
    const dir = tree({
      'CMakeLists.txt': 'project(other C)\n',
      'README.md': 'uses https://github.com/demo-org/libdemo\n',
    });
    expect(debianSourceHint({ debian: null }, projectOf(dir, 'other'), index)).toBeNull();
  });
});
