import { mkdir } from 'node:fs/promises';
import { compareToolchains } from '../compareToolchains.ts';
import { readInstalledPackages } from '../dpkgStatus.ts';
import { modeRefused } from '../errors.ts';
import { type ImageRecord, imageTree } from '../imageStore.ts';
import { acceleratedLayerScript } from './acceleratedLayerScript.ts';
import { buildLayer, expectDiversion } from './buildLayer.ts';
import type { ProvisionContext } from './provisionContext.ts';

/**
 * The accelerated layer over the rootfs: the riscv64 toolchain diverted to the tools tree's x86_64
 * cross compilers, made only when the two toolchains are the same version (else the mode is refused).
 */
export async function provisionAcceleratedLayer(ctx: ProvisionContext): Promise<ImageRecord> {
  const { keys, paths, ids } = ctx;
  const accel = await ctx.provision({
    key: keys.accel,
    kind: 'accel',
    suite: ctx.suite,
    architecture: 'riscv64',
    tarball: false,
    build: async (tree, temp) => {
      await mkdir(tree);
      const comparison = compareToolchains(
        await readInstalledPackages(imageTree(paths, keys.rootfs)),
        await readInstalledPackages(imageTree(paths, keys.tools)),
      );
      const base = {
        derivedFrom: [keys.rootfs, keys.tools],
        owner: { uid: ids.uid.start, gid: ids.gid.start },
        toolchain: { check: comparison.details.join('; ') },
      };
      if (!comparison.match) return { ...base, refusedReason: comparison.reason };
      ctx.progress(`${keys.accel}: diverting the riscv64 toolchain to the x86_64 cross compilers`);
      await buildLayer(paths, keys.rootfs, keys.tools, tree, temp, acceleratedLayerScript(), ctx.signal);
      await expectDiversion(tree, '/usr/bin/riscv64-linux-gnu-gcc-14', 'accelerated');
      return base;
    },
  });
  if (accel.refusedReason) throw modeRefused('accelerated', accel.refusedReason);
  return accel;
}
