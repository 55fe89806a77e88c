import { createHash } from 'node:crypto';
import type { Sandbox } from '../sandbox/index.ts';
import type { Workload } from './OptimizationReport.ts';

export interface WorkloadRun {
  exitCode: number;
  timedOut: boolean;
  durationMs: number;
  /** stdout and stderr of every command, in order. */
  output: string;
  /** What two builds must agree on (see `fingerprint`). */
  fingerprint: string;
}

export interface WorkloadContext {
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Output kept of a workload run: enough to compare, not a log. */
const OUTPUT_CAP = 512 * 1024;

/** Runs the workload's commands in the sandbox (never on the host), stopping at the first failure. */
export async function runWorkload(
  sandbox: Pick<Sandbox, 'run'>,
  workload: Pick<Workload, 'commands' | 'compare' | 'setup'>,
  context: WorkloadContext,
): Promise<WorkloadRun> {
  let output = '';
  let durationMs = 0;
  let exitCode = 0;
  let timedOut = false;
  for (const command of workload.setup ?? []) {
    const result = await sandbox.run(command, {
      cwd: context.cwd,
      env: context.env,
      timeoutMs: context.timeoutMs,
      outputCapBytes: OUTPUT_CAP,
      ...(context.signal ? { signal: context.signal } : {}),
    });
    if (result.aborted) throw context.signal?.reason ?? new Error('interrupted');
    if (result.exitCode !== 0 || result.timedOut) {
      // the setup's output says why; it is not the workload's output
      const why = `setup \`${command}\` failed (exit ${result.exitCode})\n${result.stdout}\n${result.stderr}`;
      return {
        exitCode: result.exitCode || 1,
        timedOut: result.timedOut,
        durationMs: 0,
        output: why,
        fingerprint: `setup failed (exit ${result.exitCode})`,
      };
    }
  }
  for (const command of workload.commands) {
    const result = await sandbox.run(command, {
      cwd: context.cwd,
      env: context.env,
      timeoutMs: context.timeoutMs,
      outputCapBytes: OUTPUT_CAP,
      ...(context.signal ? { signal: context.signal } : {}),
    });
    durationMs += result.durationMs;
    output += `${result.stdout}\n${result.stderr}\n`;
    if (result.aborted) throw context.signal?.reason ?? new Error('interrupted');
    if (result.exitCode !== 0 || result.timedOut) {
      exitCode = result.exitCode;
      timedOut = result.timedOut;
      break;
    }
  }
  return {
    exitCode,
    timedOut,
    durationMs,
    output,
    fingerprint: fingerprint(output, exitCode, workload.compare),
  };
}

/** Lines of a test run that say how a test ended (automake, TAP, CTest, meson, Go, cargo, pytest). */
const RESULT_LINE =
  /^(PASS|FAIL|XFAIL|XPASS|SKIP|ERROR)\b|^(ok|not ok)\b|^# (TOTAL|PASS|FAIL|SKIP|XFAIL|XPASS|ERROR):|^\s*\d+\/\d+ Test\s+#|tests? (passed|failed)|^test result:|^--- (PASS|FAIL)|\b(passed|failed)\b.*\bin\b/i;
const DURATION = /\d+(\.\d+)?\s*(sec|seconds|s|ms)\b/g;
const NUMBER = /\d+(\.\d+)?(e[+-]?\d+)?/gi;

/**
 * What a tune's workload run must share with the baseline's: the exit status and the output
 * (`exact`), the output with every number masked (benchmarks print their timings), or the lines
 * that report test results with their durations masked (a test run also prints compiler lines,
 * which carry the tune's flags).
 */
export function fingerprint(output: string, exitCode: number, compare: Workload['compare']): string {
  let text = output;
  if (compare === 'numbers-masked') text = output.replace(NUMBER, '#');
  if (compare === 'test-results') {
    text = output
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => RESULT_LINE.test(l))
      .map((l) => l.replace(DURATION, '#s'))
      .sort()
      .join('\n');
    // a test run that prints no result line is compared by its exit status, and says so
    if (!text) return `exit ${exitCode}; no test result lines (exit status only)`;
  }
  return `exit ${exitCode}; sha256 ${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
}
