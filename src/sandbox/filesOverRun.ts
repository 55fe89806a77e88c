import type { SandboxRunOptions, SandboxRunResult } from './Sandbox.ts';

/** A sandbox's own `run`, through which its files are read and written inside. */
type Run = (command: readonly string[], options?: SandboxRunOptions) => Promise<SandboxRunResult>;

/**
 * Reads a file inside a sandbox with `cat` there, so that its links resolve in the sandbox's
 * view, never the host's. The result's exit code says whether it worked; `data` is what was read.
 */
export async function readFileOverRun(
  run: Run,
  path: string,
): Promise<{ result: SandboxRunResult; data: Buffer }> {
  const chunks: Buffer[] = [];
  const result = await run(['cat', '--', path], {
    onStdout: (c) => chunks.push(c),
    outputCapBytes: 4096,
  });
  return { result, data: Buffer.concat(chunks) };
}

/** Writes a file inside a sandbox (its folders made, its mode set) with a shell there. */
export function writeFileOverRun(
  run: Run,
  path: string,
  data: string | Buffer,
  mode?: number,
): Promise<SandboxRunResult> {
  const chmod = mode === undefined ? '' : ` && chmod ${mode.toString(8)} "$1"`;
  return run(['/bin/sh', '-c', `mkdir -p "$(dirname "$1")" && cat > "$1"${chmod}`, 'sh', path], {
    input: data,
  });
}
