import type { Analysis } from '../../../analysis/index.ts';
import type { PortState } from '../../state/PortState.ts';

/** The scripted analysis init stored (findings live in `state.findings`). */
export type ScriptedAnalysis = Omit<Analysis, 'findings'>;

export function scriptedOf(state: PortState): ScriptedAnalysis | null {
  return (state.scripted as ScriptedAnalysis | undefined) ?? null;
}
