import { chmod, mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { runProcess } from '../process/runProcess.ts';
import { removeTree } from './removeTree.ts';
import { asNamespaceRoot } from './userns/namespaceView.ts';
import { readSubordinateIds } from './userns/subordinateIds.ts';
import { asTreeOwner } from './userns/userNamespace.ts';

/**
 * Whether an overlay with its upper layer in `dir` can be mounted: some filesystems (an overlay
 * root in a container, NFS) cannot hold one. Tried for real, in a throwaway mount namespace.
 */
export async function probeOverlay(dir: string): Promise<{ ok: boolean; detail: string }> {
  await mkdir(dir, { recursive: true });
  const probe = await mkdtemp(join(dir, '.overlay-probe-'));
  try {
    const sub = (name: string) => join(probe, name);
    for (const name of ['lower', 'upper', 'work', 'merged']) await mkdir(sub(name));
    // as in an instance: root of a user namespace of the subordinate ids, reaching the folder
    // through a descriptor opened before the ids changed, with user xattrs
    const ids = readSubordinateIds();
    await chmod(probe, 0o755);
    await runProcess({
      command: asTreeOwner(ids, ['chown', '0:0', sub('lower'), sub('upper'), sub('work'), sub('merged')]),
    });
    const result = await runProcess({
      command: asNamespaceRoot(
        ids,
        [probe],
        'mount -t overlay overlay -o "userxattr,lowerdir=/tmp/v0/lower,upperdir=/tmp/v0/upper,workdir=/tmp/v0/work" /tmp/v0/merged && : > /tmp/v0/merged/written',
      ),
      timeoutMs: 30_000,
    });
    return result.exitCode === 0
      ? { ok: true, detail: `overlay mounts work in ${dir}` }
      : {
          ok: false,
          detail: `cannot mount an overlay with its upper layer in ${dir} (${result.stderr.trim()}); set RVPORT_HOME to a folder on a local filesystem such as ext4, xfs, btrfs or tmpfs`,
        };
  } finally {
    await removeTree(probe);
  }
}
