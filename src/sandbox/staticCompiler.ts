import { existsSync } from 'node:fs';
import { join } from 'node:path';

const STATIC_LIBC = ['/usr/lib/x86_64-linux-gnu/libc.a', '/usr/lib64/libc.a', '/usr/lib/libc.a'];

/** What to install where the host cannot compile rvport's static programs. */
export const STATIC_COMPILER_HINT = 'install musl-tools (or gcc and libc6-dev) on the host';

/**
 * The compiler of rvport's own static x86_64 programs (the sandbox's entry program, the
 * native-userland recorder): musl's (musl-tools) where the host has it, else gcc with glibc's
 * static library. A recorder's start is paid once more on every recorded call, and a static
 * glibc program starts slowly where CPUID traps to a hypervisor (glibc asks it for the CPU's
 * features on every start): measured in a sandbox of this 2-core VM, 500 calls of `cat` cost
 * 2.2 s through a four-line static glibc wrapper, 1.5 s through the same wrapper built with musl,
 * and 1.5 s with no wrapper (BENCHMARKS.md).
 */
export function staticCompiler(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const onPath = (name: string) =>
    (env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, name)));
  if (onPath('musl-gcc')) return 'musl-gcc';
  return onPath('gcc') && STATIC_LIBC.some((file) => existsSync(file)) ? 'gcc' : undefined;
}
