import type { CensusResult } from './censusBuildText.ts';
import type { LoggedInvocation } from './readInvocationLog.ts';

/** What one native-userland build showed about itself (PortState, report and recipe entry). */
export interface UserlandEvidence {
  kind: 'per-build';
  /** The evidence layer (recorder and rules) the build ran with. */
  layer: string;
  samplePerMille: number;
  /** Invocations of swapped programs the recorder saw. */
  invocations: number;
  /** Invocations the rules mark machine-dependent, and how many of them ran under both programs. */
  machine: number;
  machineChecked: number;
  /** Sampled invocations run under both programs. */
  sampled: number;
  /** Double runs that were given up (stdin held open, a terminal, no riscv64 original). */
  skipped: number;
  /** Sampled invocations whose riscv64 run differed: `program args: differ:stdout`, the first few. */
  differences: string[];
  /**
   * Machine-dependent invocations whose x86_64 run differed from the riscv64 one, the first few:
   * the build got the riscv64 answer (older states lack it).
   */
  answeredByRiscv64?: string[];
  /** Machine-dependent invocations that could not be repeated (they have effects). */
  unreplayable: string[];
  /** What the census of the build's text found (censusBuildText.ts). */
  census: string[];
  /** Log lines not in the recorder's format. */
  malformed: number;
  /** Seconds the double runs and the census took (measured apart from the build). */
  evidenceSeconds?: number;
  accepted: boolean;
  /** One sentence: why accepted, or what sends the build to accelerated mode. */
  reason: string;
}

const KEPT = 10;

function describe(call: LoggedInvocation): string {
  const args = call.args.join(' ');
  return `${call.program}${args ? ` ${args.length > 120 ? `${args.slice(0, 117)}...` : args}` : ''}`;
}

/**
 * Whether a native-userland build stands on its own evidence: every machine-dependent invocation
 * was answered by the riscv64 program (the recorder runs it under qemu), every sampled one agreed
 * with it, nothing in the build's
 * text reads the compiled-in host type, and the log is whole. Anything else sends the build to
 * accelerated mode, and the reason names the first thing that did.
 */
export function judgeUserlandEvidence(
  layer: { key: string; samplePerMille: number },
  log: { invocations: LoggedInvocation[]; malformed: number; started: boolean } | undefined,
  census: CensusResult,
): UserlandEvidence {
  const calls = log?.invocations ?? [];
  const machine = calls.filter((c) => c.class === 'machine');
  const doubled = calls.filter((c) => c.outcome === 'same' || c.outcome.startsWith('differ:'));
  // a machine-dependent call was answered by the riscv64 program: its x86_64 difference is
  // what the answer was for; a sampled call was answered by the x86_64 one, which had to agree
  const differing = doubled.filter((c) => c.outcome.startsWith('differ:') && c.class !== 'machine');
  const answered = doubled.filter((c) => c.outcome.startsWith('differ:') && c.class === 'machine');
  const unreplayable = machine.filter((c) => c.outcome === 'unreplayable');
  const machineSkipped = machine.filter((c) => c.outcome.startsWith('skip:'));
  const evidence: Omit<UserlandEvidence, 'accepted' | 'reason'> = {
    kind: 'per-build',
    layer: layer.key,
    samplePerMille: layer.samplePerMille,
    invocations: calls.length,
    machine: machine.length,
    machineChecked: machine.filter((c) => c.outcome === 'same' || c.outcome.startsWith('differ:')).length,
    sampled: doubled.filter((c) => c.class === 'sample').length,
    skipped: calls.filter((c) => c.outcome.startsWith('skip:')).length,
    differences: differing.slice(0, KEPT).map((c) => `${describe(c)}: ${c.outcome}`),
    answeredByRiscv64: answered.slice(0, KEPT).map((c) => `${describe(c)}: ${c.outcome}`),
    unreplayable: unreplayable.slice(0, KEPT).map(describe),
    census: census.hits.slice(0, KEPT),
    malformed: log?.malformed ?? 0,
  };
  const first = differing[0];
  const reason =
    log === undefined || calls.length === 0
      ? 'the build left no record of its swapped programs'
      : !log.started
        ? 'the invocation log was removed or replaced during the build'
        : log.malformed > 0
          ? `${log.malformed} lines of the invocation log are not the recorder's`
          : first
            ? `${describe(first)} gave another result under the riscv64 program (${first.outcome.slice(7)})`
            : unreplayable[0]
              ? `${describe(unreplayable[0])} may depend on the machine and cannot be run twice`
              : machineSkipped[0]
                ? `${describe(machineSkipped[0])} may depend on the machine and was not checked (${machineSkipped[0].outcome.slice(5)})`
                : census.hits[0]
                  ? `the build's text ${census.hits[0].replace(/^(.*?): /, '$1 ')}`
                  : undefined;
  if (reason !== undefined) return { ...evidence, accepted: false, reason };
  return {
    ...evidence,
    accepted: true,
    reason: `${evidence.machineChecked} machine-dependent invocations of ${calls.length} were answered by the riscv64 programs${answered.length ? ` (${answered.length} of them differ on x86_64)` : ''}, all ${evidence.sampled} sampled ones agreed with them, and the build's text reads no compiled-in host type`,
  };
}
