import { randomBytes } from 'node:crypto';
import type { Sandbox } from '../sandbox/index.ts';
import { buildProbeReport, type ProbeContext, type ProbeReport } from './buildProbeReport.ts';
import { ProbeOutputError, parseProbeSections } from './parseProbeSections.ts';
import { MARCH_CANDIDATES, PROBE_SCRIPT } from './probeScript.ts';

export interface RunProbeOptions {
  signal?: AbortSignal;
  /** Default five minutes: a dozen compiler runs under full emulation take a while. */
  timeoutMs?: number;
  marchCandidates?: readonly string[];
}

/**
 * Runs the probe script inside `target` (anything with the sandbox's `run`: a local instance, or a
 * remote machine later) and parses its output on the host.
 */
export async function runProbe(
  target: Pick<Sandbox, 'run'>,
  context: ProbeContext,
  options: RunProbeOptions = {},
): Promise<ProbeReport> {
  const nonce = randomBytes(12).toString('hex');
  const result = await target.run(
    ['/bin/sh', '-c', PROBE_SCRIPT, 'rvport-probe', ...(options.marchCandidates ?? MARCH_CANDIDATES)],
    {
      input: `${nonce}\n`,
      cwd: '/',
      timeoutMs: options.timeoutMs ?? 5 * 60_000,
      outputCapBytes: 1024 * 1024,
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  if (result.aborted) throw new ProbeOutputError('the probe was interrupted');
  if (result.timedOut) throw new ProbeOutputError('the probe timed out and was killed');
  // only the tail is kept past the cap: the first sections would be missing, not empty
  if (result.truncated)
    throw new ProbeOutputError('the probe printed more than 1 MiB (a target that floods its output)');
  if (result.exitCode !== 0) {
    const tail = result.stderr.trim().split('\n').slice(-3).join('\n');
    throw new ProbeOutputError(`the probe exited with status ${result.exitCode}${tail ? `: ${tail}` : ''}`);
  }
  return buildProbeReport(parseProbeSections(result.stdout, nonce), context);
}
