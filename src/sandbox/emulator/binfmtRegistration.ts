import { release } from 'node:os';

/**
 * The sandbox's own riscv64 emulator, registered in each instance's own binfmt_misc.
 *
 * Since Linux 6.7 binfmt_misc can be mounted inside a user namespace: the instance then has an
 * instance of it of its own, and a riscv64 program started inside runs under the interpreter
 * registered there, not under the host's. So the emulator is the one that came with the images
 * (Debian's qemu-user of the rootfs's release), whatever qemu the host has installed; qemu-user
 * 7.2, Debian 12's, refuses `clone(CLONE_PIDFD)`, which every Qt program that starts a process
 * does (QProcess), so lrelease, lupdate and Qt's test runners fail under it.
 */

/** The entry's name: not Debian's `qemu-riscv64`, so it never reads as the host's. */
export const BINFMT_ENTRY = 'rvport-riscv64';

/** ELF, 64-bit, little-endian, version 1, any OS ABI, executable or shared object, EM_RISCV. */
const MAGIC = '7f454c460201010000000000000000000200f300';
const MASK = 'ffffffffffffff00fffffffffffffffffeffffff';

/**
 * What is written to `register`. Flags: F (the kernel opens the interpreter now, so it need not
 * exist inside the instance's root) and P (argv[0] is kept, as Debian registers qemu-user).
 */
export function registrationLine(interpreter: string): string {
  if (!interpreter.startsWith('/') || /[:\s\\]/.test(interpreter))
    throw new Error(`not a usable interpreter path: ${interpreter}`);
  return `:${BINFMT_ENTRY}:M::${hexEscapes(MAGIC)}:${hexEscapes(MASK)}:${interpreter}:FP`;
}

/** `\xNN` for every byte: binfmt_misc decodes these escapes itself. */
function hexEscapes(hex: string): string {
  return hex.replace(/(..)/g, '\\x$1');
}

/** Whether the running kernel mounts binfmt_misc per user namespace (Linux 6.7 and later). */
export function kernelNamespacesBinfmt(kernelRelease = release()): boolean {
  const match = /^(\d+)\.(\d+)/.exec(kernelRelease);
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 6 || (major === 6 && minor >= 7);
}

/**
 * The CPU model the emulator runs: the base riscv64 model, RV64GC as Debian's riscv64 baseline
 * assumes. qemu-user 10's default (`max`) adds the vector extension, which makes glibc choose
 * vector string functions that run at half speed under emulation, and which a Debian riscv64
 * machine need not have. Passed as QEMU_CPU in every command's environment.
 */
export const EMULATOR_CPU = 'rv64';
