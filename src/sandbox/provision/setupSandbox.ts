import { mkdir } from 'node:fs/promises';
import type { HostCheck } from '../checkHost.ts';
import { removeChangedImages } from '../checkImages.ts';
import { SandboxError } from '../errors.ts';
import { imageKeys, modeStackKeys, type SandboxImages } from '../findImages.ts';
import { DEFAULT_SUITE, nativeToolsRecipe, toolsRecipe } from '../imageRecipes.ts';
import type { ImageRecord } from '../imageStore.ts';
import { prepareHost } from '../prepareHost.ts';
import { probeOverlay } from '../probeOverlay.ts';
import type { SandboxMode } from '../Sandbox.ts';
import { sandboxPaths } from '../sandboxPaths.ts';
import { provisionAcceleratedLayer } from './acceleratedLayer.ts';
import { provisionRootfs, provisionToolsTree } from './baseImages.ts';
import { provisionNativeUserlandLayer } from './nativeUserlandLayer.ts';
import { provisionContext } from './provisionContext.ts';
import { removeAbandonedTemps } from './provisionImage.ts';
import { provisionRustImages } from './rustImages.ts';
import { selfTestInstance } from './selfTestInstance.ts';

export interface SetupOptions {
  home?: string;
  suite?: string;
  /**
   * The mode that must work when setup returns (default native-userland): `accelerated` also
   * builds the tools tree and its layer; `native-userland` everything, since a package not proven
   * identical in it falls back to accelerated.
   */
  mode?: SandboxMode;
  /** Default: the Debian mirror of the machine's apt configuration. */
  mirror?: string;
  onProgress?: (message: string) => void;
  signal?: AbortSignal;
  /** Skip the host preparation (tests that already checked it). */
  skipHostPreparation?: boolean;
  /** Also the Rust tools tree and layer (accelerated Cargo builds); they download Rust. */
  rust?: boolean;
}

export interface SetupResult extends SandboxImages {
  rootfs: ImageRecord;
  /** What \`uname -m\` said in a fresh instance of the requested mode after setup. */
  selfTest: string;
  hostChecks: HostCheck[];
  durationMs: number;
}

/**
 * Provisions (or finds cached) the riscv64 rootfs and, for accelerated mode, the x86_64 tools tree
 * and the layer that swaps the toolchain; for native-userland mode also its tools tree and the
 * layer that swaps the userland too. A second call with everything cached only checks the host.
 * Each image is a step of its own (baseImages, acceleratedLayer, rustImages, nativeUserlandLayer);
 * this function orders them by mode and proves the result in a fresh instance.
 */
export async function setupSandbox(options: SetupOptions = {}): Promise<SetupResult> {
  const started = performance.now();
  const suite = options.suite ?? DEFAULT_SUITE;
  const mode = options.mode ?? 'native-userland';
  const paths = sandboxPaths(options.home);
  const progress = options.onProgress ?? (() => {});
  const hostChecks = options.skipHostPreparation
    ? []
    : await prepareHost({ onProgress: progress, signal: options.signal });
  await mkdir(paths.images, { recursive: true });
  await removeAbandonedTemps(paths);
  // an image that changed since it was made is built again, never trusted
  for (const message of await removeChangedImages(paths, setupImageKeys(suite, mode))) progress(message);
  const overlay = await probeOverlay(paths.instances);
  if (!overlay.ok) throw new SandboxError('host-not-ready', overlay.detail);

  const ctx = provisionContext(paths, suite, {
    progress,
    ...(options.mirror ? { mirror: options.mirror } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const done = async (images: Omit<SandboxImages, 'suite'> & { rootfs: ImageRecord }) => {
    const selfTest = await selfTestInstance(options.home, suite, mode);
    if (options.rust && mode !== 'emulated') await selfTestInstance(options.home, suite, 'accelerated', true);
    return { suite, ...images, hostChecks, selfTest, durationMs: performance.now() - started };
  };

  const rootfs = await provisionRootfs(ctx);
  if (mode === 'emulated') return done({ rootfs });
  const tools = await provisionToolsTree(ctx, ctx.keys.tools, toolsRecipe(suite));
  const accel = await provisionAcceleratedLayer(ctx);
  const rustImages = options.rust ? await provisionRustImages(ctx) : {};
  if (mode === 'accelerated') return done({ rootfs, tools, accel, ...rustImages });
  const nativeTools = await provisionToolsTree(ctx, ctx.keys.nativeTools, nativeToolsRecipe(suite));
  const native = await provisionNativeUserlandLayer(ctx);
  return done({ rootfs, tools, accel, ...rustImages, nativeTools, native });
}

/** The images setup of `mode` provisions: those of its stack and of the modes below it. */
function setupImageKeys(suite: string, mode: SandboxMode): string[] {
  const order = ['emulated', 'accelerated', 'native-userland'] as const;
  const keys = imageKeys(suite);
  return [...new Set(order.slice(0, order.indexOf(mode) + 1).flatMap((m) => modeStackKeys(keys, m)))];
}
