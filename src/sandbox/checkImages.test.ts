import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertImagesIntact, checkImage, removeChangedImages } from './checkImages.ts';
import { createInstance } from './chroot/instanceStore.ts';
import { imageManifest } from './imageManifest.ts';
import { IMAGE_RECORD } from './imageStore.ts';
import { type SandboxPaths, sandboxPaths } from './sandboxPaths.ts';

let home: string;
let paths: SandboxPaths;

async function image(key: string, files: Record<string, string>, record: object = {}): Promise<string> {
  const tree = join(paths.image(key), 'tree');
  await mkdir(join(tree, 'usr/bin'), { recursive: true });
  for (const [rel, text] of Object.entries(files)) await writeFile(join(tree, rel), text);
  await writeFile(join(paths.image(key), IMAGE_RECORD), JSON.stringify({ key, kind: 'rootfs', ...record }));
  return tree;
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'rvport-images-'));
  paths = sandboxPaths(home);
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('imageManifest', () => {
  it('is the same for an untouched tree and differs after a write, even with the old times put back', async () => {
    const tree = await image('rootfs-a', { 'usr/bin/gcc': 'compiler' });
    const before = imageManifest(tree);
    expect(imageManifest(tree).hash).toBe(before.hash);
    await writeFile(join(tree, 'usr/bin/gcc'), 'attacker');
    // the modification time set back: the change time still tells
    await utimes(join(tree, 'usr/bin/gcc'), new Date(0), new Date(0));
    const after = imageManifest(tree);
    expect(after.entries).toBe(before.entries);
    expect(after.hash).not.toBe(before.hash);
  });

  it('sees a mode change and a new file', async () => {
    const tree = await image('rootfs-b', { 'usr/bin/sh': 'shell' });
    const before = imageManifest(tree).hash;
    await chmod(join(tree, 'usr/bin/sh'), 0o4755);
    const chmodded = imageManifest(tree).hash;
    expect(chmodded).not.toBe(before);
    await writeFile(join(tree, 'usr/bin/new'), 'x');
    expect(imageManifest(tree).hash).not.toBe(chmodded);
  });
});

describe('checkImage', () => {
  it('records a manifest at first use, then finds the image intact, then names what changed', async () => {
    const tree = await image('rootfs-c', { 'usr/bin/gcc': 'compiler' });
    const run = new Map<string, string>();
    expect((await checkImage(paths, 'rootfs-c', run)).status).toBe('recorded');
    expect((await checkImage(paths, 'rootfs-c', run)).status).toBe('intact');
    await writeFile(join(tree, 'usr/bin/gcc'), 'attacker');
    // the next run walks the tree again
    const check = await checkImage(paths, 'rootfs-c', new Map());
    expect(check).toEqual({ key: 'rootfs-c', status: 'changed', changed: ['changed usr/bin/gcc'] });
  });

  it('says missing for an image that is not there', async () => {
    expect((await checkImage(paths, 'nothing')).status).toBe('missing');
  });
});

describe('a changed image', () => {
  it('is refused by instance creation before anything is made', async () => {
    const tree = await image('rootfs-d', { 'usr/bin/gcc': 'compiler' });
    await checkImage(paths, 'rootfs-d', new Map());
    await writeFile(join(tree, 'usr/bin/gcc'), 'attacker');
    await expect(assertImagesIntact(paths, ['rootfs-d'], new Map())).rejects.toThrow(
      /rootfs-d changed since it was made/,
    );
    await expect(
      createInstance(paths, { mode: 'emulated', lowerKeys: ['rootfs-d'], keep: false }),
    ).rejects.toThrow(/changed since it was made/);
    expect(existsSync(paths.instances)).toBe(false);
  });

  it('is removed with the images made from it and the stack layers, and the others stay', async () => {
    const rootfs = await image('rootfs-e', { 'usr/bin/sh': 'shell' });
    await image('tools-e', { 'usr/bin/gcc': 'compiler' });
    await image('accel-e', {}, { derivedFrom: ['rootfs-e', 'tools-e'] });
    await image('apt-0123abcd', {});
    const run = new Map<string, string>();
    for (const key of ['rootfs-e', 'tools-e', 'accel-e']) await checkImage(paths, key, run);
    await writeFile(join(rootfs, 'usr/bin/sh'), 'attacker');
    const notes = await removeChangedImages(paths, ['rootfs-e', 'tools-e', 'accel-e'], new Map());
    expect(notes.join('\n')).toMatch(
      /rootfs-e changed since it was made \(changed usr\/bin\/sh\): rebuilding it/,
    );
    expect(notes.join('\n')).toMatch(/accel-e is made from a changed image/);
    expect(existsSync(paths.image('rootfs-e'))).toBe(false);
    expect(existsSync(paths.image('accel-e'))).toBe(false);
    expect(existsSync(paths.image('apt-0123abcd'))).toBe(false);
    expect(existsSync(paths.image('tools-e'))).toBe(true);
    expect(await removeChangedImages(paths, ['tools-e'], new Map())).toEqual([]);
  });
});
