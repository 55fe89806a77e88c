import type { PortState } from '../state/PortState.ts';
import { replanSignatureOf } from './replanSignatures.ts';

/**
 * A failure that a new plan, not a fix, should answer: a missing dependency or tool, or one of
 * the re-plan signatures not yet used in this run.
 */
export function needsNewPlan(state: PortState): boolean {
  const last = state.errors.at(-1);
  if (!last) return false;
  if (last.category === 'DEPENDENCY' || last.category === 'MISSING_TOOLS') return true;
  const signature = replanSignatureOf(last.message);
  return signature !== null && !state.replansUsed.includes(signature);
}
