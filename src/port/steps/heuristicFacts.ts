import type { HeuristicContext } from '../../heuristics/index.ts';
import { scriptedOf } from '../graph/nodes/scriptedAnalysis.ts';
import type { PortState } from '../state/PortState.ts';

/** What the heuristics know of the port, as values: the source, its patches, the packaging, the analysis. */
export function heuristicFacts(
  state: PortState,
  patches: PortState['patches'],
): Pick<HeuristicContext, 'source' | 'patches' | 'debianPackaging' | 'analysis'> {
  const packaging = state.debian?.packagingDir;
  return {
    source: state.source,
    patches,
    ...(packaging ? { debianPackaging: packaging } : {}),
    analysis: scriptedOf(state),
  };
}
