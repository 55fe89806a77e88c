import { shellQuote } from './planEdits.ts';
import type { HeuristicContext } from './RecoveryHeuristic.ts';
import { readTreeFile } from './readTreeFile.ts';

/**
 * D. J. Bernstein's build style (qmail, daemontools, fastforward and their kin): the compile
 * command is the first line of `conf-cc` and CFLAGS is never read, so a compiler flag goes
 * there. The command adds it once however often the tree is prepared.
 */
export function confCcFlag(flag: string): string {
  const sedFlag = flag.replace(/[\\/&]/g, '\\$&');
  return `grep -q -F -e ${shellQuote(` ${flag}`)} conf-cc || sed -i ${shellQuote(`1s/$/ ${sedFlag}/`)} conf-cc`;
}

/** Whether the build folder has a conf-cc. */
export async function hasConfCc(ctx: HeuristicContext): Promise<boolean> {
  return (await readTreeFile(ctx, 'conf-cc')) !== null;
}
