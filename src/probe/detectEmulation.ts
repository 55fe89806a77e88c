import type { Cpuinfo } from './parseCpuinfo.ts';
import type { HelperFacts } from './parseHelperOutput.ts';

export interface EmulationFacts {
  is: boolean;
  by: 'qemu-user' | null;
  /** QEMU_CPU when set, else qemu-user's default model when its version is known; null otherwise. */
  cpuModel: string | null;
  /** What qemu runs: the extensions whose instruction executed, and AT_HWCAP's letters. */
  extensions: string[] | null;
  evidence: string[];
}

export interface EmulationInputs {
  machine: string;
  kernel: string;
  cpuinfo: Cpuinfo;
  helper: HelperFacts;
  /** `readlink /proc/$$/exe` of the probe's shell, read by another process. */
  shellExe: string;
  qemuCpu: string;
  /** The host's qemu version, when the target is local and the host knows it. */
  qemuVersion?: string | null;
}

/** riscv_hwprobe is in every riscv64 kernel since 6.4. */
function kernelHasHwprobe(release: string): boolean {
  const match = /^(\d+)\.(\d+)/.exec(release);
  if (!match) return false;
  const major = Number(match[1]);
  const minor = Number(match[2]);
  return major > 6 || (major === 6 && minor >= 4);
}

/**
 * qemu-user's default riscv64 model. Checked for 7.2 only: its `-cpu help` lists `rv64` and `any`,
 * which execute the same extensions there, and `rv64` is the base model. Current qemu sources
 * default to `max`, from a release not checked here, so other versions are named as such.
 */
function defaultModel(version: string | null | undefined): string | null {
  if (!version) return null;
  return /^7\./.test(version) ? 'rv64' : `qemu-user ${version} default`;
}

const LETTER_ORDER = 'imafdqlcbkjtpvh';

/** Single letters in the ISA string's canonical order, then the multi-letter names. */
function canonicalOrder(names: string[]): string[] {
  const rank = (n: string) => (n.length === 1 ? LETTER_ORDER.indexOf(n) : LETTER_ORDER.length);
  return names.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Decides from what the target showed whether its riscv64 userland runs under an emulator. */
export function detectEmulation(input: EmulationInputs): EmulationFacts {
  const evidence: string[] = [];
  let qemuNamed = false;
  if (input.cpuinfo.foreign && input.machine === 'riscv64') {
    const what = [input.cpuinfo.foreign.vendor, input.cpuinfo.foreign.model].filter(Boolean).join(' ');
    evidence.push(
      `/proc/cpuinfo describes a non-riscv CPU${what ? ` (${what})` : ''} while uname -m says riscv64: qemu-user passes the host's file through`,
    );
  }
  if (input.cpuinfo.uarch === 'qemu') {
    qemuNamed = true;
    evidence.push("/proc/cpuinfo says uarch qemu: qemu-user's own synthesized text");
  }
  for (const [who, exe] of [
    ['the shell', input.shellExe],
    ['the compiled probe', input.helper.parentExe ?? ''],
  ] as const) {
    if (/qemu/i.test(exe)) {
      qemuNamed = true;
      evidence.push(`${who}'s /proc/PID/exe, read by another process, is ${exe}`);
    }
  }
  if (input.helper.hwprobeError?.errno === 38 && kernelHasHwprobe(input.kernel)) {
    evidence.push(
      `riscv_hwprobe is not implemented (ENOSYS) though kernel ${input.kernel} has it: a user-mode emulator answers the system calls`,
    );
  }
  if (input.qemuCpu) evidence.push(`QEMU_CPU=${input.qemuCpu} is set`);
  // a missing system call alone could be a seccomp filter, and QEMU_CPU alone a stray variable
  const is = qemuNamed || (input.cpuinfo.foreign !== null && input.machine === 'riscv64');
  const by = qemuNamed ? 'qemu-user' : null;
  const ran = Object.entries(input.helper.instructions)
    .filter(([, ok]) => ok)
    .map(([name]) => name);
  return {
    is,
    by,
    cpuModel: by ? input.qemuCpu || defaultModel(input.qemuVersion) : null,
    extensions: is ? canonicalOrder([...new Set([...(input.helper.hwcap ?? []), ...ran])]) : null,
    evidence,
  };
}
