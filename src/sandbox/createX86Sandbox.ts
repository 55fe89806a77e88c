import type { ChrootSandbox } from './chroot/ChrootSandbox.ts';
import { cleanupStale, createInstance } from './chroot/instanceStore.ts';
import { SandboxError } from './errors.ts';
import { imageKeys } from './findImages.ts';
import { DEFAULT_SUITE } from './imageRecipes.ts';
import { readImageRecord } from './imageStore.ts';
import { limitsFromEnvironment } from './limits/SandboxLimits.ts';
import { sandboxPaths } from './sandboxPaths.ts';

/**
 * A throwaway instance over the amd64 build root (ensureX86Rootfs provisions it): the same
 * boundary as a riscv64 instance (user namespace, no network, the same limits), only its
 * programs run natively. Its mode field says `emulated` because nothing in it is swapped.
 */
export async function createX86Sandbox(
  options: { home?: string; suite?: string; env?: Record<string, string> } = {},
): Promise<ChrootSandbox> {
  const suite = options.suite ?? DEFAULT_SUITE;
  const paths = sandboxPaths(options.home);
  await cleanupStale(paths);
  const key = imageKeys(suite).x86Rootfs;
  const image = await readImageRecord(paths, key);
  if (!image) throw new SandboxError('image-missing', `no x86_64 ${suite} build root in ${paths.images}`);
  let limits: ReturnType<typeof limitsFromEnvironment>;
  try {
    limits = limitsFromEnvironment();
  } catch (error) {
    throw new SandboxError('sandbox-failed', (error as Error).message);
  }
  return createInstance(paths, {
    mode: 'emulated',
    lowerKeys: [key],
    ...(image.mirror ? { mirror: image.mirror } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(Object.keys(limits).length > 0 ? { limits } : {}),
    keep: false,
  });
}
