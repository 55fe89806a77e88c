import { mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { runProcess } from '../process/runProcess.ts';
import { removeTree } from './removeTree.ts';

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
    const options = `lowerdir=${sub('lower')},upperdir=${sub('upper')},workdir=${sub('work')}`;
    const result = await runProcess({
      command: [
        'unshare',
        '--mount',
        '--propagation',
        'private',
        '--',
        'sh',
        '-c',
        'mount -t overlay overlay -o "$1" "$2" && : > "$2/written"',
        'sh',
        options,
        sub('merged'),
      ],
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
