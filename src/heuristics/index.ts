import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/**
 * Every recovery heuristic, in the order they are offered a failure (the first match wins).
 * Adding one is one file and one line here.
 */
export const recoveryHeuristics: readonly RecoveryHeuristic[] = [];
