import { DEFAULT_TMPFS_LIMITS, type TmpfsLimits } from '../chroot/instanceMounts.ts';
import { DEFAULT_RESOURCE_LIMITS, type ResourceLimits } from './cgroupLimits.ts';
import { DEFAULT_DISK_LIMITS, type DiskLimits } from './watchDisk.ts';

/** Everything a sandbox command may use; each limit ends the command with its own reason. */
export interface SandboxLimits {
  resources: ResourceLimits;
  tmpfs: TmpfsLimits;
  disk: DiskLimits;
  /** Output (both streams) a command may write before it is stopped. */
  outputBytes: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  resources: DEFAULT_RESOURCE_LIMITS,
  tmpfs: DEFAULT_TMPFS_LIMITS,
  disk: DEFAULT_DISK_LIMITS,
  outputBytes: 512 * 1024 ** 2,
};

/** Limits made of the defaults and what an instance overrides. */
export interface SandboxLimitOverrides {
  resources?: Partial<ResourceLimits>;
  tmpfs?: Partial<TmpfsLimits>;
  disk?: Partial<DiskLimits>;
  outputBytes?: number;
}

export function resolveLimits(overrides: SandboxLimitOverrides = {}): SandboxLimits {
  const d = DEFAULT_SANDBOX_LIMITS;
  return {
    resources: { ...d.resources, ...overrides.resources },
    tmpfs: { ...d.tmpfs, ...overrides.tmpfs },
    disk: { ...d.disk, ...overrides.disk },
    outputBytes: overrides.outputBytes ?? d.outputBytes,
  };
}
