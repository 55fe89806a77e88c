import { join } from 'node:path';
import type { HeuristicContext } from './RecoveryHeuristic.ts';

/**
 * The build's source tree on the host (`/build/src` inside). The build wrote it: heuristics read
 * it only through the confined primitives of src/fs, with paths relative to this root.
 */
export function buildTreeRoot(ctx: Pick<HeuristicContext, 'sandbox'>): string {
  return join(ctx.sandbox.workspace, 'src');
}
