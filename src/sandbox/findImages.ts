import {
  acceleratedLayerKey,
  DEFAULT_SUITE,
  imageKey,
  nativeToolsRecipe,
  nativeUserlandLayerKey,
  rootfsRecipe,
  rustLayerKey,
  rustToolsRecipe,
  toolsRecipe,
  x86RootfsRecipe,
} from './imageRecipes.ts';
import { type ImageRecord, readImageRecord } from './imageStore.ts';
import type { SandboxMode } from './Sandbox.ts';
import { sandboxPaths } from './sandboxPaths.ts';

/**
 * The images that make up each mode: emulated needs the rootfs; accelerated the rootfs, the tools
 * tree and its layer; native-userland the rootfs, its own tools tree and its own layer. Accelerated
 * Cargo builds use the Rust tools tree and the Rust layer instead of the accelerated ones.
 */
export interface SandboxImages {
  suite: string;
  rootfs?: ImageRecord;
  tools?: ImageRecord;
  accel?: ImageRecord;
  nativeTools?: ImageRecord;
  native?: ImageRecord;
  rustTools?: ImageRecord;
  rust?: ImageRecord;
}

/** The image keys for a suite; everything about an image is a function of its recipe. */
export function imageKeys(suite: string) {
  const rootfs = imageKey(rootfsRecipe(suite));
  const tools = imageKey(toolsRecipe(suite));
  const nativeTools = imageKey(nativeToolsRecipe(suite));
  const rustTools = imageKey(rustToolsRecipe(suite));
  return {
    rootfs,
    tools,
    accel: acceleratedLayerKey(rootfs, tools),
    nativeTools,
    native: nativeUserlandLayerKey(rootfs, nativeTools),
    /** The amd64 build root of differential tests (provisioned on first use only). */
    x86Rootfs: imageKey(x86RootfsRecipe(suite)),
    rustTools,
    rust: rustLayerKey(rootfs, rustTools),
  };
}

/** The image a sandbox of `mode` is made from: what a recipe cache entry of that mode is keyed by. */
export function modeImageKey(keys: ReturnType<typeof imageKeys>, mode: SandboxMode): string {
  return { emulated: keys.rootfs, accelerated: keys.accel, 'native-userland': keys.native }[mode];
}

/** Every image a sandbox of `mode` may stack (accelerated Cargo builds use the Rust pair). */
export function modeStackKeys(keys: ReturnType<typeof imageKeys>, mode: SandboxMode): string[] {
  return {
    emulated: [keys.rootfs],
    accelerated: [keys.rootfs, keys.tools, keys.accel, keys.rustTools, keys.rust],
    'native-userland': [keys.rootfs, keys.nativeTools, keys.native],
  }[mode];
}

/** The two layers a userland proof holds for (it is void once either changes). */
export function userlandLayerKeys(keys: ReturnType<typeof imageKeys>): {
  accelerated: string;
  'native-userland': string;
} {
  return { accelerated: keys.accel, 'native-userland': keys.native };
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
    nativeTools: await readImageRecord(paths, keys.nativeTools),
    native: await readImageRecord(paths, keys.native),
    rustTools: await readImageRecord(paths, keys.rustTools),
    rust: await readImageRecord(paths, keys.rust),
  };
}
