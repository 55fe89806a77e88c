import { shellQuote } from '../process/shellQuote.ts';
import { withCompilerFlag, withPrepareCommands } from './planEdits.ts';
import type { HeuristicContext, HeuristicOutcome } from './RecoveryHeuristic.ts';
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
async function hasConfCc(ctx: HeuristicContext): Promise<boolean> {
  return (await readTreeFile(ctx, 'conf-cc')) !== null;
}

/** The repair of a C compiler flag: in CFLAGS, and on conf-cc's compile line where there is one. */
export async function withCFlagEverywhere(ctx: HeuristicContext, flag: string): Promise<HeuristicOutcome> {
  const plan = withCompilerFlag(ctx.plan, ['CFLAGS'], flag);
  if (!(await hasConfCc(ctx)))
    return { applied: true, description: `build with CFLAGS including ${flag}`, commands: [], plan };
  const command = confCcFlag(flag);
  return {
    applied: true,
    description: `build with CFLAGS including ${flag}, and ${flag} on the compile line of conf-cc`,
    commands: [command],
    plan: withPrepareCommands(plan, [command]),
  };
}
