import { END } from '../../engine/END.ts';
import { PortNode } from '../nodeNames.ts';
import type { PortState } from '../PortState.ts';

/** Performance mode runs only when asked for (--optimize). */
export function routeFinishToNext(state: PortState): string {
  return state.optimizeRequested ? PortNode.optimize : END;
}
