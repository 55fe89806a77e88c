import { join } from 'node:path';
import { type ImageRecipe, rootfsRecipe } from '../imageRecipes.ts';
import type { ImageRecord } from '../imageStore.ts';
import { CROSS_SPECS_PATH, crossSpecs, GO_ENV_DEFAULTS } from './crossSpecs.ts';
import { installedToolchain, type ProvisionContext } from './provisionContext.ts';
import type { ProvisionStep } from './provisionImage.ts';

/** The riscv64 rootfs every mode starts from, with the mount points of the workspace and tools. */
export function provisionRootfs(ctx: ProvisionContext): Promise<ImageRecord> {
  return ctx.provision({
    key: ctx.keys.rootfs,
    kind: 'rootfs',
    suite: ctx.suite,
    architecture: 'riscv64',
    tarball: true,
    build: async (tree) => {
      const extra = await ctx.debootstrap(rootfsRecipe(ctx.suite), tree);
      // mount points for the workspace and the tools tree, so no instance has to create them
      await ctx.access.mkdir(join(tree, 'build'));
      await ctx.access.mkdir(join(tree, 'native'));
      return { ...extra, toolchain: await installedToolchain(tree) };
    },
  });
}

/**
 * An x86_64 tools tree (the cross gcc and what a layer swaps in): its recipe's riscv64 glibc
 * purged, the cross gcc's specs rewritten for the rootfs, Go's defaults set; `finish` adds more.
 */
export function provisionToolsTree(
  ctx: ProvisionContext,
  key: string,
  recipe: ImageRecipe,
  finish?: (tree: string) => Promise<void>,
): Promise<ImageRecord> {
  const step: ProvisionStep = {
    key,
    kind: 'tools',
    suite: ctx.suite,
    architecture: 'amd64',
    tarball: true,
    build: async (tree) => {
      const extra = await ctx.debootstrap(recipe, tree);
      await ctx.access.chroot(tree, ['dpkg', '--purge', '--force-depends', ...recipe.purge]);
      const specs = await ctx.access.chroot(tree, ['riscv64-linux-gnu-gcc-14', '-dumpspecs']);
      await ctx.access.writeFile(join(tree, CROSS_SPECS_PATH), crossSpecs(specs));
      await ctx.access.appendFile(join(tree, 'usr/lib/go/go.env'), GO_ENV_DEFAULTS);
      await finish?.(tree);
      return { ...extra, toolchain: await installedToolchain(tree) };
    },
  };
  return ctx.provision(step);
}
