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

const MIB = 1024 ** 2;

/**
 * Limits a person sets for every sandbox of a run: RVPORT_SANDBOX_MEMORY_MB,
 * RVPORT_SANDBOX_PROCESSES, RVPORT_SANDBOX_OUTPUT_MB, RVPORT_SANDBOX_DISK_MB (the instance's
 * ceiling). Values that are not positive whole numbers are an error, not ignored.
 */
export function limitsFromEnvironment(env: NodeJS.ProcessEnv = process.env): SandboxLimitOverrides {
  const number = (name: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new Error(`${name} must be a positive whole number, not ${JSON.stringify(raw)}`);
    return value;
  };
  const memory = number('RVPORT_SANDBOX_MEMORY_MB');
  const processes = number('RVPORT_SANDBOX_PROCESSES');
  const output = number('RVPORT_SANDBOX_OUTPUT_MB');
  const disk = number('RVPORT_SANDBOX_DISK_MB');
  return {
    ...(memory || processes
      ? {
          resources: {
            ...(memory ? { memoryBytes: memory * MIB } : {}),
            ...(processes ? { processes } : {}),
          },
        }
      : {}),
    ...(output ? { outputBytes: output * MIB } : {}),
    ...(disk ? { disk: { maxInstanceBytes: disk * MIB } } : {}),
  };
}
