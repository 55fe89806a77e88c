import { posix } from 'node:path';
import type { Sandbox } from '../sandbox/Sandbox.ts';
import type { ArtifactRecord, PortState } from './PortState.ts';
import { artifactLocation, SANDBOX_DEST, SANDBOX_SRC } from './planFromAnalysis.ts';

/** Programs smoke-run after the build, at most. */
export const MAX_SMOKE_PROGRAMS = 5;
export const SMOKE_TIMEOUT_MS = 20_000;

/** The programs of a port that are smoke-run: its riscv64 programs, most important first. */
export function smokePrograms(artifacts: readonly ArtifactRecord[]): ArtifactRecord[] {
  return artifacts
    .filter((a) => a.role === 'program' && a.machine === 'riscv64')
    .slice(0, MAX_SMOKE_PROGRAMS);
}

/** Whether a file is there at all: a program that cannot start and one that is absent differ. */
async function present(sandbox: Sandbox, path: string, signal?: AbortSignal): Promise<boolean> {
  const result = await sandbox.run(['test', '-f', path], {
    timeoutMs: SMOKE_TIMEOUT_MS,
    ...(signal ? { signal } : {}),
  });
  return result.exitCode === 0;
}

/**
 * Starts each program once with `--version`, and with `--help` when that fails, in `sandbox`
 * (the riscv64 instance, or the x86_64 one holding the same build's programs at the same paths).
 * A program the tree does not hold is recorded as absent, not as a failure.
 */
export async function smokeRunPrograms(
  sandbox: Sandbox,
  programs: readonly ArtifactRecord[],
  options: { signal?: AbortSignal; onCommand?(command: string): void } = {},
): Promise<PortState['smokeTests']> {
  const results: PortState['smokeTests'] = [];
  for (const program of programs) {
    const { folder, rel } = artifactLocation(program.path);
    const inside = posix.join(folder === 'dest' ? SANDBOX_DEST : SANDBOX_SRC, rel);
    for (const flag of ['--version', '--help']) {
      options.onCommand?.(`${program.path} ${flag}`);
      const result = await sandbox.run([inside, flag], {
        timeoutMs: SMOKE_TIMEOUT_MS,
        cwd: posix.dirname(inside),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      // absent: the sandbox cannot even enter its folder (exit 1) or find it (127)
      if (result.exitCode !== 0 && !(await present(sandbox, inside, options.signal))) {
        results.push({
          program: program.path,
          command: `${program.path} ${flag}`,
          exitCode: 127,
          output: '',
          absent: true,
        });
        break;
      }
      const output = `${result.stdout}${result.stderr}`.trim().split('\n').slice(0, 3).join('\n');
      results.push({
        program: program.path,
        command: `${program.path} ${flag}`,
        exitCode: result.exitCode,
        output,
      });
      if (result.exitCode === 0) break;
    }
  }
  return results;
}
