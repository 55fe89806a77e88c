import { join } from 'node:path';
import { writeJsonAtomic } from '../fs/index.ts';
import { SandboxError } from './errors.ts';
import { imageManifest, writeImageManifest } from './imageManifest.ts';
import { IMAGE_RECORD, type ImageRecord, imageTree } from './imageStore.ts';
import type { SandboxPaths } from './sandboxPaths.ts';
import { shiftOwnership } from './userns/shiftOwnership.ts';
import type { SubordinateIds } from './userns/subordinateIds.ts';

/**
 * Makes the images' trees belong to the sandbox's subordinate ids. Images provisioned before
 * sandboxes ran in user namespaces are owned by host root (a record without `owner`); as root
 * they are shifted once, in place (the content is unchanged inside, so image keys and the proofs
 * made with them stay valid). Returns the records as they are now.
 */
export async function adoptImages(
  paths: SandboxPaths,
  records: readonly ImageRecord[],
  ids: SubordinateIds,
  progress: (message: string) => void = () => {},
): Promise<ImageRecord[]> {
  const wanted = { uid: ids.uid.start, gid: ids.gid.start };
  const adopted: ImageRecord[] = [];
  for (const record of records) {
    const owner = record.owner ?? { uid: 0, gid: 0 };
    if (owner.uid === wanted.uid && owner.gid === wanted.gid) {
      adopted.push(record);
      continue;
    }
    if (process.getuid?.() !== 0) {
      throw new SandboxError(
        'host-not-ready',
        `the image ${record.key} belongs to host ids ${owner.uid}:${owner.gid}, not to this user's subordinate ids ${wanted.uid}:${wanted.gid}`,
        {
          fix: `run rvport sandbox setup once as root on this RVPORT_HOME, or use an RVPORT_HOME of your own (${paths.root} is shared)`,
        },
      );
    }
    progress(`${record.key}: handing the image to the sandbox ids ${wanted.uid}:${wanted.gid}`);
    const files = await shiftOwnership(imageTree(paths, record.key), owner, wanted);
    const updated = { ...record, owner: wanted };
    // rvport's own change of the tree: its manifest is taken again (every entry's owner changed)
    await writeImageManifest(paths.image(record.key), imageManifest(imageTree(paths, record.key)));
    await writeJsonAtomic(join(paths.image(record.key), IMAGE_RECORD), updated);
    progress(`${record.key}: ${files} files handed over`);
    adopted.push(updated);
  }
  return adopted;
}
