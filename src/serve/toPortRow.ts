import type { EntryResultView, PortStateView } from './portStateSchema.ts';
import type { PortRow, PortVerdict } from './ServeViews.ts';

export interface PortFacts {
  key: string;
  name: string;
  batch: string | null;
  /** state.json, checked; null when the port wrote none (yet). */
  state: PortStateView | null;
  /** The batch's result for this port, when a batch ran it. */
  result: EntryResultView | null;
  /** A batch that runs now has started this port and has no result for it yet. */
  running: boolean;
}

/**
 * One row of the ports table from what the port and its batch wrote. The batch's result wins on
 * the verdict (it also knows crashes and time-outs, which leave no state); the state tells what
 * the batch does not keep (the mode, the replay). Pure.
 */
export function toPortRow(facts: PortFacts): PortRow {
  const { state, result } = facts;
  const lastError = state?.errors.at(-1) ?? null;
  return {
    key: facts.key,
    name: facts.name,
    batch: facts.batch,
    verdict: verdictOf(facts),
    category: result?.errorCategory ?? lastError?.category ?? null,
    buildSystem:
      result?.buildSystem ?? state?.plan?.buildSystem ?? state?.packageAnalysis?.buildSystem ?? null,
    mode: state?.options?.mode ?? null,
    wallMs: result?.wallMs ?? state?.timings.total ?? null,
    tests: result?.tests ?? state?.tests ?? null,
    differential: describeDifferential(state, result),
    replay: describeReplay(state),
    finishedAt: result?.finishedAt ?? null,
  };
}

function verdictOf({ state, result, running }: PortFacts): PortVerdict {
  if (result) return result.verdict;
  if (running) return 'running';
  switch (state?.buildStatus) {
    case 'SUCCESS':
      return state.verification?.verdict === 'verified' ? 'verified' : 'not_verified';
    case 'ESCALATED':
    case 'FAILED':
      return 'escalated';
    default:
      return 'unfinished';
  }
}

function describeDifferential(state: PortStateView | null, result: EntryResultView | null): string | null {
  const d = state?.differential;
  if (d) {
    if (!d.ran) return 'not compared';
    if (d.riscv64Only > 0) return `${d.riscv64Only} fail only on riscv64`;
    if (d.x86Only > 0) return `${d.x86Only} fail only on x86_64`;
    return 'same on both';
  }
  if (result?.riscv64OnlyFailures) return `${result.riscv64OnlyFailures} fail only on riscv64`;
  return null;
}

function describeReplay(state: PortStateView | null): string | null {
  const r = state?.replay;
  if (!r) return null;
  if (r.replayed === 'skipped') return 'skipped';
  if (r.replayed === 'no') return 'differs';
  return `identical ${r.identical} of ${r.compared}`;
}
