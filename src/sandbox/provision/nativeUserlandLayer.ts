import { mkdir } from 'node:fs/promises';
import { compareToolchains } from '../compareToolchains.ts';
import { readInstalledPackages } from '../dpkgStatus.ts';
import { modeRefused } from '../errors.ts';
import { type ImageRecord, imageTree } from '../imageStore.ts';
import { acceleratedLayerScript } from './acceleratedLayerScript.ts';
import { buildLayer, expectDiversion } from './buildLayer.ts';
import type { ProvisionContext } from './provisionContext.ts';
import {
  NATIVE_PERL_SCRIPT_PACKAGES,
  PERL_PACKAGES,
  planUserlandSwap,
  readPackageFiles,
  SWAPPED_PACKAGES,
  userlandSwapScript,
} from './userlandSwap.ts';

/**
 * The native-userland layer: the toolchain, and the userland programs whose x86_64 build is the
 * same package version, diverted to the native tools tree; refused unless the toolchains match.
 */
export async function provisionNativeUserlandLayer(ctx: ProvisionContext): Promise<ImageRecord> {
  const { keys, paths, ids } = ctx;
  const native = await ctx.provision({
    key: keys.native,
    kind: 'native',
    suite: ctx.suite,
    architecture: 'riscv64',
    tarball: false,
    build: async (tree, temp) => {
      await mkdir(tree);
      const rootfsTree = imageTree(paths, keys.rootfs);
      const toolsTree = imageTree(paths, keys.nativeTools);
      const comparison = compareToolchains(
        await readInstalledPackages(rootfsTree),
        await readInstalledPackages(toolsTree),
      );
      const plan = planUserlandSwap(
        await readPackageFiles(rootfsTree, [
          ...SWAPPED_PACKAGES,
          ...PERL_PACKAGES,
          ...NATIVE_PERL_SCRIPT_PACKAGES,
        ]),
        await readPackageFiles(toolsTree, [...SWAPPED_PACKAGES, ...PERL_PACKAGES]),
      );
      const base = {
        derivedFrom: [keys.rootfs, keys.nativeTools],
        owner: { uid: ids.uid.start, gid: ids.gid.start },
        toolchain: { check: comparison.details.join('; ') },
        swapped: [...plan.swaps, ...plan.perlScripts],
        keptEmulated: plan.kept,
      };
      if (!comparison.match) return { ...base, refusedReason: comparison.reason };
      ctx.progress(
        `${keys.native}: diverting the toolchain, ${plan.swaps.length} userland programs and ${plan.perlScripts.length} perl scripts to x86_64`,
      );
      const script = [acceleratedLayerScript(), userlandSwapScript(plan)].join('\n');
      await buildLayer(paths, keys.rootfs, keys.nativeTools, tree, temp, script, ctx.signal);
      await expectDiversion(tree, '/usr/bin/riscv64-linux-gnu-gcc-14', 'native-userland');
      if (plan.swaps.includes('/usr/bin/sed')) await expectDiversion(tree, '/usr/bin/sed', 'native-userland');
      return base;
    },
  });
  if (native.refusedReason) throw modeRefused('native-userland', native.refusedReason);
  return native;
}
