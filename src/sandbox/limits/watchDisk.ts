import { statfs } from 'node:fs/promises';
import { runProcess } from '../../process/runProcess.ts';

/** The disk a command may take: the host keeps a floor of free space, an instance has a ceiling. */
export interface DiskLimits {
  /**
   * The command is stopped when the filesystem holding the instance has less free than this
   * (or than 5 % of the filesystem, if that is less).
   */
  minFreeBytes: number;
  minFreeInodes: number;
  /** The instance (its upper layer and workspace) may not grow past this. */
  maxInstanceBytes: number;
  /** How often the instance's size is measured (a `du`). */
  usageCheckMs: number;
}

export const DEFAULT_DISK_LIMITS: DiskLimits = {
  minFreeBytes: 512 * 1024 ** 2,
  minFreeInodes: 20_000,
  maxInstanceBytes: 40 * 1024 ** 3,
  usageCheckMs: 30_000,
};

const FREE_CHECK_MS = 2_000;

/**
 * Watches the disk while a command runs and calls `onExceeded` once, with the reason, when a
 * limit is crossed (the caller stops the command). Free space is a cheap statfs every 2 s; the
 * instance's own size a `du` every `usageCheckMs`. Returns the function that stops watching.
 */
export function watchDisk(
  instanceDir: string,
  limits: DiskLimits,
  onExceeded: (reason: string) => void,
): () => void {
  let done = false;
  const exceeded = (reason: string) => {
    if (done) return;
    done = true;
    stop();
    onExceeded(reason);
  };
  const checkFree = async () => {
    const fs = await statfs(instanceDir).catch(() => undefined);
    if (!fs || done) return;
    const free = fs.bavail * fs.bsize;
    // on a small filesystem the floor is a small share of it, not more than it holds
    const floor = Math.min(limits.minFreeBytes, (fs.blocks * fs.bsize) / 20);
    const inodeFloor = Math.round(Math.min(limits.minFreeInodes, fs.files / 20));
    if (free < floor)
      exceeded(`the disk holding the sandbox has ${mib(free)} free, under the floor of ${mib(floor)}`);
    else if (fs.files > 0 && fs.ffree < inodeFloor)
      exceeded(`the disk holding the sandbox has ${fs.ffree} free inodes, under the floor of ${inodeFloor}`);
  };
  const checkUsage = async () => {
    const used = await instanceBytes(instanceDir);
    if (!done && used > limits.maxInstanceBytes)
      exceeded(`the sandbox instance uses ${mib(used)}, over its limit of ${mib(limits.maxInstanceBytes)}`);
  };
  const free = setInterval(() => void checkFree(), FREE_CHECK_MS);
  const usage = setInterval(() => void checkUsage(), limits.usageCheckMs);
  free.unref();
  usage.unref();
  const stop = () => {
    done = true;
    clearInterval(free);
    clearInterval(usage);
  };
  void checkFree();
  return stop;
}

/** Bytes a folder takes on its own filesystem (never crossing into mounts). */
export async function instanceBytes(dir: string): Promise<number> {
  const result = await runProcess({
    command: ['du', '-sx', '--block-size=1', '--', dir],
    timeoutMs: 60_000,
    captureBytes: 4096,
  }).catch(() => undefined);
  return Number(result?.stdout.split('\t')[0]) || 0;
}

function mib(bytes: number): string {
  return `${Math.round(bytes / 1024 ** 2)} MiB`;
}
