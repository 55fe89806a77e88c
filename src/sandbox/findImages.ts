import { acceleratedLayerKey, DEFAULT_SUITE, imageKey, rootfsRecipe, toolsRecipe } from './imageRecipes.ts';
import { type ImageRecord, readImageRecord } from './imageStore.ts';
import { sandboxPaths } from './sandboxPaths.ts';

/** The images that make up each mode: emulated needs the rootfs; accelerated all three. */
export interface SandboxImages {
  suite: string;
  rootfs?: ImageRecord;
  tools?: ImageRecord;
  accel?: ImageRecord;
}

/** The image keys for a suite; everything about an image is a function of its recipe. */
export function imageKeys(suite: string) {
  const rootfs = imageKey(rootfsRecipe(suite));
  const tools = imageKey(toolsRecipe(suite));
  return { rootfs, tools, accel: acceleratedLayerKey(rootfs, tools) };
}

/** The images already provisioned for a suite (nothing is built). */
export async function findImages(home?: string, suite = DEFAULT_SUITE): Promise<SandboxImages> {
  const paths = sandboxPaths(home);
  const keys = imageKeys(suite);
  return {
    suite,
    rootfs: await readImageRecord(paths, keys.rootfs),
    tools: await readImageRecord(paths, keys.tools),
    accel: await readImageRecord(paths, keys.accel),
  };
}
