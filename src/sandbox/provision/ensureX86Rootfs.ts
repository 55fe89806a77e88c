import { realpathSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { debianMirror } from '../../debian/debianMirror.ts';
import { adoptImages } from '../adoptImages.ts';
import { SandboxError } from '../errors.ts';
import { findImages, imageKeys } from '../findImages.ts';
import { DEFAULT_SUITE, imageKey, x86RootfsRecipe } from '../imageRecipes.ts';
import { type ImageRecord, readImageRecord } from '../imageStore.ts';
import { sandboxPaths } from '../sandboxPaths.ts';
import { readSubordinateIds } from '../userns/subordinateIds.ts';
import { host } from './hostCommand.ts';
import { lineForwarder } from './lineForwarder.ts';
import { mmdebstrapArgs } from './mmdebstrapArgs.ts';
import { provisionAccess } from './provisionAccess.ts';
import { provisionImage, removeAbandonedTemps } from './provisionImage.ts';

export interface EnsureX86RootfsOptions {
  home?: string;
  suite?: string;
  /** Default: the riscv64 rootfs's mirror, else the machine's apt configuration's. */
  mirror?: string;
  onProgress?: (message: string) => void;
  signal?: AbortSignal;
}

/**
 * The amd64 build root of differential tests, provisioned on first use (not by `rvport sandbox
 * setup`: only ports with differential tests need it). Built like the riscv64 rootfs (mmdebstrap,
 * the same recipe on amd64, tarball kept), cached under RVPORT_HOME and restored from its tarball.
 */
export async function ensureX86Rootfs(options: EnsureX86RootfsOptions = {}): Promise<ImageRecord> {
  const suite = options.suite ?? DEFAULT_SUITE;
  const paths = sandboxPaths(options.home);
  const key = imageKeys(suite).x86Rootfs;
  const ids = readSubordinateIds();
  const progress = options.onProgress ?? (() => {});
  const cached = await readImageRecord(paths, key);
  if (cached) return (await adoptImages(paths, [cached], ids, progress))[0] as ImageRecord;
  await mkdir(paths.images, { recursive: true });
  await removeAbandonedTemps(paths);
  const access = provisionAccess(ids, realpathSync(paths.images), process.getuid?.() === 0);
  const recipe = x86RootfsRecipe(suite);
  const record = await provisionImage(
    paths,
    {
      key,
      kind: 'rootfs',
      suite,
      architecture: 'amd64',
      tarball: true,
      build: async (tree) => {
        const mirror =
          options.mirror ??
          (await findImages(options.home, suite)).rootfs?.mirror ??
          debianMirror() ??
          undefined;
        if (!mirror)
          throw new SandboxError(
            'no-mirror',
            "no Debian mirror found in this machine's apt sources (/etc/apt)",
            { fix: 'rvport port … --mirror URL   (a Debian archive URL)' },
          );
        const cache = join(paths.debCache, `${suite}-amd64`);
        await mkdir(cache, { recursive: true });
        progress(`${imageKey(recipe)}: mmdebstrap ${recipe.variant} ${suite} amd64 (the x86_64 build root)`);
        await host(mmdebstrapArgs(recipe, tree, mirror, cache, access.mmdebstrapMode), {
          ...(options.signal ? { signal: options.signal } : {}),
          onStderr: lineForwarder((line) => {
            if (line.startsWith('E: ')) progress(`  ${line}`);
          }),
        });
        await access.mkdir(join(tree, 'build'));
        return { recipe, mirror, ...(access.treeOwner ? { owner: access.treeOwner } : {}) };
      },
    },
    progress,
    access,
  );
  return (await adoptImages(paths, [record], ids, progress))[0] as ImageRecord;
}
