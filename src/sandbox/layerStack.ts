import { modeRefused, SandboxError } from './errors.ts';
import type { SandboxImages } from './findImages.ts';
import { DEFAULT_SUITE } from './imageRecipes.ts';
import type { ImageRecord } from './imageStore.ts';
import type { LayerStack } from './packages/aptLayer.ts';
import type { SandboxMode } from './Sandbox.ts';

/** The image layers of one mode, before the run-time layers (apt, evidence) go on top. */
export interface ModeStack {
  stack: LayerStack;
  /** The mode's own layer over the rootfs (none in emulated mode). */
  layer?: ImageRecord;
  /** Every image the stack is made of, for adoptImages. */
  images: ImageRecord[];
}

/**
 * Which images a `mode` instance stands on: the rootfs alone (emulated), or a layer over it and the
 * x86_64 tools tree the layer runs from (accelerated, accelerated with the Rust layer,
 * native-userland). Throws a SandboxError that says which setup command provisions what is missing,
 * or why the layer was refused.
 */
export function layerStack(
  images: SandboxImages,
  mode: SandboxMode,
  options: { rust?: boolean; imagesDir?: string } = {},
): ModeStack {
  const suite = images.suite;
  const setupHint = `rvport sandbox setup --mode ${mode}${suite === DEFAULT_SUITE ? '' : ` --suite ${suite}`}`;
  const rootfs = images.rootfs;
  if (!rootfs)
    throw new SandboxError(
      'image-missing',
      `no riscv64 ${suite} image${options.imagesDir ? ` in ${options.imagesDir}` : ''}`,
      { fix: setupHint },
    );
  const mirror = rootfs.mirror ? { mirror: rootfs.mirror } : {};
  if (mode === 'emulated') return { stack: { mode, lowerKeys: [rootfs.key], ...mirror }, images: [rootfs] };
  const { layer, tools, name } =
    mode === 'native-userland'
      ? { layer: images.native, tools: images.nativeTools, name: 'native-userland' }
      : options.rust
        ? { layer: images.rust, tools: images.rustTools, name: 'accelerated Rust' }
        : { layer: images.accel, tools: images.tools, name: 'accelerated-mode' };
  if (layer?.refusedReason) throw modeRefused(mode, layer.refusedReason);
  if (!tools || !layer) {
    throw new SandboxError('image-missing', `the ${name} images for ${suite} are not provisioned`, {
      fix: setupHint,
    });
  }
  return {
    stack: { mode, lowerKeys: [layer.key, rootfs.key], toolsKey: tools.key, ...mirror },
    layer,
    images: [rootfs, layer, tools],
  };
}
