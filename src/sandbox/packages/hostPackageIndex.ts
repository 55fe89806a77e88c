import { stat } from 'node:fs/promises';
import {
  type PackageIndex,
  packagesFiles,
  readPackageIndex,
  treeListsDir,
} from '../../debian/readPackageIndex.ts';

const loaded = new Map<string, Promise<PackageIndex>>();

/**
 * The package index of a stack of image trees (top layer first), read by the host from the
 * images' own lists, never from an instance's overlay. Kept while the files stay the same (an
 * index takes a couple of seconds to read; an image provisioned again has new files).
 */
export async function hostPackageIndex(trees: readonly string[]): Promise<PackageIndex> {
  const dirs: string[] = [];
  for (const tree of trees) {
    const dir = await treeListsDir(tree);
    if (dir) dirs.push(dir);
  }
  const key = await filesKey(dirs);
  let index = loaded.get(key);
  if (!index) {
    index = readPackageIndex(dirs);
    index.catch(() => loaded.delete(key));
    loaded.clear();
    loaded.set(key, index);
  }
  return index;
}

/** What identifies the files an index is read from: paths, inodes, sizes, change times. */
async function filesKey(dirs: readonly string[]): Promise<string> {
  const parts: string[] = [];
  for (const path of await packagesFiles(dirs)) {
    const info = await stat(path).catch(() => undefined);
    parts.push(`${path}:${info?.ino}:${info?.size}:${info?.ctimeMs}`);
  }
  return parts.join('\n');
}
