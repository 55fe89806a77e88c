import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { HeuristicContext } from './RecoveryHeuristic.ts';

/** Logs are read from their end: the failed check is the last one. */
const MAX_LOG_BYTES = 2 * 1024 * 1024;

/**
 * The tail of a file the build wrote in the source tree (config.log, CMakeError.log), or null.
 * The tree is the build's and may be hostile: the file must be a regular file inside it after
 * symbolic links are resolved, and at most its last 2 MiB are read.
 */
export async function readTreeFile(ctx: HeuristicContext, rel: string): Promise<string | null> {
  const tree = join(ctx.sandbox.workspace, 'src');
  try {
    const root = await realpath(tree);
    const real = await realpath(join(tree, ctx.plan.dir, rel));
    const inside = relative(root, real);
    if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..') return null;
    const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return null;
      const length = Math.min(stat.size, MAX_LOG_BYTES);
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, stat.size - length);
      return buffer.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

/** Where configure may have written config.log, relative to the build's folder. */
export const CONFIG_LOGS: readonly string[] = ['config.log', 'build/config.log', '_build/config.log'];

/** The tail of the config.log configure left in the tree (the first of CONFIG_LOGS there), or null. */
export async function readConfigLog(ctx: HeuristicContext): Promise<string | null> {
  for (const rel of CONFIG_LOGS) {
    const log = await readTreeFile(ctx, rel);
    if (log) return log;
  }
  return null;
}
