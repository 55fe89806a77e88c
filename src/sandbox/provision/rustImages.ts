import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { compareToolchains } from '../compareToolchains.ts';
import { readInstalledPackages } from '../dpkgStatus.ts';
import { modeRefused } from '../errors.ts';
import { rustToolsRecipe } from '../imageRecipes.ts';
import { type ImageRecord, imageTree } from '../imageStore.ts';
import { acceleratedLayerScript } from './acceleratedLayerScript.ts';
import { provisionToolsTree } from './baseImages.ts';
import { buildLayer, expectDiversion } from './buildLayer.ts';
import { compareRustToolchains, indexVersions, RUST_PAIRS, readAptIndexes } from './compareRustToolchains.ts';
import type { ProvisionContext } from './provisionContext.ts';
import { RUST_TARGET_LIBDIR, rustLayerScript } from './rustLayerScript.ts';

/**
 * The Rust tools tree (the tools plus Debian's amd64 rustc and cargo) and its layer, which also
 * diverts rustc and cargo; refused unless both toolchains match the rootfs's versions.
 */
export async function provisionRustImages(
  ctx: ProvisionContext,
): Promise<{ rustTools: ImageRecord; rust: ImageRecord }> {
  const { keys, paths, ids, access } = ctx;
  // the x86_64 rustc's sysroot is the tools tree's /usr: its riscv64 std is the rootfs's, once a
  // port has installed it (until then the link dangles and rustc says the target is missing)
  const linkRustTarget = (tree: string) =>
    access
      .treeCommand(['ln', '-sfn', `/${RUST_TARGET_LIBDIR}`, join(tree, RUST_TARGET_LIBDIR)])
      .then(() => {});
  const rustTools = await provisionToolsTree(ctx, keys.rustTools, rustToolsRecipe(ctx.suite), linkRustTarget);
  const rust = await ctx.provision({
    key: keys.rust,
    kind: 'accel',
    suite: ctx.suite,
    architecture: 'riscv64',
    tarball: false,
    build: async (tree, temp) => {
      await mkdir(tree);
      const rootfsTree = imageTree(paths, keys.rootfs);
      const toolsTree = imageTree(paths, keys.rustTools);
      const installed = await readInstalledPackages(toolsTree);
      const gcc = compareToolchains(await readInstalledPackages(rootfsTree), installed);
      const rustc = compareRustToolchains(
        indexVersions(await readAptIndexes(rootfsTree), RUST_PAIRS),
        installed,
      );
      const base = {
        derivedFrom: [keys.rootfs, keys.rustTools],
        owner: { uid: ids.uid.start, gid: ids.gid.start },
        toolchain: { check: [...gcc.details, ...rustc.details].join('; ') },
      };
      if (!gcc.match) return { ...base, refusedReason: gcc.reason };
      if (!rustc.match) return { ...base, refusedReason: rustc.reason };
      ctx.progress(`${keys.rust}: diverting the riscv64 toolchain and Rust to x86_64`);
      const script = [acceleratedLayerScript(), rustLayerScript()].join('\n');
      await buildLayer(paths, keys.rootfs, keys.rustTools, tree, temp, script, ctx.signal);
      await expectDiversion(tree, '/usr/bin/riscv64-linux-gnu-gcc-14', 'Rust');
      await expectDiversion(tree, '/usr/bin/rustc', 'Rust');
      return base;
    },
  });
  if (rust.refusedReason) throw modeRefused('accelerated', rust.refusedReason);
  return { rustTools, rust };
}
