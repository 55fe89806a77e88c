import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexKey, readPackageIndex, treeListsDir } from './readPackageIndex.ts';

const SHA = 'a'.repeat(64);
const stanza = (name: string, version: string, extra = '') =>
  `Package: ${name}\nVersion: ${version}\nArchitecture: riscv64\n${extra}Filename: pool/main/${name[0]}/${name}/${name}_${version}_riscv64.deb\nSize: 1234\nSHA256: ${SHA}\nDescription: x\n a long\n description: with colons\n`;

let tree: string;
let lists: string;
beforeEach(async () => {
  tree = await mkdtemp(join(tmpdir(), 'rvport-index-'));
  lists = join(tree, 'var/lib/apt/lists');
  await mkdir(lists, { recursive: true });
});
afterEach(() => rm(tree, { recursive: true, force: true }));

describe('readPackageIndex', () => {
  it('reads name, version, architecture, Filename, Size, SHA256, depends and provides', async () => {
    const text = [
      stanza('libfoo-dev', '1:2.0-1', 'Depends: libfoo2 (= 1:2.0-1)\nProvides: libfoo-headers\n'),
      stanza('libfoo2', '1:2.0-1'),
    ].join('\n');
    await writeFile(join(lists, 'm_dists_s_main_binary-riscv64_Packages'), text);
    const index = await readPackageIndex([(await treeListsDir(tree)) as string]);
    expect(index.byKey.size).toBe(2);
    expect(index.byKey.get(indexKey('libfoo-dev', '1:2.0-1', 'riscv64'))).toMatchObject({
      filename: 'pool/main/l/libfoo-dev/libfoo-dev_1:2.0-1_riscv64.deb',
      size: 1234,
      sha256: SHA,
      depends: 'libfoo2 (= 1:2.0-1)',
      provides: ['libfoo-headers'],
    });
    expect(index.providers.get('libfoo-headers')).toEqual(['libfoo-dev']);
  });

  it('refuses a list that is a link (to a file the build or anyone else planted)', async () => {
    const planted = join(tree, 'planted');
    await writeFile(planted, stanza('evil', '1'));
    await symlink(planted, join(lists, 'm_dists_s_main_binary-riscv64_Packages'));
    await expect(readPackageIndex([lists])).rejects.toThrow(/cannot be read as a package list \(ELOOP\)/);
  });

  it('refuses a line longer than the bound instead of holding it', async () => {
    await writeFile(join(lists, 'x_Packages'), `Package: a\nDescription: ${'x'.repeat(2 * 1024 * 1024)}\n`);
    await expect(readPackageIndex([lists])).rejects.toThrow(/a line longer than/);
  });

  it('finds no lists folder through a link on the way', async () => {
    const other = await mkdtemp(join(tmpdir(), 'rvport-index-other-'));
    try {
      await mkdir(join(other, 'var/lib/apt'), { recursive: true });
      await symlink(lists, join(other, 'var/lib/apt/lists'));
      expect(await treeListsDir(other)).toBeUndefined();
      expect(await treeListsDir(tree)).toBe(lists);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('takes a file name from the top layer only', async () => {
    const top = join(tree, 'top');
    await mkdir(top);
    await writeFile(join(top, 'x_Packages'), stanza('new', '2'));
    await writeFile(join(lists, 'x_Packages'), stanza('old', '1'));
    const index = await readPackageIndex([top, lists]);
    expect([...index.byName.keys()]).toEqual(['new']);
  });
});
