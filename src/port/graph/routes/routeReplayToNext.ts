import { END } from '../../../engine/index.ts';
import type { PortState } from '../../state/PortState.ts';
import { PortNode } from '../nodeNames.ts';

/** After the replay (the port's last step): performance mode, only when asked for (--optimize). */
export function routeReplayToNext(state: PortState): string {
  return state.optimizeRequested ? PortNode.optimize : END;
}
