import { chmod, lchown, lstat, opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { NAMESPACE_ID_COUNT } from './subordinateIds.ts';

/** The host ids that were 0 inside a tree; `{uid: 0, gid: 0}` for a tree made as real root. */
export interface TreeOwner {
  uid: number;
  gid: number;
}

/**
 * Moves every file of `tree` from ids based at `from` to ids based at `to` (as root: `lchown`
 * never follows a link), so a tree made as host root appears unchanged inside a user namespace
 * whose ids start at `to`. Set-id bits, which a change of owner clears, are put back. Ids
 * outside the 65536 of the old base are an error, not a guess.
 */
export async function shiftOwnership(tree: string, from: TreeOwner, to: TreeOwner): Promise<number> {
  let count = 0;
  const visit = async (path: string) => {
    const info = await lstat(path);
    const inRange = (id: number, base: number) => id >= base && id < base + NAMESPACE_ID_COUNT;
    // already moved (a shift that was interrupted, or one running beside us): leave it
    const done = inRange(info.uid, to.uid) && inRange(info.gid, to.gid) && !inRange(info.uid, from.uid);
    if (done) {
      count++;
      if (info.isDirectory())
        for await (const entry of await opendir(path)) await visit(join(path, entry.name));
      return;
    }
    const uid = info.uid - from.uid;
    const gid = info.gid - from.gid;
    if (uid < 0 || uid >= NAMESPACE_ID_COUNT || gid < 0 || gid >= NAMESPACE_ID_COUNT) {
      throw new Error(`${path} is owned by ${info.uid}:${info.gid}, outside the ids the tree was made with`);
    }
    await lchown(path, to.uid + uid, to.gid + gid);
    if (!info.isSymbolicLink() && (info.mode & 0o6000) !== 0) await chmod(path, info.mode & 0o7777);
    count++;
    if (!info.isDirectory()) return;
    const dir = await opendir(path);
    for await (const entry of dir) await visit(join(path, entry.name));
  };
  await visit(tree);
  return count;
}
