import { copyFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_RECORD, imageTarball, imageTree } from '../../src/sandbox/imageStore.ts';
import { findImages, sandboxPaths } from '../../src/sandbox/index.ts';
import { provisionImage } from '../../src/sandbox/provision/provisionImage.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from './provisionedImages.ts';

beforeAll(async () => {
  await provisionedImages();
}, PROVISION_TIMEOUT_MS);

describe('an image folder with only its record and tarball', () => {
  it('gets its tree back from the tarball instead of being provisioned again', async () => {
    const { tools } = await findImages();
    if (!tools) throw new Error('the tools image should be provisioned');
    const home = await mkdtemp(join(tmpdir(), 'rvport-restore-'));
    const paths = sandboxPaths(home);
    const source = sandboxPaths().image(tools.key);
    await mkdir(paths.image(tools.key), { recursive: true });
    await copyFile(join(source, IMAGE_RECORD), join(paths.image(tools.key), IMAGE_RECORD));
    await copyFile(imageTarball(source, 'tools'), imageTarball(paths.image(tools.key), 'tools'));
    const progress: string[] = [];
    const record = await provisionImage(
      paths,
      {
        key: tools.key,
        kind: 'tools',
        suite: tools.suite,
        architecture: tools.architecture,
        tarball: true,
        build: () => Promise.reject(new Error('must not provision again')),
      },
      (line) => progress.push(line),
    );
    expect(record.key).toBe(tools.key);
    expect(progress).toEqual([`${tools.key}: unpacking tools.tar.zst`]);
    const gcc = await stat(join(imageTree(paths, tools.key), 'usr/bin/riscv64-linux-gnu-gcc-14'));
    expect(gcc.isFile()).toBe(true);
    await rm(home, { recursive: true, force: true });
  }, 120_000);
});
