import { adoptImages } from './adoptImages.ts';
import type { ChrootSandbox } from './chroot/ChrootSandbox.ts';
import { cleanupStale, createInstance, openInstance } from './chroot/instanceStore.ts';
import { ensureEmulator } from './emulator/ensureEmulator.ts';
import { SandboxError } from './errors.ts';
import { findImages } from './findImages.ts';
import { DEFAULT_SUITE } from './imageRecipes.ts';
import { layerStack } from './layerStack.ts';
import { limitsFromEnvironment, type SandboxLimitOverrides } from './limits/SandboxLimits.ts';
import { ensureAptLayer } from './packages/aptLayer.ts';
import { ensureEvidenceLayer } from './proof/evidenceLayer.ts';
import type { SandboxMode } from './Sandbox.ts';
import { type SandboxPaths, sandboxPaths } from './sandboxPaths.ts';
import { type CreateSshSandboxOptions, createSshSandbox } from './ssh/createSshSandbox.ts';
import type { SshSandbox } from './ssh/SshSandbox.ts';
import { readSubordinateIds } from './userns/subordinateIds.ts';

export interface CreateSandboxOptions {
  /** RVPORT_HOME; default from the environment. */
  home?: string;
  /**
   * Default `accelerated` (native-userland only where proven identical: see
   * port/run/chooseSandboxMode.ts).
   */
  mode?: SandboxMode;
  suite?: string;
  /** Survive this process (`--keep-sandbox`); otherwise the next start removes it once we are gone. */
  keep?: boolean;
  /** Added to every command's environment (a proof run pins SOURCE_DATE_EPOCH with it). */
  env?: Record<string, string>;
  /** Limits other than the defaults. */
  limits?: SandboxLimitOverrides;
  /** Accelerated mode with the x86_64 cargo and rustc (the Rust layer), for a Cargo build. */
  rust?: boolean;
  /**
   * Native-userland mode only: stack the evidence layer (proof/evidenceLayer.ts) above the native
   * one, so every swapped program's invocation is recorded and checked against its riscv64 original.
   */
  evidence?: { samplePerMille?: number };
}

/** A sandbox on a remote riscv64 machine instead of a local instance (see ssh/createSshSandbox.ts). */
export interface CreateTargetSandboxOptions extends Omit<CreateSshSandboxOptions, 'home'> {
  home?: string;
}

/**
 * A fresh throwaway instance over the cached image (`rvport sandbox setup` provisions it), or,
 * given a `target`, a fresh workspace on that SSH target: the one place sandboxes are made.
 * Cleans up what killed local runs left behind first.
 */
export function createSandbox(options: CreateTargetSandboxOptions): Promise<SshSandbox>;
export function createSandbox(options?: CreateSandboxOptions): Promise<ChrootSandbox>;
export function createSandbox(
  options: CreateSandboxOptions | CreateTargetSandboxOptions = {},
): Promise<ChrootSandbox | SshSandbox> {
  if ('target' in options) return createSshSandbox(options);
  return createLocalSandbox(options);
}

async function createLocalSandbox(options: CreateSandboxOptions): Promise<ChrootSandbox> {
  const mode = options.mode ?? 'accelerated';
  const suite = options.suite ?? DEFAULT_SUITE;
  const paths = sandboxPaths(options.home);
  await cleanupStale(paths);
  const images = await findImages(options.home, suite);
  const {
    stack,
    layer,
    images: used,
  } = layerStack(images, mode, {
    ...(options.rust ? { rust: true } : {}),
    imagesDir: paths.images,
  });
  const ids = readSubordinateIds();
  let limits: SandboxLimitOverrides;
  try {
    limits = options.limits ?? limitsFromEnvironment();
  } catch (error) {
    throw new SandboxError('sandbox-failed', (error as Error).message);
  }
  await adoptImages(paths, used, ids);
  const emulatorKey = await imagesEmulator(paths, stack, images.tools?.key);
  const stackWithEmulator = emulatorKey ? { ...stack, emulatorKey } : stack;
  const apt = await ensureAptLayer(paths, stackWithEmulator, ids);
  const evidence =
    mode === 'native-userland' && options.evidence && layer
      ? await ensureEvidenceLayer(paths, layer, ids, {
          ...(options.evidence.samplePerMille !== undefined
            ? { samplePerMille: options.evidence.samplePerMille }
            : {}),
          // qemu-user 10 hands its guest the environment in order; the host's 7.2 reverses it
          twinEnvironment: emulatorKey ? 'same' : 'reversed',
        })
      : undefined;
  return createInstance(paths, {
    ...stackWithEmulator,
    lowerKeys: [apt.key, ...(evidence ? [evidence.key] : []), ...stack.lowerKeys],
    ...(options.env ? { env: options.env } : {}),
    ...(Object.keys(limits).length > 0 ? { limits } : {}),
    keep: options.keep ?? false,
  });
}

/**
 * The key of the emulator the instance's own binfmt_misc registers (emulator/ensureEmulator.ts):
 * the one of the mode's tools tree, or in emulated mode of the accelerated one. Undefined when
 * there is none to be had: the instance then runs its riscv64 programs under the host's qemu.
 */
async function imagesEmulator(
  paths: SandboxPaths,
  stack: { toolsKey?: string; mirror?: string },
  acceleratedToolsKey: string | undefined,
): Promise<string | undefined> {
  const toolsKey = stack.toolsKey ?? acceleratedToolsKey;
  const emulator = await ensureEmulator(paths, {
    ...(toolsKey ? { toolsKey } : {}),
    ...(stack.mirror ? { mirror: stack.mirror } : {}),
  }).catch((error: Error) => ({ refused: error.message }));
  return 'key' in emulator ? emulator.key : undefined;
}

/** An existing (kept) instance by id. */
export async function openSandbox(id: string, options: { home?: string } = {}): Promise<ChrootSandbox> {
  return openInstance(sandboxPaths(options.home), id);
}
