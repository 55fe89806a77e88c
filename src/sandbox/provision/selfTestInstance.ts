import { createSandbox } from '../createSandbox.ts';
import { SandboxError } from '../errors.ts';
import type { SandboxMode } from '../Sandbox.ts';

/** Setup only succeeds if a fresh instance really runs riscv64 code (and, accelerated, the cross gcc). */
export async function selfTestInstance(
  home: string | undefined,
  suite: string,
  mode: SandboxMode,
  rust = false,
): Promise<string> {
  const box = await createSandbox({ home, suite, mode, rust });
  try {
    const probe = {
      emulated: 'uname -m',
      // the Rust layer's gcc is the same; its cargo must be the x86_64 one
      accelerated: `uname -m && gcc -dumpmachine && readlink -f /usr/bin/gcc${rust ? ' && readlink -f /usr/bin/cargo' : ''}`,
      'native-userland':
        'uname -m && gcc -dumpmachine && readlink -f /usr/bin/gcc && readlink -f /usr/bin/sed && sh /usr/share/misc/config.guess',
    }[mode];
    const result = await box.run(['/bin/sh', '-c', probe], { timeoutMs: 60_000 });
    const lines = result.stdout.trim().split('\n');
    const ok =
      result.exitCode === 0 &&
      lines[0] === 'riscv64' &&
      (mode === 'emulated' || (lines[1] === 'riscv64-linux-gnu' && lines[2]?.startsWith('/native/'))) &&
      (!rust || lines[3] === '/native/usr/bin/cargo') &&
      (mode !== 'native-userland' ||
        (lines[3]?.startsWith('/native/') && lines[4] === 'riscv64-unknown-linux-gnu'));
    if (!ok) {
      throw new SandboxError(
        'provision-failed',
        `a fresh ${mode} instance does not work: ${result.stdout.trim()} ${result.stderr.trim()}`.trim(),
      );
    }
    return result.stdout.trim();
  } finally {
    await box.destroy();
  }
}
