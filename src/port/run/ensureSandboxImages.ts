import { PreflightError } from '../../doctor/PreflightError.ts';
import type { TargetMode } from '../../sandbox/index.ts';
import {
  findImages,
  imageKeys,
  modeStackKeys,
  removeChangedImages,
  type SandboxImages,
  sandboxPaths,
  setupSandbox,
} from '../../sandbox/index.ts';
import type { ProgressEvent } from './ProgressEvent.ts';

/**
 * The images a port in `mode` needs, provisioned on first use. What provisioning cannot set up
 * itself (no binfmt, no mirror, no subordinate ids) stops the port before anything else runs,
 * each failure with its fix. An SSH target needs no local image.
 */
export async function ensureSandboxImages(options: {
  home: string;
  suite: string;
  mode: TargetMode;
  mirror?: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  progress: (event: ProgressEvent) => void;
}): Promise<SandboxImages> {
  const { home, suite, mode } = options;
  // a changed image is removed here and provisioned again below, never used
  if (mode !== 'native') {
    const keys = modeStackKeys(imageKeys(suite), mode);
    for (const message of await removeChangedImages(sandboxPaths(home), keys))
      options.progress({ type: 'note', message });
  }
  const images = await findImages(home, suite);
  const ready =
    mode === 'native' ||
    {
      emulated: images.rootfs,
      accelerated: images.accel && images.tools && images.rootfs,
      'native-userland': images.native && images.nativeTools && images.rootfs,
    }[mode];
  if (ready) return images;
  // (Loaded only here: the checks bring the LLM and queue clients, which a cache hit never needs.)
  const { doctorContext, portPreflight } = await import('../../doctor/doctorChecks.ts');
  const mirror = options.mirror ? { mirror: options.mirror } : {};
  const preflight = await portPreflight(doctorContext(options.env, { home, suite, ...mirror }), {
    needsMirror:
      !images.rootfs ||
      (mode !== 'emulated' && !images.tools) ||
      (mode === 'native-userland' && !images.nativeTools),
  });
  const failures = preflight.filter((c) => c.status === 'fail');
  if (failures.length > 0) throw new PreflightError(failures);
  options.progress({
    type: 'note',
    message: `provisioning the riscv64 sandbox (${mode}, first run only; several minutes)`,
  });
  await setupSandbox({
    home,
    suite,
    mode,
    signal: options.signal,
    ...mirror,
    onProgress: (message) => options.progress({ type: 'note', message }),
  });
  return findImages(home, suite);
}
