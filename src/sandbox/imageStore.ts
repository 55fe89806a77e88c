import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImageRecipe } from './imageRecipes.ts';
import type { SandboxPaths } from './sandboxPaths.ts';

/** What `image.json` says about a cached image; written last, so its presence means complete. */
export interface ImageRecord {
  key: string;
  kind: 'rootfs' | 'tools' | 'accel' | 'native';
  suite: string;
  architecture: string;
  recipe?: ImageRecipe;
  /** Keys this image was derived from (the accelerated layer's rootfs and tools tree). */
  derivedFrom?: string[];
  mirror?: string;
  createdAt: string;
  provisionSeconds: number;
  treeBytes: number;
  tarballBytes?: number;
  /** Toolchain package versions, for status and the accelerated-mode check. */
  toolchain?: Record<string, string>;
  /** Set on a layer when its mode is refused (the cross toolchain does not match the rootfs's). */
  refusedReason?: string;
  /** Native-userland layer: the riscv64 paths now served by their x86_64 twins. */
  swapped?: string[];
  /** Native-userland layer: packages or programs left riscv64, and why. */
  keptEmulated?: string[];
  /**
   * The host ids that are root inside (the subordinate range the tree belongs to); absent for a
   * tree made as host root, before sandboxes ran in user namespaces.
   */
  owner?: { uid: number; gid: number };
}

export const IMAGE_RECORD = 'image.json';
export const IMAGE_TREE = 'tree';

export function imageTree(paths: SandboxPaths, key: string): string {
  return join(paths.image(key), IMAGE_TREE);
}

/** The compressed tarball kept next to an image's tree, in the image's folder `dir`. */
export function imageTarball(dir: string, kind: ImageRecord['kind']): string {
  return join(dir, `${kind}.tar.zst`);
}

/** The image's record when the image is complete (record written and tree present). */
export async function readImageRecord(paths: SandboxPaths, key: string): Promise<ImageRecord | undefined> {
  try {
    const record = JSON.parse(await readFile(join(paths.image(key), IMAGE_RECORD), 'utf8')) as ImageRecord;
    await stat(imageTree(paths, key));
    return record;
  } catch {
    return undefined;
  }
}

export async function listImages(paths: SandboxPaths): Promise<ImageRecord[]> {
  let names: string[];
  try {
    names = await readdir(paths.images);
  } catch {
    return [];
  }
  const records: ImageRecord[] = [];
  for (const name of names.sort()) {
    if (name.startsWith('.')) continue;
    const record = await readImageRecord(paths, name);
    if (record) records.push(record);
  }
  return records;
}
