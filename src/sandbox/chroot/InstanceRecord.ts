import type { SandboxLimitOverrides } from '../limits/SandboxLimits.ts';
import type { SandboxMode } from '../Sandbox.ts';

/** `instance.json`: what an instance is made of and who owns it. */
export interface InstanceRecord {
  id: string;
  mode: SandboxMode;
  /** Image keys of the read-only layers, topmost first. */
  lowerKeys: string[];
  /** The tools tree mounted at /native (accelerated and native-userland modes). */
  toolsKey?: string;
  /**
   * The images' emulator (emulator/ensureEmulator.ts) the instance's own binfmt_misc registers;
   * absent: riscv64 programs run under the host's registration.
   */
  emulatorKey?: string;
  /** Added to every command's environment before the caller's (a proof run's SOURCE_DATE_EPOCH). */
  env?: Record<string, string>;
  /** The Debian archive the rootfs came from: package downloads for the instance come only from it. */
  mirror?: string;
  /** Limits other than the defaults (tests use small ones). */
  limits?: SandboxLimitOverrides;
  /** The rvport process that created it; when it is gone, the instance is stale unless kept. */
  ownerPid: number;
  /** Kept instances survive their owner (`--keep-sandbox`) until destroyed. */
  keep: boolean;
  createdAt: string;
  snapshots: Array<{ id: string; createdAt: string }>;
}

export const INSTANCE_RECORD = 'instance.json';
/**
 * The images' emulator in the instance's folder (a hard link, else a copy): the view of that folder
 * reaches it, since a shell has no descriptor for a view of its own past the six there are.
 */
export const INSTANCE_EMULATOR = 'emulator/qemu-riscv64';
