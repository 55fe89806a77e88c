import { runProcess } from '../../process/runProcess.ts';
import { SandboxError } from '../errors.ts';

/** A host command that must succeed (its output tail goes into the error). */
export async function host(
  command: readonly string[],
  options: { signal?: AbortSignal; onStderr?: (chunk: Buffer) => void; timeoutMs?: number } = {},
): Promise<string> {
  const result = await runProcess({
    command,
    signal: options.signal,
    onStderr: options.onStderr,
    timeoutMs: options.timeoutMs ?? 60 * 60_000,
    env: { DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.aborted) throw new SandboxError('provision-failed', `${command[0]} interrupted`);
  if (result.exitCode !== 0) {
    throw new SandboxError(
      'provision-failed',
      `${command.slice(0, 3).join(' ')}… failed (exit ${result.exitCode}${result.timedOut ? ', timed out' : ''}):\n${result.stderr.slice(-3000)}`,
    );
  }
  return result.stdout;
}
