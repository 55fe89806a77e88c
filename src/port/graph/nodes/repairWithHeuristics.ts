import type { HeuristicContext, RecoveryHeuristic } from '../../../heuristics/index.ts';
import { type HeuristicFiring, runHeuristics } from '../../../heuristics/index.ts';
import type { ExecutedCommand, FixAttempt } from '../../state/PortState.ts';

/**
 * The first heuristic that repairs the failure, or null. A heuristic that matched but could not
 * act (no package provides the header) is counted in `used` and gives the next matching one its
 * turn; every firing, applied or not, is handed to `record`.
 */
export async function repairWithHeuristics(
  heuristics: readonly RecoveryHeuristic[],
  ctx: HeuristicContext,
  used: Record<string, number>,
  record: (firing: HeuristicFiring) => void,
): Promise<HeuristicFiring | null> {
  for (;;) {
    const firing = await runHeuristics(heuristics, ctx, used);
    if (!firing) return null;
    used[firing.key] = (used[firing.key] ?? 0) + 1;
    record(firing);
    if (firing.outcome.applied) return firing;
  }
}

/** What a firing leaves in the state: the fix attempt, and its commands as executed repairs. */
export function firingRecords(
  firing: HeuristicFiring,
  attempt: number,
): { fixAttempt: FixAttempt; executed: ExecutedCommand[] } {
  const { applied, description, commands } = firing.outcome;
  return {
    fixAttempt: {
      at: new Date().toISOString(),
      attempt,
      source: 'heuristic',
      name: firing.heuristic,
      description,
      commands,
      outcome: applied ? 'applied' : 'failed',
    },
    executed: commands.map((command) => ({
      phase: 'repair',
      command,
      exitCode: applied ? 0 : 1,
      durationMs: 0,
      attempt,
      origin: 'heuristic',
    })),
  };
}

/** A recorder for repairWithHeuristics that appends each firing's records to these lists. */
export function recordFiringsInto(
  fixAttempts: FixAttempt[],
  executed: ExecutedCommand[],
  attempt: number,
): (firing: HeuristicFiring) => void {
  return (firing) => {
    const records = firingRecords(firing, attempt);
    fixAttempts.push(records.fixAttempt);
    executed.push(...records.executed);
  };
}
