import type { ProbeReport } from '../probe/buildProbeReport.ts';
import { runProbe } from '../probe/runProbe.ts';
import type { Sandbox } from '../sandbox/index.ts';
import { isaExtensions } from '../verify/index.ts';
import type { TargetFacts } from './OptimizationReport.ts';

const BASE_EXTENSIONS = new Set(isaExtensions('rv64gc'));

/**
 * Probes the machine the tunes are for (any sandbox: a local instance or a remote riscv64 machine)
 * and keeps what performance mode needs: emulated or not, the ISA, and the `-march` to try.
 */
export async function probeTarget(
  target: Pick<Sandbox, 'run' | 'mode'>,
  options: { qemuVersion?: string | null; signal?: AbortSignal } = {},
): Promise<TargetFacts> {
  const report = await runProbe(
    target,
    { target: 'local-sandbox', mode: target.mode, qemuVersion: options.qemuVersion ?? null },
    options.signal ? { signal: options.signal } : {},
  );
  return targetFacts(report);
}

/** The facts of a probe report that decide the tunes; pure. */
export function targetFacts(report: ProbeReport): TargetFacts {
  const extensions = report.isa?.extensions ?? report.emulated.extensions ?? [];
  const executes = new Set(extensions.flatMap((e) => (e === 'g' ? [...BASE_EXTENSIONS] : [e])));
  const gcc = report.compilers.find((c) => c.name === 'gcc') ?? null;
  const clang = report.compilers.find((c) => c.name === 'clang') ?? null;
  const notes: string[] = [];
  let march: string | null = null;
  let marchExtensions: string[] = [];
  for (const candidate of gcc?.march.accepted ?? []) {
    // profile names (rva22u64) imply extensions a probe cannot list one by one
    if (!candidate.startsWith('rv64')) continue;
    const extra = isaExtensions(candidate).filter((e) => !BASE_EXTENSIONS.has(e));
    if (extra.some((e) => !executes.has(e))) continue;
    if (extra.length > marchExtensions.length) {
      march = candidate;
      marchExtensions = extra;
    }
  }
  if (!gcc) notes.push('the probe found no gcc: no -march tune');
  else if (!march) notes.push(`${gcc.version}: no -march beyond rv64gc that the target executes`);
  const rejected = gcc?.march.rejected.map((r) => r.march) ?? [];
  if (rejected.length) notes.push(`gcc rejects -march=${rejected.join(', ')}`);
  return {
    emulated: report.emulated.is,
    emulationEvidence: report.emulated.evidence,
    isa: report.isa?.string ?? null,
    extensions,
    compiler: gcc ? gcc.version : null,
    march,
    marchExtensions,
    clang: clang ? clang.version : null,
    notes,
  };
}
