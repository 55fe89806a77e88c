import { readdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxError } from './errors.ts';
import { changedEntries, imageManifest, readStoredManifest, writeImageManifest } from './imageManifest.ts';
import { imageTree, listImages } from './imageStore.ts';
import { removeTree } from './removeTree.ts';
import type { SandboxPaths } from './sandboxPaths.ts';

/** Layers made over a stack of images at first use (packages/aptLayer.ts, proof/evidenceLayer.ts). */
const STACK_LAYER = /^(apt|evidence)-[0-9a-f]+$/;

/** How an image compared with the manifest taken when it was made. */
export type ImageCheck =
  | { key: string; status: 'intact' | 'missing' }
  /** An image made before manifests existed: its manifest is taken now and trusted from now on. */
  | { key: string; status: 'recorded'; entries: number }
  | { key: string; status: 'changed'; changed: string[] };

/** Images found intact, by key, with the manifest hash they were found to have. */
export type IntactImages = Map<string, string>;

/** This process's: each image is walked once a run. */
const found: IntactImages = new Map();

/**
 * Compares an image's tree with the manifest taken when it was first used (imageManifest.ts):
 * any image folder with a tree — a base image, a layer, the apt and evidence layers. An image
 * that has no manifest yet (just made, or made by an earlier version) gets it now.
 */
export async function checkImage(
  paths: SandboxPaths,
  key: string,
  intact: IntactImages = found,
): Promise<ImageCheck> {
  const dir = paths.image(key);
  const tree = imageTree(paths, key);
  if (!(await stat(tree).catch(() => undefined))) return { key, status: 'missing' };
  const stored = await readStoredManifest(dir);
  if (stored && intact.get(key) === stored.hash) return { key, status: 'intact' };
  const fresh = imageManifest(tree);
  if (!stored) {
    await writeImageManifest(dir, fresh);
    intact.set(key, fresh.hash);
    return { key, status: 'recorded', entries: fresh.entries };
  }
  if (fresh.hash !== stored.hash)
    return { key, status: 'changed', changed: await changedEntries(dir, fresh) };
  intact.set(key, fresh.hash);
  return { key, status: 'intact' };
}

/** The sentence that names a changed image and what changed in it. */
export function describeChange(check: Extract<ImageCheck, { status: 'changed' }>): string {
  const what = check.changed.length ? ` (${check.changed.join(', ')})` : '';
  return `the sandbox image ${check.key} changed since it was made${what}`;
}

/**
 * Refuses to start an instance on an image that changed since it was made: the last wall, for
 * every instance of every mode (the port rebuilds changed images before it gets here).
 */
export async function assertImagesIntact(
  paths: SandboxPaths,
  keys: readonly string[],
  intact: IntactImages = found,
): Promise<void> {
  for (const key of keys) {
    const check = await checkImage(paths, key, intact);
    if (check.status === 'changed')
      throw new SandboxError('image-changed', `${describeChange(check)}: it is not used`, {
        fix: 'rvport sandbox setup (rebuilds the changed images)',
      });
  }
}

/**
 * Removes every image of `keys` that changed since it was made, and every image derived from a
 * removed one, so that provisioning builds them again; returns what was removed and why. A changed
 * image is never repaired in place.
 */
export async function removeChangedImages(
  paths: SandboxPaths,
  keys: readonly string[],
  intact: IntactImages = found,
): Promise<string[]> {
  const removed: string[] = [];
  const notes: string[] = [];
  for (const key of keys) {
    const check = await checkImage(paths, key, intact);
    if (check.status !== 'changed') continue;
    notes.push(`${describeChange(check)}: rebuilding it`);
    removed.push(key);
  }
  if (removed.length === 0) return notes;
  const all = await listImages(paths);
  for (let grew = true; grew; ) {
    grew = false;
    for (const image of all) {
      if (removed.includes(image.key)) continue;
      if (!image.derivedFrom?.some((key) => removed.includes(key))) continue;
      removed.push(image.key);
      notes.push(`the sandbox image ${image.key} is made from a changed image: rebuilding it`);
      grew = true;
    }
  }
  // the apt and evidence layers are made over a stack in seconds: all of them are made again
  for (const name of await readdir(paths.images)) {
    if (STACK_LAYER.test(name) && !removed.includes(name)) removed.push(name);
  }
  for (const key of removed) {
    intact.delete(key);
    // out of the way first (a rename is atomic), so a half-removed image is never taken for one
    const aside = join(paths.images, `.changed-${key}-${process.pid}`);
    await rename(paths.image(key), aside);
    await removeTree(aside);
  }
  return notes;
}
