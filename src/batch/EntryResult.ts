/**
 * How a batch entry ended. The first five are the port's own results (`rvport port --json`);
 * `invalid` is an entry refused before anything ran, `crashed` a port that ended without a
 * result (killed, or a worker that kept dying), `timed_out` a port stopped at the job time-out.
 */
export type EntryVerdict =
  | 'verified'
  | 'not_verified'
  | 'escalated'
  | 'package_failed'
  | 'invalid'
  | 'crashed'
  | 'timed_out';

/** One finished entry: a line of `results.jsonl`. */
export interface EntryResult {
  key: string;
  line: number;
  source: string;
  name: string | null;
  verdict: EntryVerdict;
  /** The port's exit code; null when no port ran to an end. */
  exitCode: number | null;
  buildSystem: string | null;
  /** Category of the last error the port recorded (it may have been repaired). */
  errorCategory: string | null;
  /** The port's attempt count (recorded errors). */
  attempts: number;
  /** Wall time of the port run that finished the entry. */
  wallMs: number;
  llm: { calls: number; costUsd: number };
  cacheHit: boolean;
  tests: { ran: boolean; passed: number; failed: number } | null;
  /** Tests or smoke runs that fail only on riscv64 (differential tests); absent: not compared. */
  riscv64OnlyFailures?: number;
  message: string;
  /** Who ran it: `local`, or the queue worker's id (host:pid). */
  worker: string;
  finishedAt: string;
}

/** Only a proven riscv64 port counts as done; everything else is a failed entry. */
export function isSuccessful(result: EntryResult): boolean {
  return result.verdict === 'verified';
}

/** A result for an entry that never reached a port (bad SOURCE, crash, lost job). */
export function failedResult(
  entry: { key: string; line: number; source: string; name: string | null },
  verdict: Extract<EntryVerdict, 'invalid' | 'crashed' | 'timed_out'>,
  message: string,
  extra: { wallMs?: number; worker?: string; finishedAt?: string } = {},
): EntryResult {
  return {
    key: entry.key,
    line: entry.line,
    source: entry.source,
    name: entry.name,
    verdict,
    exitCode: null,
    buildSystem: null,
    errorCategory: null,
    attempts: 0,
    wallMs: extra.wallMs ?? 0,
    llm: { calls: 0, costUsd: 0 },
    cacheHit: false,
    tests: null,
    message,
    worker: extra.worker ?? 'local',
    finishedAt: extra.finishedAt ?? new Date().toISOString(),
  };
}
