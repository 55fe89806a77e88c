import { appendFile } from 'node:fs/promises';
import { NOTHING_PROVEN_PHASE } from '../../../heuristics/index.ts';
import type { Sandbox } from '../../../sandbox/index.ts';
import type { PortServices } from '../../run/PortServices.ts';
import type { PortState } from '../../state/PortState.ts';
import { heuristicContextFor } from './repairAndRestart.ts';
import { recordFiringsInto, repairWithHeuristics } from './repairWithHeuristics.ts';

/**
 * A build that succeeded but proved no riscv64 output, given to the recovery heuristics as a
 * failure of its own (NOTHING_PROVEN_PHASE, the verification's reason as its output): one that
 * builds another way (Debian's own debian/rules) answers a new plan and patches, which the build
 * node then runs on a fresh copy of the source. Null when none applies: the port ends, not
 * verified, as before.
 */
export async function repairNothingProven(
  svc: PortServices,
  sandbox: Sandbox,
  state: PortState,
  reason: string,
  signal: AbortSignal,
): Promise<Pick<PortState, 'plan' | 'patches' | 'fixAttempts' | 'executed' | 'heuristicsUsed'> | null> {
  if (!state.plan) return null;
  const failure = { phase: NOTHING_PROVEN_PHASE, command: '', output: reason, exitCode: 0, timedOut: false };
  const used: Record<string, number> = { ...state.heuristicsUsed };
  const fixAttempts = [...state.fixAttempts];
  const executed = [...state.executed];
  const record = recordFiringsInto(fixAttempts, executed, state.attemptCount + 1);
  const current = { plan: state.plan, patches: state.patches };
  const hctx = heuristicContextFor(svc, sandbox, state, current, failure, signal);
  const firing = await repairWithHeuristics(svc.heuristics, hctx, used, record);
  if (!firing) return null;
  await appendFile(
    svc.buildLog,
    `\n### rvport: the build proved no riscv64 output (${reason}); ${firing.heuristic}: ${firing.outcome.description}; building again on a fresh copy of the source\n`,
  );
  return {
    plan: firing.outcome.plan ?? state.plan,
    patches: firing.outcome.patches ? [...state.patches, ...firing.outcome.patches] : state.patches,
    fixAttempts,
    executed,
    heuristicsUsed: used,
  };
}
