import type { HeuristicContext, HeuristicOutcome, RecoveryHeuristic } from './RecoveryHeuristic.ts';

export interface HeuristicFiring {
  heuristic: string;
  /** `<heuristic>:<key>`, the unit of the once-per-key limit. */
  key: string;
  reason: string;
  outcome: HeuristicOutcome;
}

/**
 * Offers a failure to the heuristics in registry order and applies the first one that matches
 * with a key it has not used yet in this port. Returns null when none applies.
 */
export async function runHeuristics(
  heuristics: readonly RecoveryHeuristic[],
  ctx: HeuristicContext,
  used: Readonly<Record<string, number>>,
): Promise<HeuristicFiring | null> {
  for (const heuristic of heuristics) {
    const match = await heuristic.match(ctx);
    if (!match) continue;
    const key = `${heuristic.name}:${match.key}`;
    if ((used[key] ?? 0) > 0) continue;
    ctx.log(`heuristic ${heuristic.name}: ${match.reason}`);
    let outcome: HeuristicOutcome;
    try {
      outcome = await heuristic.apply(ctx, match);
    } catch (error) {
      outcome = {
        applied: false,
        description: `${heuristic.name} failed: ${(error as Error).message}`,
        commands: [],
      };
    }
    return { heuristic: heuristic.name, key, reason: match.reason, outcome };
  }
  return null;
}
