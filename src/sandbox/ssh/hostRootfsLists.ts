import { realpathSync } from 'node:fs';
import { assertImagesIntact } from '../checkImages.ts';
import { imageTree, listImages } from '../imageStore.ts';
import type { SandboxPaths } from '../sandboxPaths.ts';

/**
 * What an SSH target's installs are checked against: the trees of the host's own riscv64 rootfs
 * images (their apt lists, read by the host; the remote's answer is never the authority), the
 * newest first, each checked against its manifest, and the mirror the newest was made from.
 */
export async function hostRootfsLists(paths: SandboxPaths): Promise<{ trees: string[]; mirror?: string }> {
  const images = (await listImages(paths))
    .filter((image) => image.kind === 'rootfs' && image.architecture === 'riscv64')
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  await assertImagesIntact(
    paths,
    images.map((image) => image.key),
  );
  const mirror = images.find((image) => image.mirror)?.mirror;
  return {
    trees: images.map((image) => realpathSync(imageTree(paths, image.key))),
    ...(mirror ? { mirror } : {}),
  };
}
