import type { SandboxImages } from '../sandbox/index.ts';
import type { DoctorCheck } from './DoctorCheck.ts';

/** Which sandbox modes are ready; missing images are not a failure (the first port provisions them). */
export function evaluateImages(images: SandboxImages): DoctorCheck[] {
  const modes = [
    ['emulated', !!images.rootfs],
    ['accelerated', !!(images.rootfs && images.tools && images.accel)],
    ['native-userland', !!(images.rootfs && images.nativeTools && images.native)],
  ] as const;
  const ready = modes.filter(([, r]) => r).map(([m]) => m);
  if (ready.length === modes.length) {
    return [
      {
        id: 'images',
        status: 'ok',
        detail: `sandbox images for ${images.suite} provisioned (${ready.join(', ')})`,
      },
    ];
  }
  const missing = modes.filter(([, r]) => !r).map(([m]) => m);
  return [
    {
      id: 'images',
      status: 'info',
      detail: `sandbox images for ${images.suite} not provisioned for ${missing.join(', ')}${ready.length ? ` (ready: ${ready.join(', ')})` : ''}: the first port provisions them, ~5 minutes`,
      fix: 'rvport sandbox setup   (or let the first port do it)',
    },
  ];
}
