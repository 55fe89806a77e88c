import type { ValidBatchEntry } from './BatchEntry.ts';
import { type EntryResult, type EntryVerdict, failedResult } from './EntryResult.ts';
import type { RunOutcome } from './PortRunner.ts';

const PORT_VERDICTS = new Set<string>(['verified', 'not_verified', 'escalated', 'package_failed']);
/** `rvport port` exits 130 when interrupted: its checkpoint stays, the next run resumes it. */
const EXIT_INTERRUPTED = 130;

export interface FinishedPortProcess {
  exitCode: number;
  signal: string | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  timedOut: boolean;
}

/**
 * Turns what `rvport port SOURCE --json` left behind (exit code, the JSON result on stdout, the
 * end of stderr) into the entry's outcome. Pure, so every case is tested without a port.
 */
export function readPortResult(
  entry: ValidBatchEntry,
  run: FinishedPortProcess,
  worker: string,
  now: () => Date = () => new Date(),
): RunOutcome {
  const finishedAt = now().toISOString();
  if (run.timedOut) {
    return {
      kind: 'finished',
      result: failedResult(entry, 'timed_out', `stopped at the job time-out after ${seconds(run.wallMs)}`, {
        wallMs: run.wallMs,
        worker,
        finishedAt,
      }),
    };
  }
  if (run.exitCode === EXIT_INTERRUPTED) return { kind: 'interrupted', wallMs: run.wallMs };
  const json = parseJson(run.stdout);
  const verdict = typeof json?.result === 'string' ? json.result : undefined;
  if (json && verdict && PORT_VERDICTS.has(verdict)) {
    const llm = json.llm as { calls?: unknown; costUsd?: unknown } | undefined;
    const tests = json.tests as EntryResult['tests'] | undefined;
    const differential = json.differential as { ran?: unknown; riscv64Only?: unknown } | null | undefined;
    const riscv64Only =
      differential?.ran === true &&
      typeof differential.riscv64Only === 'number' &&
      differential.riscv64Only >= 0
        ? Math.floor(differential.riscv64Only)
        : undefined;
    return {
      kind: 'finished',
      result: {
        key: entry.key,
        line: entry.line,
        source: entry.source,
        name: entry.name,
        verdict: verdict as EntryVerdict,
        exitCode: run.exitCode,
        buildSystem: typeof json.buildSystem === 'string' ? json.buildSystem : null,
        errorCategory: typeof json.errorCategory === 'string' ? json.errorCategory : null,
        attempts: typeof json.attempts === 'number' ? json.attempts : 0,
        wallMs: run.wallMs,
        llm: {
          calls: typeof llm?.calls === 'number' ? llm.calls : 0,
          costUsd: typeof llm?.costUsd === 'number' ? llm.costUsd : 0,
        },
        cacheHit: json.cacheHit === true,
        tests: tests && typeof tests.ran === 'boolean' ? tests : null,
        ...(riscv64Only !== undefined ? { riscv64OnlyFailures: riscv64Only } : {}),
        message: typeof json.message === 'string' ? json.message : '',
        worker,
        finishedAt,
      },
    };
  }
  const lastLine = lastLines(run.stderr, 1);
  // Exit 1 without a result is the port refusing its input (SourceError, UsageError).
  if (run.exitCode === 1 && run.signal === null && lastLine.startsWith('rvport: ')) {
    return {
      kind: 'finished',
      result: failedResult(entry, 'invalid', lastLine.slice('rvport: '.length), {
        wallMs: run.wallMs,
        worker,
        finishedAt,
      }),
    };
  }
  const how = run.signal ? `killed by ${run.signal}` : `exit ${run.exitCode}`;
  const tail = lastLines(run.stderr, 3);
  return {
    kind: 'finished',
    result: failedResult(
      entry,
      'crashed',
      `the port ended without a result (${how})${tail ? `: ${tail}` : ''}`,
      {
        wallMs: run.wallMs,
        worker,
        finishedAt,
      },
    ),
  };
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function lastLines(text: string, count: number): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .slice(-count)
    .join(' | ');
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
