import { posix } from 'node:path';
import type { Sandbox } from '../../sandbox/index.ts';
import type { ArtifactRecord, PortState } from '../state/PortState.ts';
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
 * A program the tree does not hold is recorded as absent, not as a failure. A program that gives
 * no answer within the time limit is not started again with `--help` (it does not read its
 * arguments: a GUI or a daemon waits), and a copy of a program already run (the build folder's
 * and DESTDIR's, byte for byte by the SHA-256 the verify node took) takes that run's result
 * instead of running again.
 */
export async function smokeRunPrograms(
  sandbox: Sandbox,
  programs: readonly ArtifactRecord[],
  options: { signal?: AbortSignal; onCommand?(command: string): void } = {},
): Promise<PortState['smokeTests']> {
  const results: PortState['smokeTests'] = [];
  const insideOf = (program: ArtifactRecord) => {
    const { folder, rel } = artifactLocation(program.path);
    return posix.join(folder === 'dest' ? SANDBOX_DEST : SANDBOX_SRC, rel);
  };
  const runBy = new Map<string, { program: string; runs: PortState['smokeTests'] }>();
  for (const program of programs) {
    const inside = insideOf(program);
    // the digest the verify node took on the host, not one the sandbox's own sha256sum answers
    const digest = program.sha256;
    const earlier = digest ? runBy.get(digest) : undefined;
    if (earlier) {
      for (const run of earlier.runs)
        results.push({
          ...run,
          program: program.path,
          command: `${program.path}${run.command.slice(earlier.program.length)}`,
          sameAs: earlier.program,
        });
      continue;
    }
    const runs: PortState['smokeTests'] = [];
    for (const flag of ['--version', '--help']) {
      options.onCommand?.(`${program.path} ${flag}`);
      const result = await sandbox.run([inside, flag], {
        timeoutMs: SMOKE_TIMEOUT_MS,
        cwd: posix.dirname(inside),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      // absent: the sandbox cannot even enter its folder (exit 1) or find it (127)
      if (result.exitCode !== 0 && !result.timedOut && !(await present(sandbox, inside, options.signal))) {
        runs.push({
          program: program.path,
          command: `${program.path} ${flag}`,
          exitCode: 127,
          output: '',
          absent: true,
        });
        break;
      }
      const output = `${result.stdout}${result.stderr}`.trim().split('\n').slice(0, 3).join('\n');
      runs.push({
        program: program.path,
        command: `${program.path} ${flag}`,
        exitCode: result.exitCode,
        output,
        ...(result.timedOut ? { timedOut: true as const } : {}),
      });
      if (result.exitCode === 0 || result.timedOut) break;
    }
    results.push(...runs);
    if (digest) runBy.set(digest, { program: program.path, runs });
  }
  return results;
}
