import { release } from 'node:os';
import { type DoctorCheck, failed, passed } from './DoctorCheck.ts';

/** Sandboxes mount overlayfs inside a user namespace, which Linux allows from 5.11 on. */
export const MIN_KERNEL: readonly [number, number] = [5, 11];

export interface KernelFacts {
  platform: string;
  /** `uname -r`, e.g. `6.1.0-18-amd64`. */
  release: string;
}

export function evaluateKernel(facts: KernelFacts): DoctorCheck[] {
  const id = 'kernel';
  const wanted = `${MIN_KERNEL[0]}.${MIN_KERNEL[1]}`;
  if (facts.platform !== 'linux') {
    return [failed(id, `rvport needs Linux, this is ${facts.platform}`, 'run rvport on a Linux machine')];
  }
  const m = /^(\d+)\.(\d+)/.exec(facts.release);
  if (!m) return [failed(id, `cannot read the Linux version "${facts.release}"`, undefined)];
  const major = Number(m[1]);
  const minor = Number(m[2]);
  const ok = major > MIN_KERNEL[0] || (major === MIN_KERNEL[0] && minor >= MIN_KERNEL[1]);
  return ok
    ? [passed(id, `Linux ${facts.release} (user namespaces with overlayfs need ${wanted} or later)`)]
    : [
        failed(
          id,
          `Linux ${facts.release} is too old: overlayfs in a user namespace needs ${wanted} or later`,
          `install a Linux kernel ${wanted} or later and reboot (Debian 12 ships 6.1)`,
        ),
      ];
}

export async function gatherKernelFacts(): Promise<KernelFacts> {
  return { platform: process.platform, release: release() };
}
