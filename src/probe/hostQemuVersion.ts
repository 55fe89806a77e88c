import { runProcess } from '../process/runProcess.ts';

/** `qemu-riscv64 version 7.2.22 (Debian …)` → `7.2.22`. */
export function parseQemuVersion(text: string): string | null {
  return /qemu-riscv64 version (\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1] ?? null;
}

/**
 * The version of the host's qemu-user that the local sandbox runs under (the target cannot see it:
 * qemu hides itself from the programs it runs). Null when it is not installed or says nothing.
 */
export async function hostQemuVersion(signal?: AbortSignal): Promise<string | null> {
  try {
    const result = await runProcess({
      command: ['qemu-riscv64-static', '--version'],
      timeoutMs: 10_000,
      ...(signal ? { signal } : {}),
    });
    return result.exitCode === 0 ? parseQemuVersion(result.stdout) : null;
  } catch {
    return null;
  }
}
